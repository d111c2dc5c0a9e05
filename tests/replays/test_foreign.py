"""Replay files read back (``read_replay_file``): textmines' own exports give back every figure
of the game they recorded, clicks just off the board count as ms-toollib counts them, and a
long game with hundreds of right clicks taken back opens quickly (it took 10.7 s).

ms-toollib runs in child processes only (tests/replays/toollib.py): it aborts its process on
input it dislikes.
"""

from __future__ import annotations

import importlib.util
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.factories import played_game
from tests.helpers import FakeClock
from tests.replays.toollib import (
    PIXELS,
    analysed_by_ms_toollib,
    basevideo_file,
    centre,
    long_game,
)
from textmines.engine.actions import ActionKind
from textmines.engine.board import Board
from textmines.engine.game import Game
from textmines.engine.metrics import GameMetrics, game_metrics
from textmines.replays.evf import export_evf
from textmines.replays.foreign import read_replay_file, recording_of
from textmines.replays.recording import Recording

#: The tests that read a file: ms-toollib parses it (in a child process).
needs_toollib = pytest.mark.skipif(
    importlib.util.find_spec("ms_toollib") is None, reason="needs ms-toollib"
)

SIZES = [(8, 8, 10), (9, 9, 10), (16, 16, 40), (30, 16, 99)]
#: What the random player does (marks more often), besides revealing the safe cells left at
#: the end.
PLAYS = (
    "reveal safe",
    "reveal any",
    "mark",
    "marks",
    "marks",
    "flag",
    "chord",
    "cursor",
    "question marks",
)


@st.composite
def random_games(draw: st.DrawFn) -> Game:
    """A game on a preset board, played to its end: random moves (wasted clicks, flags right
    and wrong, question marks put on and taken off, the option itself turned on and off,
    chords that work and chords that do not, reveals that may hit a mine), then every safe
    cell left revealed, with pauses of every length."""
    width, height, mines = draw(st.sampled_from(SIZES))
    clock = FakeClock()
    game = Game(
        width,
        height,
        mines,
        seed=draw(st.integers(0, 2**20)),
        question_marks=draw(st.sampled_from((True, True, False))),
        clock=clock,
    )
    cells = [(x, y) for y in range(height) for x in range(width)]
    game.reveal(*draw(st.sampled_from(cells)))
    board = game.board
    assert board is not None
    for play, pick, pause in draw(
        st.lists(
            st.tuples(st.sampled_from(PLAYS), st.integers(0, 10**6), st.integers(0, 3000)),
            min_size=5,
            max_size=40,
        )
    ):
        if game.status.is_over:
            break
        clock.advance(pause / 1000)
        play_one(game, play, pick, cells)
    while not game.status.is_over:
        clock.advance(0.3)
        x, y = next(c for c in cells if not game.is_revealed(*c) and not board.is_mine(*c))
        if game.cell(x, y) == "F":
            game.toggle_mark(x, y)  # a wrong flag off (or on to a question mark)
        else:
            game.reveal(x, y)
    return game


def play_one(game: Game, play: str, pick: int, cells: list[tuple[int, int]]) -> None:
    """One of ``PLAYS`` on ``game``: ``pick`` chooses the cell among those it may go to."""
    board = game.board
    assert board is not None
    covered = [(x, y) for x, y in cells if game.cell(x, y) in "#?F"]
    anywhere = cells[pick % len(cells)]
    if play == "reveal safe":
        safe = [(x, y) for x, y in covered if not board.is_mine(x, y)] or covered
        game.reveal(*safe[pick % len(safe)])
    elif play == "marks":  # a flag, then on to a question mark, then that taken off
        cell = covered[pick % len(covered)] if covered else cells[0]
        for _ in range(1 + pick % 3):
            game.toggle_mark(*cell)
    elif play == "question marks":
        game.question_marks = not game.question_marks
    else:
        moves = {
            "reveal any": game.reveal,
            "mark": game.toggle_mark,
            "flag": game.flag,
            "chord": game.chord,
            "cursor": game.note_cursor,
        }
        moves[play](*anywhere)


def figures_of(path: Path) -> GameMetrics:
    """Every figure of the game in replay file ``path``, as textmines reads it."""
    return game_metrics(read_replay_file(path).recording.game())


