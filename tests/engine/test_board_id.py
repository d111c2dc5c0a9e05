"""Board IDs: the same mines for anyone, stable across versions, bad IDs said plainly."""

from __future__ import annotations

import random

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from tests.helpers import FakeClock
from textmines.engine.board import Board
from textmines.engine.board_id import (
    ALPHABET,
    MAX_CELLS,
    BoardId,
    BoardIdError,
    board_id_of,
    parse_board_id,
    shared_board_of,
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


@pytest.mark.slow  # hypothesis: ~0.2 s of CPU
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
    assert not game.clock.started  # the header's timer shows 000, as before a first click
    clock.advance(30)
    game.clock.resume()  # a dialog closing, the terminal getting focus: still waiting
    assert game.elapsed_ms == 0 and not game.clock.started
    game.toggle_mark(7, 0)
    clock.advance(2.5)
    assert game.elapsed_ms == 2500 and game.clock.started


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


# ------------------------------------------------- hostile IDs (issue 34: items 1 and 12)
def signed(head: str, code: str) -> str:
    """``head`` and ``code`` as an ID whose check matches (a check is made of ASCII only)."""
    from textmines.engine import board_id

    text = head + code
    check = board_id._check(text) if text.isascii() else "00"
    return f"{head}-{code}{check}"


@pytest.mark.parametrize(
    "text",
    [
        "\u0661x9-10-o4.4-1ef8z1e8y1s",  # an Arabic-Indic 1: was a UnicodeEncodeError
        "\uff19x\uff19-\uff11\uff10-o\uff14.\uff14-1ef8z1e8y1s",  # full-width digits
        "9x9-10-o4.4-\uff11ef8z1e8y1s",  # a full-width 1 in the mines
    ],
)
def test_digits_other_than_ascii_are_no_board_id(text: str) -> None:
    with pytest.raises(BoardIdError, match="is not a board ID"):
        parse_board_id(text)


def test_a_number_too_long_for_a_board_is_refused_in_a_short_message() -> None:
    # 400 digits fit the ID's length but no board: they were quoted whole in the message.
    with pytest.raises(BoardIdError) as caught:
        parse_board_id(signed("9" * 400 + "x9-10-o4.4", "1ef8z1e8y"))
    message = str(caught.value)
    assert message.endswith("is too large a number for a board ID (up to 2,500 cells)")
    assert len(message) < 120


def test_a_number_beyond_pythons_int_limit_is_refused() -> None:
    # 5,000 digits: int() raised ValueError (its 4,300-digit limit) and the CLI a traceback.
    with pytest.raises(BoardIdError, match=r"\(5,022 characters\) is not a board ID \(too long"):
        parse_board_id(signed("9" * 5000 + "x9-10-o4.4", "1ef8z1e8y"))


def test_a_300000_character_code_with_a_good_check_is_refused_as_too_long() -> None:
    # Found by an attacker: the dialog froze for 10 s decoding it (benchmarks/engine.py times it).
    with pytest.raises(BoardIdError) as caught:
        parse_board_id(signed("9x9-10-o4.4", "z" * 300_000))
    assert str(caught.value) == (
        "'9x9-10-o4.4-zzzzzzzzzzzzzzzzzzzzzzzzzzzz'... (300,014 characters) is not a board ID "
        "(too long: at most 522 characters)"
    )


def test_the_longest_ids_of_the_largest_boards_are_within_the_limit() -> None:
    from textmines.engine.board_id import MAX_ID_LENGTH
    from textmines.engine.presets import MAX_SIDE

    # The longest head: every number as long as a board with an ID allows.
    sizes = [(w, min(MAX_SIDE, MAX_CELLS // w)) for w in range(1, MAX_SIDE + 1)]
    longest_head = max(len(f"{w}x{h}-{w * h - 1}-o{w - 1}.{h - 1}n-") for w, h in sizes)
    # The longest code: the last combination of 1,250 mines in 2,500 cells.
    last = Board.from_mines(50, 50, range(1250, 2500))
    text = BoardId(last, (0, 0), "opening", True).text()
    assert len(text) - len("50x50-1250-o0.0n-") + longest_head == MAX_ID_LENGTH
    assert parse_board_id(text).board == last
    long_head = Board.from_mines(227, 11, range(2496))
    text = BoardId(long_head, (226, 10), "opening", True).text()
    assert text.startswith("227x11-2496-o226.10n-") and len(text) <= MAX_ID_LENGTH
    assert parse_board_id(text).board == long_head


_UNICODE_DIGITS = st.characters(categories=["Nd"])
_NUMBERS = st.one_of(
    st.integers(0, 3000).map(str),
    st.integers(0, 10**12).map(str),
    st.text(_UNICODE_DIGITS, min_size=1, max_size=6),
    st.integers(4000, 6000).map(lambda digits: "9" * digits),  # past int()'s 4,300 digits
)
_CODES = st.one_of(
    st.text(st.sampled_from(ALPHABET + "ilou"), min_size=1, max_size=600),
    st.text(st.one_of(st.sampled_from(ALPHABET), _UNICODE_DIGITS), min_size=1, max_size=40),
    st.integers(400, 300_000).map(lambda length: "z" * length),
)


@st.composite
def hostile_ids(draw: st.DrawFn) -> str:
    """An ID made of parts that are each plausible, out of range, foreign or huge; signed
    with a matching check when it can be, so that the parser goes past the check."""
    width, height, mines, x, y = (draw(_NUMBERS) for _ in range(5))
    rule = draw(st.sampled_from("osx"))
    no_guess = draw(st.sampled_from(("", "n")))
    return signed(f"{width}x{height}-{mines}-{rule}{x}.{y}{no_guess}", draw(_CODES))


@st.composite
def mutated_ids(draw: st.DrawFn) -> str:
    """A valid ID with one character replaced by any character (a Unicode digit, often)."""
    text = draw(st.sampled_from(sorted(PINNED)))
    at = draw(st.integers(0, len(text) - 1))
    char = draw(st.one_of(_UNICODE_DIGITS, st.characters()))
    return text[:at] + char + text[at + 1 :]


@pytest.mark.slow  # 0.2-1.5 s of CPU
@given(st.one_of(st.text(), hostile_ids(), mutated_ids()))
@example("\u0661x9-10-o4.4-1ef8z1e8y1s")
@example("\uff10x9-10-o4.4-1ef8z1e8y1s")
@example("9" * 5000 + "x9-10-o4.4-1ef8z1e8y1s")
@example("9x9-10-o4.4-1ef8z1e8y1s" + "\udcff" * 5000)  # each shown as six characters
def test_any_text_is_a_board_or_one_line_saying_what_is_wrong(text: str) -> None:
    try:
        shared = parse_board_id(text)
    except BoardIdError as error:
        message = str(error)
        assert "\n" not in message and len(message) < 160, message
    else:
        assert parse_board_id(shared.text()) == shared


@pytest.mark.parametrize("flagged", ["a safe cell", "a mine"])
def test_a_reveal_on_a_flag_before_the_first_click_is_not_the_first_click(flagged: str) -> None:
    # Found by a player: flag a cell, press Space on it (nothing happens), then open another
    # cell. The ID named the flag's cell as the first click: it dealt another game, and with a
    # mine under the flag an ID that --game refuses (a restart lost at once).
    board = Board.from_text(".....\n.*...\n.....\n...*.\n.....")
    game = Game.from_board(board, clock=FakeClock())
    mark = (1, 1) if flagged == "a mine" else (4, 0)
    game.flag(*mark)
    game.reveal(*mark)  # on the flag: opens nothing
    assert game.first_reveal is None and board_id_of(game) is None
    game.reveal(0, 4)
    assert game.first_reveal == (0, 4)
    text = board_id_of(game)
    assert text is not None and parse_board_id(text).first == (0, 4)
    again = parse_board_id(text).game(clock=FakeClock())
    fresh = Game.from_board(board, clock=FakeClock())
    fresh.reveal(0, 4)
    assert again.view_text() == fresh.view_text()


def test_a_first_click_on_a_mine_of_a_laid_board_has_no_id() -> None:
    # A practice game from a replay's start has its mines laid: its first click can be on
    # one, and no first-click rule deals that board (--game refused the ID it was given).
    board = Board.from_text("*....\n.....\n.....\n.....\n....*")
    game = Game.from_board(board, clock=FakeClock())
    game.reveal(0, 0)
    assert game.status == "lost" and game.first_reveal == (0, 0)
    assert shared_board_of(game) is None and board_id_of(game) is None
