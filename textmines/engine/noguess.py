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

The search is bounded by a time box. When it runs out, the first uniform board is returned
with ``False`` so the caller can say that this board may need a guess. This module draws no
random numbers itself: ``generate.place_mines_no_guess`` hands it the uniform deal and the
draws of its random stream, so a seed gives the same board whenever the time box is not
reached.
"""

from __future__ import annotations

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

#: The time box of a board up to Expert size...
DEFAULT_TIME_LIMIT: Final = 1.0
#: ... and of bigger boards, which take longer to play through: one second per this many cells
#: (a 100x100 board gets 10 s)...
CELLS_PER_SECOND: Final = 1000
#: ... up to this many seconds, however big the board (a 300x300 board gets 20 s).
LONGEST_TIME_LIMIT: Final = 20.0
#: Thinning a stuck frontier moves one to this many of its mines at a time.
MOST_MINES_MOVED: Final = 3
#: Solver time box inside one attempt: a component too big for it means "stuck here".
SOLVER_TIME_LIMIT: Final = 0.05
#: Boards up to this many cells keep every cell's neighbour list (about 340 bytes a cell);
#: bigger ones work them out when needed, so a 1000x1000 deal does not hold 340 MB of lists.
LISTED_NEIGHBOURS_CELLS: Final = 100_000
#: The play-through asks whether to stop once every this many steps (about a millisecond of
#: work), so the time box and a cancel take effect within a pass, not only between passes.
STEPS_PER_CHECK: Final = 1024

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
    """The time box ran out, or the caller cancelled, in the middle of a pass."""


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
    time_limit: float,
    should_stop: Callable[[], bool] | None = None,
    on_progress: Callable[[DealProgress], None] | None = None,
) -> tuple[Board, bool]:
    """A board the solver clears from ``first_index`` without guessing, and ``True``.

    ``deal`` gives a uniform board (called first, and again when the search starts over);
    no mine ever moves onto a ``protected`` cell; ``draw`` makes every random choice. If
    the ``time_limit`` runs out first: the first board ``deal`` gave and ``False``. The
    limit is checked inside every pass over the board, so a deal returns soon after it
    (a fraction of a second late on a 1000x1000 board), however big the board.
    ``should_stop`` is asked as often: when it returns True, ``DealCancelled`` is raised.
    ``on_progress`` hears after each layout tried.
    """
    began = time.perf_counter()
    first = deal()
    layout = _Layout(first, protected)
    mines = first.size - first.safe_count
    safe_total = first.size - mines
    best = 0.0

    def stop() -> bool:
        return bool(should_stop and should_stop()) or time.perf_counter() - began > time_limit

    def report(state: bytearray) -> bool:
        """Hear where a play got stuck; False once the time box has run out."""
        nonlocal best
        if should_stop is not None and should_stop():
            raise DealCancelled
        elapsed = time.perf_counter() - began
        if on_progress is not None:
            best = max(best, state.count(OPEN) / safe_total)
            on_progress(DealProgress(best, elapsed, time_limit))
        return elapsed <= time_limit

    while True:
        try:
            repaired = _repair_pass(layout, first_index, mines, deal, draw, stop, report)
        except _Stopped:
            if should_stop is not None and should_stop():
                raise DealCancelled from None
            return first, False
        if repaired is None:
            return first, False
        if not repaired:
            return Board.from_flags(first.width, first.height, bytes(layout.flags)), True


def _repair_pass(
    layout: _Layout,
    first_index: int,
    mines: int,
    deal: Callable[[], Board],
    draw: Draw,
    stop: Callable[[], bool],
    report: Callable[[bytearray], bool],
) -> bool | None:
    """Play the layout from ``first_index``; wherever the deductions stop, move a few
    mines and play on from there. False when the play needed no move (the layout is
    proven), True when it did (the caller plays the new layout again from the start),
    None when the time box ran out. Raises ``DealCancelled`` on a cancel and
    ``_Stopped`` when ``stop`` ends the play in the middle.

    Moving mines keeps what the play knows true of the new layout: only covered cells the
    play has not proven change (a proven mine that moves is forgotten), so the open cells
    stay safe and the proven mines stay mines. The deductions made before a move may not
    hold with the new numbers, which is why a repaired layout is played again.
    """
    play = _PlayThrough(layout.counts, mines, layout.around, SOLVER_TIME_LIMIT, stop)
    play.open_cell(first_index)
    repaired = False
    while True:
        play.run()
        if play.opened == play.safe_total:
            return repaired
        if not report(play.state):
            return None
        moved = layout.rearrange(draw, play.state, play.unknown_cells(), stop)
        if not moved:
            # Nothing to move; start again from a fresh uniform board.
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
        solver_time_limit: float,
        stop: Callable[[], bool] | None = None,
    ) -> None:
        self.counts = counts
        self.mines = mines
        self.around = around
        self.solver_time_limit = solver_time_limit
        self.stop = stop
        self.state = bytearray(len(counts))
        self.safe_total = len(counts) - mines
        self.opened = 0
        self.queue: list[int] = []  # open numbers whose neighbourhood changed
        self.border: set[int] = set()  # open cells that may have unknown cells around them

    def check(self) -> None:
        """Raise ``_Stopped`` if the play must end now (time box or cancel)."""
        if self.stop is not None and self.stop():
            raise _Stopped

    def run(self) -> None:
        """Deduce until every safe cell is open, nothing more follows, or ``stop`` says so."""
        safe_total = self.safe_total
        try:
            while self.opened < safe_total:
                self.check()
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
                self.check()  # a flood can cross most of a huge board
            if counts[i] == 0:
                stack.extend(n for n in of[i] if state[n] == UNKNOWN)
            else:
                queue.append(i)
                self.border.add(i)
            for n in of[i]:
                if state[n] == OPEN and counts[n]:
                    queue.append(n)
        self.opened += opened

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
                self.check()
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
        return changed

    def live_numbers(self) -> dict[int, tuple[frozenset[int], int]]:
        """Every open number with unknown cells around it, in reading order: those cells,
        and their mines."""
        of, counts, state = self.around.of, self.counts, self.state
        live: dict[int, tuple[frozenset[int], int]] = {}
        done = []
        for step, i in enumerate(sorted(self.border), 1):
            if not step % STEPS_PER_CHECK:
                self.check()
            unknown = frozenset(n for n in of[i] if state[n] == UNKNOWN)
            if unknown and counts[i]:
                need = counts[i] - sum(1 for n in of[i] if state[n] == KNOWN_MINE)
                live[i] = (unknown, need)
            elif not unknown:
                done.append(i)
        self.border.difference_update(done)
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
                self.check()
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
        try:
            safe, mined = certain_cells_of(
                [(list(cells), need) for cells, need in live.values()],
                self.unknown_cells,
                state.count(UNKNOWN),
                self.mines - known_mines,
                self.solver_time_limit,
                stop=self.stop,
            )
        except AnalysisStopped:
            raise _Stopped from None
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
        self, draw: Draw, state: bytearray, stuck: list[int], stop: Callable[[], bool]
    ) -> list[int]:
        """Move a few mines so that the solver, stuck at ``state``, gets further: the cells
        that changed (none of them open).

        Empty when no mine can move (the caller starts over from a fresh board). Raises
        ``_Stopped`` when ``stop`` says so (the lists below take a while on huge boards).
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
        if stop():
            raise _Stopped
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
