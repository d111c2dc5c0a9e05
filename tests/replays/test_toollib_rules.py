"""The rules and figures of textmines against ms-toollib playing the same game itself.

Each game is played in the library's own ``BaseVideo`` (the game Metasweeper runs, which follows
Arbiter and Viennasweeper): mouse presses and releases on cells, with flags set before the first
click, taken off, and chords on revealed 0s. The library writes the game as an .evf; textmines
reads that file as a player would open it (``read_replay_file``) and must reach the same end,
the same open cells and every figure the library measured: 3BV, solved 3BV, clicks by button,
effective clicks, openings, islands, time, IOE, correctness, throughput, 3BV/s, RQP and STNB.

ms-toollib aborts its process on input it dislikes, and its clock is the wall clock: the games
run in a child process, which waits a few milliseconds where a game needs time to pass.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from textmines.engine.actions import ActionKind
from textmines.engine.board import Board
from textmines.engine.game import Game
from textmines.engine.metrics import GameMetrics, game_metrics
from textmines.replays.foreign import read_replay_file

#: Run by the child: plays each game of the JSON on stdin in a BaseVideo, writes its .evf and
#: prints what the library measured. A step is ``[kind, x, y]``: ``l`` a left click, ``r`` a
#: right click, ``c`` a two-button chord; ``["wait", ms]`` lets time pass; ``["clear"]`` left
#: clicks every covered safe cell, row by row, until the game ends.
PLAY = """
import json, sys, time
import ms_toollib as ms

