"""No-guess boards: layouts the solver clears from the first click without ever guessing.

In the spirit of Simon Tatham's ``mines.c``: place the mines, play the board with the
solver from the first click, and where it gets stuck move a few mines rather than start
over. The moves go in two directions:

* out of the stuck frontier (covered cells next to revealed numbers) into covered cells
  no number touches, which thins the frontier so it opens up;
* when no such cell is free (late in the board), into the safe covered frontier cells,
  taken from the covered cells the solver has not reached, which turns undecidable
  patterns such as 50/50s into decidable ones.

After a move the play goes on from where it stopped (what it knows stays true: only cells
it has not proven change), so one play repairs every place the layout gets stuck. The
deductions made before a move may not hold with the new numbers, so a layout that needed a
move is played again from the start, and a board is accepted only when a whole play needs
no move: an accepted board is checked as a whole. The solver plays with the total mine
count, like a player looking at the mine counter. Cheap local rules (a number satisfied or
saturated, and the subset rule for two numbers) do most of the work; the exact solver
(``solver.certain_cells_of``, given the numbers the play already has) is called only when
they are stuck.

The search is bounded by a budget of work (cells looked at, numbers weighed, layout states
counted by the solver), never by the clock, so a seed (the daily board, ``--seed``) deals the
same board on a fast machine and a slow, busy one. When the budget runs out, the first uniform
board is returned with ``False`` (on every machine alike) so the caller can say that this
board may need a guess. A deal nobody will deal again (an unseeded game: its board ID holds
the mines) may also be given a safety clock, for a machine far slower than the budget was
measured on. This module draws no random numbers itself: ``generate.place_mines_no_guess``
hands it the uniform deal and the draws of its random stream.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from typing import Final

from textmines.engine.board import (
    MINE,
    Board,
    NeighbourLists,
    NeighboursOnDemand,
    neighbour_indices,
    neighbour_sums,
)
from textmines.engine.work import WorkBudget

#: The search of a board up to Expert size does this many seconds of work on the machine the
#: budgets were measured on (see ``WORK_PER_SECOND``)...
DEFAULT_TIME_LIMIT: Final = 1.0
#: ... and of bigger boards, which take longer to play through: one second per this many cells
#: (a 100x100 board gets 10 s)...
CELLS_PER_SECOND: Final = 1000
#: ... up to this many seconds, however big the board (a 300x300 board gets 20 s).
LONGEST_TIME_LIMIT: Final = 20.0
#: Units of work (``_DealWork``) that machine does in a second of dealing: measured with
#: ``benchmarks/solver.py --only calibrate`` over boards from 9x9 to 300x300, sparse and dense.
#: Changing it changes the boards of seeds that reach the budget: a new version may do so.
WORK_PER_SECOND: Final = 1_000_000
#: An unseeded deal also stops at this many times its seconds of work (``time_limit_for``):
#: only a machine that much slower than the reference ever sees it.
SAFETY_CLOCK_FACTOR: Final = 2.0
#: Thinning a stuck frontier moves one to this many of its mines at a time.
MOST_MINES_MOVED: Final = 3
#: The solver's budget inside one attempt (units of its counting, about 50 ms of work): a
#: component too big for it means "stuck here".
SOLVER_WORK: Final = 60_000
#: Moving mines (the lists ``rearrange`` makes of the whole board) costs one unit per this
#: many cells: they run in comprehensions and big-integer sums, far cheaper a cell than a
#: deduction. A fresh uniform board costs as much again, and this many units a mine.
CELLS_PER_SCAN_UNIT: Final = 4
UNITS_PER_MINE_DEALT: Final = 1
#: Boards up to this many cells keep every cell's neighbour list (about 340 bytes a cell);
#: bigger ones work them out when needed, so a 1000x1000 deal does not hold 340 MB of lists.
LISTED_NEIGHBOURS_CELLS: Final = 100_000
#: The play-through counts its work, and asks whether to stop, once every this many steps
#: (about a millisecond of work), so the budget and a cancel take effect within a pass, not
#: only between passes.
STEPS_PER_CHECK: Final = 1024
#: Seconds between progress reports within a long pass.
REPORT_EVERY: Final = 0.1

# What a play-through knows of each cell (one byte a cell: ``_PlayThrough.state``).
#: Not known yet: covered, and no deduction reached it.
UNKNOWN: Final = 0
#: Revealed: proven safe and opened.
OPEN: Final = 1
#: Proven to be a mine.
KNOWN_MINE: Final = 2

#: A layout's mines: one byte a cell, 1 for a mine.
MINE_FLAG: Final = 1

#: Byte maps: a layout byte to its mine flag; a play-through state to 1 when open.
_MINE_FLAGS: Final = bytes(MINE_FLAG if b & MINE else 0 for b in range(256))
_OPEN_MARKS: Final = bytes(1 if b == OPEN else 0 for b in range(256))
#: A uniform integer in ``range(n)`` from the deal's random stream.
Draw = Callable[[int], int]


class DealCancelled(Exception):
    """The caller stopped a no-guess deal (``should_stop`` returned True)."""


class _Stopped(Exception):
    """The budget ran out, the caller cancelled or the safety clock rang, in the middle of
    a pass."""


@dataclass(frozen=True)
class DealProgress:
    """How a no-guess deal is going: the share of the safe cells the solver reached on the
    best layout so far, the work spent out of the budget (units), and the seconds it took."""

    solved: float
    work_used: int
    work_limit: int
    elapsed: float

    @property
    def work(self) -> float:
        """The share of the budget spent, from 0 to 1."""
        return min(1.0, self.work_used / self.work_limit) if self.work_limit else 1.0


def time_limit_for(width: int, height: int) -> float:
    """The seconds of work a no-guess deal on a board of this size may do, on the machine
    the budgets were measured on (``work_limit_for`` in units)."""
    return min(LONGEST_TIME_LIMIT, max(DEFAULT_TIME_LIMIT, width * height / CELLS_PER_SECOND))


def work_limit_for(width: int, height: int) -> int:
    """The work budget of a no-guess deal on a board of this size (units)."""
    return round(WORK_PER_SECOND * time_limit_for(width, height))


def safety_clock_for(width: int, height: int) -> float:
    """The seconds after which an unseeded deal stops whatever work it has done."""
    return SAFETY_CLOCK_FACTOR * time_limit_for(width, height)


class _DealWork:
    """The work a deal has done against its budget, and what may end it early: the caller's
    cancel and, for a deal nobody will deal again, the safety clock."""

    def __init__(
        self, limit: int, time_limit: float | None, should_stop: Callable[[], bool] | None
    ) -> None:
        self.budget = WorkBudget(limit)
        self.began = time.perf_counter()
        self.deadline = math.inf if time_limit is None else self.began + time_limit
        self.should_stop = should_stop
        self._cancelled = False
        #: Told of the work done now and then within a long pass (``REPORT_EVERY``), so a
        #: progress bar moves on a huge board; reading the clock for it decides nothing.
        self.on_tick: Callable[[], None] | None = None
        self.reported = self.began

    @property
    def cancelled(self) -> bool:
        """Whether the caller asked the deal to stop (asked until the first yes)."""
        if not self._cancelled and self.should_stop is not None:
            self._cancelled = self.should_stop()
        return self._cancelled

    @property
    def over(self) -> bool:
        """Whether the budget is spent or the safety clock has rung: the deal falls back."""
        return self.budget.exhausted or time.perf_counter() > self.deadline

    def spend(self, units: int) -> None:
        """Count ``units`` of work; raise ``_Stopped`` once the budget is spent."""
        if not self.budget.spend(units):
            raise _Stopped

    def interrupted(self) -> bool:
        """Whether the caller cancelled or the safety clock has rung."""
        return self.cancelled or time.perf_counter() > self.deadline

    def check(self) -> None:
        """Raise ``_Stopped`` on a cancel or past the safety clock."""
        if self.interrupted():
            raise _Stopped

    def tick(self, units: int) -> None:
        """``spend`` then ``check``: a play-through's regular stop."""
        self.spend(units)
        self.check()
        if self.on_tick is not None and time.perf_counter() - self.reported > REPORT_EVERY:
            self.on_tick()


