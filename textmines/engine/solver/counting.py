"""Counting the mine layouts of the frontier, one linked component at a time.

Frontier cells with the same set of constraints form a *group*; a group of ``s`` cells
holding ``k`` mines counts ``comb(s, k)`` layouts. Groups linked by constraints form
*components*, each solved on its own by a dynamic programme over its groups in
breadth-first order: the state is the remaining mine count of every constraint that is
started but not finished, plus the mines placed so far. A forward pass counts the layouts
of a component by mine count; a backward pass (weighted by what the rest of the board
allows) gives each group its expected mines.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from textmines.engine.solver.model import Constraint, Model
from textmines.engine.work import WorkBudget

#: A DP state: the mines still needed by each active constraint, in slot order.
State = tuple[int, ...]
#: One way to fill a group from a state: (mines in the group, next state, layouts).
Option = tuple[int, State, int]


class WorkExceeded(Exception):
    """The work budget ran out before a component was counted."""


@dataclass(slots=True)
class Slot:
    """How one constraint's remaining mine count moves through one group."""

    src: int  # index in the previous state, or -1 for a constraint starting here
    init: int
    dec: bool  # the group being placed is in this constraint
    cap: int  # room left in the constraint's later groups
    dst: int  # index in the next state, or -1 when the constraint ends here


@dataclass(slots=True)
class Component:
    """Groups linked by constraints, in processing order, and what counting them found."""

    sizes: list[int]  # group sizes, in processing order
    members: list[list[int]]  # the cells of each group
    layers: list[dict[State, dict[int, int]]] = field(default_factory=list)
    moves: list[dict[State, list[Option]]] = field(default_factory=list)
    slots: list[list[Slot]] = field(default_factory=list)  # per group, see _plan
    counts: dict[int, int] = field(default_factory=dict)  # mines -> layouts
    estimate: list[float] | None = None  # per-group probability past the work budget

    def release(self) -> None:
        """Drop the forward pass's layers, which only the backward pass needs."""
        self.layers, self.moves = [], []


def components(model: Model) -> list[Component]:
    """Group frontier cells by constraint set and split the groups into components."""
    groups = _groups(model)
    keys = list(groups)
    cons_groups: list[list[int]] = [[] for _ in model.constraints]
    for gi, key in enumerate(keys):
        for ci in key:
            cons_groups[ci].append(gi)

    def linked(gi: int) -> Iterable[int]:
        for ci in keys[gi]:
            yield from cons_groups[ci]

    seen = [False] * len(keys)
    out = []
    for start in range(len(keys)):
        if seen[start]:
            continue
        # Breadth-first from the far end of the component keeps the active constraints
        # few: a frontier is usually a thin curve, processed along its length.
        comp = _bfs(start, linked)
        for gi in comp:
            seen[gi] = True
        order = _bfs(comp[-1], linked)
        out.append(_plan(order, keys, groups, model.constraints))
    return out


def _groups(model: Model) -> dict[tuple[int, ...], list[int]]:
    """The frontier cells by the constraints they are in (cells ascending in each)."""
    by_cell: dict[int, list[int]] = {}
    for ci, (cells, _) in enumerate(model.constraints):
        for c in cells:
            by_cell.setdefault(c, []).append(ci)
    groups: dict[tuple[int, ...], list[int]] = {}
    for c in sorted(by_cell):
        groups.setdefault(tuple(by_cell[c]), []).append(c)
    return groups


def _bfs(start: int, linked: Callable[[int], Iterable[int]]) -> list[int]:
    order = [start]
    seen = {start}
    queue = deque([start])
    while queue:
        g = queue.popleft()
        for n in linked(g):
            if n not in seen:
                seen.add(n)
                order.append(n)
                queue.append(n)
    return order


def _plan(
    order: list[int],
    keys: list[tuple[int, ...]],
    groups: dict[tuple[int, ...], list[int]],
    constraints: list[Constraint],
) -> Component:
    """The component of the groups ``order`` (indices into ``keys``), with its slots."""
    comp = Component([len(groups[keys[g]]) for g in order], [groups[keys[g]] for g in order])
    pos = {g: i for i, g in enumerate(order)}
    first: dict[int, int] = {}
    last: dict[int, int] = {}
    members: dict[int, list[int]] = {}
    for g in order:
        for ci in keys[g]:
            i = pos[g]
            first[ci] = min(first.get(ci, i), i)
            last[ci] = max(last.get(ci, -1), i)
            members.setdefault(ci, []).append(i)
    active: list[int] = []
    for i, g in enumerate(order):
        touching = set(keys[g])
        current = active + sorted(ci for ci in touching if first[ci] == i)
        nxt = [ci for ci in current if last[ci] > i]
        dst_of = {ci: j for j, ci in enumerate(nxt)}
        src_of = {ci: j for j, ci in enumerate(active)}
        slots = []
        for ci in current:
            cap = sum(comp.sizes[j] for j in members[ci] if j > i)
            slot = Slot(
                src_of.get(ci, -1), constraints[ci][1], ci in touching, cap, dst_of.get(ci, -1)
            )
            slots.append(slot)
        comp.slots.append(slots)
        active = nxt
    return comp