PIX = 16
PRESSES = {"l": ("lc", "lr"), "r": ("rc", "rr"), "c": ("lc", "rc", "rr", "lr")}
out = []
for game in json.loads(sys.stdin.read()):
    board = game["board"]
    video = ms.BaseVideo(board, PIX)

    def click(kind, x, y):
        for event in PRESSES[kind]:
            video.step(event, (y * PIX + PIX // 2, x * PIX + PIX // 2))

    for step in game["steps"]:
        if step[0] == "wait":
            time.sleep(step[1] / 1000)
        elif step[0] == "clear":
            for y, row in enumerate(board):
                for x, cell in enumerate(row):
                    if cell >= 0 and video.game_board[y][x] == 10 and video.game_board_state == 2:
                        click("l", x, y)
        else:
            click(*step)
    video.generate_evf_v4_raw_data()
    # save_to_evf_file (1.5.20) may return before the file is on disk: write the bytes here.
    with open(game["path"], "wb") as file:
        file.write(bytes(video.raw_data))
    out.append({
        name: getattr(video, name)
        for name in (
            "is_completed", "bbbv", "bbbv_solved", "left", "right", "double", "lce", "rce",
            "dce", "op", "isl", "rtime_ms", "ioe", "corr", "thrp", "bbbv_s", "rqp", "stnb",
            "game_board",
        )
    })
print(json.dumps(out))
"""

Step = list[Any]


def library_rows(board: Board) -> list[list[int]]:
    """The board as ms-toollib takes it: rows of -1 for a mine, else the number."""
    return [
        [-1 if board.is_mine(x, y) else board.number(x, y) for x in range(board.width)]
        for y in range(board.height)
    ]


def played_by_the_library(
    tmp_path: Path, games: list[tuple[Board, list[Step]]]
) -> list[tuple[dict[str, Any], Path]]:
    """Play each game in ms-toollib; its figures and the .evf it wrote, for each."""
    pytest.importorskip("ms_toollib")
    paths = [tmp_path / f"game{number}.evf" for number in range(len(games))]
    spec = [
        {"board": library_rows(board), "steps": steps, "path": str(path)}
        for (board, steps), path in zip(games, paths, strict=True)
    ]
    done = subprocess.run(
        [sys.executable, "-c", PLAY],
        input=json.dumps(spec),
        capture_output=True,
        text=True,
        cwd=tmp_path,  # where a crash leaves its crash.log
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, f"ms-toollib failed ({done.returncode}): {done.stderr[-2000:]}"
    figures: list[dict[str, Any]] = json.loads(done.stdout)
    return list(zip(figures, paths, strict=True))


def read_by_textmines(path: Path) -> tuple[Game, GameMetrics]:
    game = read_replay_file(path).recording.game()
    return game, game_metrics(game)


def assert_agrees(lib: dict[str, Any], game: Game, m: GameMetrics) -> None:
    """Every figure textmines measures on the file is the one the library measured."""
    ours = {
        "is_completed": m.won,
        "bbbv": m.bbbv,
        "bbbv_solved": m.solved_bbbv,
        "left": m.left_clicks,
        "right": m.right_clicks,
        "double": m.chord_clicks,
        "lce": m.left_effective,
        "rce": m.right_effective,
        "dce": m.chord_effective,
        "op": m.openings,
        "isl": m.islands,
        "rtime_ms": m.elapsed_ms,
    }
    assert ours == {name: lib[name] for name in ours}
    assert m.ioe == pytest.approx(lib["ioe"])
    assert m.correctness == pytest.approx(lib["corr"])
    assert m.throughput == pytest.approx(lib["thrp"])
    assert m.bbbv_per_second == pytest.approx(lib["bbbv_s"])
    assert m.rqp == pytest.approx(lib["rqp"])
    # The library writes 0 where a board has no STNB; textmines has none (None).
    assert (m.stnb or 0.0) == pytest.approx(lib["stnb"])
    # The same cells are open (the library leaves the unflagged mines of a win covered).
    open_here = {
        (x, y)
        for y, row in enumerate(game.view_text().splitlines())
        for x, c in enumerate(row)
        if c.isdigit()
    }
    open_there = {
        (x, y) for y, row in enumerate(lib["game_board"]) for x, c in enumerate(row) if c < 9
    }
    assert open_here == open_there


# ---------------------------------------------------------------- chords on 0s
def walled_board(width: int, height: int) -> Board:
    """10 mines along the bottom (the last row, then the row above from the left): one
    opening over the rest of the board."""
    mines = list(range((height - 1) * width, height * width))
    mines += [(height - 2) * width + x for x in range(10 - width)]
    return Board.from_mines(width, height, mines)


def zeros_in_column(board: Board, x: int) -> list[tuple[int, int]]:
    return [
        (x, y) for y in range(board.height) if not board.is_mine(x, y) and board.number(x, y) == 0
    ]


def walls_game(board: Board) -> list[Step]:
    """Flags on every 0 of columns 2 and 5 before the first click split the opening in three;
    a click opens the left part; the first wall comes off and a chord on a 0 beside it opens
    the middle; a chord on a 0 beside the second wall (its flags do not match the 0) opens
    nothing; the second wall comes off and a chord on that 0 opens the rest."""
    first, second = zeros_in_column(board, 2), zeros_in_column(board, 5)
    return [
        *(["r", x, y] for x, y in first + second),
        ["l", 0, 0],
        *(["r", x, y] for x, y in first),
        ["c", 1, 0],
        ["c", 4, 0],
        *(["r", x, y] for x, y in second),
        ["wait", 30],
        ["c", 4, 0],
    ]


@pytest.mark.parametrize("size", [(8, 8), (9, 9)])
def test_chords_on_zeros_win_the_game_the_library_won(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    board = walled_board(*size)
    ((lib, path),) = played_by_the_library(tmp_path, [(board, walls_game(board))])
    assert lib["is_completed"], "the library won this game"
    game, metrics = read_by_textmines(path)
    assert game.status == "won"
    chords = [a for a in game.actions if a.kind == ActionKind.CHORD]
    assert [(a.x, a.y) for a in chords] == [(1, 0), (4, 0), (4, 0)]
    assert all(board.number(a.x, a.y) == 0 for a in chords)
    assert (metrics.chord_clicks, metrics.chord_effective) == (3, 2)
    assert_agrees(lib, game, metrics)


def test_a_chord_on_a_zero_with_a_flag_beside_it_opens_nothing_there_either(
    tmp_path: Path,
) -> None:
    board = walled_board(8, 8)
    steps = walls_game(board)
    # One flag of the second wall goes back on: the 0s beside it have a flag, not 0, and
    # their chords open nothing; it comes off again and the last chord wins.
    steps[-1:-1] = [["r", 5, 1], ["c", 4, 0], ["c", 4, 1], ["r", 5, 1]]
    ((lib, path),) = played_by_the_library(tmp_path, [(board, steps)])
    recording = read_replay_file(path).recording
    chords = [n for n, a in enumerate(recording.actions) if a.kind == ActionKind.CHORD]
    assert len(chords) == 5
    before_the_last = recording.game(chords[-1])
    assert [before_the_last.cell(x, 0) for x in range(4, 8)] == ["0", "#", "#", "#"]
    game, metrics = read_by_textmines(path)
    assert game.status == "won" and lib["is_completed"]
    assert (metrics.chord_clicks, metrics.chord_effective) == (5, 2)
    assert_agrees(lib, game, metrics)


# ---------------------------------------------------------------- STNB on each board
def random_board(width: int, height: int, mines: int, seed: int) -> Board:
    return Board.from_mines(width, height, random.Random(seed).sample(range(width * height), mines))


def flag_stopped_game(board: Board) -> list[Step]:
    """A flag on a 0 beside another 0, set before the first click, holds back the flood of a
    click on that other 0; the flag comes off and a chord on the open 0 opens it; then every
    covered safe cell is clicked."""
    for y in range(board.height):
        for x in range(board.width):
            if board.is_mine(x, y) or board.number(x, y):
                continue
            beside = [n for n in board.neighbours(x, y) if not board.is_mine(*n)]
            zero = next((n for n in beside if board.number(*n) == 0), None)
            if zero is not None:
                return [
                    ["r", *zero],
                    ["l", x, y],
                    ["r", *zero],
                    ["c", x, y],
                    ["wait", 30],
                    ["clear"],
                ]
    raise AssertionError("the board has no two 0s side by side")


#: ms-toollib's STNB is measured on Arbiter's levels only: not on the 9x9 Beginner of Windows,
#: an Expert on its side, or any other board.
STNB_BOARDS = [
    ((8, 8, 10), True),
    ((16, 16, 40), True),
    ((30, 16, 99), True),
    ((9, 9, 10), False),
    ((16, 30, 99), False),
    ((10, 10, 10), False),
    ((12, 7, 9), False),
]


@pytest.mark.slow  # ~0.35 s of CPU
def test_stnb_is_the_librarys_on_each_board(tmp_path: Path) -> None:
    boards = [random_board(*size, seed=7) for size, _ in STNB_BOARDS]
    played = played_by_the_library(tmp_path, [(b, flag_stopped_game(b)) for b in boards])
    for (size, measured), (lib, path) in zip(STNB_BOARDS, played, strict=True):
        assert lib["is_completed"], size
        game, metrics = read_by_textmines(path)
        assert game.status == "won", size
        assert (lib["stnb"] > 0) == measured, size
        assert (metrics.stnb is not None) == measured, size
        assert metrics.chord_effective == 1, size  # the chord on the 0
        assert_agrees(lib, game, metrics)
