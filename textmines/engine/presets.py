"""Board presets and the limits of a custom board."""

from __future__ import annotations

from typing import Final, Literal

from textmines.value import Value

FirstClick = Literal["opening", "safe"]
FIRST_CLICK_RULES: Final = ("opening", "safe")

MIN_SIDE: Final = 1
MAX_SIDE: Final = 1000
MIN_CELLS: Final = 2
#: The clicked cell and its eight neighbours stay mine-free under the opening rule.
OPENING_CELLS: Final = 9


class Preset(Value):
    """A named board size."""

    key: str
    name: str
    width: int
    height: int
    mines: int

    @property
    def size(self) -> tuple[int, int, int]:
        """``(width, height, mines)``."""
        return self.width, self.height, self.mines

    @property
    def label(self) -> str:
        """``Beginner 9x9/10`` style label for menus and messages."""
        return board_label(*self.size)


BEGINNER: Final = Preset("beginner", "Beginner", 9, 9, 10)
INTERMEDIATE: Final = Preset("intermediate", "Intermediate", 16, 16, 40)
EXPERT: Final = Preset("expert", "Expert", 30, 16, 99)
PRESETS: Final = {preset.key: preset for preset in (BEGINNER, INTERMEDIATE, EXPERT)}


def preset_for(width: int, height: int, mines: int) -> Preset | None:
    """The preset with exactly this size and mine count, if there is one."""
    for preset in PRESETS.values():
        if (preset.width, preset.height, preset.mines) == (width, height, mines):
            return preset
    return None


def board_label(width: int, height: int, mines: int, *, size: bool = True) -> str:
    """How every screen names a board: ``Expert 30x16/99`` (``Expert`` without the ``size``)
    or ``Custom 40x20/120``."""
    preset = preset_for(width, height, mines)
    if preset is None:
        return f"Custom {width}x{height}/{mines}"
    return f"{preset.name} {width}x{height}/{mines}" if size else preset.name


def check_first_click(first_click: str) -> FirstClick:
    """Return ``first_click`` if it names a rule, else raise ``ValueError``."""
    if first_click == "opening":
        return "opening"
    if first_click == "safe":
        return "safe"
    raise ValueError(f"first click rule must be 'opening' or 'safe', not {first_click!r}")


def check_size(width: int, height: int) -> None:
    """Raise ``ValueError`` unless ``width`` x ``height`` is an allowed board size."""
    for name, value in (("width", width), ("height", height)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"{name} must be a whole number, not {value!r}")
        if not MIN_SIDE <= value <= MAX_SIDE:
            raise ValueError(f"{name} must be between {MIN_SIDE} and {MAX_SIDE}, not {value}")
    if width * height < MIN_CELLS:
        raise ValueError(f"a board needs at least {MIN_CELLS} cells, not {width}x{height}")


def effective_first_click(width: int, height: int, first_click: str) -> FirstClick:
    """The rule actually applied: boards too small for an opening use the safe rule."""
    rule = check_first_click(first_click)
    if rule == "opening" and width * height - OPENING_CELLS < 1:
        return "safe"
    return rule


def mine_limits(width: int, height: int, first_click: str = "opening") -> tuple[int, int]:
    """The smallest and largest mine counts allowed on this board under this rule."""
    check_size(width, height)
    cells = width * height
    if effective_first_click(width, height, first_click) == "opening":
        return 1, cells - OPENING_CELLS
    return 1, cells - 1


def check_board(width: int, height: int, mines: int, first_click: str = "opening") -> None:
    """Raise ``ValueError`` with the allowed range unless the board is playable."""
    low, high = mine_limits(width, height, first_click)
    if isinstance(mines, bool) or not isinstance(mines, int):
        raise ValueError(f"mines must be a whole number, not {mines!r}")
    if not low <= mines <= high:
        rule = effective_first_click(width, height, first_click)
        raise ValueError(
            f"mines must be between {low} and {high} on a {width}x{height} board "
            f"with the {rule} first click, not {mines}"
        )
