"""What a theme is: its keys, the complete theme a file becomes, and the one error themes raise.

Nothing here reads files or knows Textual; ``textual_theme.py`` makes a Textual theme of one.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from textmines.value import Value

#: The theme every other theme ends up inheriting from; it must set every key.
ROOT_THEME: Final = "classic"
DEFAULT_THEME: Final = ROOT_THEME
#: Stands for "let Textual derive this colour" in the [theme] table.
AUTO: Final = "auto"

#: Textual's theme colours, in the order they are written out. ``primary`` cannot be ``auto``.
THEME_COLOR_KEYS: Final = (
    "primary",
    "secondary",
    "accent",
    "foreground",
    "background",
    "surface",
    "panel",
    "boost",
    "warning",
    "error",
    "success",
)
NUMBER_KEYS: Final = tuple(f"number-{n}" for n in range(1, 9))
#: Board colours; each is the CSS variable ``mines-<key>``.
BOARD_KEYS: Final = (
    *NUMBER_KEYS,
    "covered",
    "covered-glyph",
    "revealed",
    "cursor",
    "flag",
    "question",
    "mine",
    "exploded",
    "wrong",
    "digits",
    "digits-off",
    "digits-background",
    "frame",
    "bevel-light",
    "bevel-dark",
    "grid",
    "face",
    "face-background",
)
#: Glyphs drawn inside one board cell; each at most ``cell-width`` columns wide.
CELL_GLYPH_KEYS: Final = (
    "covered",
    "flag",
    "question",
    "mine",
    "exploded",
    "wrong",
    "empty",
    *NUMBER_KEYS,
)
#: The smiley in the header, by the face names the header uses.
FACE_NAMES: Final = ("normal", "pressed", "won", "lost")
FACE_KEYS: Final = tuple(f"face-{face}" for face in FACE_NAMES)
GLYPH_KEYS: Final = ("cell-width", *CELL_GLYPH_KEYS, *FACE_KEYS)
CELL_WIDTHS: Final = (2, 3)
#: The header gives the face this many columns.
FACE_WIDTH: Final = 4
#: Keys of each table; the top level holds ``base`` and the tables.
TABLES: Final[dict[str, tuple[str, ...]]] = {
    "theme": ("name", "dark", *THEME_COLOR_KEYS),
    "board": BOARD_KEYS,
    "glyphs": GLYPH_KEYS,
}
TOP_LEVEL_KEYS: Final = ("base", *TABLES)
NAME_MAX_LENGTH: Final = 40
#: A one-line message lists at most this many problems of one file.
MAX_PROBLEMS: Final = 5


class ThemeError(Exception):
    """A theme file or a theme argument cannot be used; ``str(error)`` is one plain line."""


class ThemeGlyphs(Value):
    """What the board and the header draw."""

    cell_width: int
    covered: str
    flag: str
    question: str
    mine: str
    exploded: str
    wrong: str
    empty: str
    numbers: tuple[str, ...]
    face_normal: str
    face_pressed: str
    face_won: str
    face_lost: str

    @property
    def ascii(self) -> bool:
        """Every glyph is plain ASCII: such a theme is for terminals and fonts that may lack
        block characters, so frames, tiles and LED digits are drawn in ASCII too."""
        glyphs = [self.covered, self.flag, self.question, self.mine, self.exploded, self.wrong]
        return all(g.isascii() for g in [*glyphs, self.empty, *self.numbers, *self.faces.values()])

    @property
    def faces(self) -> dict[str, str]:
        """The smiley by face name (``normal``, ``pressed``, ``won``, ``lost``)."""
        return {face: getattr(self, f"face_{face}") for face in FACE_NAMES}


class MinesTheme(Value):
    """A complete theme: every colour and glyph set, its bases already applied."""

    name: str
    dark: bool
    #: [theme] colours by key; a value is a normalised colour or ``"auto"``.
    colors: Mapping[str, str]
    #: [board] colours by key (``number-1``...), normalised.
    board: Mapping[str, str]
    glyphs: ThemeGlyphs
    #: The theme this one inherited from; ``None`` for the root.
    base: str | None = None
    #: The file it was read from.
    source: Path | None = None
    bundled: bool = False

    @property
    def ansi_only(self) -> bool:
        """Every colour is one of the 16 ANSI colours (``ansi_red``...). Textual converts those
        to RGB through its own terminal palette unless the app runs with ``ansi_color=True``,
        which such a theme may want so the terminal's palette shows."""
        colors = [*self.board.values(), *(c for c in self.colors.values() if c != AUTO)]
        return all(color.startswith("ansi_") for color in colors)

    def board_variables(self) -> dict[str, str]:
        """The board colours as CSS variables (``{"mines-number-1": "#0000FF", ...}``), and
        ``mines-edge``, the kind of Textual border its frames are drawn with: ``outer``'s
        half blocks, or ``ascii``'s + - | in a theme of ASCII glyphs."""
        variables = {f"mines-{key}": value for key, value in self.board.items()}
        variables["mines-edge"] = "ascii" if self.glyphs.ascii else "outer"
        return variables


def theme_values(theme: MinesTheme) -> dict[tuple[str, str], Any]:
    """Every ``(table, key)`` of a complete theme but its name, as a file would give it."""
    glyphs = theme.glyphs
    values: dict[tuple[str, str], Any] = {("theme", "dark"): theme.dark}
    values.update({("theme", key): value for key, value in theme.colors.items()})
    values.update({("board", key): value for key, value in theme.board.items()})
    values[("glyphs", "cell-width")] = glyphs.cell_width
    for key in CELL_GLYPH_KEYS:
        if key.startswith("number-"):
            values[("glyphs", key)] = glyphs.numbers[int(key[-1]) - 1]
        else:
            values[("glyphs", key)] = getattr(glyphs, key)
    for face in FACE_NAMES:
        values[("glyphs", f"face-{face}")] = glyphs.faces[face]
    return values
