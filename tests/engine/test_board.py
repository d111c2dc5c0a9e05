"""Board layout, text format and neighbour counts."""

from __future__ import annotations

import pytest

from textmines.engine import Board

LAYOUT = """\
*..*
....
.**.
"""


def test_text_round_trip_and_counts() -> None:
    board = Board.from_text(LAYOUT)
    assert (board.width, board.height, board.mine_count) == (4, 3, 4)
    assert board.to_text() == LAYOUT.strip()
    counts = [[board.number(x, y) for x in range(4)] for y in range(3)]
    assert counts == [[0, 1, 1, 0], [2, 3, 3, 2], [1, 1, 1, 1]]
    assert board.is_mine(0, 0) and board.is_mine(3, 0) and board.is_mine(1, 2)
    assert not board.is_mine(0, 2)


def test_number_of_a_mine_counts_its_neighbours() -> None:
    board = Board.from_text("**\n*.")
    assert board.number(0, 0) == 2
    assert board.number(1, 1) == 3


def test_corners_and_edges_have_fewer_neighbours() -> None:
    board = Board.from_text("...\n...\n...")
    assert len(list(board.neighbours(0, 0))) == 3
    assert len(list(board.neighbours(1, 0))) == 5
    assert len(list(board.neighbours(1, 1))) == 8
    assert list(board.neighbours(2, 2)) == [(1, 1), (2, 1), (1, 2)]


def test_no_wrap_between_rows() -> None:
    # A mine at the end of a row must not count for the start of the next one.
    board = Board.from_text("..*\n...\n*..")
    assert board.number(0, 1) == 1  # only the mine below it
    assert board.number(2, 1) == 1  # only the mine above it
    assert board.number(0, 0) == 0


@pytest.mark.parametrize("text", ["*.*..*", "*\n.\n.\n*\n."])
def test_one_wide_boards(text: str) -> None:
    board = Board.from_text(text)
    flat = text.replace("\n", "")
    for i, char in enumerate(flat):
        x, y = (i, 0) if "\n" not in text else (0, i)
        expected = sum(flat[j] == "*" for j in (i - 1, i + 1) if 0 <= j < len(flat))
        assert board.number(x, y) == expected
        assert board.is_mine(x, y) == (char == "*")


def test_from_text_tolerates_surrounding_whitespace() -> None:
    assert Board.from_text("\n  *.\n  ..  \n\n").to_text() == "*.\n.."


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("*..\n..", "row 2 has 2 cells, row 1 has 3"),
        ("*.x", "row 1, column 3: 'x'"),
        ("." * 1001, "between 1 and 1000"),
    ],
)
def test_bad_text_is_a_clear_value_error(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Board.from_text(text)


def test_outside_cells_are_rejected() -> None:
    board = Board.from_text("..\n..")
    with pytest.raises(ValueError, match=r"cell \(2, 0\) is outside the 2x2 board"):
        board.is_mine(2, 0)
    with pytest.raises(ValueError, match="outside"):
        board.number(0, -1)


def test_from_mines_matches_text() -> None:
    board = Board.from_mines(4, 3, [0, 3, 9, 10])
    assert board == Board.from_text(LAYOUT)
    assert board.mine_indices() == [0, 3, 9, 10]
    with pytest.raises(ValueError, match="outside"):
        Board.from_mines(2, 2, [4])
