"""Exact mine probabilities, certain moves, hints and the autoplay policy.

The solver reads only what the player sees (the view text) and the total mine count, so it
can never use hidden information.

Method
------
1. Every revealed number gives a constraint: the covered cells around it hold exactly
   ``number - known mines`` mines. Trivial constraints (none left, or all left) are
   propagated first; this alone finds most certain moves and splits the frontier.
2. Frontier cells (covered cells next to a number) with the same set of constraints form a
   *group*; a group of ``s`` cells holding ``k`` mines counts ``comb(s, k)`` layouts.
3. Groups linked by constraints form *components*, each solved on its own by a dynamic
   programme over the groups in breadth-first order: the state is the remaining mine
   count of every constraint that is started but not finished, plus the mines placed so
   far. A forward pass counts the layouts of each component by mine count; a backward pass
   (weighted by what the rest of the board allows) gives each group its expected mines.
   Long thin frontiers, the usual Minesweeper case, keep the states few, so this is
   polynomial where plain enumeration is exponential.
4. Components and the *interior* (covered cells next to no number) are combined over
   their mine counts with the global total: the interior takes ``comb(I, r)`` layouts for
   ``r`` mines. All weights are exact Python integers (interior weights are scaled by a
   common factor so they stay small even on 1000x1000 boards); probabilities are exact
   fractions turned into floats at the very end, and ``safe``/``mined`` come from exact
   integer comparisons, never from float rounding.
5. A time box bounds the work. A component not finished in time gets a local estimate,
   its certain cells still come from step 1, and the analysis is marked ``approximate``.

Flags are not trusted: a flag is the player's claim, and the solver treats a flagged cell
as covered. A correct flag costs nothing (the solver proves the mine itself and lists it in
``flag_probabilities`` with probability 1); a wrong one cannot mislead it.
"""

from __future__ import annotations

import math
import re
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Final, Literal

from textmines.engine.board import grid_rows, neighbour_indices

if TYPE_CHECKING:
    from textmines.engine.game import Game

Cell = tuple[int, int]

DEFAULT_TIME_LIMIT: Final = 0.5
#: Where autoplay makes its first click (clamped to the board), as the benchmarks specify.
FIRST_CLICK: Final = (3, 3)

_UNKNOWN: Final = frozenset("#?F")
_KNOWN_MINE: Final = frozenset("*X")
_VALID: Final = frozenset("#?F012345678*XW")
_NUMBER: Final = re.compile(r"[0-8]")


# ---------------------------------------------------------------------- public types
@dataclass(frozen=True, slots=True, eq=False)
class Analysis:
    """Everything the solver knows about one view.

    ``probabilities`` holds the mine probability of every covered (``#``) and
    question-marked (``?``) cell; ``safe`` and ``mined`` are the cells among those that are
    certainly safe or certainly mined. Flagged cells are treated as covered: their
    probabilities are in ``flag_probabilities`` and those proven safe in ``wrong_flags``.
    ``frontier`` is the set of covered cells next to a revealed number. ``log_layouts`` is
    the natural log of the number of mine layouts that fit the view (meaningless when
    ``approximate``). ``interior_probability`` is the probability shared by every covered
    cell next to no revealed number (``None`` when there is no such cell). ``approximate``
    is True when the time box forced an estimate for part of the frontier; ``safe`` and
    ``mined`` stay certain even then.
    """

    width: int
    height: int
    mines: int
    probabilities: dict[Cell, float]
    safe: frozenset[Cell]
    mined: frozenset[Cell]
    approximate: bool = False
    interior_probability: float | None = None
    flag_probabilities: dict[Cell, float] = field(default_factory=dict)
    wrong_flags: frozenset[Cell] = frozenset()
    frontier: frozenset[Cell] = frozenset()
    log_layouts: float = 0.0

    def certain_moves(self) -> list[Move]:
        """Every certain move: reveals of the safe cells, then flags on the mined ones."""
        moves = [Move("reveal", x, y, 0.0) for x, y in sorted(self.safe, key=_reading)]
        moves += [Move("flag", x, y, 1.0) for x, y in sorted(self.mined, key=_reading)]
        return moves


