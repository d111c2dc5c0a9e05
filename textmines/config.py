"""What a game is started with: board size, seed and the rule options."""

from __future__ import annotations

import re

from textmines.engine.presets import (
    PRESETS,
    Preset,
    board_label,
    check_board,
    check_first_click,
    preset_for,
)
from textmines.store.settings import Settings
from textmines.value import Value

# Signs are allowed so that "-5x10x10" gets the range message ("width must be ..., not -5").
# (A pattern, not a compiled one: ``re`` compiles it when a custom board is first read.)
_CUSTOM = r"\s*(-?\d+)\s*[xX]\s*(-?\d+)\s*[xX/]\s*(-?\d+)\s*"


class GameConfig(Value):
    """Board and options for the next game. What comes from the player goes through
    ``checked`` (settings are checked as they load); ``Game`` checks the board once more."""

    width: int = 9
    height: int = 9
    mines: int = 10
    seed: int | None = None
    first_click: str = "opening"
    question_marks: bool = True
    left_click_chords: bool = True
    #: Boards that the solver clears from the first click without a guess.
    no_guess: bool = False

    def checked(self) -> GameConfig:
        """This config, when a game can be played with it; else ``ValueError`` saying why."""
        check_first_click(self.first_click)
        check_board(self.width, self.height, self.mines, self.first_click)
        return self

    @property
    def preset(self) -> Preset | None:
        """The preset this board matches, if any."""
        return preset_for(self.width, self.height, self.mines)

    @property
    def label(self) -> str:
        """``Expert 30x16/99`` or ``Custom 40x20/120``."""
        return board_label(self.width, self.height, self.mines)

    def with_board(self, width: int, height: int, mines: int) -> GameConfig:
        """The same options on another board (the seed is dropped)."""
        return self._replace(width=width, height=height, mines=mines, seed=None)


def parse_custom(text: str) -> tuple[int, int, int]:
    """Parse ``WxHxM`` (e.g. ``40x20x150``); raises ``ValueError`` saying what is allowed."""
    match = re.fullmatch(_CUSTOM, text)
    if match is None:
        raise ValueError(
            f"custom board must look like WIDTHxHEIGHTxMINES, e.g. 40x20x150, not {text!r}"
        )
    width, height, mines = (int(group) for group in match.groups())
    return width, height, mines


def config_from_settings(settings: Settings) -> GameConfig:
    """The game the player had last time (settings are validated when loaded)."""
    if settings.board in PRESETS:
        size = PRESETS[settings.board].size
    else:
        size = (settings.custom_width, settings.custom_height, settings.custom_mines)
    return GameConfig(
        *size,
        first_click=settings.first_click,
        question_marks=settings.question_marks,
        left_click_chords=settings.left_click_chords,
        no_guess=settings.no_guess,
    )


def settings_with_config(settings: Settings, config: GameConfig) -> Settings:
    """``settings`` updated with the board and options of ``config``."""
    preset = config.preset
    board = (
        {"board": preset.key}
        if preset is not None
        else {
            "board": "custom",
            "custom_width": config.width,
            "custom_height": config.height,
            "custom_mines": config.mines,
        }
    )
    return settings._replace(
        **board,
        first_click=config.first_click,
        question_marks=config.question_marks,
        left_click_chords=config.left_click_chords,
        no_guess=config.no_guess,
    )
