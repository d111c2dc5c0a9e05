"""No-guess boards: layouts the solver clears from the first click without ever guessing.

In the spirit of Simon Tatham's ``mines.c``: place the mines, play the board with the
solver from the first click, and where it gets stuck move a few mines rather than start
over. The moves go in two directions:

* out of the stuck frontier (covered cells next to revealed numbers) into covered cells
  no number touches, which thins the frontier so it opens up;
* when no such cell is free (late in the board), into the safe covered frontier cells,
  taken from the covered cells the solver has not reached, which turns undecidable
  patterns such as 50/50s into decidable ones.

After every change the board is played again from the start, so an accepted board is
checked as a whole. The solver plays with the total mine count, like a player looking at
the mine counter. Cheap local rules (a number satisfied or saturated, and the subset rule
for two numbers) do most of the work; the exact solver of ``solver.py`` is called only
when they are stuck.

The search is bounded by a time box. When it runs out, the ordinary random board of the
same seed is returned with ``False`` so the caller can say that this board may need a
guess. Randomness comes only from ``rng.getrandbits`` (through ``generate``), so a seed
gives the same board whenever the time box is not reached.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from textmines.engine.board import Board, neighbour_indices
from textmines.engine.generate import place_mines, protected_cells, random_below
from textmines.engine.presets import check_board
from textmines.engine.solver import _analyse, _View

#: The time box of a board up to Expert size...
DEFAULT_TIME_LIMIT: Final = 1.0
#: ... and of bigger boards, which take longer to play through: one second per this many cells,
#: up to ``LONGEST_TIME_LIMIT`` (a 100x100 board gets 10 s, a 300x300 board 20 s).
CELLS_PER_SECOND: Final = 1000
LONGEST_TIME_LIMIT: Final = 20.0
#: Thinning a stuck frontier moves one to this many of its mines at a time.
MOST_MINES_MOVED: Final = 3
#: Solver time box inside one attempt: a component too big for it means "stuck here".
_SOLVER_TIME_LIMIT: Final = 0.05

_UNKNOWN: Final = 0
_OPEN: Final = 1
_MINE: Final = 2


class _Neighbours:
    """Neighbour lists of every cell of a board size, built once per generation."""

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.of = [neighbour_indices(i, width, height) for i in range(width * height)]


def _counts(flags: bytearray, around: _Neighbours) -> list[int]:
    return [sum(flags[n] for n in cells) for cells in around.of]


class DealCancelled(Exception):
    """The caller stopped a no-guess deal (``should_stop`` returned True)."""


@dataclass(frozen=True)
class DealProgress:
    """How a no-guess deal is going: the share of the safe cells the solver reached on the
    best layout so far, and the seconds spent out of the time box."""

    solved: float
    elapsed: float
    time_limit: float


def time_limit_for(width: int, height: int) -> float:
    """The time box of a no-guess deal on a board of this size (seconds)."""
    return min(LONGEST_TIME_LIMIT, max(DEFAULT_TIME_LIMIT, width * height / CELLS_PER_SECOND))


def solve_from(
    flags: bytearray,
    counts: list[int],
    mines: int,
    start: int,
    around: _Neighbours,
    solver_time_limit: float = _SOLVER_TIME_LIMIT,
    stop: Callable[[], bool] | None = None,
) -> bytearray:
    """Play the layout ``flags`` (one byte a cell, 1 = mine) from a click at ``start``
    using only deductions; returns each cell's state: 0 unknown, 1 open, 2 known mine.

    The board is cleared without guessing when every safe cell ends open. ``stop`` is asked
    between passes over the board: when it returns True the play ends where it is.
    """
    of = around.of
    size = len(flags)
    state = bytearray(size)
    safe_total = size - mines
    opened = 0
    queue: list[int] = []

    def open_cell(index: int) -> None:
        nonlocal opened
        stack = [index]
        while stack:
            i = stack.pop()
            if state[i] != _UNKNOWN:
                continue
            state[i] = _OPEN
            opened += 1
            if counts[i] == 0:
                stack.extend(n for n in of[i] if state[n] == _UNKNOWN)
            else:
                queue.append(i)
            for n in of[i]:
                if state[n] == _OPEN and counts[n]:
                    queue.append(n)

    def local_rules() -> bool:
        """Single-number rules until nothing changes; True if anything changed."""
        changed = False
        while queue:
            i = queue.pop()
            unknown = [n for n in of[i] if state[n] == _UNKNOWN]
            if not unknown:
                continue
            need = counts[i] - sum(1 for n in of[i] if state[n] == _MINE)
            if need == 0:
                for n in unknown:
                    open_cell(n)
                changed = True
            elif need == len(unknown):
                for n in unknown:
                    state[n] = _MINE
                    queue.extend(m for m in of[n] if state[m] == _OPEN and counts[m])
                changed = True
        return changed

    def subset_rule() -> bool:
        """For two numbers whose covered cells nest, the difference is decided.

        One pass over the whole board applies every such deduction it finds: each is a fact
        about the layout, so it stays true while the others change the position.
        """
        live: dict[int, tuple[frozenset[int], int]] = {}
        for i in range(size):
            if state[i] == _OPEN and counts[i]:
                unknown = frozenset(n for n in of[i] if state[n] == _UNKNOWN)
                if unknown:
                    need = counts[i] - sum(1 for n in of[i] if state[n] == _MINE)
                    live[i] = (unknown, need)
        changed = False
        for i, (cells_a, need_a) in live.items():
            # A number whose covered cells hold all of i's touches any one of them.
            for j in of[next(iter(cells_a))]:
                other = live.get(j)
                if other is None or j == i:
                    continue
                cells_b, need_b = other
                if not cells_a < cells_b:
                    continue
                rest = cells_b - cells_a
                if need_b == need_a:
                    for n in rest:
                        if state[n] == _UNKNOWN:
                            open_cell(n)
                            changed = True
                elif need_b - need_a == len(rest):
                    for n in rest:
                        if state[n] == _UNKNOWN:
                            state[n] = _MINE
                            queue.extend(m for m in of[n] if state[m] == _OPEN and counts[m])
                            changed = True
        return changed

    def full_solver() -> bool:
        chars = []
        for i in range(size):
            s = state[i]
            chars.append(str(counts[i]) if s == _OPEN else "#")
        view = _View(around.width, around.height, "".join(chars))
        analysis = _analyse(view, mines, solver_time_limit)
        w = around.width
        changed = False
        for x, y in analysis.safe:
            open_cell(y * w + x)
            changed = True
        for x, y in analysis.mined:
            i = y * w + x
            if state[i] == _UNKNOWN:
                state[i] = _MINE
                queue.extend(m for m in of[i] if state[m] == _OPEN and counts[m])
                changed = True
        return changed

    open_cell(start)
    while opened < safe_total:
        if stop is not None and stop():
            break
        if local_rules():
            continue
        if opened >= safe_total:
            break
        if subset_rule() or full_solver():
            continue
        break
    return state


def _pick(rng: random.Random, cells: list[int]) -> int:
    return cells[random_below(rng, len(cells))]


def place_mines_no_guess(
    width: int,
    height: int,
    mines: int,
    first_index: int,
    rng: random.Random,
    first_click: str = "opening",
    *,
    time_limit: float | None = None,
    should_stop: Callable[[], bool] | None = None,
    on_progress: Callable[[DealProgress], None] | None = None,
) -> tuple[Board, bool]:
    """A board the solver clears from ``first_index`` without guessing, and ``True``.

    If the time box (default: ``time_limit_for`` the size) runs out first: the ordinary
    ``place_mines`` board of the same random stream and ``False`` (the board may then need a
    guess). The first-click rule is kept either way. ``should_stop`` is asked often (a few
    times a second on the largest boards): when it returns True, ``DealCancelled`` is raised.
    ``on_progress`` hears after each layout tried.
    """
    check_board(width, height, mines, first_click)
    limit = time_limit_for(width, height) if time_limit is None else time_limit
    began = time.perf_counter()
    first = place_mines(width, height, mines, first_index, rng, first_click)
    layout = _Layout(first, first_index, first_click)
    safe_total = width * height - mines
    best = 0.0

    def stop() -> bool:
        return bool(should_stop and should_stop()) or time.perf_counter() - began > limit

    while True:
        state = solve_from(
            layout.flags, layout.counts, mines, first_index, layout.around, stop=stop
        )
        if should_stop is not None and should_stop():
            raise DealCancelled
        stuck = [i for i, cell in enumerate(state) if cell == _UNKNOWN]
        if not any(not layout.flags[i] for i in stuck):
            return Board.from_flags(width, height, bytes(layout.flags)), True
        elapsed = time.perf_counter() - began
        if on_progress is not None:
            best = max(best, state.count(_OPEN) / safe_total)
            on_progress(DealProgress(best, elapsed, limit))
        if elapsed > limit:
            return first, False
        layout.rearrange(rng, state, stuck)


class _Layout:
    """The mines being rearranged (one byte a cell) and every cell's number."""

    def __init__(self, board: Board, first_index: int, first_click: str) -> None:
        width, height = board.width, board.height
        self.width, self.height, self.mines = width, height, board.size - board.safe_count
        self.first_index, self.first_click = first_index, first_click
        self.around = _Neighbours(width, height)
        self.protected = set(protected_cells(width, height, first_index, first_click))
        self.flags = bytearray(1 if b & 0x10 else 0 for b in board.cells)
        self.counts = _counts(self.flags, self.around)

    def move(self, source: int, target: int) -> None:
        self.flags[source], self.flags[target] = 0, 1
        for n in self.around.of[source]:
            self.counts[n] -= 1
        for n in self.around.of[target]:
            self.counts[n] += 1

    def rearrange(self, rng: random.Random, state: bytearray, stuck: list[int]) -> None:
        """Move a few mines so that the solver, stuck at ``state``, gets further next time."""
        of, flags, protected = self.around.of, self.flags, self.protected
        # The stuck frontier: unknown cells next to an open cell.
        frontier = [i for i in stuck if any(state[n] == _OPEN for n in of[i])]
        frontier_set = set(frontier)
        free = [
            i
            for i in range(len(flags))
            if state[i] != _OPEN
            and i not in frontier_set
            and i not in protected
            and not flags[i]
            and not any(state[n] == _OPEN for n in of[i])
        ]
        frontier_mines = [i for i in frontier if flags[i]]
        frontier_safe = [i for i in frontier if not flags[i] and i not in protected]
        if free and frontier_mines:
            # Thin the frontier: a few of its mines go where no number sees them.
            for _ in range(1 + random_below(rng, min(MOST_MINES_MOVED, len(frontier_mines)))):
                if not free or not frontier_mines:
                    break
                source = frontier_mines.pop(random_below(rng, len(frontier_mines)))
                self.move(source, free.pop(random_below(rng, len(free))))
            return
        # Fill the frontier from far away: mines the solver has not reached (or known ones
        # away from the frontier) move onto a safe frontier cell.
        donors = [
            i for i in range(len(flags)) if flags[i] and i not in frontier_set and state[i] != _OPEN
        ]
        if donors and frontier_safe:
            self.move(_pick(rng, donors), _pick(rng, frontier_safe))
            return
        # Nothing to move; start again from a fresh uniform board.
        fresh = place_mines(
            self.width, self.height, self.mines, self.first_index, rng, self.first_click
        )
        flags[:] = bytes(1 if b & 0x10 else 0 for b in fresh.cells)
        self.counts[:] = _counts(flags, self.around)
