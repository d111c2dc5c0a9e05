"""Board IDs: the same mines for anyone, stable across versions, bad IDs said plainly."""

from __future__ import annotations

import random

import pytest

from tests.helpers import FakeClock
from textmines.engine.board import Board
from textmines.engine.board_id import (
    MAX_CELLS,
    BoardId,
    BoardIdError,
    board_id_of,
    parse_board_id,
)
from textmines.engine.game import Game

#: Pinned: these IDs must name these boards in every version to come.
PINNED = {
    "9x9-10-o4.4-1ef8z1e8y1s": (
        ".......*.\n....*....\n*........\n......*..\n.........\n..*.....*\n.....*...\n"
        ".........\n.*..*..*."
    ),
    "8x8-10-o2.6-4b78zzm7cp": (
        "..*.....\n..*.....\n.*......\n.*......\n.......*\n....*...\n......**\n......**"
    ),
}


@pytest.mark.parametrize(("text", "layout"), PINNED.items())
def test_pinned_ids_name_the_same_boards(text: str, layout: str) -> None:
    shared = parse_board_id(text)
    assert shared.board.to_text() == layout
    assert shared.text() == text


def test_an_expert_id_round_trips_with_its_rule_and_first_click() -> None:
    game = Game(30, 16, 99, seed=11, first_click="safe", no_guess=False)
    game.reveal(0, 0)
    text = board_id_of(game)
    assert text is not None and text.startswith("30x16-99-s0.0-") and len(text) < 100
    shared = parse_board_id(text)
    assert (shared.board, shared.first, shared.first_click) == (game.board, (0, 0), "safe")


def test_ids_round_trip_on_random_boards() -> None:
    rng = random.Random(3)
    for _ in range(200):
        width, height = rng.randint(1, 40), rng.randint(1, 40)
        if width * height < 2:
            continue
        mines = rng.randint(1, width * height - 1)
        cells = rng.sample(range(width * height), mines)
        board = Board.from_mines(width, height, cells)
        safe = next(i for i in range(width * height) if i not in set(cells))
        shared = BoardId(board, (safe % width, safe // width), "safe", rng.random() < 0.5)
        assert parse_board_id(shared.text()) == shared


def test_a_shared_game_starts_with_its_first_click_and_the_clock_at_the_first_move() -> None:
    clock = FakeClock()
    shared = parse_board_id("9x9-10-o4.4-1ef8z1e8y1s")
    game = shared.game(clock=clock)
    assert game.status == "playing" and game.is_revealed(4, 4)
    assert not game.clock_started  # the header's timer shows 000, as before a first click
    clock.advance(30)
    game.resume()  # a dialog closing, the terminal getting focus: still waiting
    assert game.elapsed_ms == 0 and not game.clock_started
    game.toggle_mark(7, 0)
    clock.advance(2.5)
    assert game.elapsed_ms == 2500 and game.clock_started


def test_ids_ignore_case_and_spaces_around() -> None:
    assert parse_board_id("  9X9-10-O4.4-1EF8Z1E8Y1S \n").board.mine_count == 10


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("hello", "not a board ID"),
        ("9x9-10-o4.4-1ef8z1e8y1t", "check does not match"),
        ("9x9-10-o4.4-1ef8z1e8ys", "check does not match"),
        ("9x9-10-o9.4-1ef8z1e8y1s", "check does not match"),
        ("0x9-10-o4.4-00", "check does not match"),
    ],
)
def test_a_bad_id_says_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(BoardIdError, match=message):
        parse_board_id(text)


def test_a_pasted_page_is_quoted_short() -> None:
    # Found by a player: 3,000 pasted 9s were quoted whole, pushing the dialog off screen.
    with pytest.raises(BoardIdError) as caught:
        parse_board_id("9" * 3000)
    message = str(caught.value)
    assert message.startswith(f"'{'9' * 40}'... (3,000 characters) is not a board ID")
    assert len(message) < 120


def test_a_well_formed_id_of_an_impossible_board_is_refused() -> None:
    from textmines.engine import board_id

    def signed(head: str, code: str) -> str:
        return f"{head}-{code}{board_id._check(head + code)}"

    with pytest.raises(BoardIdError, match="outside the 9x9 board"):
        parse_board_id(signed("9x9-10-o9.4", "1ef8z1e8y"))
    with pytest.raises(BoardIdError, match="do not fit"):
        parse_board_id(signed("3x3-9-o1.1", "0"))
    with pytest.raises(BoardIdError, match="has no ID"):
        parse_board_id(signed("100x100-10-o1.1", "1"))
    with pytest.raises(BoardIdError, match="do not decode"):
        parse_board_id(signed("3x3-2-o1.1", "zzzz"))
    with pytest.raises(BoardIdError, match="on a mine"):
        parse_board_id(signed("2x1-1-s0.0", "0"))


def test_big_boards_and_boards_not_dealt_have_no_id() -> None:
    assert board_id_of(Game(9, 9, 10, seed=1)) is None
    big = Game(60, 60, 100, seed=1)
    big.reveal(0, 0)
    assert MAX_CELLS < 60 * 60 and board_id_of(big) is None
