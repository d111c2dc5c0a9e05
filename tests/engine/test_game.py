"""The game rules: reveal, flood, marks, chord, win, loss, counters, clock."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.helpers import FakeClock
from textmines.engine import Board, Game, Status


def game_on(text: str, **kwargs: object) -> Game:
    return Game.from_board(Board.from_text(text), **kwargs)  # type: ignore[arg-type]


def rows(game: Game) -> list[str]:
    return game.view_text().splitlines()


# A 5x5 board: one opening in the bottom-left, numbers around two mines top-right.
FIVE = """\
...*.
....*
.....
.....
.....
"""


# ---------------------------------------------------------------- generation
PINNED = [
    (
        1,
        (4, 4),
        "opening",
        (9, 9, 10),
        "..*......\n*.....*.*\n*........\n.........\n.*.......\n.........\n.........\n"
        ".*......*\n...**....",
    ),
    (
        42,
        (0, 0),
        "safe",
        (9, 9, 10),
        ".....*.*.\n......*..\n..*..*...\n......*.*\n..*......\n.........\n.........\n"
        ".*.......\n.....*...",
    ),
    (
        7,
        (3, 3),
        "opening",
        (16, 16, 40),
        "*.*.............\n.*......***...*.\n**......*.**....\n*.....***.......\n"
        ".*............*.\n...........*...*\n.......*........\n**..............\n"
        ".......*..*..*..\n..*.....*.*.....\n.........*...*..\n...**.........*.\n"
        ".*......*.......\n................\n..*.............\n......*.....*.*.",
    ),
]


@pytest.mark.parametrize(("seed", "click", "rule", "size", "layout"), PINNED)
def test_pinned_layouts_never_change(
    seed: int, click: tuple[int, int], rule: str, size: tuple[int, int, int], layout: str
) -> None:
    game = Game(*size, seed=seed, first_click=rule)
    assert game.board is None
    game.reveal(*click)
    assert game.board is not None
    assert game.board.to_text() == layout


def test_same_seed_and_click_same_board_other_click_other_board() -> None:
    a, b, c = (Game(30, 16, 99, seed=5) for _ in range(3))
    a.reveal(3, 3)
    b.reveal(3, 3)
    c.reveal(20, 10)
    assert a.board == b.board
    assert a.board != c.board


def test_opening_rule_keeps_the_click_and_its_neighbours_free() -> None:
    for seed in range(50):
        game = Game(9, 9, 72, seed=seed)  # as dense as the rule allows
        game.reveal(0, 8)
        board = game.board
        assert board is not None and board.mine_count == 72
        assert not board.is_mine(0, 8)
        assert not any(board.is_mine(x, y) for x, y in board.neighbours(0, 8))
        assert game.status == Status.PLAYING and game.cell(0, 8) == "0"


def test_safe_rule_keeps_only_the_clicked_cell_free() -> None:
    neighbour_mines = 0
    for seed in range(50):
        game = Game(9, 9, 40, seed=seed, first_click="safe")
        game.reveal(4, 4)
        board = game.board
        assert board is not None and not board.is_mine(4, 4)
        neighbour_mines += sum(board.is_mine(x, y) for x, y in board.neighbours(4, 4))
        assert game.status != Status.LOST
    assert neighbour_mines > 0  # neighbours are not protected


def test_safe_rule_with_all_but_one_cell_mined_wins_at_once() -> None:
    game = Game(9, 9, 80, seed=3, first_click="safe")
    change = game.reveal(5, 5)
    assert game.status == Status.WON and change.status_changed
    assert rows(game)[5][5] == "8"


def test_no_seed_still_records_one() -> None:
    game = Game(9, 9, 10)
    assert isinstance(game.seed, int) and game.seed >= 0


# ---------------------------------------------------------------- reveal and flood
def test_reveal_a_number_opens_only_that_cell() -> None:
    game = game_on(FIVE)
    change = game.reveal(3, 1)
    assert list(change.cells()) == [(3, 1)]
    assert change.status == Status.PLAYING and change.status_changed
    assert rows(game)[1] == "###2#"
    assert game.status == Status.PLAYING


def test_flood_opens_the_region_and_its_border() -> None:
    game = game_on(FIVE)
    change = game.reveal(0, 4)
    assert rows(game) == ["001##", "0012#", "00011", "00000", "00000"]
    assert change.cell_count == 22
    assert sorted(change.cells()) == sorted(
        (x, y) for y in range(5) for x in range(5) if rows(game)[y][x] != "#"
    )
    assert change.rows() == [0, 1, 2, 3, 4]


def test_flood_stops_at_flags_and_passes_question_marks() -> None:
    game = game_on(FIVE)
    game.toggle_mark(0, 0)  # flag
    game.toggle_mark(2, 3)
    game.toggle_mark(2, 3)  # question mark
    game.reveal(4, 4)
    view = rows(game)
    assert view[0][0] == "F"  # a flag is never opened by a flood
    assert view[3][2] == "0"  # a question mark is
    assert view[1][0] == "0"


def test_flags_wall_off_part_of_a_region() -> None:
    game = game_on("......\n......\n......\n.....*")
    for y in range(3):
        game.toggle_mark(2, y)
    game.toggle_mark(2, 3)
    game.reveal(0, 0)
    assert rows(game) == ["00F###", "00F###", "00F###", "00F###"]
    assert game.safe_left == 15  # 23 safe cells, 8 opened


def test_a_click_never_opens_a_flag_but_opens_a_question_mark() -> None:
    game = game_on(FIVE)
    game.toggle_mark(3, 1)
    change = game.reveal(3, 1)
    assert not change and game.status == Status.READY  # the first reveal did not happen
    game.toggle_mark(3, 1)  # -> ?
    game.reveal(3, 1)
    assert game.cell(3, 1) == "2"


def test_revealing_a_revealed_cell_changes_nothing() -> None:
    game = game_on(FIVE)
    game.reveal(3, 1)
    change = game.reveal(3, 1)
    assert not change and change.cell_count == 0
    assert game.effective_clicks == 1 and len(game.actions) == 2


def test_huge_flood_has_no_recursion_limit() -> None:
    game = Game(1000, 1000, 1, seed=9)
    change = game.reveal(500, 500)
    assert game.status == Status.WON
    assert change.cell_count == 1_000_000  # 999,999 safe cells opened + the mine flagged


@pytest.mark.parametrize(
    ("text", "click", "view"),
    [
        ("......*", (0, 0), "000001#"),
        ("*......", (6, 0), "#100000"),
        ("...*...", (0, 0), "001####"),
    ],
)
def test_one_row_boards(text: str, click: tuple[int, int], view: str) -> None:
    game = game_on(text)
    game.reveal(*click)
    assert game.view_text() in (view, view.replace("#", "F"))


def test_one_column_board() -> None:
    game = game_on("\n".join(".....*"))
    game.reveal(0, 0)
    assert game.status == Status.WON
    assert game.view_text() == "\n".join("00001F")


def test_board_with_a_single_safe_cell() -> None:
    game = game_on("***\n*.*\n***")
    change = game.reveal(1, 1)
    assert game.status == Status.WON and change.status_changed
    assert rows(game) == ["FFF", "F8F", "FFF"]
    assert game.safe_left == 0 and game.percent_cleared == 100.0


# ---------------------------------------------------------------- marks
def test_mark_cycle_with_question_marks() -> None:
    game = game_on(FIVE)
    seen = []
    for _ in range(4):
        game.toggle_mark(1, 1)
        seen.append(game.cell(1, 1))
    assert seen == ["F", "?", "#", "F"]


def test_mark_cycle_without_question_marks() -> None:
    game = game_on(FIVE, question_marks=False)
    seen = []
    for _ in range(3):
        game.toggle_mark(1, 1)
        seen.append(game.cell(1, 1))
    assert seen == ["F", "#", "F"]


def test_switching_question_marks_off_mid_game() -> None:
    game = game_on(FIVE)
    game.toggle_mark(1, 1)
    game.toggle_mark(1, 1)
    assert game.cell(1, 1) == "?"
    game.question_marks = False
    game.toggle_mark(1, 1)  # ? -> covered
    game.toggle_mark(1, 1)  # covered -> flag
    game.toggle_mark(1, 1)  # flag -> covered, no ? any more
    assert game.cell(1, 1) == "#"


def test_flag_sets_a_flag_and_never_cycles_on() -> None:
    game = game_on(FIVE)
    game.toggle_mark(2, 2)
    game.toggle_mark(2, 2)
    assert game.cell(2, 2) == "?"
    for x, y in ((1, 1), (1, 1), (2, 2)):
        game.flag(x, y)
    assert (game.cell(1, 1), game.cell(2, 2), game.flags) == ("F", "F", 2)
    assert not game.flag(1, 1), "a flag stays a flag"
    game.reveal(3, 1)
    assert not game.flag(3, 1) and game.cell(3, 1) == "2"


def test_every_move_goes_through_act_and_counts_as_its_click() -> None:
    from textmines.engine import ActionKind
    from textmines.engine.metrics import game_metrics

    game = game_on(FIVE)
    game.act(ActionKind.REVEAL, 0, 4)
    game.act(ActionKind.FLAG, 3, 0)
    game.act(ActionKind.MARK, 4, 1)
    game.act(ActionKind.CHORD, 3, 1)
    assert [a.kind for a in game.actions] == ["reveal", "flag", "mark", "chord"]
    metrics = game_metrics(game)
    assert (metrics.left_clicks, metrics.right_clicks, metrics.chord_clicks) == (1, 2, 1)
    with pytest.raises(ValueError, match="not a move"):
        game.act(ActionKind.QUESTION_MARKS, 0, 0)


def test_revealed_cells_cannot_be_marked() -> None:
    game = game_on(FIVE)
    game.reveal(3, 1)
    change = game.toggle_mark(3, 1)
    assert not change and game.cell(3, 1) == "2" and game.flags == 0


def test_mines_left_counts_flags_and_goes_negative() -> None:
    game = game_on("*.\n..\n..")
    assert game.mines_left == 1
    for x, y in [(1, 0), (0, 1), (1, 1)]:
        game.toggle_mark(x, y)
    assert game.mines_left == -2
    game.toggle_mark(1, 0)  # flag -> ?
    assert game.mines_left == -1


# ---------------------------------------------------------------- chord
def chord_game() -> Game:
    game = game_on(FIVE)
    game.reveal(3, 1)  # the 2 between both mines
    return game


def test_chord_opens_the_rest_when_flags_match() -> None:
    game = chord_game()
    game.toggle_mark(3, 0)
    game.toggle_mark(4, 1)
    change = game.chord(3, 1)
    # The chord opens (2, 2), a zero, whose flood clears the rest: a win.
    assert game.status == Status.WON and change.status_changed
    assert rows(game)[:3] == ["001F2", "0012F", "00011"]
    assert {(2, 0), (4, 0), (0, 4)} <= set(change.cells())
    assert (3, 1) not in set(change.cells())


def test_chord_with_other_flag_counts_does_nothing() -> None:
    game = chord_game()
    assert not game.chord(3, 1)  # no flag
    game.toggle_mark(3, 0)
    assert not game.chord(3, 1)  # one flag of two
    game.toggle_mark(2, 0)
    game.toggle_mark(4, 1)
    assert not game.chord(3, 1)  # three flags
    assert game.safe_left == 22


def test_chord_with_a_wrong_flag_loses() -> None:
    game = chord_game()
    game.toggle_mark(3, 0)
    game.toggle_mark(2, 0)  # wrong: (4, 1) is the mine
    change = game.chord(3, 1)
    assert game.status == Status.LOST and change.status_changed
    assert (game.cell(2, 0), game.cell(3, 0), game.cell(4, 1)) == ("W", "F", "X")


def test_chord_on_covered_zero_or_question_does_nothing() -> None:
    game = game_on(FIVE)
    game.reveal(0, 4)
    assert not game.chord(0, 4)  # a zero with nothing covered around it
    assert not game.chord(4, 0)  # covered
    game.toggle_mark(4, 0)
    game.toggle_mark(4, 0)
    assert not game.chord(4, 0)  # question mark


def zero_behind_a_wall() -> Game:
    """FIVE with flags on column 1 set before the first click, a reveal of (0, 2) whose flood
    they stop, and the flags taken off again: open 0s beside covered cells."""
    game = game_on(FIVE, question_marks=False)
    for y in range(5):
        game.toggle_mark(1, y)
    game.reveal(0, 2)
    for y in range(5):
        game.toggle_mark(1, y)
    assert rows(game) == ["0####"] * 5
    return game


def test_chord_on_a_zero_opens_its_covered_neighbours() -> None:
    # Arbiter and Viennasweeper chord on any revealed cell whose flags match its number.
    game = zero_behind_a_wall()
    change = game.chord(0, 2)
    assert {(1, 1), (1, 2), (1, 3)} <= set(change.cells())
    # (1, 2) is a 0 too: its flood opens all but the lone 2 in the corner.
    assert rows(game) == ["001##", "0012#", "00011", "00000", "00000"]
    assert game.status == Status.PLAYING and game.safe_left == 1
    assert game.effective.chord == 1
    assert not game.chord(0, 0)  # no covered neighbour left: nothing to open


def test_chord_on_a_zero_with_flags_around_opens_nothing() -> None:
    game = zero_behind_a_wall()
    game.toggle_mark(1, 1)  # a flag beside the 0s at (0, 0), (0, 1) and (0, 2)
    for y in range(3):
        assert not game.chord(0, y)
    assert rows(game) == ["0####", "0F###", "0####", "0####", "0####"]
    assert game.effective.chord == 0 and game.safe_left == 18


def test_chord_before_the_first_reveal_does_nothing() -> None:
    game = Game(9, 9, 10, seed=1)
    assert not game.chord(4, 4)
    assert game.status == Status.READY and game.board is None


# ---------------------------------------------------------------- win and loss
def test_win_flags_every_mine_and_freezes_the_board(clock: FakeClock) -> None:
    game = game_on(FIVE, clock=clock)
    game.reveal(0, 4)
    clock.advance(2.5)
    game.toggle_mark(4, 1)  # one mine flagged by hand, one not
    change = game.reveal(4, 0)
    assert game.status == Status.WON and change.status_changed
    assert set(change.cells()) == {(4, 0), (3, 0)}  # the opened cell and the mine now flagged
    assert rows(game)[:2] == ["001F2", "0012F"]
    assert game.mines_left == 0 and game.safe_left == 0
    frozen = game.view_text()
    clock.advance(10)
    for action in (game.reveal, game.toggle_mark, game.chord):
        assert not action(0, 0) and not action(3, 0)
    assert game.view_text() == frozen
    assert game.elapsed_ms == 2500


def test_loss_shows_mines_exploded_and_wrong_flags() -> None:
    game = game_on(FIVE)
    game.reveal(0, 4)
    game.toggle_mark(4, 0)  # wrong flag
    game.toggle_mark(4, 1)  # right flag
    game.toggle_mark(4, 1)  # -> ?, a question mark on a mine
    change = game.reveal(3, 0)
    assert game.status == Status.LOST and change.status == Status.LOST
    assert rows(game)[:2] == ["001XW", "0012*"]
    assert set(change.cells()) == {(3, 0), (4, 0), (4, 1)}
    assert not game.reveal(4, 0) and not game.toggle_mark(2, 2)


def test_loss_on_the_first_click_of_a_fixed_board() -> None:
    game = game_on("*.\n..")
    change = game.reveal(0, 0)
    assert game.status == Status.LOST and change.status_changed
    assert game.view_text() == "X#\n##"


def test_win_needs_every_safe_cell_not_every_flag() -> None:
    game = game_on("*..")
    game.reveal(1, 0)
    assert game.status == Status.PLAYING
    game.reveal(2, 0)
    assert game.status == Status.WON
    assert game.view_text() == "F10"


# ---------------------------------------------------------------- counters and clock
def test_counters() -> None:
    game = game_on(FIVE)
    assert (game.mines_left, game.safe_left, game.percent_cleared) == (2, 23, 0.0)
    game.reveal(3, 1)
    assert game.safe_left == 22
    assert game.percent_cleared == pytest.approx(100 / 23)


def test_clock_runs_from_first_reveal_to_the_end(clock: FakeClock) -> None:
    game = game_on(FIVE, clock=clock)
    clock.advance(5)
    game.toggle_mark(4, 1)  # marks before the first reveal do not start the clock
    assert game.elapsed_ms == 0
    game.reveal(3, 1)
    clock.advance(1.2345)
    assert game.elapsed_ms == 1234 or game.elapsed_ms == 1235
    clock.advance(0.7655)
    assert game.elapsed_ms == 2000
    game.reveal(3, 0)  # boom
    clock.advance(60)
    assert game.status == Status.LOST and game.elapsed_ms == 2000


def test_pause_stops_the_clock(clock: FakeClock) -> None:
    game = game_on(FIVE, clock=clock)
    assert not game.clock.pause()  # nothing to pause before the first reveal
    game.reveal(3, 1)
    clock.advance(1)
    assert game.clock.pause() and game.clock.paused
    clock.advance(100)
    assert game.elapsed_ms == 1000
    assert game.clock.resume() and not game.clock.paused
    clock.advance(0.5)
    assert game.elapsed_ms == 1500
    game.clock.pause()
    clock.advance(3)
    game.toggle_mark(0, 0)  # acting restarts the clock
    clock.advance(0.25)
    assert not game.clock.paused and game.elapsed_ms == 1750


def test_actions_outside_the_board_raise() -> None:
    game = game_on(FIVE)
    with pytest.raises(ValueError, match=r"cell \(5, 0\) is outside the 5x5 board"):
        game.reveal(5, 0)
    with pytest.raises(ValueError, match="outside"):
        game.toggle_mark(0, -1)


def test_fixed_board_needs_a_safe_cell() -> None:
    with pytest.raises(ValueError, match="at least one safe cell"):
        Game.from_board(Board.from_text("**"))


@given(
    st.integers(1, 12),
    st.lists(st.tuples(st.integers(0, 143), st.integers(1, 30)), max_size=6),
)
def test_a_changes_bounds_hold_exactly_its_cells(width: int, spans: list[tuple[int, int]]) -> None:
    # Worked out from the runs (a first click on 1000x1000 opens a million cells, and listing
    # them took a second): the same rectangle the cells give.
    from textmines.engine.game import Change

    runs = tuple((start, start + length) for start, length in spans)
    change = Change(width, runs, Status.PLAYING)
    cells = list(change.cells())
    if not cells:
        assert change.bounds() is None
        return
    xs, ys = zip(*cells, strict=True)
    assert change.bounds() == (min(xs), min(ys), max(xs), max(ys))
