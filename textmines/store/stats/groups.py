"""How recorded games are told apart: how one ended (``Outcome``) and the group it counts in
(``Group``). Light on purpose: the session needs them for every game, from the first frame on;
the rows themselves (``records``) load when a game is recorded or read back.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final, Protocol

from textmines.engine.presets import PRESETS, board_label, preset_for
from textmines.value import Value


class Outcome(StrEnum):
    """How a recorded game ended; stored as its text (``won``...), which it equals."""

    WON = "won"
    LOST = "lost"
    #: Left while it ran: the player chose a new game or another board, or could not save it.
    ABANDONED = "abandoned"


#: Every outcome, in the order messages name them (the schema's CHECK lists the same).
OUTCOMES: Final = tuple(Outcome)
CUSTOM: Final = "custom"


class GameShape(Protocol):
    """What ``Group.for_game`` reads of a game (a ``no_guess`` flag too, when it has one)."""

    @property
    def width(self) -> int: ...

    @property
    def height(self) -> int: ...

    @property
    def mines(self) -> int: ...


class Group(Value):
    """A set of comparable games: a preset or a custom size, with or without no-guess.

    ``preset`` is a key of ``PRESETS`` or ``"custom"``; it always agrees with the size.
    """

    preset: str
    width: int
    height: int
    mines: int
    no_guess: bool = False

    @classmethod
    def for_board(cls, width: int, height: int, mines: int, *, no_guess: bool = False) -> Group:
        """The group of games on this board."""
        preset = preset_for(width, height, mines)
        key = preset.key if preset is not None else CUSTOM
        return cls(key, width, height, mines, bool(no_guess))

    @classmethod
    def for_game(cls, game: GameShape) -> Group:
        """The group ``game`` is recorded in."""
        no_guess = bool(getattr(game, "no_guess", False))
        return cls.for_board(game.width, game.height, game.mines, no_guess=no_guess)

    @property
    def label(self) -> str:
        """``Expert``, ``Custom 30x20/100``, ``Expert, no-guess`` ..., for tabs and headings."""
        name = board_label(self.width, self.height, self.mines, size=False)
        return f"{name}, no-guess" if self.no_guess else name

    def sort_key(self) -> tuple[int, int, int, int, int, bool]:
        """Presets in menu order, then custom boards by size; no-guess after the plain group."""
        order = list(PRESETS).index(self.preset) if self.preset in PRESETS else len(PRESETS)
        cells = self.width * self.height
        return order, cells, self.width, self.height, self.mines, self.no_guess
