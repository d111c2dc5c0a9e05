"""Board and game metrics: 3BV, openings, islands, clicks, efficiency, 3BV/s.

Definitions (as used by the Minesweeper community, e.g. Minesweeper Arbiter):

* an *opening* is an 8-connected region of zeros; one click clears it and its border;
* 3BV (Bechtel's Board Benchmark Value) is the least number of left clicks that clears the
  board without flags: one per opening plus one per number not on the border of an opening;
* an *island* is an 8-connected group of such numbers;
* *solved 3BV* counts the openings and lone numbers the player has opened;
* efficiency (IOE) is solved 3BV divided by all clicks; 3BV/s is solved 3BV per second;
* the click counts and the rates derived from them follow Metasweeper, see ``GameMetrics``.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Final

from textmines.engine.board import MINE, Board, neighbour_sums
from textmines.engine.game import REVEALED, STATE_MASK, Game, Status

_ZERO_RUN: Final = re.compile(rb"\x00+")
#: Lane value of a number with no zero around it, see ``_lone_numbers``.
_LONE: Final = 0x10
_LONE_RUN: Final = re.compile(rb"\x10+")
_LONE_CELL: Final = re.compile(rb"\x10")
_IS_ZERO: Final = bytes(1 if b == 0 else 0 for b in range(256))
_IS_OPEN: Final = bytes(1 if b & STATE_MASK == REVEALED else 0 for b in range(256))
_IS_NUMBER: Final = bytes(_LONE if (b & 0x0F) and not b & MINE else 0 for b in range(256))


def label_runs(
    data: bytes, width: int, height: int, run: re.Pattern[bytes]
) -> tuple[list[tuple[int, int]], list[int]]:
    """Group the cells matched by ``run`` into 8-connected components.

    Returns the runs (``(start, stop)`` index ranges, row by row) and a component label
    for each. Runs of consecutive rows touch when their column ranges overlap or meet
    diagonally, so one merge pass per row pair with a union-find is enough.
    """
    runs: list[tuple[int, int]] = []
    parent: list[int] = []

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    previous: list[tuple[int, int, int]] = []
    for y in range(height):
        base = y * width
        current: list[tuple[int, int, int]] = []
        for match in run.finditer(data, base, base + width):
            label = len(runs)
            runs.append(match.span())
            parent.append(label)
            current.append((match.start() - base, match.end() - base, label))
        i = j = 0
        while i < len(previous) and j < len(current):
            a0, a1, a = previous[i]
            b0, b1, b = current[j]
            if a0 <= b1 and b0 <= a1:
                ra, rb = root(a), root(b)
                if ra != rb:
                    parent[max(ra, rb)] = min(ra, rb)
            if a1 <= b1:
                i += 1
            else:
                j += 1
        previous = current
    return runs, [root(i) for i in range(len(runs))]


def _lone_numbers(board: Board) -> bytes:
    """One byte per cell, ``_LONE`` exactly where a safe number has no zero around it."""
    zeros_around = neighbour_sums(board.cells.translate(_IS_ZERO), board.width, board.height)
    numbers = board.cells.translate(_IS_NUMBER)
    lanes = int.from_bytes(numbers, "little") + int.from_bytes(zeros_around, "little")
    return lanes.to_bytes(board.size, "little")


def openings(board: Board) -> int:
    """Number of openings (8-connected regions of zeros)."""
    _, labels = label_runs(board.cells, board.width, board.height, _ZERO_RUN)
    return len(set(labels))


def islands(board: Board) -> int:
    """Number of islands (8-connected groups of numbers not bordering an opening)."""
    _, labels = label_runs(_lone_numbers(board), board.width, board.height, _LONE_RUN)
    return len(set(labels))


def bbbv(board: Board) -> int:
    """3BV: the fewest left clicks that clear the board without flags."""
    return openings(board) + _lone_numbers(board).count(_LONE)


def solved_bbbv(game: Game) -> int:
    """The part of the 3BV the player has cleared (all of it for a won game): each opening
    whose every zero is open (a flag on one holds the rest back, as Metasweeper counts it),
    and each number with no zero around that is open."""
    board = game.board
    if board is None:
        return 0
    state = game.cells.translate(_IS_OPEN)
    runs, labels = label_runs(board.cells, board.width, board.height, _ZERO_RUN)
    unfinished = {
        label
        for (start, stop), label in zip(runs, labels, strict=True)
        if state.find(0, start, stop) >= 0
    }
    opened_numbers = sum(
        1 for match in _LONE_CELL.finditer(_lone_numbers(board)) if state[match.start()]
    )
    return len(set(labels) - unfinished) + opened_numbers


#: STNB's constant per board ``(width, height, mines)``: ms-toollib's, on Arbiter's three
#: levels only. The library gives the 9x9/10 Beginner of Windows (and of textmines), a 16x30
#: Expert on its side and every custom board no STNB, so textmines gives them none either:
#: a 9x9 STNB would compare with no one's.
STNB_CONSTANTS: Final = {
    (8, 8, 10): 36.0,
    (16, 16, 40): 162.0,
    (30, 16, 99): 435.0,
}


@dataclass(frozen=True, slots=True)
class GameMetrics:
    """Everything measured about one game, as the competitive community measures it.

    Clicks: a keyboard move counts as the click it stands for (reveal = left, flag or mark =
    right, chord = chord). The rates follow Metasweeper (ms-toollib): IOE, correctness,
    throughput, RQP = time^2 / solved 3BV and STNB = c * solved / time^1.7 * sqrt(solved / 3BV),
    times in seconds.
    """

    width: int
    height: int
    mines: int
    bbbv: int
    solved_bbbv: int
    openings: int
    islands: int
    left_clicks: int
    right_clicks: int
    chord_clicks: int
    left_effective: int
    right_effective: int
    chord_effective: int
    flags_placed: int
    elapsed_ms: int
    won: bool

    @property
    def clicks(self) -> int:
        """All clicks (Cl): left, right and chord."""
        return self.left_clicks + self.right_clicks + self.chord_clicks

    @property
    def effective_clicks(self) -> int:
        """Clicks that did something (Ce), see ``game.EffectiveClicks``."""
        return self.left_effective + self.right_effective + self.chord_effective

    @property
    def efficiency(self) -> float:
        """IOE: solved 3BV per click (1.0 means a click per 3BV); 0 before any click."""
        return self.solved_bbbv / self.clicks if self.clicks else 0.0

    ioe = efficiency

    @property
    def correctness(self) -> float:
        """Ce / Cl: the share of clicks that did something; 0 before any click."""
        return self.effective_clicks / self.clicks if self.clicks else 0.0

    @property
    def throughput(self) -> float:
        """Solved 3BV per effective click; 0 before any."""
        return self.solved_bbbv / self.effective_clicks if self.effective_clicks else 0.0

    @property
    def bbbv_per_second(self) -> float:
        """Solved 3BV per second of game time; 0 before the clock has run."""
        return self.solved_bbbv * 1000 / self.elapsed_ms if self.elapsed_ms > 0 else 0.0

    @property
    def rqp(self) -> float | None:
        """RQP (lower is better): seconds squared per solved 3BV; None before any is solved."""
        if not self.solved_bbbv:
            return None
        return (self.elapsed_ms / 1000) ** 2 / self.solved_bbbv

    @property
    def stnb(self) -> float | None:
        """STNB on Arbiter's levels, 8x8/10, 16x16/40 and 30x16/99, as ms-toollib measures
        it; None on every other board (9x9/10 included: see ``STNB_CONSTANTS``) and before
        any 3BV is solved or any time has passed."""
        constant = STNB_CONSTANTS.get((self.width, self.height, self.mines))
        if constant is None or not self.solved_bbbv or self.elapsed_ms <= 0:
            return None
        seconds = self.elapsed_ms / 1000
        share = self.solved_bbbv / self.bbbv
        return constant * self.solved_bbbv / math.pow(seconds, 1.7) * math.sqrt(share)

    @property
    def no_flags(self) -> bool:
        """NF: won without ever putting a flag on the board."""
        return self.won and self.flags_placed == 0


def game_metrics(game: Game) -> GameMetrics:
    """Measure a game in any state (a game not started measures all zeros)."""
    counts = {"left": 0, "right": 0, "chord": 0}
    for action in game.actions:
        click = action.kind.click
        if click is not None:
            counts[click] += 1
    board = game.board
    effective = game.effective
    return GameMetrics(
        width=game.width,
        height=game.height,
        mines=game.mines,
        bbbv=bbbv(board) if board else 0,
        solved_bbbv=solved_bbbv(game),
        openings=openings(board) if board else 0,
        islands=islands(board) if board else 0,
        left_clicks=counts["left"],
        right_clicks=counts["right"],
        chord_clicks=counts["chord"],
        left_effective=effective.left,
        right_effective=effective.right,
        chord_effective=effective.chord,
        flags_placed=game.flags_placed,
        elapsed_ms=game.elapsed_ms,
        won=game.status == Status.WON,
    )
