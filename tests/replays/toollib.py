"""ms-toollib (Metasweeper's library, the field's reference for replay files and their figures)
on the other side of the tests: files it makes from mouse events on its own game
(``BaseVideo``), and its figures for any .evf file. The replay tests and
benchmarks/replays.py share them.

The library aborts its whole process on input it dislikes, so it only ever runs in a child
process. Positions are pixels, 16 to a cell, x from the left and y from the top.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from textmines.engine.board import Board
from textmines.engine.game import Game

PIXELS = 16

#: The figures the library gives for a game, by its names.
FIGURES = (
    "left",
    "right",
    "double",
    "cl",
    "ce",
    "lce",
    "rce",
    "dce",
    "bbbv",
    "bbbv_solved",
    "ioe",
    "corr",
    "thrp",
    "rtime_ms",
    "is_completed",
)

#: Run by the child: the steps (JSON on stdin) played on BaseVideo, the game saved as .evf,
#: the library's figures printed. BaseVideo takes a click off the board only at the point one
#: cell past the last row and column (and aborts on any other), as a program must record it.
#: Its game runs on the real clock: a step ``("wait", ms, 0)`` lets ``ms`` go by.
_PLAY = """
import json, sys, time
import ms_toollib as ms
job = json.load(sys.stdin)
rows = job["rows"]
right, bottom = len(rows[0]) * 16, len(rows) * 16
video = ms.BaseVideo(rows, 16)
for event, x, y in job["steps"]:
    if event == "wait":
        time.sleep(x / 1000)
        continue
    if x >= right or y >= bottom:
        x, y = right, bottom
    video.step(event, (y, x))
video.generate_evf_v4_raw_data()
with open(job["path"], "wb") as file:
    file.write(bytes(video.raw_data))
print(json.dumps({name: getattr(video, name) for name in job["figures"]}))
"""

#: Run by the child: every file named on the command line, parsed and analysed.
_ANALYSE = """
import json, sys
import ms_toollib as ms
out = []
for name in sys.argv[1:]:
    v = ms.EvfVideo(name)
    v.parse()
    v.analyse()
    v.current_time = v.video_end_time
    board = [[int(c) for c in row] for row in v.board]
    out.append(dict(
        board=board, bbbv=v.bbbv, rtime_ms=v.rtime_ms, completed=v.is_completed,
        left=v.left, right=v.right, double=v.double, lce=v.lce, rce=v.rce, dce=v.dce,
        solved=v.bbbv_solved, ioe=v.ioe, corr=v.corr, thrp=v.thrp, stnb=v.stnb, rqp=v.rqp,
        op=v.op, isl=v.isl, software=v.software, mode=v.mode,
    ))
print(json.dumps(out))
"""


def _child(code: str, *args: str, stdin: str | None, folder: Path) -> Any:
    pytest.importorskip("ms_toollib")
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=folder,  # where a crash leaves its crash.log
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, f"ms-toollib failed ({done.returncode}): {done.stderr[-2000:]}"
    return json.loads(done.stdout)


def analysed_by_ms_toollib(files: list[Path]) -> list[dict[str, Any]]:
    """The library's figures for each .evf file (its names: left, lce, solved, ioe...)."""
    result: list[dict[str, Any]] = _child(
        _ANALYSE, *map(str, files), stdin=None, folder=files[0].parent
    )
    return result


def basevideo_file(board: Board, steps: list[tuple[str, int, int]], path: Path) -> dict[str, Any]:
    """Play ``steps`` (mouse event, x, y; or ``("wait", ms, 0)``) on the library's own game
    of ``board`` and save it as the .evf file ``path``; the library's figures for the game
    (``FIGURES``), which must have ended."""
    job = {"rows": layout_rows(board), "steps": steps, "path": str(path), "figures": FIGURES}
    figures: dict[str, Any] = _child(_PLAY, stdin=json.dumps(job), folder=path.parent)
    return figures


def layout_rows(board: Board) -> list[list[int]]:
    """``board`` as the library's rows: -1 for a mine, else the number."""
    return [
        [-1 if board.is_mine(x, y) else board.number(x, y) for x in range(board.width)]
        for y in range(board.height)
    ]


