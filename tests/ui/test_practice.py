"""Practice (issue 46): a game on a board the player has seen (a later try of the day's daily
board, a restart, a game played on from a replay) says so wherever the game does, and never
announces a record."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import FakeClock, new_stats
from textmines.engine import ActionKind, Board, Game
from textmines.session import GameSession
from textmines.ui.game_end import box_figures, box_title, won_line

LAYOUT = "*....\n.....\n.....\n.....\n....*"  # 5x5, two mines; (2, 2) opens everything else


def test_the_end_of_a_practice_game_says_practice_and_announces_no_record(
    tmp_path: Path,
) -> None:
    # Issue 46.8: a practice game's end said practice only for a daily board.
    stats = new_stats(tmp_path)
    clock = FakeClock()
    session = GameSession(Game.from_board(Board.from_text(LAYOUT), clock=clock), stats=stats)
    session.practice = True  # played on from a replay
    session.play(ActionKind.REVEAL, 1, 1)
    clock.advance(2)
    finish = session.play(ActionKind.REVEAL, 2, 2).finish
    assert finish is not None and not finish.new_best
    assert box_title(session) == "Custom 5x5/2 (practice) cleared!"
    figures = dict(box_figures(session, finish, recorded=True))
    assert figures["Practice"] == "no record" and "new best" not in figures["Best time"]
    assert "new best" not in won_line(session, finish.metrics, finish)