def count_layouts(comp: Component, work: WorkBudget | None = None) -> None:
    """Count the layouts of ``comp`` by mine count into ``comp.counts``, keeping every
    layer for ``expected_mines``. Raises ``WorkExceeded`` before a group would take
    ``work`` past its budget (a unit: one way of filling a group from one state, so the
    same component stops at the same group on every machine; ``None``: no bound)."""
    layer: dict[State, dict[int, int]] = {(): {0: 1}}
    comp.release()
    for i, size in enumerate(comp.sizes):
        if work is not None and not work.spend(len(layer) * (size + 1)):
            raise WorkExceeded
        slots = [(s.src, s.init, s.dec, s.cap, s.dst) for s in comp.slots[i]]
        width = sum(1 for s in slots if s[4] >= 0)
        combs = [math.comb(size, k) for k in range(size + 1)]
        nxt: dict[State, dict[int, int]] = {}
        moves: dict[State, list[Option]] = {}
        for state, by_mines in layer.items():
            options = []
            for k in range(size + 1):
                new = [0] * width
                for src, init, dec, cap, dst in slots:
                    v = (state[src] if src >= 0 else init) - (k if dec else 0)
                    if v < 0 or v > cap:
                        break
                    if dst >= 0:
                        new[dst] = v
                else:
                    key = tuple(new)
                    options.append((k, key, combs[k]))
                    target = nxt.setdefault(key, {})
                    weight = combs[k]
                    for m, count in by_mines.items():
                        target[m + k] = target.get(m + k, 0) + count * weight
            moves[state] = options
        comp.layers.append(layer)
        comp.moves.append(moves)
        layer = nxt
    comp.counts = layer.get((), {})


def expected_mines(comp: Component, ext: dict[int, int]) -> list[int]:
    """Each group's expected mines times the total weight, ``ext`` weighting the rest
    of the board by this component's mine count (after ``count_layouts``)."""
    after: dict[tuple[State, int], int] = {((), m): ext.get(m, 0) for m in comp.counts}
    sums = [0] * len(comp.sizes)
    for i in range(len(comp.sizes) - 1, -1, -1):
        here: dict[tuple[State, int], int] = {}
        total = 0
        for state, by_mines in comp.layers[i].items():
            options = comp.moves[i][state]
            for m, count in by_mines.items():
                value = 0
                for k, key, weight in options:
                    rest = after.get((key, m + k), 0)
                    if rest:
                        part = weight * rest
                        value += part
                        if k:
                            total += count * part * k
                here[(state, m)] = value
        sums[i] = total
        after = here
    return sums


def estimate(comp: Component, model: Model) -> list[float]:
    """A local guess for a component too big to count: each group takes the mean density
    of its constraints. Used only past the work budget."""
    where: dict[int, int] = {}
    for gi, cells in enumerate(comp.members):
        for c in cells:
            where[c] = gi
    totals = [0.0] * len(comp.sizes)
    seen = [0] * len(comp.sizes)
    for cells, need in model.constraints:
        if cells[0] not in where:
            continue
        density = need / len(cells)
        for gi in {where[c] for c in cells}:
            totals[gi] += density
            seen[gi] += 1
    return [min(max(t / n, 0.0), 1.0) if n else 0.5 for t, n in zip(totals, seen, strict=True)]


def convolve(a: dict[int, int], b: dict[int, int]) -> dict[int, int]:
    """The distribution of the sum of two independent mine counts (layouts by count)."""
    out: dict[int, int] = {}
    for i, x in a.items():
        for j, y in b.items():
            out[i + j] = out.get(i + j, 0) + x * y
    return out


def interior_weights(interior: int, low: int, high: int) -> dict[int, int]:
    """``comb(interior, r)`` for ``r`` in ``[low, high]``, all divided by one common factor.

    The factor is ``interior! / (high! * (interior - low)!)``, which leaves products of
    ``high - low`` small integers: exact, and small even when ``interior`` is a million.
    """
    low, high = max(low, 0), min(high, interior)
    if low > high:
        return {}
    from_top = {high: 1}
    for r in range(high - 1, low - 1, -1):
        from_top[r] = from_top[r + 1] * (r + 1)
    from_bottom = {low: 1}
    for r in range(low + 1, high + 1):
        from_bottom[r] = from_bottom[r - 1] * (interior - r + 1)
    return {r: from_top[r] * from_bottom[r] for r in range(low, high + 1)}
