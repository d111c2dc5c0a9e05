"""Statistics records made to order: the one factory the store tests, the statistics screen
tests, the store worker processes and benchmarks/store.py share.

Only what a test cares about is given; the rest follows as in a real game (3BV solved, the
efficiency and 3BV/s from the clicks and the time).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from textmines.store.stats import GameRecord, Group

__all__ = ["game_record"]


def game_record(
    outcome: str = "won",
    *,
    ended: datetime,
    time_ms: int = 10_000,
    size: tuple[int, int, int] = (9, 9, 10),
    no_guess: bool = False,
    assisted: bool = False,
    bbbv: int = 20,
    solved_bbbv: int | None = None,
    clicks: tuple[int, int, int] | None = None,
    seed: int | None = 7,
) -> GameRecord:
    """A game of ``size`` (width, height, mines) that ended at ``ended`` after ``time_ms``.

    ``solved_bbbv`` defaults to all of ``bbbv`` for a win and half of it otherwise; ``clicks``
    (left, right, chord) to one left click per 3BV, three flags and one chord.
    """
    group = Group.for_board(*size, no_guess=no_guess)
    if solved_bbbv is None:
        solved_bbbv = bbbv if outcome == "won" else bbbv // 2
    left, right, chord = clicks if clicks is not None else (bbbv, 3, 1)
    total = left + right + chord
    return GameRecord(
        started_at=ended - timedelta(milliseconds=time_ms),
        ended_at=ended,
        preset=group.preset,
        width=group.width,
        height=group.height,
        mines=group.mines,
        first_click="opening",
        seed=seed,
        outcome=outcome,
        time_ms=time_ms,
        bbbv=bbbv,
        solved_bbbv=solved_bbbv,
        left_clicks=left,
        right_clicks=right,
        chord_clicks=chord,
        efficiency=solved_bbbv / total if total else 0.0,
        bbbv_per_s=solved_bbbv * 1000 / time_ms if time_ms else 0.0,
        assisted=assisted,
        no_guess=no_guess,
    )
