"""How the screens write game numbers."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textmines.engine.metrics import GameMetrics  # loaded by a game's end, not the start


def format_seconds(milliseconds: float) -> str:
    """A game time as players read it: ``12.3 s``."""
    return f"{milliseconds / 1000:.1f} s"


def timer_seconds(elapsed_ms: int, started: bool) -> int:
    """The header's timer as Windows Minesweeper shows it: 1 at the first click, one more
    each second after it, 999 at most; 0 before the first click."""
    return min(999, elapsed_ms // 1000 + 1) if started else 0


def game_details(m: GameMetrics) -> list[tuple[str, str]]:
    """Every figure of a game as (label, value) rows: the competitive details."""
    rows = [
        # To the millisecond, as the competitive programs give it (the summary has tenths).
        ("Time", f"{m.elapsed_ms / 1000:.3f} s"),
        ("3BV", f"{m.bbbv}" if m.won else f"{m.solved_bbbv} of {m.bbbv} solved"),
        ("3BV/s", f"{m.bbbv_per_second:.2f}"),
        ("Clicks", f"{m.clicks} ({m.left_clicks} L, {m.right_clicks} R, {m.chord_clicks} C)"),
        ("Effective", f"{m.effective_clicks}"),
        ("IOE", f"{m.ioe:.3f}"),
        ("Correctness", f"{m.correctness:.3f}"),
        ("Throughput", f"{m.throughput:.3f}"),
    ]
    if m.rqp is not None:
        rows.append(("RQP", f"{m.rqp:.2f}"))
    # STNB is measured on Arbiter's levels only (not on 9x9 nor custom boards): a dash says so.
    rows.append(("STNB", "-" if m.stnb is None else f"{m.stnb:.1f}"))
    rows.append(("Openings", f"{m.openings}, islands {m.islands}"))
    rows.append(("Flags", f"{m.flags_placed}" + (" (NF)" if m.no_flags else "")))
    return rows
