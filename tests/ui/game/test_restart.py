"""Restart (r): the same mines, the same first click made, the same board ID; a restarted board
is practice (the session's part is in tests/test_session.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Static

from tests.helpers import (
    FakeClock,
    Play,
    click_cell,
    new_stats,
    win_by_clicks,
)
from tests.ui.game.test_board_ids import SHARED
from textmines.engine import Game
from textmines.engine.board_id import board_id_of, parse_board_id


async def test_restart_keeps_the_mines_the_first_click_and_the_board_id(play: Play) -> None:
    from textmines.engine.board_id import board_id_of

    clock = FakeClock()
    app, pilot = await play(clock, first_click="safe")
    await pilot.press("space")
    board, shared = app.game.board, board_id_of(app.game)
    clock.advance(5)
    await pilot.press("r")
    # The first click is made again, as on a shared board; the clock waits for a move.
    assert app.game.board == board and board_id_of(app.game) == shared
    assert app.game.first_click == "safe" and app.game.is_revealed(4, 4)
    assert app.game.elapsed_ms == 0
    assert "Restarted" in app.status_line.modes and not app.session.sets_records
    await pilot.press("r")  # a board not yet dealt is dealt again
    assert "Restarted" in app.status_line.modes
    await pilot.press("n")
    await pilot.press("r")
    assert app.game.board is None and "Restarted" not in app.status_line.modes


@pytest.mark.slow
async def test_a_win_on_a_restarted_board_sets_no_best_time(tmp_path: Path, play: Play) -> None:
    from textmines.store.stats import Group

    stats = new_stats(tmp_path)
    app, pilot = await play(stats=stats, size=(100, 35))
    await pilot.press("space")
    await pilot.press("r")
    await win_by_clicks(pilot)
    assert app.game.status == "won"
    assert "new best" not in app.status_line.text
    await pilot.pause()
    assert ("Restarted", "no record") in app.screen.figures  # the game-over box says so
    result = stats.group_stats(Group.for_game(app.game))
    # A board whose mines the player saw: practice, kept apart (issue 46.6); the game the
    # restart left counts, abandoned.
    assert (result.played, result.abandoned, result.practice, result.best_times) == (1, 1, 1, ())


async def test_restarting_a_shared_board_before_a_move_is_no_restart(play: Play) -> None:
    app, pilot = await play(board_id=parse_board_id(SHARED), size=(100, 30))
    await pilot.press("r")
    assert board_id_of(app.game) == SHARED and app.session.sets_records


async def test_restart_after_a_first_click_on_a_mine_of_a_laid_board_keeps_the_mines(
    play: Play,
) -> None:
    # Found by a player's hunt: practice from a replay's start, the first click on a mine;
    # Restart dealt that first click again and lost at once, and Board info named an ID that
    # --game refuses.
    from textmines.engine.board import Board

    board = Board.from_text("*........\n" + ".........\n" * 7 + "........*")
    app, pilot = await play(size=(100, 30))
    app.flow.start(Game.from_board(board, clock=app.clock))
    await click_cell(pilot, 0, 0)
    assert app.game.status == "lost"
    await pilot.press("escape", "b")
    await pilot.pause()
    shown = " ".join(str(widget.render()) for widget in app.screen.query(Static))
    assert "first click was on a mine" in shown
    await pilot.press("escape", "r")
    await pilot.pause()
    assert app.game.status == "ready" and app.game.board == board
    await click_cell(pilot, 4, 4)
    assert app.game.status in ("playing", "won")  # the same mines, no click made for it


async def test_only_a_new_game_without_a_seed_is_dealt_at_random(play: Play) -> None:
    # What a browser tab ranks on its host's leaderboard: a board nobody chose.
    app, pilot = await play(FakeClock())
    assert not app.session.dealt_at_random, "the first game's seed chose its mines"
    await pilot.press("n")
    assert app.session.dealt_at_random
    await pilot.press("r")  # not dealt yet: dealt again, still at random
    assert app.session.dealt_at_random
    await pilot.press("space")
    await pilot.press("r")  # the same mines again: seen
    assert not app.session.dealt_at_random
    await pilot.press("n")
    app.flow.start(app.flow.game_of(parse_board_id(SHARED)))
    assert not app.session.dealt_at_random, "a board ID names its mines"
