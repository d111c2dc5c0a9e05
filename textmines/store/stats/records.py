"""What is written: a game that ended (``GameRecord``, and what became of it: ``Written``)
and the solver's review of it (``GameReview``). The group a game counts in and its outcome
are ``groups``'.

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
    ``assisted`` means hints, autoplay or the probability overlay were used (rows of older
    versions: or the board was restarted); ``practice`` that the game was on a board the
    player had seen (a later try of the day's daily board, a restart, a game played on from
    a replay): kept, but left out of every figure of the player's own play. The competitive
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
    #: The day (``YYYY-MM-DD``, UTC) of the daily board this game was on, if it was one.
    daily: str | None = None
    #: A game on a board the player had seen. A daily try is written as practice too when the
    #: day has a try that counts already (decided as it is written: ``StatsStore.record_game``).
    practice: bool = False

    def __post_init__(self) -> None:
        if self.outcome not in OUTCOMES:
            raise ValueError(f"outcome must be one of {', '.join(OUTCOMES)}, not {self.outcome!r}")

    @property
    def group(self) -> Group:
        """The group this game counts in."""
        return Group(self.preset, self.width, self.height, self.mines, self.no_guess)


@dataclass(frozen=True, slots=True)
class Written:
    """What became of a game given to ``StatsStore.record_game``."""

    #: Why it was not written now (None: it was); the store may keep it to write later.
    notice: str | None
    #: Its number in the statistics (``--review N``), once written.
    game_id: int | None = None
    #: It was written as practice: given so, or a daily try on a day with a try that counts.
    practice: bool = False


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
