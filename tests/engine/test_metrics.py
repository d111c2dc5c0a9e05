"""3BV, openings, islands, clicks, efficiency, 3BV/s."""

from __future__ import annotations

import pytest

from tests.helpers import FakeClock
from textmines.engine import Board, Game
from textmines.engine.metrics import bbbv, game_metrics, islands, openings, solved_bbbv


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # (openings, islands, 3BV)
        ("*..\n...\n..*", (2, 0, 2)),  # two openings, every number on a border
        ("*.*\n...\n*.*", (0, 1, 5)),  # no zero at all: five lone numbers, one island
        ("*.......\n........\n....*...\n........\n.......*", (1, 0, 1)),
        ("*.*.*", (0, 2, 2)),  # two separate lone numbers
        ("..*..", (2, 0, 2)),
        ("*", (0, 0, 0)),
    ],
)
def test_board_metrics(text: str, expected: tuple[int, int, int]) -> None:
    board = Board.from_text(text)
    assert (openings(board), islands(board), bbbv(board)) == expected


def test_islands_are_eight_connected() -> None:
    # Two lone numbers touching diagonally form one island.
    board = Board.from_text("*.**\n**.*")
    assert islands(board) == 1


def test_won_game_metrics() -> None:
    clock = FakeClock()
    game = Game.from_board(Board.from_text("*..\n...\n..*"), clock=clock)
    game.toggle_mark(0, 0)
    game.reveal(2, 0)
    game.reveal(2, 0)  # wasted
    clock.advance(4)
    game.reveal(0, 2)
    m = game_metrics(game)
    assert (m.bbbv, m.solved_bbbv, m.openings, m.islands) == (2, 2, 2, 0)
    assert (m.left_clicks, m.right_clicks, m.chord_clicks, m.clicks) == (3, 1, 0, 4)
    assert m.effective_clicks == 3
    assert m.efficiency == pytest.approx(0.5)
    assert m.elapsed_ms == 4000 and m.bbbv_per_second == pytest.approx(0.5)


def test_lost_game_counts_solved_3bv() -> None:
    clock = FakeClock()
    game = Game.from_board(Board.from_text("*.*\n...\n*.*"), clock=clock)
    game.reveal(1, 1)
    game.reveal(1, 0)
    clock.advance(2)
    game.reveal(0, 0)
    assert game.status == "lost"
    m = game_metrics(game)
    assert (m.bbbv, m.solved_bbbv) == (5, 2)
    assert m.efficiency == pytest.approx(2 / 3)
    assert m.bbbv_per_second == pytest.approx(1.0)


def test_an_opening_counts_once_solved() -> None:
    game = Game.from_board(Board.from_text("*..\n...\n..*"))
    game.reveal(2, 0)
    assert solved_bbbv(game) == 1
    game.reveal(1, 1)  # a border number: already open, adds nothing
    assert solved_bbbv(game) == 1


def test_chord_clicks_are_counted() -> None:
    game = Game.from_board(Board.from_text("*.*\n...\n..."))
    game.reveal(1, 0)
    game.toggle_mark(0, 0)
    game.toggle_mark(2, 0)
    game.chord(1, 0)
    m = game_metrics(game)
    assert (m.left_clicks, m.right_clicks, m.chord_clicks) == (1, 2, 1)
    assert game.view_text() == "F2F\n121\n###"


def test_a_game_not_started_measures_zero() -> None:
    m = game_metrics(Game(9, 9, 10, seed=1))
    assert (m.bbbv, m.solved_bbbv, m.clicks, m.efficiency, m.bbbv_per_second) == (0, 0, 0, 0.0, 0.0)


@pytest.mark.parametrize(
    ("size", "measured"),
    [((8, 8, 10), True), ((16, 16, 40), True), ((30, 16, 99), True), ((9, 9, 10), False)],
)
def test_stnb_only_on_arbiters_levels(size: tuple[int, int, int], measured: bool) -> None:
    # As ms-toollib: 9x9/10, Windows' Beginner, has no STNB (tests/replays checks the library).
    width, height, mines = size
    clock = FakeClock()
    # The mines fill the top rows; a number under them, then the opening below: a win in 5 s.
    game = Game.from_board(Board.from_mines(width, height, range(mines)), clock=clock)
    game.reveal(0, mines // width + 1)
    clock.advance(5)
    game.reveal(width - 1, height - 1)
    m = game_metrics(game)
    assert m.won and m.elapsed_ms == 5000
    assert (m.stnb is not None) == measured