class Neighbours:
    """Neighbour lists of every cell of a board size, built once per generation (or, past
    ``LISTED_NEIGHBOURS_CELLS``, worked out on demand: the same lists, in the same order)."""

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        cells = width * height
        self.of: NeighbourLists = (
            [neighbour_indices(i, width, height) for i in range(cells)]
            if cells <= LISTED_NEIGHBOURS_CELLS
            else NeighboursOnDemand(width, height)
        )

    def counts(self, flags: bytes | bytearray) -> bytearray:
        """Every cell's number for the mines ``flags`` (one byte a cell, 0 or 1)."""
        sums = neighbour_sums(bytes(flags), self.width, self.height)
        # A cell's block sum holds its own flag: take it out (no lane ever borrows).
        value = int.from_bytes(sums, "little") - int.from_bytes(flags, "little")
        return bytearray(value.to_bytes(len(flags), "little"))

    def touching(self, marks: bytes | bytearray) -> bytes:
        """For every cell, how many of the cells around it, itself included, are marked
        (``marks``: one byte a cell, 0 or 1)."""
        return neighbour_sums(bytes(marks), self.width, self.height)


def find_no_guess_board(
    deal: Callable[[], Board],
    first_index: int,
    protected: Collection[int],
    draw: Draw,
    *,
    work_limit: int,
    time_limit: float | None = None,
    should_stop: Callable[[], bool] | None = None,
    on_progress: Callable[[DealProgress], None] | None = None,
) -> tuple[Board, bool]:
    """A board the solver clears from ``first_index`` without guessing, and ``True``.

    ``deal`` gives a uniform board (called first, and again when the search starts over);
    no mine ever moves onto a ``protected`` cell; ``draw`` makes every random choice. If
    the ``work_limit`` (units: ``work_limit_for`` a board) runs out first, or the safety
    clock ``time_limit`` (seconds; None: none, as a seeded deal must have), the first board
    ``deal`` gave and ``False``. Both are checked inside every pass over the board, so a
    deal returns soon after either, however big the board. ``should_stop`` is asked as
    often: when it returns True, ``DealCancelled`` is raised. ``on_progress`` hears after
    each layout tried, and once more as the deal ends.
    """
    work = _DealWork(work_limit, time_limit, should_stop)
    first = deal()
    layout = _Layout(first, protected)
    mines = first.size - first.safe_count
    safe_total = first.size - mines
    best = 0.0

    def report(solved: float) -> None:
        nonlocal best
        best = max(best, solved)
        if on_progress is not None:
            work.reported = time.perf_counter()
            elapsed = work.reported - work.began
            on_progress(DealProgress(best, work.budget.used, work.budget.limit, elapsed))

    if on_progress is not None:
        work.on_tick = lambda: report(best)

    def stuck(state: bytearray) -> bool:
        """Hear where a play got stuck; False once the budget or the safety clock is out."""
        if work.cancelled:
            raise DealCancelled
        report(state.count(OPEN) / safe_total)
        return not work.over

    while True:
        try:
            repaired = _repair_pass(layout, first_index, mines, deal, draw, work, stuck)
        except _Stopped:
            if work.cancelled:
                raise DealCancelled from None
            repaired = None
        if repaired is None:
            report(best)
            return first, False
        if not repaired:
            report(1.0)
            return Board.from_flags(first.width, first.height, bytes(layout.flags)), True


