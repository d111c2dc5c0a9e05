"""A laid board's first click under the first-click rule (issue 46.8): a practice game from a
replay's start has the recorded mines but no click made, and its first click must never lose."""

from __future__ import annotations

from tests.helpers import FakeClock
from textmines.engine import Board, Game, Status
from textmines.engine.clock import GameClock
from textmines.engine.generate import clear_first_click

BOARD = Board.from_text("....*\n.*...\n.....\n...*.\n*....")


def laid(first_click: str) -> Game:
    game = Game.from_board(BOARD, clock=FakeClock())
    game.first_click = "opening" if first_click == "opening" else "safe"
    game.keep_first_click_rule()
    return game


def test_the_mines_in_the_first_clicks_way_move_to_the_first_free_cells() -> None:
    game = laid("opening")
    game.flag(4, 4)  # a mark made before the first click stays
    game.reveal(1, 1)  # a mine: under the opening rule it moves, to (3, 0)
    assert game.status == Status.PLAYING and game.cell(1, 1) == "0"
    assert game.board is not None and game.board.mine_indices() == [3, 4, 18, 20]
    assert game.cell(4, 4) == "F"


def test_the_safe_rule_clears_the_clicked_cell_only() -> None:
    game = laid("safe")
    game.reveal(1, 1)  # a mine: it moves to (0, 0), the first free cell
    assert game.status == Status.PLAYING and game.cell(1, 1) == "1"
    assert game.board is not None and game.board.mine_indices() == [0, 4, 18, 20]


def test_a_first_click_clear_of_mines_keeps_the_board_and_the_rule_goes_after_it() -> None:
    game = laid("opening")
    game.reveal(3, 1)  # a 1 beside (4, 0): under the opening rule that mine moves
    assert game.board is not None and not game.board.is_mine(4, 0)
    board = game.board
    game.reveal(3, 3)  # the second click: a mine, and the game is lost
    assert game.status == Status.LOST and game.board == board
    assert clear_first_click(BOARD, 12, "safe") is BOARD


def test_a_board_too_dense_for_an_opening_still_gives_a_safe_first_click() -> None:
    dense = Board.from_text("***\n***\n**.")
    assert clear_first_click(dense, 4, "opening") == Board.from_text("***\n*.*\n***")


def test_a_clock_held_after_its_time_began_shows_it() -> None:
    now = FakeClock()
    clock = GameClock(now)
    clock.start()
    clock.pause_at(37_000)
    clock.hold_until_move(begun=True)
    assert clock.started and clock.elapsed_ms == 37_000
    assert not clock.resume(), "held until the next move"
    shared = GameClock(now)
    shared.start()
    shared.hold_until_move()
    assert not shared.started, "a shared board's time begins at the player's move"
    shared.at_move()
    assert shared.started
