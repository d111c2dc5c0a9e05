"""The end game: when few cells are undecided, the guess that wins most often, exactly.

Every layout that fits the view is equally likely. A move reveals a cell; a cell safe in
every remaining layout is revealed for free; the game is won when one layout is left. The
search counts, for the best strategy, the layouts it wins on. It may pick a cell that is
riskier now and still better overall, e.g. a cell whose number settles a 50/50.
"""

from __future__ import annotations

import math
from collections import deque
from typing import Final

from textmines.engine.board import neighbour_lists
from textmines.engine.solver.model import Constraint, Model, build_model
from textmines.engine.solver.view import UNKNOWN, Cell, View
from textmines.engine.view_alphabet import ViewChar
from textmines.engine.work import WorkBudget

#: The end game is searched exactly when at most this many cells are undecided...
#: (Issue 50: no cell limit, 200, so that the layout count alone starts the search as in
#: JSMinesweeper, changed none of the first 1,099 games of seeds 5,000,000 on; nor did
#: ENDGAME_NODES 20,000 change more than 3 of 951, 2 of them lost.)
ENDGAME_CELLS: Final = 40
#: ... and at most this many layouts fit the view.
ENDGAME_LAYOUTS: Final = 3000
#: The search gives up after this many positions (a position is the layouts still possible
#: and the cells revealed): a budget of work, not of time, so the same position always gets
#: the same guess and solver runs repeat exactly, on an idle machine or a busy one. 8,000
#: positions take 0.05-0.3 s here (10-38 us each). Measured on 400 Expert games: 10% of
#: the searches stop at the budget, and the ones that go on need 20,000 to 1.6 million
#: positions (up to 23 s); searched to the end they won the same 220 games.
ENDGAME_NODES: Final = 8_000
#: Units of the guess's work budget (``WorkBudget``) a position of the search costs, and
#: one step of the enumeration of layouts: what they take against a unit of counting (a
#: microsecond and a half). The search also stops when the guess's budget is spent.
UNITS_PER_NODE: Final = 8
UNITS_PER_STEP: Final = 2
#: Each of the two searches (``endgame_guess``, ``region_guess``) may spend at most this
#: many units of the guess's budget, listing the layouts and searching them (about 0.3 s
#: here): the rest is left to the look-ahead when a search gives up.
SEARCH_WORK: Final = 200_000
#: List the layouts constraint by constraint (``walk_order``) rather than in reading order.
WALK_ALONG_CONSTRAINTS: Final = True
#: The enumeration counts its steps into the budget this many at a time.
_STEPS_PER_SPEND: Final = 256

#: The layouts still possible, as bit masks over the undecided cells.
Layouts = tuple[int, ...]


class _Budget(Exception):
    """Too many layouts or positions, or the work budget spent."""


def endgame_guess(
    view: View,
    mines: int,
    work: WorkBudget,
    log_layouts: float | None = None,
    model: Model | None = None,
) -> Cell | None:
    """The guess that maximises the chance of winning, by exhaustive search, when few
    cells are undecided; ``None`` when the position is too big or the search too long
    (``ENDGAME_NODES``, or ``work`` spent). ``log_layouts`` (the analysis's) skips the
    search at once when too many layouts fit; ``model`` is the view's (``build_model``),
    worked out here when not given."""
    if log_layouts is not None and log_layouts > math.log(ENDGAME_LAYOUTS) + 1e-9:
        return None
    own = _share(work)
    try:
        return _endgame_guess(view, mines, own, model)
    finally:
        work.spend(own.used)


def _share(work: WorkBudget) -> WorkBudget:
    """A search's own budget: ``SEARCH_WORK`` units at most, and no more than ``work`` has
    left (the search's spending is then counted into ``work``)."""
    return WorkBudget(max(0, min(SEARCH_WORK, work.limit - work.used)))


