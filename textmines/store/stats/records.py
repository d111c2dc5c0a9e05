"""What is written: a game that ended (``GameRecord``) and the solver's review of it
(``GameReview``). The group a game counts in and its outcome are ``groups``'.

Building a record from a live game is the session's job (``textmines.records.record_for``): the
store only knows the row, never the engine's game or its metrics.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from textmines.store.stats.groups import OUTCOMES, Group, Outcome


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
