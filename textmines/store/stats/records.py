"""What is written: a game that ended (``GameRecord``) and the group it counts in (``Group``).

Building a record from a live game is the session's job (``textmines.records.record_for``): the
store only knows the row, never the engine's game or its metrics.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Final, Protocol

from textmines.engine.presets import PRESETS, board_label, preset_for


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


@dataclass(frozen=True, slots=True)
class Group:
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


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One row of ``stats.db``: a game that ended.

    ``preset`` is a preset key or ``"custom"``; ``first_click`` is ``"opening"`` or ``"safe"``;
    ``seed`` is ``None`` for a game on a fixed layout; ``outcome`` is one of ``OUTCOMES``;
    ``assisted`` means hints, autoplay or the probability overlay were used, or the board was
    restarted (the player had seen its mines): no record either way. The competitive
    numbers (``effective_clicks`` ...) and ``replay`` (the recording, see
    ``textmines.replays.recording``) are None for games recorded before they were kept.
    """

    started_at: datetime
    ended_at: datetime
    preset: str
    width: int
    height: int
    mines: int
    first_click: str
    seed: int | None
    outcome: Outcome
    time_ms: int
    bbbv: int
    solved_bbbv: int
    left_clicks: int
    right_clicks: int
    chord_clicks: int
    efficiency: float
    bbbv_per_s: float
    assisted: bool = False
    no_guess: bool = False
    effective_clicks: int | None = None
    flags_placed: int | None = None
    rqp: float | None = None
    stnb: float | None = None
    replay: bytes | None = None
    #: The day (``YYYY-MM-DD``, UTC) of the daily board this game was on, if it was one, and
    #: whether it was a later try of that day (practice: the first try is the one that counts).
    daily: str | None = None
    practice: bool = False

    def __post_init__(self) -> None:
        if self.outcome not in OUTCOMES:
            raise ValueError(f"outcome must be one of {', '.join(OUTCOMES)}, not {self.outcome!r}")

    @property
    def group(self) -> Group:
        """The group this game counts in."""
        return Group(self.preset, self.width, self.height, self.mines, self.no_guess)


@dataclass(frozen=True, slots=True)
class GameReview:
    """What the solver's review of recorded game ``game_id`` found (``engine.review``): its
    guesses, avoidable risks and blunders, its luck (the odds of surviving its risky clicks)
    and whether it was lost on a forced guess."""

    game_id: int
    guesses: int
    avoidable: int
    blunders: int
    luck: float
    forced_loss: bool