def _repair_pass(
    layout: _Layout,
    first_index: int,
    mines: int,
    deal: Callable[[], Board],
    draw: Draw,
    work: _DealWork,
    report: Callable[[bytearray], bool],
) -> bool | None:
    """Play the layout from ``first_index``; wherever the deductions stop, move a few
    mines and play on from there. False when the play needed no move (the layout is
    proven), True when it did (the caller plays the new layout again from the start),
    None when the budget ran out. Raises ``DealCancelled`` on a cancel and ``_Stopped``
    when ``work`` ends the play in the middle.

    Moving mines keeps what the play knows true of the new layout: only covered cells the
    play has not proven change (a proven mine that moves is forgotten), so the open cells
    stay safe and the proven mines stay mines. The deductions made before a move may not
    hold with the new numbers, which is why a repaired layout is played again.
    """
    play = _PlayThrough(layout.counts, mines, layout.around, SOLVER_WORK, work)
    play.open_cell(first_index)
    repaired = False
    while True:
        play.run()
        if play.opened == play.safe_total:
            return repaired
        if not report(play.state):
            return None
        moved = layout.rearrange(draw, play.state, play.unknown_cells(), work)
        if not moved:
            # Nothing to move; start again from a fresh uniform board.
            work.spend(len(play.state) // CELLS_PER_SCAN_UNIT + UNITS_PER_MINE_DEALT * mines)
            layout.replace(deal())
            return True
        play.forget(moved)
        repaired = True


class _PlayThrough:
    """One play of a layout by deductions: the cells' states and the numbers to look at."""

    def __init__(
        self,
        counts: bytearray,
        mines: int,
        around: Neighbours,
        solver_work: int,
        work: _DealWork,
    ) -> None:
        self.counts = counts
        self.mines = mines
        self.around = around
        self.solver_work = solver_work
        self.work = work
        self.state = bytearray(len(counts))
        self.safe_total = len(counts) - mines
        self.opened = 0
        self.queue: list[int] = []  # open numbers whose neighbourhood changed
        self.border: set[int] = set()  # open cells that may have unknown cells around them

    def run(self) -> None:
        """Deduce until every safe cell is open, nothing more follows, or ``stop`` says so."""
        safe_total = self.safe_total
        try:
            while self.opened < safe_total:
                self.work.check()
                if self.local_rules():
                    continue
                if self.opened >= safe_total:
                    break
                live = self.live_numbers()
                if self.subset_rule(live) or self.full_solver(live):
                    continue
                break
        except _Stopped:
            pass

    def unknown_cells(self) -> list[int]:
        """The cells no deduction has reached yet."""
        return [i for i, cell in enumerate(self.state) if cell == UNKNOWN]

    def forget(self, moved: Iterable[int]) -> None:
        """Mines moved in or out of the ``moved`` cells (none of them open): a proven mine
        among them is unknown again, and the numbers around them are looked at again."""
        of, state, queue = self.around.of, self.state, self.queue
        for i in moved:
            if state[i] == KNOWN_MINE:
                state[i] = UNKNOWN
            around = [n for n in of[i] if state[n] == OPEN]
            queue.extend(around)
            self.border.update(around)

    def open_cell(self, index: int) -> None:
        """Open a cell, flooding through zeros; queue the numbers that may now decide."""
        of, counts, state, queue = self.around.of, self.counts, self.state, self.queue
        opened = 0
        stack = [index]
        while stack:
            i = stack.pop()
            if state[i] != UNKNOWN:
                continue
            state[i] = OPEN
            opened += 1
            if not opened % STEPS_PER_CHECK:
                self.work.tick(STEPS_PER_CHECK)  # a flood can cross most of a huge board
            if counts[i] == 0:
                stack.extend(n for n in of[i] if state[n] == UNKNOWN)
            else:
                queue.append(i)
                self.border.add(i)
            for n in of[i]:
                if state[n] == OPEN and counts[n]:
                    queue.append(n)
        self.opened += opened
        self.work.spend(opened % STEPS_PER_CHECK)

    def mark_mine(self, index: int) -> None:
        """Record a proven mine; queue the open numbers around it."""
        of, counts, state = self.around.of, self.counts, self.state
        state[index] = KNOWN_MINE
        self.queue.extend(m for m in of[index] if state[m] == OPEN and counts[m])

    def local_rules(self) -> bool:
        """Single-number rules until nothing changes; True if anything changed."""
        of, counts, state, queue = self.around.of, self.counts, self.state, self.queue
        changed = False
        steps = 0
        while queue:
            steps += 1
            if steps == STEPS_PER_CHECK:
                steps = 0
                self.work.tick(STEPS_PER_CHECK)
            i = queue.pop()
            unknown = [n for n in of[i] if state[n] == UNKNOWN]
            if not unknown:
                continue
            need = counts[i] - sum(1 for n in of[i] if state[n] == KNOWN_MINE)
            if need == 0:
                for n in unknown:
                    self.open_cell(n)
                changed = True
            elif need == len(unknown):
                for n in unknown:
                    self.mark_mine(n)
                changed = True
        self.work.spend(steps)
        return changed

    def live_numbers(self) -> dict[int, tuple[frozenset[int], int]]:
        """Every open number with unknown cells around it, in reading order: those cells,
        and their mines."""
        of, counts, state = self.around.of, self.counts, self.state
        live: dict[int, tuple[frozenset[int], int]] = {}
        done = []
        border = sorted(self.border)
        for step, i in enumerate(border, 1):
            if not step % STEPS_PER_CHECK:
                self.work.tick(STEPS_PER_CHECK)
            unknown = frozenset(n for n in of[i] if state[n] == UNKNOWN)
            if unknown and counts[i]:
                need = counts[i] - sum(1 for n in of[i] if state[n] == KNOWN_MINE)
                live[i] = (unknown, need)
            elif not unknown:
                done.append(i)
        self.border.difference_update(done)
        self.work.spend(len(border) % STEPS_PER_CHECK)
        return live

    def subset_rule(self, live: dict[int, tuple[frozenset[int], int]]) -> bool:
        """For two numbers (``live``) whose covered cells nest, the difference is decided.

        One pass over the whole board applies every such deduction it finds: each is a fact
        about the layout, so it stays true while the others change the position.
        """
        of = self.around.of
        changed = False
        for step, (i, (cells_a, need_a)) in enumerate(live.items(), 1):
            if not step % STEPS_PER_CHECK:
                self.work.tick(STEPS_PER_CHECK)
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
                    changed = self.decide(rest, self.open_cell) or changed
                elif need_b - need_a == len(rest):
                    changed = self.decide(rest, self.mark_mine) or changed
        self.work.spend(len(live) % STEPS_PER_CHECK)
        return changed

    def decide(self, cells: Iterable[int], how: Callable[[int], None]) -> bool:
        """Open or mark (``how``) those of ``cells`` still unknown; True if there were any."""
        state = self.state
        changed = False
        for n in cells:
            if state[n] == UNKNOWN:
                how(n)
                changed = True
        return changed

    def full_solver(self, live: dict[int, tuple[frozenset[int], int]]) -> bool:
        """The exact solver on the position, given by its ``live`` numbers (a player sees
        the same); True if it decided any cell."""
        # Loaded on first use: a game that is not dealt no-guess never needs the solver.
        from textmines.engine.solver import AnalysisStopped, certain_cells_of

        state = self.state
        known_mines = state.count(KNOWN_MINE)
        solver_work = WorkBudget(self.solver_work)
        try:
            safe, mined = certain_cells_of(
                [(list(cells), need) for cells, need in live.values()],
                self.unknown_cells,
                state.count(UNKNOWN),
                self.mines - known_mines,
                stop=self.work.interrupted,
                work=solver_work,
            )
        except AnalysisStopped:
            raise _Stopped from None
        self.work.spend(len(live) + solver_work.used)
        changed = False
        for i in sorted(safe):
            self.open_cell(i)
            changed = True
        for i in sorted(mined):
            if state[i] == UNKNOWN:
                self.mark_mine(i)
                changed = True
        return changed


class _Layout:
    """The mines being rearranged (one byte a cell) and every cell's number."""

    def __init__(self, board: Board, protected: Collection[int]) -> None:
        self.around = Neighbours(board.width, board.height)
        self.protected = set(protected)
        self.flags = bytearray()
        self.counts = bytearray()
        self.replace(board)

    def replace(self, board: Board) -> None:
        """Start over from the mines of ``board``."""
        self.flags[:] = board.cells.translate(_MINE_FLAGS)
        self.counts[:] = self.around.counts(self.flags)

    def move(self, source: int, target: int) -> tuple[int, int]:
        """Move the mine at ``source`` to ``target``; both cells, which changed."""
        self.flags[source], self.flags[target] = 0, MINE_FLAG
        for n in self.around.of[source]:
            self.counts[n] -= 1
        for n in self.around.of[target]:
            self.counts[n] += 1
        return source, target

    def rearrange(
        self, draw: Draw, state: bytearray, stuck: list[int], work: _DealWork
    ) -> list[int]:
        """Move a few mines so that the solver, stuck at ``state``, gets further: the cells
        that changed (none of them open).

        Empty when no mine can move (the caller starts over from a fresh board). Raises
        ``_Stopped`` when ``work`` says so (the lists below take a while on huge boards).
        """
        flags, protected = self.flags, self.protected
        # How many open cells each cell touches (itself included, and it is not open).
        touches = self.around.touching(state.translate(_OPEN_MARKS))
        # The stuck frontier: unknown cells next to an open cell.
        frontier = [i for i in stuck if touches[i]]
        frontier_set = set(frontier)
        # Covered cells no number sees: not open, next to no open cell, free of mines.
        free = [
            i for i, seen in enumerate(touches) if not seen and not flags[i] and i not in protected
        ]
        work.tick(len(state) // CELLS_PER_SCAN_UNIT)
        frontier_mines = [i for i in frontier if flags[i]]
        frontier_safe = [i for i in frontier if not flags[i] and i not in protected]
        moved: list[int] = []
        if free and frontier_mines:
            # Thin the frontier: a few of its mines go where no number sees them.
            for _ in range(1 + draw(min(MOST_MINES_MOVED, len(frontier_mines)))):
                if not free or not frontier_mines:
                    break
                moved += self.move(
                    frontier_mines.pop(draw(len(frontier_mines))), free.pop(draw(len(free)))
                )
            return moved
        # Fill the frontier from far away: mines the solver has not reached (or known ones
        # away from the frontier) move onto a safe frontier cell.
        donors = [
            i for i in range(len(flags)) if flags[i] and i not in frontier_set and state[i] != OPEN
        ]
        if donors and frontier_safe:
            source = donors[draw(len(donors))]
            moved += self.move(source, frontier_safe[draw(len(frontier_safe))])
        return moved