@dataclass(frozen=True, slots=True)
class Hint:
    """A cell to reveal next: certain (``probability`` 0) or the best guess."""

    x: int
    y: int
    probability: float
    certain: bool


@dataclass(frozen=True, slots=True)
class Move:
    """One autoplay move. ``flag`` means call ``Game.toggle_mark`` on a covered cell."""

    kind: Literal["reveal", "flag"]
    x: int
    y: int
    probability: float


class _Timeout(Exception):
    pass


def _reading(cell: Cell) -> tuple[int, int]:
    return cell[1], cell[0]


# ---------------------------------------------------------------------- parsing
@dataclass(slots=True)
class _View:
    width: int
    height: int
    text: str  # rows joined without newlines: index = y * width + x


def _parse(view_text: str) -> _View:
    rows = grid_rows(
        view_text, empty="view text is empty: give one line per row", row_name="view row"
    )
    width = len(rows[0])
    text = "".join(rows)
    bad = set(text) - _VALID
    if bad:
        raise ValueError(f"view text holds {sorted(bad)[0]!r}, not one of '#F?0-8*XW'")
    return _View(width, len(rows), text)


# ---------------------------------------------------------------------- the model
@dataclass(slots=True)
class _Model:
    """Constraints over the unknown frontier cells after trivial propagation."""

    unknown_total: int  # unknown cells still undecided (frontier + interior)
    mines_left: int  # mines among them
    safe: set[int]
    mined: set[int]
    constraints: list[tuple[list[int], int]]  # (cells, mines) over undecided cells
    frontier: set[int]


def _build_model(view: _View, mines: int) -> _Model:
    w, h, text = view.width, view.height, view.text
    known_mines = sum(text.count(c) for c in _KNOWN_MINE)
    unknown_total = sum(text.count(c) for c in _UNKNOWN)
    raw: dict[int, tuple[list[int], int]] = {}
    for match in _NUMBER.finditer(text):
        index = match.start()
        cells = []
        need = int(match.group())
        for n in neighbour_indices(index, w, h):
            c = text[n]
            if c in _UNKNOWN:
                cells.append(n)
            elif c in _KNOWN_MINE:
                need -= 1
        if not cells:
            if need != 0:
                y, x = divmod(index, w)
                raise ValueError(f"the number at ({x}, {y}) cannot be satisfied")
            continue
        raw[index] = (cells, need)

    safe: set[int] = set()
    mined: set[int] = set()
    # Propagate trivial constraints until none is left; each pass removes decided cells.
    pending = list(raw.values())
    while True:
        progressed = False
        kept: list[tuple[list[int], int]] = []
        for cells, need in pending:
            live = []
            for cell in cells:
                if cell in mined:
                    need -= 1
                elif cell not in safe:
                    live.append(cell)
            if need < 0 or need > len(live):
                raise ValueError("the view is inconsistent: no mine layout fits its numbers")
            if not live:
                continue
            if need == 0:
                safe.update(live)
                progressed = True
            elif need == len(live):
                mined.update(live)
                progressed = True
            else:
                kept.append((live, need))
        pending = kept
        if not progressed:
            break
    constraints = list({(tuple(sorted(c)), n): (c, n) for c, n in pending}.values())
    frontier = {c for cells, _ in constraints for c in cells}
    return _Model(
        unknown_total - len(safe) - len(mined),
        mines - known_mines - len(mined),
        safe,
        mined,
        constraints,
        frontier,
    )


# ---------------------------------------------------------------------- components
@dataclass(slots=True)
class _Slot:
    src: int  # index in the previous state, or -1 for a constraint starting here
    init: int
    dec: bool  # the group being placed is in this constraint
    cap: int  # room left in the constraint's later groups
    dst: int  # index in the next state, or -1 when the constraint ends here