def centre(x: int, y: int) -> tuple[int, int]:
    """The pixel at the centre of cell ``(x, y)``."""
    return (x * PIXELS + PIXELS // 2, y * PIXELS + PIXELS // 2)


def long_game(
    seed: int, size: tuple[int, int, int] = (60, 36, 540), taken_back: int = 250
) -> tuple[Board, list[tuple[str, int, int]]]:
    """The mouse events of a long game played to a win by a player who knows the mines, as
    the longest real replay textmines was given (a 60x36/540 Metasweeper game of 56,659
    mouse events, 248 right clicks taken back): the pointer glides from cell to cell in
    steps of a few pixels, with a detour now and then; flags go on mines, and some on safe
    cells come off again; ``taken_back`` times a right press on a number begins a chord
    (the library counts that right click, then takes it back); now and then a click lands
    just off the board. 55,000 to 60,000 events at the default size."""
    width, height, mines = size
    rng = random.Random(seed)
    start = (width // 2, height // 2)
    around_start = {(start[0] + dx, start[1] + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    cells = [(x, y) for y in range(height) for x in range(width) if (x, y) not in around_start]
    board = Board.from_mines(width, height, [y * width + x for x, y in rng.sample(cells, mines)])
    player = MousePlayer(rng, board, centre(*start))
    player.click(start, "lc", "lr")
    player.game.reveal(*start)
    while not player.game.status.is_over:
        taken_back -= player.turn(chords=taken_back > 0)
    return board, player.steps


class MousePlayer:
    """``long_game``'s player: the mouse events so far, and a textmines game given the same
    moves, which tells what is still covered (the rules agree)."""

    def __init__(self, rng: random.Random, board: Board, at: tuple[int, int]) -> None:
        self.rng, self.board, self.at = rng, board, at
        self.game = Game.from_board(board, question_marks=False)
        self.steps: list[tuple[str, int, int]] = []
        self.mine_cells = [(i % board.width, i // board.width) for i in board.mine_indices()]

    def glide(self, target: tuple[int, int]) -> None:
        x, y = self.at
        while (x, y) != target:
            step = self.rng.randint(8, 28)
            x += max(-step, min(step, target[0] - x))
            y += max(-step, min(step, target[1] - y))
            self.steps.append(("mv", x, y))
        self.at = target

    def click(self, cell: tuple[int, int], *buttons: str) -> None:
        width, height = self.board.width, self.board.height
        if self.rng.random() < 1 / 3:  # a look elsewhere first
            self.glide((self.rng.randrange(width * PIXELS), self.rng.randrange(height * PIXELS)))
        target = (cell[0] * PIXELS + self.rng.randint(2, 13), cell[1] * PIXELS + PIXELS // 2)
        self.glide(target)
        self.steps.extend((button, *target) for button in buttons)

    def pick(self, shown: str, *, mine: bool = False) -> tuple[int, int] | None:
        """A random cell shown as one of ``shown``, a mine or not, if one is found soon."""
        rng, board = self.rng, self.board
        for _ in range(4000):
            x, y = (
                rng.choice(self.mine_cells)
                if mine
                else (rng.randrange(board.width), rng.randrange(board.height))
            )
            if self.game.cell(x, y) in shown and board.is_mine(x, y) == mine:
                return x, y
        return None

    def turn(self, *, chords: bool) -> int:
        """One move (a right click taken back when ``chords``); 1 if it was one, else 0."""
        roll = self.rng.random()
        number = self.pick("12345678") if roll < 0.15 and chords else None
        unflagged = self.pick("#", mine=True) if 0.15 <= roll < 0.38 else None
        if number is not None:
            self.click(number, "rc", "lc", "rr", "lr")
            self.game.chord(*number)
            return 1
        if unflagged is not None:
            self.click(unflagged, "rc", "rr")
            self.game.toggle_mark(*unflagged)
        elif roll < 0.43 and (wrong := self.pick("#")) is not None:
            self.click(wrong, "rc", "rr")
            self.click(wrong, "rc", "rr")
        elif roll < 0.44:
            corner = (self.board.width * PIXELS, self.board.height * PIXELS)
            self.glide(corner)
            button = self.rng.choice("lr")
            self.steps.extend([(button + "c", *corner), (button + "r", *corner)])
        elif (safe := self.pick("#")) is not None:
            self.click(safe, "lc", "lr")
            self.game.reveal(*safe)
        return 0