def _endgame_guess(view: View, mines: int, work: WorkBudget, model: Model | None) -> Cell | None:
    """``endgame_guess`` within the search's own budget ``work``."""
    if model is None:
        model = build_model(view, mines)
    undecided = [
        i
        for i, c in enumerate(view.text)
        if c in UNKNOWN and i not in model.safe and i not in model.mined
    ]
    if not undecided or len(undecided) > ENDGAME_CELLS:
        return None
    layouts = fitting_layouts(model, undecided, ENDGAME_LAYOUTS, work)
    if not layouts or len(layouts) < 2:
        return None
    # A flag is the player's claim, so a flagged cell stays among the layouts' cells; but
    # the guess is never a flagged cell (revealing one does nothing).
    unflagged = sum(1 << i for i, c in enumerate(undecided) if view.text[c] != ViewChar.FLAG)
    search = _Search(view, undecided, work)
    try:
        _, cell = search.best_reveal(tuple(layouts), 0, unflagged)
    except _Budget:
        return None
    return view.cell(undecided[cell])


def region_guess(view: View, model: Model, work: WorkBudget) -> Cell | None:
    """The guess that wins a sealed-off part of the frontier most often, by the same search:
    a part whose cells touch no unknown cell outside it and which holds the same number of
    mines in every layout. Such a part and the rest of the board do not depend on each
    other (whatever is revealed in one tells nothing of the other), so playing it exactly
    now changes nothing elsewhere. The part with the fewest layouts goes first; ``None``
    when there is no such part or its search runs out of budget (``ENDGAME_NODES``, or
    ``work`` spent). ``model`` is the view's."""
    own = _share(work)
    try:
        return _region_guess(view, model, own)
    finally:
        work.spend(own.used)


def _region_guess(view: View, model: Model, work: WorkBudget) -> Cell | None:
    """``region_guess`` within the search's own budget ``work``."""
    around = neighbour_lists(view.width, view.height)
    text = view.text
    best: tuple[list[int], list[int]] | None = None
    for cells, constraints in _regions(model):
        inside = set(cells)
        if len(cells) > ENDGAME_CELLS or any(
            text[n] in UNKNOWN and n not in inside and n not in model.mined
            for c in cells
            for n in around[c]
        ):
            continue
        layouts = _fixed_count_layouts(cells, constraints, work)
        if (
            layouts is not None
            and len(layouts) >= 2
            and (best is None or len(layouts) < len(best[1]))
        ):
            best = cells, layouts
    if best is None:
        return None
    cells, layouts = best
    unflagged = sum(1 << i for i, c in enumerate(cells) if text[c] != ViewChar.FLAG)
    try:
        _, cell = _Search(view, cells, work).best_reveal(tuple(layouts), 0, unflagged)
    except _Budget:
        return None
    return view.cell(cells[cell])


def _fixed_count_layouts(
    cells: list[int], constraints: list[Constraint], work: WorkBudget
) -> list[int] | None:
    """The layouts of a part of the frontier, when they all hold the same number of mines;
    ``None`` when they do not, or past ``ENDGAME_LAYOUTS`` or ``work``."""
    found: list[int] | None = None
    for mines in range(len(cells) + 1):
        part = Model(len(cells), mines, set(), set(), constraints, set(cells))
        layouts = fitting_layouts(part, cells, ENDGAME_LAYOUTS, work)
        if layouts is None or (layouts and found is not None):
            return None  # too many, out of work, or more than one mine count
        if layouts:
            found = layouts
    return found


