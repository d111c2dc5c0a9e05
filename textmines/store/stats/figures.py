"""What is read back: best times, streaks and the figures of one group."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from enum import StrEnum
from typing import Final

from textmines.store.stats.groups import Group, Outcome

BEST_TIMES: Final = 10
RECENT_WINS: Final = 50

_WIN_RUN: Final = re.compile("W+")
_LOSS_RUN: Final = re.compile("[LlQq]+")


@dataclass(frozen=True, slots=True)
class BestTime:
    """One entry of a best-times table (an unassisted win)."""

    ended_at: datetime
    time_ms: int
    bbbv: int
    bbbv_per_s: float
    #: The game's row, for its replay (``StatsStore.stored_replay``); not part of the entry.
    game_id: int | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class StoredReplay:
    """The recording of one game as the database keeps it, with what a replay file says."""

    game_id: int
    started_at: datetime
    ended_at: datetime
    outcome: Outcome
    assisted: bool
    data: bytes
    #: A game on a board the player had seen (see ``GameRecord.practice``).
    practice: bool = False


class DayResult(StrEnum):
    """How the try that counted on a daily board went: its outcome, or ``assisted`` for a
    win with help (hints, autoplay), which is not a day won."""

    WON = Outcome.WON.value
    ASSISTED = "assisted"
    LOST = Outcome.LOST.value
    ABANDONED = Outcome.ABANDONED.value

    @classmethod
    def of(cls, outcome: Outcome, *, assisted: bool) -> DayResult:
        """The result of a try with ``outcome``, played with help or not."""
        return cls.ASSISTED if outcome == Outcome.WON and assisted else cls(outcome)


@dataclass(frozen=True, slots=True)
class DailyStats:
    """The daily boards: days played and won, the streaks of days won in a row, and each
    day's result (the try that counted), the latest first."""

    days_played: int
    days_won: int
    current_streak: int
    longest_streak: int
    #: (day ``YYYY-MM-DD``, result, time in ms), the latest first.
    days: tuple[tuple[str, DayResult, int], ...]
    #: Tries left out because a value in them is not one textmines writes (edited by hand).
    damaged: int = 0
    #: Each day's game number in the statistics (what ``textmines --review`` takes).
    game_numbers: Mapping[str, int] = field(default_factory=dict)


def daily_figures(
    days: dict[str, tuple[DayResult, int]],
    damaged: int = 0,
    game_numbers: Mapping[str, int] | None = None,
) -> DailyStats:
    """The figures of ``days`` (day: (result, time in ms) of the try that counted), and
    ``damaged`` tries left out; ``game_numbers`` gives each day's game number. A streak is
    days won one after another; a day missed or not won ends it. The current streak runs to
    the last day played."""
    ordered = sorted(days)
    longest = run = 0
    previous: date | None = None
    for day in ordered:
        result, _ = days[day]
        current = date.fromisoformat(day)
        consecutive = previous is not None and current - previous == timedelta(days=1)
        run = (run + 1 if consecutive else 1) if result == DayResult.WON else 0
        longest = max(longest, run)
        previous = current
    return DailyStats(
        days_played=len(days),
        days_won=sum(1 for result, _ in days.values() if result == DayResult.WON),
        current_streak=run,
        longest_streak=longest,
        days=tuple((day, *days[day]) for day in reversed(ordered)),
        damaged=damaged,
        game_numbers=dict(game_numbers or {}),
    )