def assert_as_ms_toollib_measures(library: dict[str, Any], ours: GameMetrics) -> None:
    expected = dict(
        bbbv=ours.bbbv,
        rtime_ms=ours.elapsed_ms,
        completed=ours.won,
        left=ours.left_clicks,
        right=ours.right_clicks,
        double=ours.chord_clicks,
        lce=ours.left_effective,
        rce=ours.right_effective,
        dce=ours.chord_effective,
        solved=ours.solved_bbbv,
        op=ours.openings,
        isl=ours.islands,
    )
    assert {key: library[key] for key in expected} == expected
    assert library["ioe"] == pytest.approx(ours.ioe)
    assert library["corr"] == pytest.approx(ours.correctness)
    assert library["thrp"] == pytest.approx(ours.throughput)
    if ours.rqp is not None:
        assert library["rqp"] == pytest.approx(ours.rqp)
    assert library["stnb"] == pytest.approx(ours.stnb or 0.0)


@pytest.mark.slow  # ~1.6 s of CPU
@needs_toollib
@settings(max_examples=12)
@given(game=random_games())
@example(game=played_game(9, 9, 10, 8))  # Cl 44, and 43 once read back
def test_an_export_reads_back_with_every_figure_of_the_game(game: Game) -> None:
    # Found by a player: a Beginner game with question marks had Cl 13, and 12 once its .evf
    # was read back (a question mark taken off is a right click off the board in an .evf).
    recording = Recording.of(game)
    figures = game_metrics(recording.game())
    with tempfile.TemporaryDirectory() as name:
        exported = Path(name) / "game.evf"
        exported.write_bytes(export_evf(recording))
        read = read_replay_file(exported).recording
        assert game_metrics(read.game()) == figures
        # What was read, exported again, reads back the same (clicks off the board included).
        again = Path(name) / "again.evf"
        again.write_bytes(export_evf(read))
        assert figures_of(again) == figures
        for library in analysed_by_ms_toollib([exported, again]):
            assert_as_ms_toollib_measures(library, figures)