@dataclass(slots=True)
class _Component:
    sizes: list[int]  # group sizes, in processing order
    members: list[list[int]]  # the cells of each group
    layers: list[dict[tuple[int, ...], dict[int, int]]] = field(default_factory=list)
    moves: list[dict[tuple[int, ...], list[tuple[int, tuple[int, ...], int]]]] = field(
        default_factory=list
    )
    slots: list[list[_Slot]] = field(default_factory=list)  # per group, see _plan
    counts: dict[int, int] = field(default_factory=dict)  # mines -> layouts
    estimate: list[float] | None = None  # per-group probability when timed out


def _components(model: _Model) -> list[_Component]:
    """Group frontier cells by constraint set and split the groups into components."""
    by_cell: dict[int, list[int]] = {}
    for ci, (cells, _) in enumerate(model.constraints):
        for c in cells:
            by_cell.setdefault(c, []).append(ci)
    groups: dict[tuple[int, ...], list[int]] = {}
    for c in sorted(by_cell):
        groups.setdefault(tuple(by_cell[c]), []).append(c)
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
        far = comp[-1]
        order = _bfs(far, linked)
        out.append(_plan(order, keys, groups, model.constraints))
    return out


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
    constraints: list[tuple[list[int], int]],
) -> _Component:
    comp = _Component([len(groups[keys[g]]) for g in order], [groups[keys[g]] for g in order])
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
    slots_per_layer: list[list[_Slot]] = []
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
            slots.append(
                _Slot(
                    src_of.get(ci, -1), constraints[ci][1], ci in touching, cap, dst_of.get(ci, -1)
                )
            )
        slots_per_layer.append(slots)
        active = nxt
    comp.slots = slots_per_layer
    return comp


def _forward(comp: _Component, deadline: float) -> None:
    """Count the layouts of ``comp`` by mine count, keeping every layer for the backward pass."""
    layer: dict[tuple[int, ...], dict[int, int]] = {(): {0: 1}}
    comp.layers = []
    comp.moves = []
    for i, size in enumerate(comp.sizes):
        if time.perf_counter() > deadline:
            raise _Timeout
        slots = [(s.src, s.init, s.dec, s.cap, s.dst) for s in comp.slots[i]]
        width = sum(1 for s in slots if s[4] >= 0)
        combs = [math.comb(size, k) for k in range(size + 1)]
        nxt: dict[tuple[int, ...], dict[int, int]] = {}
        moves: dict[tuple[int, ...], list[tuple[int, tuple[int, ...], int]]] = {}
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


def _backward(comp: _Component, ext: dict[int, int]) -> list[int]:
    """Each group's expected mines times the total weight, ``ext`` weighting the rest."""
    after: dict[tuple[tuple[int, ...], int], int] = {((), m): ext.get(m, 0) for m in comp.counts}
    sums = [0] * len(comp.sizes)
    for i in range(len(comp.sizes) - 1, -1, -1):
        here: dict[tuple[tuple[int, ...], int], int] = {}
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


# ---------------------------------------------------------------------- combining
def _convolve(a: dict[int, int], b: dict[int, int]) -> dict[int, int]:
    out: dict[int, int] = {}
    for i, x in a.items():
        for j, y in b.items():
            out[i + j] = out.get(i + j, 0) + x * y
    return out


def _interior_weights(interior: int, low: int, high: int) -> dict[int, int]:
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


# ---------------------------------------------------------------------- analysis
def analyse(view_text: str, mines: int, *, time_limit: float = DEFAULT_TIME_LIMIT) -> Analysis:
    """Exact mine probabilities and certain cells of a view with ``mines`` mines in all.

    Raises ``ValueError`` if the view is malformed or no layout fits it. ``time_limit``
    (seconds) bounds the exact enumeration; past it the result is ``approximate``.
    """
    view = _parse(view_text)
    return _analyse(view, mines, time_limit)