@dataclass(frozen=True, slots=True)
class Streak:
    """The run of results the player is on: wins (``outcome`` ``WON``), losses (``LOST``,
    abandoned games among them) or none (None)."""

    outcome: Outcome | None
    length: int
    #: Games of a losing streak that were abandoned rather than lost.
    abandoned: int = 0
    #: No streak because the last game was an assisted win (which ends every streak).
    after_assisted_win: bool = False

    def __str__(self) -> str:
        """Named by what it counts: ``3 wins``, ``2 losses``, ``14 abandoned``, ``5 lost or
        abandoned``; ``none`` says why when an assisted win ended the streak."""
        if self.outcome == Outcome.WON:
            return f"{self.length} win" + ("" if self.length == 1 else "s")
        if self.outcome == Outcome.LOST:
            if self.abandoned == 0:
                return f"{self.length} loss" + ("" if self.length == 1 else "es")
            if self.abandoned == self.length:
                return f"{self.length} abandoned"
            return f"{self.length} lost or abandoned"
        return "none (an assisted win ends a streak)" if self.after_assisted_win else "none"


NO_STREAK: Final = Streak(None, 0)


@dataclass(frozen=True, slots=True)
class GroupStats:
    """Everything the statistics screen shows for one group (see ``textmines.store.stats``)."""

    group: Group
    played: int
    won: int
    lost: int
    abandoned: int
    assisted: int
    current_streak: Streak
    longest_winning_streak: int
    longest_losing_streak: int
    #: Mean time of the unassisted wins, ``None`` without any.
    average_winning_ms: float | None
    #: Up to ten unassisted wins, fastest first (ties: the earlier game first).
    best_times: tuple[BestTime, ...]
    best_bbbv_per_s: float | None
    #: Times of the last fifty unassisted wins, oldest first (for a sparkline).
    recent_winning_ms: tuple[int, ...]
    #: Games left out of every figure because a value in them is not one textmines writes
    #: (a row edited by hand: text in a number column, a date that does not parse).
    damaged: int = 0
    #: The best of each competitive figure over the unassisted wins, as (name, value) in
    #: display order: IOE, correctness, throughput and STNB (highest), RQP (lowest). Only
    #: those some win has (games recorded by older versions have none).
    best_figures: tuple[tuple[str, float], ...] = ()
    #: The solver's review of the group's reviewed games (None: none is reviewed yet).
    review: ReviewFigures | None = None
    #: Practice games (on a board the player had seen: a later daily try, a restart, a game
    #: played on from a replay): in none of the figures above, which are the player's own play.
    practice: int = 0
    #: Reviews left out of ``review`` because a value in them is not one textmines writes.
    damaged_reviews: int = 0

    @property
    def win_percent(self) -> float:
        """Won games per hundred played; 0 when none was played."""
        return 100.0 * self.won / self.played if self.played else 0.0


@dataclass(frozen=True, slots=True)
class ReviewFigures:
    """A group's reviewed games in figures (see ``GameReview``): how many, their guesses,
    avoidable risks and blunders a game (each its own count, as ``textmines --review`` gives
    them), their average luck, and the losses among them that were forced."""

    reviewed: int
    guesses_per_game: float
    avoidable_per_game: float
    average_luck: float
    losses: int
    forced_losses: int
    blunders_per_game: float = 0.0


def streaks(history: str) -> tuple[Streak, int, int]:
    """Current streak, longest winning and longest losing streak of a history string.

    ``history`` has one letter per game in end order: ``W``/``w`` won, ``L``/``l`` lost,
    ``Q``/``q`` abandoned, lower case when assisted.
    """
    longest_win = max((len(run) for run in _WIN_RUN.findall(history)), default=0)
    longest_loss = max((len(run) for run in _LOSS_RUN.findall(history)), default=0)
    if not history:
        return NO_STREAK, longest_win, longest_loss
    if history[-1] == "w":
        return Streak(None, 0, after_assisted_win=True), longest_win, longest_loss
    last = history[-1]
    tail = history.rstrip("W") if last == "W" else history.rstrip("LlQq")
    run = history[len(tail) :]
    if last == "W":
        return Streak(Outcome.WON, len(run)), longest_win, longest_loss
    abandoned = sum(1 for game in run if game in "Qq")
    return Streak(Outcome.LOST, len(run), abandoned), longest_win, longest_loss
