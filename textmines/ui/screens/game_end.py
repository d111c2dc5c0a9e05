"""What the player is told when a game ends: the status line's words and the end-of-game
box's title and figures. Plain functions of the finished game, its session and ``EndResult``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textmines.engine import Status
from textmines.session import EndResult, GameSession, percent_cleared_text
from textmines.ui.drawing.numbers import format_seconds

if TYPE_CHECKING:
    from textmines.engine.metrics import GameMetrics  # loaded by a game's end, not the start

#: The label of the game's number in the statistics, what ``textmines --review`` and
#: ``--export-replay`` take: the first of the box's figures, summary and details.
GAME = "Game"


def seconds_apart(time_ms: int, other_ms: int | None) -> tuple[str, str]:
    """Two game times as players read them, with the decimals (one to three) it takes to tell
    them apart: a new best of 39.69 s over 39.72 s, not 39.7 s over 39.7 s. ``other_ms``
    None: ``time_ms`` alone, and ""."""
    if other_ms is None:
        return format_seconds(time_ms), ""
    for decimals in (1, 2):
        this, other = (f"{ms / 1000:.{decimals}f} s" for ms in (time_ms, other_ms))
        if this != other:
            return this, other
    return f"{time_ms / 1000:.3f} s", f"{other_ms / 1000:.3f} s"


def _times(session: GameSession, finish: EndResult | None) -> tuple[str, str]:
    """The game's time and the best time before it, told apart (``seconds_apart``); the
    game's time alone for a game lost, or with no best time before it."""
    previous = None if finish is None else finish.previous_best
    won = session.game.status == Status.WON
    return seconds_apart(session.game.elapsed_ms, previous.time_ms if previous and won else None)


def won_line(session: GameSession, metrics: GameMetrics, finish: EndResult | None) -> str:
    """The status line of a won game: the time, 3BV and 3BV/s, and a new best time (an
    assisted or practice win says so in the modes: no record to announce)."""
    time, previous = _times(session, finish)
    message = f"Cleared in {time} - 3BV {metrics.bbbv} - {metrics.bbbv_per_second:.2f} 3BV/s"
    if finish is not None and finish.new_best:
        message += " - new best time!"
        if previous:
            message += f" (was {previous})"
    return message


def box_title(session: GameSession) -> str:
    """The end-of-game box's title: the board (or the day's daily board), practice or not
    (a board the player had seen), and how it went."""
    label = session.group.label
    if session.daily is not None:
        label = f"Daily {session.daily.isoformat()}"
    if session.practice:
        label += " (practice)"
    return f"{label} cleared!" if session.game.status == Status.WON else f"Boom! {label} lost"


def box_figures(
    session: GameSession, finish: EndResult, *, recorded: bool
) -> list[tuple[str, str]]:
    """The end-of-game box's figures: the game's number in the statistics (once recorded),
    the time, 3BV, what was cleared, the best time. ``recorded``: whether this session keeps
    statistics (else no best time is known)."""
    game, m = session.game, finish.metrics
    won = game.status == Status.WON
    time, previous_time = _times(session, finish)
    figures = [] if session.game_number is None else [(GAME, f"{session.game_number}")]
    figures.append(("Time", time))
    if won:
        figures += [("3BV", f"{m.bbbv}"), ("3BV/s", f"{m.bbbv_per_second:.2f}")]
    else:
        figures += [
            ("3BV", f"{m.solved_bbbv} of {m.bbbv} solved"),
            ("Cleared", percent_cleared_text(game)),
        ]
    previous = finish.previous_best
    best = "none yet"
    if previous is not None:
        best = previous_time or format_seconds(previous.time_ms)
    if not recorded:
        best = "not kept (this session)"
    elif finish.new_best:
        best = f"{time}, new best!" + (f" (was {best})" if previous is not None else "")
    figures.append(("Best time", best))
    if won and not session.sets_records and recorded:
        why = "Assisted" if session.assisted else "Restarted" if session.restarted else "Practice"
        figures.append((why, "no record"))
    return figures