@needs_toollib
def test_clicks_just_off_the_board_count_as_ms_toollib_counts_them(tmp_path: Path) -> None:
    # Found on real files: Arbiter and Viennasweeper record clicks one cell past the board's
    # last column or row, ms-toollib counts them (Cl, so IOE and correctness), and textmines
    # read them as nothing: Cl 1 or 2 short. Made here with the library's own game.
    layout = [
        "*.......",
        "........",
        "...*....",
        "......*.",
        "........",
        ".*......",
        "....*...",
        "*......*",
    ]
    board = Board.from_text("\n".join(layout))
    right_of = (board.width * PIXELS + PIXELS // 2, 3 * PIXELS + 4)  # beside row 3
    below = (5 * PIXELS + 4, board.height * PIXELS + PIXELS // 2)  # under column 5
    steps: list[tuple[str, int, int]] = []

    def click(point: tuple[int, int], *buttons: str) -> None:
        steps.append(("wait", 7, 0))  # the library's game runs on the real clock
        steps.append(("mv", *point))
        steps.extend((button, *point) for button in buttons)

    click(centre(6, 0), "lc", "lr")  # an opening
    click(right_of, "lc", "lr")  # a left click off the board
    click(below, "rc", "rr")  # a right click off the board
    click(right_of, "rc", "rr")
    click(centre(3, 2), "rc", "rr")  # a flag
    click(below, "rc", "lc", "rr", "lr")  # a right press that becomes a chord: taken back
    click(centre(2, 1), "lc", "rc", "rr", "lr")  # a chord on the 1 beside the flag
    game = Game.from_board(board, question_marks=False)
    game.reveal(6, 0)
    game.toggle_mark(3, 2)
    game.chord(2, 1)
    for x, y in ((x, y) for y in range(board.height) for x in range(board.width)):
        if game.cell(x, y) == "#" and not board.is_mine(x, y):
            click(centre(x, y), "lc", "lr")
            game.reveal(x, y)
    click(below, "lc", "lr")  # after the end: counts nothing
    library = basevideo_file(board, steps, tmp_path / "game.evf")
    # Both right clicks off the board and the flag count; the chord's right press does not.
    assert library["is_completed"] and (library["right"], library["double"]) == (3, 1)

    read = read_replay_file(tmp_path / "game.evf").recording
    ours = game_metrics(read.game())
    assert read.game().view_text() == game.view_text(), "off the board, nothing changed"
    counted = (ours.left_clicks, ours.right_clicks, ours.chord_clicks, ours.clicks)
    assert counted == (library["left"], library["right"], library["double"], library["cl"])
    assert (ours.effective_clicks, ours.solved_bbbv) == (library["ce"], library["bbbv_solved"])
    assert ours.ioe == pytest.approx(library["ioe"])
    assert ours.correctness == pytest.approx(library["corr"])
    assert ours.throughput == pytest.approx(library["thrp"])
    kinds = [action.kind for action in read.actions]
    off_board = (kinds.count(ActionKind.LEFT_OFF_BOARD), kinds.count(ActionKind.RIGHT_OFF_BOARD))
    assert off_board == (1, 2)

    # Exported again, they are clicks off the board in the .evf, counted alike.
    again = tmp_path / "again.evf"
    again.write_bytes(export_evf(read))
    assert figures_of(again) == ours
    assert_as_ms_toollib_measures(analysed_by_ms_toollib([again])[0], ours)


@pytest.mark.slow  # ~0.9 s of CPU
@needs_toollib
def test_a_long_game_with_hundreds_of_right_clicks_taken_back_opens_quickly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Found by a player: a 60x36/540 game of 1,184 s and 56,659 mouse events took 10.7 s to
    # open, replaying the whole game for each of its 248 right clicks taken back by a chord.
    # The work is counted, not timed (benchmarks/replays.py times it: 0.4 s, was 11.5 s):
    # every action taken again on a replayed game.
    board, steps = long_game(seed=3)
    path = tmp_path / "long.evf"
    library = basevideo_file(board, steps, path)
    assert len(steps) > 50_000 and library["is_completed"]
    replayed = [0]
    original = Game.replayed.__func__  # type: ignore[attr-defined]

    def counting(cls: type[Game], board: Board, actions: Any, **options: Any) -> Game:
        actions = list(actions)
        replayed[0] += len(actions)
        return original(cls, board, actions, **options)

    monkeypatch.setattr(Game, "replayed", classmethod(counting))
    recording = read_replay_file(path).recording
    assert replayed[0] <= len(recording.actions)  # none at all, or one pass: linear
    assert game_metrics(recording.game()).clicks == library["cl"]


def test_a_flag_the_file_opened_is_taken_back_even_with_moves_after_it() -> None:
    # The reader's events: [t_ms, left, right, chord, row, column, useful], click counts so far.
    # A right press on a safe cell, a flag on a mine, then the program opens the first cell
    # (its right press was part of a two-button click): that flag never was.
    data = {
        "board": [[-1, 1, 1, -1], [1, 1, 1, 1], [0, 0, 0, 0]],
        "events": [
            [0, 1, 0, 0, 2, 1, 2],
            [100, 1, 1, 0, 0, 1, 1],
            [200, 1, 2, 0, 0, 0, 1],
            [300, 2, 2, 0, 0, 1, 2],
        ],
    }
    recording = recording_of(data)
    assert [(a.kind, a.x, a.y) for a in recording.actions] == [
        (ActionKind.REVEAL, 1, 2),
        (ActionKind.MARK, 0, 0),
        (ActionKind.REVEAL, 1, 0),
    ]
    assert recording.game().view_text() == "F1##\n1111\n0000"


def test_a_right_click_taken_back_leaves_no_flag_and_is_not_counted() -> None:
    # A flag set before the first click and taken off again: the program forgets both clicks
    # (its counts go back to 0), so the flag must go too.
    data = {
        "board": [[-1, 1, 1, -1], [1, 1, 1, 1], [0, 0, 0, 0]],
        "events": [
            [0, 0, 1, 0, 0, 2, 1],
            [40, 0, 0, 0, 0, 2, 1],
            [90, 1, 0, 0, 2, 1, 2],
            [150, 1, 0, 0, 2, 2, 0],
        ],
    }
    recording = recording_of(data)
    assert recording.game().view_text() == "####\n1111\n0000"
    assert game_metrics(recording.game()).right_clicks == 0