def analyse_game(game: Game, *, time_limit: float = DEFAULT_TIME_LIMIT) -> Analysis:
    """``analyse`` on a game's current view and mine count."""
    return analyse(game.view_text(), game.mines, time_limit=time_limit)


def probabilities(
    view_text: str, mines: int, *, time_limit: float = DEFAULT_TIME_LIMIT
) -> dict[Cell, float]:
    """The mine probability of every covered (``#``) and question-marked (``?``) cell.

    Flags are not trusted (see the module docstring); use ``analyse`` for flagged cells.
    """
    return analyse(view_text, mines, time_limit=time_limit).probabilities


def _analyse(view: _View, mines: int, time_limit: float, max_groups: int | None = None) -> Analysis:
    """``analyse`` on a parsed view; components of more than ``max_groups`` groups are
    estimated as if the time box had run out (for tests of the approximation)."""
    deadline = time.perf_counter() + time_limit
    w, h, text = view.width, view.height, view.text
    model = _build_model(view, mines)
    comps = _components(model)
    exact: list[_Component] = []
    approximate = False
    estimated_mines = 0.0
    for comp in comps:
        try:
            if max_groups is not None and len(comp.sizes) > max_groups:
                raise _Timeout
            _forward(comp, deadline)
        except _Timeout:
            comp.layers, comp.moves = [], []
            comp.estimate = _estimate(comp, model)
            approximate = True
            estimated_mines += sum(p * s for p, s in zip(comp.estimate, comp.sizes, strict=True))
            continue
        if not comp.counts:
            raise ValueError("the view is inconsistent: no mine layout fits its numbers")
        exact.append(comp)

    mines_left = model.mines_left - round(estimated_mines)
    interior = model.unknown_total - len(model.frontier)
    # Distribution of the frontier's mines over the exact components, and per component the
    # distribution of all the others (prefix and suffix products avoid dividing).
    prefix = [{0: 1}]
    for comp in exact:
        prefix.append(_convolve(prefix[-1], comp.counts))
    suffix = [{0: 1}]
    for comp in reversed(exact):
        suffix.append(_convolve(suffix[-1], comp.counts))
    suffix.reverse()
    total_front = prefix[-1]
    if approximate:
        # The estimate may leave too few or too many mines: keep the count feasible.
        low, high = min(total_front), max(total_front)
        mines_left = min(max(mines_left, low), high + interior)
    low = max(mines_left - max(total_front), 0)
    high = min(mines_left - min(total_front), interior)
    weights = _interior_weights(interior, low, high)
    z = 0
    interior_mines = 0
    for t, count in total_front.items():
        wt = weights.get(mines_left - t, 0)
        z += count * wt
        interior_mines += count * wt * (mines_left - t)
    if z == 0:
        raise ValueError("the view is inconsistent: the mine count does not fit its numbers")

    cell_prob: dict[int, float] = {}
    safe = set(model.safe)
    mined = set(model.mined)
    for i, comp in enumerate(exact):
        others = _convolve(prefix[i], suffix[i + 1])
        ext: dict[int, int] = {}
        for m in comp.counts:
            value = 0
            for t, count in others.items():
                wt = weights.get(mines_left - m - t, 0)
                if wt:
                    value += count * wt
            ext[m] = value
        sums = _backward(comp, ext)
        sure, total = sums, z
        if approximate:
            # The global count was estimated: only what holds for every mine count of
            # this component alone is certain.
            sure = _backward(comp, dict.fromkeys(comp.counts, 1))
            total = sum(comp.counts.values())
        for size, cells, s, certain in zip(comp.sizes, comp.members, sums, sure, strict=True):
            denominator = z * size
            p = float(Fraction(s, denominator)) if s else 0.0
            if certain == 0:
                safe.update(cells)
            elif certain == total * size:
                mined.update(cells)
            for c in cells:
                cell_prob[c] = p
        comp.layers, comp.moves = [], []
    for comp in comps:
        if comp.estimate is not None:
            for p, cells in zip(comp.estimate, comp.members, strict=True):
                for c in cells:
                    cell_prob[c] = p
    interior_p: float | None = None
    if interior:
        interior_p = float(Fraction(interior_mines, z * interior))
    for c in model.safe:
        cell_prob[c] = 0.0
    for c in model.mined:
        cell_prob[c] = 1.0

    probs: dict[Cell, float] = {}
    flag_probs: dict[Cell, float] = {}
    default = interior_p if interior_p is not None else 0.0
    interior_safe = interior and interior_mines == 0 and not approximate
    interior_mined = interior and interior_mines == z * interior and not approximate
    safe_out: set[Cell] = set()
    mined_out: set[Cell] = set()
    wrong: set[Cell] = set()
    for match in _UNKNOWN_RE.finditer(text):
        index = match.start()
        cell = (index % w, index // w)
        known = cell_prob.get(index)
        if known is None:
            p = default
            is_safe, is_mined = bool(interior_safe), bool(interior_mined)
        else:
            p = known
            is_safe, is_mined = index in safe, index in mined
        if match.group() == "F":
            flag_probs[cell] = p
            if is_safe:
                wrong.add(cell)
            continue
        probs[cell] = p
        if is_safe:
            safe_out.add(cell)
        elif is_mined:
            mined_out.add(cell)
    return Analysis(
        w,
        h,
        mines,
        probs,
        frozenset(safe_out),
        frozenset(mined_out),
        approximate,
        interior_p,
        flag_probs,
        frozenset(wrong),
        frozenset((c % w, c // w) for c in model.frontier | model.safe | model.mined),
        # The interior weights were divided by interior! / (high! (interior - low)!).
        math.log(z)
        + math.lgamma(interior + 1)
        - math.lgamma(high + 1)
        - math.lgamma(interior - low + 1),
    )


_UNKNOWN_RE: Final = re.compile(r"[#?F]")


def _estimate(comp: _Component, model: _Model) -> list[float]:
    """A local guess for a component too big to count: each group takes the mean density
    of its constraints. Used only past the time box."""
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


# ---------------------------------------------------------------------- moves and hints
def first_click(width: int, height: int) -> Cell:
    """Where autoplay clicks first: ``FIRST_CLICK`` clamped to the board."""
    return min(FIRST_CLICK[0], width - 1), min(FIRST_CLICK[1], height - 1)


def _started(text: str) -> bool:
    """Whether anything is revealed (before that, autoplay makes its fixed first click)."""
    return _NUMBER.search(text) is not None or "W" in text or "X" in text


def hint(view_text: str, mines: int, *, time_limit: float = DEFAULT_TIME_LIMIT) -> Hint | None:
    """The cell to reveal next: a certainly safe one if any (first in reading order), else
    the best guess of the autoplay policy. ``None`` when no covered cell is left, or every
    one left is certainly a mine (flagged cells are never suggested)."""
    view = _parse(view_text)
    analysis = _analyse(view, mines, time_limit)
    if len(analysis.mined) == len(analysis.probabilities):
        return None
    if analysis.safe:
        x, y = min(analysis.safe, key=_reading)
        return Hint(x, y, 0.0, True)
    if not _started(view.text):
        x, y = first_click(view.width, view.height)
        if (x, y) in analysis.probabilities:
            return Hint(x, y, analysis.probabilities[(x, y)], False)
    x, y = best_guess(view_text, analysis, time_limit=time_limit)
    return Hint(x, y, analysis.probabilities[(x, y)], False)


def next_move(
    view_text: str,
    mines: int,
    *,
    flag_mines: bool = True,
    time_limit: float = DEFAULT_TIME_LIMIT,
) -> Move | None:
    """The next autoplay move, or ``None`` when no covered cell is left.

    Before anything is revealed this is the first click (``first_click``). Then certain
    reveals come first, then (with ``flag_mines``) flags on certain mines, then a guess.
    Without ``flag_mines``, ``None`` also when every covered cell is certainly a mine.
    Autoplay that wants speed can instead take ``analyse(...).certain_moves()`` in one go.
    """
    view = _parse(view_text)
    analysis = _analyse(view, mines, time_limit)
    if not analysis.probabilities:
        return None
    if not _started(view.text):
        x, y = first_click(view.width, view.height)
        if (x, y) in analysis.probabilities:
            return Move("reveal", x, y, analysis.probabilities[(x, y)])
    if analysis.safe:
        x, y = min(analysis.safe, key=_reading)
        return Move("reveal", x, y, 0.0)
    if analysis.mined:
        if flag_mines:
            x, y = min(analysis.mined, key=_reading)
            return Move("flag", x, y, 1.0)
        if len(analysis.mined) == len(analysis.probabilities):
            return None
    x, y = best_guess(view_text, analysis, time_limit=time_limit)
    return Move("reveal", x, y, analysis.probabilities[(x, y)])


# ---------------------------------------------------------------------- guessing
#: Cells whose mine probability is within this much of the lowest are guess candidates.
GUESS_SLACK: Final = 0.1
#: At most this many frontier and this many interior candidates get a look-ahead.
_FRONTIER_CANDIDATES: Final = 8
_INTERIOR_CANDIDATES: Final = 4
#: Bonus for the chance of progress on top of the two-move survival chance. Measured on
#: Expert (4000 games): 0 does best; the pure progress score (1 - p) * (1 + progress)
#: without the second move's safety did about one point worse.
PROGRESS_WEIGHT: Final = 0.0


def _unknown_neighbours(view: _View, index: int) -> int:
    around = neighbour_indices(index, view.width, view.height)
    return sum(1 for n in around if view.text[n] in _UNKNOWN)


def progress_chance(
    view_text: str, mines: int, cell: Cell, *, time_limit: float = DEFAULT_TIME_LIMIT
) -> float:
    """If ``cell`` is safe, the chance that revealing it leads to a certain move.

    Every number the cell could show is tried: the view with that number is analysed, its
    layout count weighs it, and it counts as progress when it makes some cell certainly
    safe (a zero always does: its neighbours are).
    """
    view = _parse(view_text)
    return _progress(view, mines, cell, time.perf_counter() + time_limit)


def _progress(view: _View, mines: int, cell: Cell, deadline: float) -> float:
    return _look_ahead(view, mines, cell, deadline)[0]


def _look_ahead(view: _View, mines: int, cell: Cell, deadline: float) -> tuple[float, float]:
    """If ``cell`` is safe: the chance of progress, and the expected safety of the next
    move (1 when some cell becomes certainly safe, else that of the safest guess)."""
    x, y = cell
    index = y * view.width + x
    text = view.text
    around = [n for n in neighbour_indices(index, view.width, view.height) if text[n] in _UNKNOWN]
    outcomes: list[tuple[float, bool, float]] = []
    for number in range(len(around) + 1):
        probe = _View(view.width, view.height, f"{text[:index]}{number}{text[index + 1 :]}")
        remaining = max(deadline - time.perf_counter(), 0.0)
        try:
            after = _analyse(probe, mines, remaining)
        except ValueError:
            continue
        good = bool(after.safe) or number == 0
        if good or not after.probabilities:
            next_safety = 1.0
        else:
            next_safety = 1.0 - min(
                (p for c, p in after.probabilities.items() if c not in after.mined), default=0.0
            )
        outcomes.append((after.log_layouts, good, next_safety))
    if not outcomes:
        return 0.0, 1.0
    top = max(value for value, _, _ in outcomes)
    weights = [math.exp(value - top) for value, _, _ in outcomes]
    total = sum(weights)
    progress = sum(w for w, (_, good, _) in zip(weights, outcomes, strict=True) if good)
    safety = sum(w * nxt for w, (_, _, nxt) in zip(weights, outcomes, strict=True))
    return progress / total, safety / total


def best_guess(
    view_text: str, analysis: Analysis, *, time_limit: float = DEFAULT_TIME_LIMIT
) -> Cell:
    """The autoplay policy's guess when no cell is certainly safe.

    Candidates are the cells whose mine probability is within ``GUESS_SLACK`` of the
    lowest: the safest frontier cells and the interior cells with the fewest covered
    neighbours (corners, then edges: the likeliest to open a zero). Each is looked at one
    move ahead: every number it could show is analysed, and the score is the chance of
    surviving this move and the next, ``(1 - p) * E[next safety]``, where the next move is
    safe for certain when the number makes some cell certainly safe (a zero always does)
    and otherwise is the safest guess of that position. This prefers cells that give
    information and avoids "dead" cells whose number tells nothing. Ties go to the lower
    probability, then to fewer covered neighbours, then reading order; the look-ahead
    stops at the time limit. When few cells are left undecided (``ENDGAME_CELLS``), an
    exact search over every fitting layout picks the cell that wins most often instead
    (it may be riskier now and still better overall, e.g. a cell whose number settles a
    50/50).
    """
    view = _parse(view_text)
    probs = analysis.probabilities
    if not probs:
        raise ValueError("no covered cell to guess")
    deadline = time.perf_counter() + time_limit
    # A certain mine is never a guess unless nothing else is left.
    open_cells = [c for c in probs if c not in analysis.mined] or list(probs)
    lowest = min(probs[c] for c in open_cells)
    limit = lowest + GUESS_SLACK
    w = view.width

    def order(cell: Cell) -> tuple[float, int, int, int]:
        return probs[cell], _unknown_neighbours(view, cell[1] * w + cell[0]), cell[1], cell[0]

    frontier = sorted(
        (c for c in open_cells if c in analysis.frontier and probs[c] <= limit), key=order
    )[:_FRONTIER_CANDIDATES]
    interior: list[Cell] = []
    if analysis.interior_probability is not None and analysis.interior_probability <= limit:
        interior = sorted((c for c in open_cells if c not in analysis.frontier), key=order)[
            :_INTERIOR_CANDIDATES
        ]
    candidates = frontier + interior
    if len(candidates) == 1:
        return candidates[0]
    endgame = _endgame(view, analysis.mines, deadline)
    if endgame is not None:
        return endgame
    best: tuple[float, float, int, int, int] | None = None
    choice = min(candidates, key=order)
    for cell in candidates:
        if time.perf_counter() > deadline:
            break
        progress, next_safety = _look_ahead(view, analysis.mines, cell, deadline)
        p = probs[cell]
        score = (1 - p) * next_safety * (1 + PROGRESS_WEIGHT * progress)
        key = (-score, *order(cell))
        if best is None or key < best:
            best, choice = key, cell
    return choice


# ---------------------------------------------------------------------- end game
#: The end game is searched exactly when at most this many cells are undecided...
ENDGAME_CELLS: Final = 18
#: ... and at most this many layouts fit the view.
ENDGAME_LAYOUTS: Final = 400
_ENDGAME_NODES: Final = 20_000


class _Budget(Exception):
    pass


def _layouts(model: _Model, cells: list[int], limit: int) -> list[int] | None:
    """Every placement of ``model.mines_left`` mines on ``cells`` that fits the
    constraints, as bit masks over positions in ``cells``; ``None`` past ``limit``."""
    position = {c: i for i, c in enumerate(cells)}
    member: list[list[int]] = [[] for _ in cells]
    need = []
    left = []
    for ci, (group, n) in enumerate(model.constraints):
        for c in group:
            member[position[c]].append(ci)
        need.append(n)
        left.append(len(group))
    out: list[int] = []
    total = len(cells)

    def place(i: int, mask: int, mines: int) -> None:
        if len(out) > limit:
            raise _Budget
        if i == total:
            if mines == 0:
                out.append(mask)
            return
        if mines > total - i:
            return
        for mine in (0, 1):
            if mine > mines:
                break
            ok = True
            for ci in member[i]:
                rest = need[ci] - mine
                if rest < 0 or rest > left[ci] - 1:
                    ok = False
            if not ok:
                continue
            for ci in member[i]:
                need[ci] -= mine
                left[ci] -= 1
            place(i + 1, mask | (mine << i), mines - mine)
            for ci in member[i]:
                need[ci] += mine
                left[ci] += 1

    try:
        place(0, 0, model.mines_left)
    except _Budget:
        return None
    return out


def _endgame(view: _View, mines: int, deadline: float) -> Cell | None:
    """The guess that maximises the chance of winning, by exhaustive search, when few
    cells are undecided; ``None`` when the position is too big or the search too long.

    Every layout that fits the view is equally likely. A move reveals a cell; a cell safe
    in every remaining layout is revealed for free; the game is won when one layout is
    left. The search counts, for the best strategy, the layouts it wins on.
    """
    model = _build_model(view, mines)
    text = view.text
    undecided = [
        i
        for i, c in enumerate(text)
        if c in _UNKNOWN and i not in model.safe and i not in model.mined
    ]
    if not undecided or len(undecided) > ENDGAME_CELLS:
        return None
    layouts = _layouts(model, undecided, ENDGAME_LAYOUTS)
    if not layouts or len(layouts) < 2:
        return None
    n = len(undecided)
    position = {c: i for i, c in enumerate(undecided)}
    around = []
    for c in undecided:
        mask = 0
        for nb in neighbour_indices(c, view.width, view.height):
            if nb in position:
                mask |= 1 << position[nb]
        around.append(mask)
    memo: dict[tuple[tuple[int, ...], int], int] = {}
    nodes = 0

    def split(group: tuple[int, ...], cell: int) -> dict[int, list[int]]:
        parts: dict[int, list[int]] = {}
        bit, nb = 1 << cell, around[cell]
        for layout in group:
            if not layout & bit:
                parts.setdefault((layout & nb).bit_count(), []).append(layout)
        return parts

    def wins(group: tuple[int, ...], revealed: int) -> int:
        nonlocal nodes
        if len(group) == 1:
            return 1
        key = (group, revealed)
        if key in memo:
            return memo[key]
        nodes += 1
        if nodes > _ENDGAME_NODES or (nodes % 256 == 0 and time.perf_counter() > deadline):
            raise _Budget
        union = 0
        for layout in group:
            union |= layout
        free = [i for i in range(n) if not (revealed >> i) & 1 and not (union >> i) & 1]
        if free:
            cell = free[0]
            result = sum(
                wins(tuple(part), revealed | (1 << cell)) for part in split(group, cell).values()
            )
        else:
            result = _best_reveal(group, revealed)[0]
        memo[key] = result
        return result

    def _best_reveal(group: tuple[int, ...], revealed: int) -> tuple[int, int]:
        options = []
        for i in range(n):
            if (revealed >> i) & 1:
                continue
            safe = sum(1 for layout in group if not (layout >> i) & 1)
            if safe:
                options.append((safe, i))
        options.sort(key=lambda o: (-o[0], o[1]))
        best, best_cell = -1, options[0][1]
        for safe, i in options:
            if safe <= best:
                break  # no cell with fewer safe layouts can win on more
            value = sum(wins(tuple(part), revealed | (1 << i)) for part in split(group, i).values())
            if value > best:
                best, best_cell = value, i
        return best, best_cell

    try:
        _, cell = _best_reveal(tuple(layouts), 0)
    except _Budget:
        return None
    index = undecided[cell]
    return index % view.width, index // view.width