def _regions(model: Model) -> list[tuple[list[int], list[Constraint]]]:
    """The model's constraints split into parts that share no cell: each part's cells
    (ascending) and constraints."""
    owner: dict[int, int] = {}  # cell -> the first constraint that holds it (union-find)
    parent = list(range(len(model.constraints)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for ci, (cells, _) in enumerate(model.constraints):
        for c in cells:
            if c in owner:
                parent[root(ci)] = root(owner[c])
            else:
                owner[c] = ci
    parts: dict[int, list[Constraint]] = {}
    for ci, constraint in enumerate(model.constraints):
        parts.setdefault(root(ci), []).append(constraint)
    return [(sorted({c for cells, _ in part for c in cells}), part) for part in parts.values()]


def fitting_layouts(
    model: Model, cells: list[int], limit: int, work: WorkBudget | None = None
) -> list[int] | None:
    """Every placement of ``model.mines_left`` mines on ``cells`` that fits the
    constraints, as bit masks over positions in ``cells``; ``None`` past ``limit`` layouts
    or once ``work`` is spent (``UNITS_PER_STEP`` a step of the walk)."""
    walk = walk_order(model, cells) if WALK_ALONG_CONSTRAINTS else list(range(len(cells)))
    enumeration = _Enumeration(model, [cells[p] for p in walk], limit, work)
    try:
        enumeration.place(0, 0, model.mines_left)
    except _Budget:
        return None
    if walk == sorted(walk):
        return enumeration.found
    # Back to bits over positions in ``cells``, in ascending order.
    layouts = []
    for found in enumeration.found:
        mask = 0
        for step, position in enumerate(walk):
            if found >> step & 1:
                mask |= 1 << position
        layouts.append(mask)
    return sorted(layouts)


def walk_order(model: Model, cells: list[int]) -> list[int]:
    """The positions in ``cells`` in the order the enumeration places them: constraint by
    constraint, each next one sharing a cell with those before where it can (breadth
    first), then the cells no constraint holds. A constraint is then settled soon after it
    is started, so a layout that breaks it is dropped early; in reading order a constraint
    stays open across a whole row of cells and the walk tries far more dead ends."""
    position = {c: i for i, c in enumerate(cells)}
    holding: dict[int, list[int]] = {}
    for ci, (group, _) in enumerate(model.constraints):
        for c in group:
            holding.setdefault(c, []).append(ci)
    walk: list[int] = []
    placed: set[int] = set()
    done = [False] * len(model.constraints)
    for start in range(len(model.constraints)):
        queue = deque([start]) if not done[start] else deque()
        done[start] = True
        while queue:
            group = model.constraints[queue.popleft()][0]
            for c in group:
                if c in placed:
                    continue
                placed.add(c)
                walk.append(position[c])
                for ci in holding[c]:
                    if not done[ci]:
                        done[ci] = True
                        queue.append(ci)
    walk += [i for i, c in enumerate(cells) if c not in placed]
    return walk


class _Enumeration:
    """A depth-first walk over the cells, each a mine or not, pruned by the constraints."""

    def __init__(self, model: Model, cells: list[int], limit: int, work: WorkBudget | None) -> None:
        position = {c: i for i, c in enumerate(cells)}
        self.work = work
        self.calls = 0
        # Per cell, the constraints it is in; per constraint, the mines it still needs and
        # the cells it still has to place them on.
        self.member: list[list[int]] = [[] for _ in cells]
        self.need: list[int] = []
        self.left: list[int] = []
        for ci, (group, n) in enumerate(model.constraints):
            for c in group:
                self.member[position[c]].append(ci)
            self.need.append(n)
            self.left.append(len(group))
        self.total = len(cells)
        self.limit = limit
        self.found: list[int] = []

    def fits(self, i: int, mine: int) -> bool:
        """Whether cell ``i`` can take ``mine`` (0 or 1) with every constraint still met."""
        need, left = self.need, self.left
        return all(0 <= need[ci] - mine <= left[ci] - 1 for ci in self.member[i])

    def place(self, i: int, mask: int, mines: int) -> None:
        """Every way to place ``mines`` mines on the cells from ``i`` on, after ``mask``."""
        self.calls += 1
        if len(self.found) > self.limit or (
            self.calls % _STEPS_PER_SPEND == 0
            and self.work is not None
            and not self.work.spend(UNITS_PER_STEP * _STEPS_PER_SPEND)
        ):
            raise _Budget
        if i == self.total:
            if mines == 0:
                self.found.append(mask)
            return
        if mines > self.total - i:
            return
        need, left, member = self.need, self.left, self.member[i]
        for mine in (0, 1):
            if mine > mines:
                break
            if not self.fits(i, mine):
                continue
            for ci in member:
                need[ci] -= mine
                left[ci] -= 1
            self.place(i + 1, mask | (mine << i), mines - mine)
            for ci in member:
                need[ci] += mine
                left[ci] += 1


class _Search:
    """The exhaustive search over the layouts of the undecided cells (bit positions)."""

    def __init__(self, view: View, undecided: list[int], work: WorkBudget) -> None:
        self.cells = len(undecided)
        self.work = work
        position = {c: i for i, c in enumerate(undecided)}
        # Per undecided cell, the mask of the undecided cells around it.
        self.around: list[int] = []
        for c in undecided:
            mask = 0
            for nb in neighbour_lists(view.width, view.height)[c]:
                if nb in position:
                    mask |= 1 << position[nb]
            self.around.append(mask)
        self.memo: dict[tuple[Layouts, int], int] = {}
        self.nodes = 0

    def split(self, group: Layouts, cell: int) -> dict[int, list[int]]:
        """The layouts where ``cell`` is safe, by the number it would show."""
        parts: dict[int, list[int]] = {}
        bit, nb = 1 << cell, self.around[cell]
        for layout in group:
            if not layout & bit:
                parts.setdefault((layout & nb).bit_count(), []).append(layout)
        return parts

    def reveal_wins(self, group: Layouts, revealed: int, cell: int, floor: int = -1) -> int:
        """Layouts won by revealing ``cell`` now and playing on at best; or, as soon as
        that cannot exceed ``floor``, some count no greater than ``floor`` (branch and
        bound: a part of the layouts wins on at most all of them, so once the wins so far
        plus the parts still to search are at most ``floor``, the rest is not searched).
        The largest parts go first, where the bound tightens most."""
        parts = sorted(self.split(group, cell).values(), key=len, reverse=True)
        after = revealed | (1 << cell)
        unsearched = sum(len(part) for part in parts)
        total = 0
        for part in parts:
            if total + unsearched <= floor:
                return total + unsearched
            unsearched -= len(part)
            total += self.wins(tuple(part), after)
        return total

    def wins(self, group: Layouts, revealed: int) -> int:
        """Layouts of ``group`` won by the best play from here."""
        if len(group) == 1:
            return 1
        key = (group, revealed)
        if key in self.memo:
            return self.memo[key]
        self.nodes += 1
        if self.nodes > ENDGAME_NODES or not self.work.spend(UNITS_PER_NODE):
            raise _Budget
        union = 0
        for layout in group:
            union |= layout
        free = [i for i in range(self.cells) if not (revealed >> i) & 1 and not (union >> i) & 1]
        if free:
            result = self.reveal_wins(group, revealed, free[0])  # safe everywhere: no risk
        else:
            result = self.best_reveal(group, revealed)[0]
        self.memo[key] = result
        return result

    def best_reveal(self, group: Layouts, revealed: int, allowed: int = -1) -> tuple[int, int]:
        """The most layouts a reveal wins on, and the first cell that does, among the cells
        of ``allowed`` (a mask; default all). Raises ``_Budget`` when no allowed cell is safe
        in any layout (nothing to search)."""
        options = []
        for i in range(self.cells):
            if (revealed >> i) & 1 or not (allowed >> i) & 1:
                continue
            safe = sum(1 for layout in group if not (layout >> i) & 1)
            if safe:
                options.append((safe, i))
        if not options:
            raise _Budget
        options.sort(key=lambda o: (-o[0], o[1]))
        best, best_cell = -1, options[0][1]
        for safe, i in options:
            if safe <= best:
                break  # no cell with fewer safe layouts can win on more
            value = self.reveal_wins(group, revealed, i, best)
            if value > best:
                best, best_cell = value, i
        return best, best_cell
