"""Exact mine probabilities and certain cells of a view: the solver's analysis.

The steps: the view's numbers become constraints, trivially propagated (``model``); the
frontier's components are counted by mine count (``counting``); the components and the
*interior* (covered cells next to no number, which take ``comb(I, r)`` layouts for ``r``
mines) are combined over their mine counts with the global total; and every unknown cell
of the view gets its probability. All weights are exact Python integers (interior weights
are scaled by a common factor so they stay small even on 1000x1000 boards); probabilities
are exact fractions turned into floats at the very end, and ``safe``/``mined`` come from
exact integer comparisons, never from float rounding.

A budget of work (``engine.work``: layout states counted, never seconds) bounds the
counting. A component past it gets a local estimate, its certain cells still come from the
trivial propagation, and the analysis is marked ``approximate``. The same view therefore
gets the same analysis on an idle machine and on a busy one.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Final

from textmines.engine.actions import ActionKind
from textmines.engine.solver.counting import (
    Component,
    WorkExceeded,
    components,
    convolve,
    count_layouts,
    estimate,
    expected_mines,
    interior_weights,
)
from textmines.engine.solver.model import (
    ITEMS_PER_CHECK,
    Constraint,
    Model,
    Stop,
    build_model,
    check_stop,
    model_of,
    numbers_near,
    probe_constraint,
    undecided_part,
)
from textmines.engine.solver.view import (
    UNFLAGGED_CELL,
    UNKNOWN_CELL,
    Cell,
    View,
    parse_view,
    reading_order,
)
from textmines.engine.view_alphabet import ViewChar
from textmines.engine.work import WorkBudget

#: Units of work (``WorkBudget``) the exact counting of one analysis may spend before it
#: settles for an estimate: about 0.5 s of counting here (a unit is one way of filling a
#: group from one state, about a microsecond and a half). An Expert position takes a few
#: thousand.
ANALYSIS_WORK: Final = 300_000
#: Units of work (``WorkBudget``) a group of frontier cells costs beyond its counting: about
#: what planning and weighing it take, measured against the counting's own units.
UNITS_PER_GROUP: Final = 10
#: A look-ahead probe, or a check of what a mine would decide, costs this many a
#: constraint of its model, to build, propagate and plan it (much of a probe's time goes
#: there rather than into the counting).
UNITS_PER_CONSTRAINT: Final = 20


@dataclass(frozen=True, slots=True)
class Move:
    """One autoplay move. ``flag`` means call ``Game.toggle_mark`` on a covered cell."""

    kind: ActionKind  # REVEAL or FLAG: what Game.act takes
    x: int
    y: int
    probability: float


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
    is True when the work budget forced an estimate for part of the frontier; ``safe`` and
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
        moves = [
            Move(ActionKind.REVEAL, x, y, 0.0) for x, y in sorted(self.safe, key=reading_order)
        ]
        moves += [
            Move(ActionKind.FLAG, x, y, 1.0) for x, y in sorted(self.mined, key=reading_order)
        ]
        return moves


def analyse(view_text: str, mines: int, *, work: int = ANALYSIS_WORK) -> Analysis:
    """Exact mine probabilities and certain cells of a view with ``mines`` mines in all.

    Raises ``ValueError`` if the view is malformed or no layout fits it. ``work`` (units,
    see ``ANALYSIS_WORK``) bounds the exact counting; past it the result is
    ``approximate``.
    """
    return analyse_view(parse_view(view_text), mines, work=WorkBudget(work))


def probabilities(view_text: str, mines: int, *, work: int = ANALYSIS_WORK) -> dict[Cell, float]:
    """The mine probability of every covered (``#``) and question-marked (``?``) cell.

    Flags are not trusted (see the ``solver`` docstring); use ``analyse`` for flagged cells.
    """
    return analyse(view_text, mines, work=work).probabilities


def analyse_view(
    view: View,
    mines: int,
    *,
    max_groups: int | None = None,
    stop: Stop | None = None,
    work: WorkBudget | None = None,
) -> Analysis:
    """``analyse`` on a view already parsed (or built, as the no-guess generator does).

    Components of more than ``max_groups`` groups are estimated as if the work budget had
    run out (for tests of the approximation). ``stop`` is asked every few thousand cells,
    from reading the view to the last probability: when it returns True the analysis ends
    with ``AnalysisStopped`` (``work`` only bounds the counting, and reading a 1000x1000
    view takes seconds by itself). A component whose counting would take ``work`` past its
    budget (default ``ANALYSIS_WORK``) is estimated.
    """
    model = build_model(view, mines, stop)
    budget = WorkBudget(ANALYSIS_WORK) if work is None else work
    mix, cells = _solve(model, max_groups, stop, budget)
    return _report(view, mines, model, mix, cells, stop)


def safe_by_numbers_near(
    view: View,
    indices: list[int],
    reach: int,
    work: WorkBudget | None = None,
) -> set[int]:
    """Those of the unknown cells ``indices`` that the revealed numbers within ``reach``
    cells of them prove safe, counted exactly but without the mine count. Sound: what a
    subset of the facts proves, all of them prove (a cell it does not prove may still be
    safe). Much cheaper than ``analyse_view`` on a big board when the numbers near a cell
    decide it, as they decide most cells a player opens. A component past ``work`` (default
    ``ANALYSIS_WORK``) proves nothing."""
    model = model_of(numbers_near(view, indices, reach), 0, 0)
    wanted = set(indices)
    safe = model.safe & wanted
    budget = WorkBudget(ANALYSIS_WORK) if work is None else work
    for comp in components(model):
        if wanted.isdisjoint(c for group in comp.members for c in group):
            continue
        try:
            count_layouts(comp, budget)
        except WorkExceeded:
            continue
        if not comp.counts:
            raise ValueError("the view is inconsistent: no mine layout fits its numbers")
        sure = expected_mines(comp, dict.fromkeys(comp.counts, 1))
        for group, mines in zip(comp.members, sure, strict=True):
            if mines == 0:
                safe.update(wanted.intersection(group))
    return safe


def certain_cells(
    view: View, mines: int, *, stop: Stop | None = None, work: WorkBudget | None = None
) -> tuple[set[int], set[int]]:
    """The indices of the unknown cells of ``view`` that are certainly safe, and those that
    are certainly mined: what ``analyse_view`` proves, without the probabilities of the
    others. Raises as ``analyse_view`` does."""
    model = build_model(view, mines, stop)
    text = view.text
    safe, mined = _certain(
        model, lambda: (m.start() for m in UNKNOWN_CELL.finditer(text)), stop, work
    )
    flagged = {i for i in safe if text[i] == ViewChar.FLAG}  # a wrong flag is not a cell to open
    return safe - flagged, mined


def certain_cells_of(
    numbers: list[Constraint],
    unknown_cells: Callable[[], Iterable[int]],
    unknown_total: int,
    mines_left: int,
    *,
    stop: Stop | None = None,
    work: WorkBudget | None = None,
) -> tuple[set[int], set[int]]:
    """``certain_cells`` of a position given by its numbers' constraints (each number's
    unknown cells and the mines among them) rather than by a view: the no-guess generator
    has them at hand, hundreds of times a deal, and reading a view again costs more than the
    rest. ``unknown_cells`` lists every unknown cell (asked only when the cells next to no
    number are decided); ``unknown_total`` counts them and ``mines_left`` is the mines among
    them. A component whose counting would take ``work`` past its budget (default
    ``ANALYSIS_WORK``) decides nothing."""
    model = model_of(numbers, unknown_total, mines_left, stop)
    return _certain(model, unknown_cells, stop, work)


def _certain(
    model: Model,
    unknown_cells: Callable[[], Iterable[int]],
    stop: Stop | None,
    work: WorkBudget | None,
) -> tuple[set[int], set[int]]:
    """The model's certainly safe and certainly mined cells, the interior's included when
    the mine count decides it (all safe or all mines)."""
    budget = WorkBudget(ANALYSIS_WORK) if work is None else work
    mix, cells = _solve(model, None, stop, budget)
    safe, mined = cells.safe, cells.mined
    if mix.interior and not cells.approximate and mix.interior_mines in (0, mix.z * mix.interior):
        decided = safe if mix.interior_mines == 0 else mined
        known = cells.probability  # the frontier and what the trivial deductions decided
        decided.update(i for i in unknown_cells() if i not in known)
    return safe, mined


@dataclass(frozen=True, slots=True)
class ProbeOutcome:
    """What one possible number of a cell leads to, for the guessing policy's look-ahead."""

    #: The natural log of the layouts that fit the view with that number.
    log_layouts: float
    #: The lowest mine probability among the cells still undecided (0 when none is).
    next_risk: float
    #: The second lowest (the next_risk again when one cell alone is undecided).
    second_risk: float
    #: How many other cells become certainly safe, counted up to 2.
    safe_cells: int
    #: How many other cells become certainly safe, all counted (the cells away from the
    #: numbers, flagged or not, when the mine count leaves none for them).
    clears: int = 0

    @property
    def progress(self) -> bool:
        """Whether some other cell becomes certainly safe."""
        return self.safe_cells > 0


def analyse_probe(
    view: View, base: Model, index: int, number: int, work: WorkBudget
) -> ProbeOutcome:
    """The analysis of ``view`` (whose model is ``base``) with the unknown cell at ``index``
    revealed as ``number``: the view is not read again, the base's deductions are kept, and
    only what the look-ahead needs is worked out, its counting spending ``work``. Raises
    ``ValueError`` when no layout fits that number."""
    model = _with_constraints(base, probe_constraint(view, index, number))
    work.spend(UNITS_PER_CONSTRAINT * len(model.constraints))
    mix, cells = _solve(model, None, None, work)
    # As ``analyse_view`` reports them: a flagged cell is neither a safe cell to open nor a
    # guess (its probability is a flag's), and the probed cell is a number now.
    text = view.text
    safe_cells = sum(
        1 for c in {*cells.safe, *base.safe} if c != index and text[c] != ViewChar.FLAG
    )
    undecided = cells.probability.keys() - cells.safe - cells.mined
    risks = [cells.probability[c] for c in undecided if text[c] != ViewChar.FLAG]
    clears = safe_cells
    interior = _unflagged_interior(text, cells, base, index, mix.interior)
    if interior:
        interior_p = Fraction(mix.interior_mines, mix.z * mix.interior)
        if interior_p == 0 and not cells.approximate:
            safe_cells += interior
            clears += mix.interior
        elif interior_p != 1 or cells.approximate:
            risks += [float(interior_p)] * interior
    low = heapq.nsmallest(2, risks)
    next_risk = low[0] if low else 0.0
    second = low[1] if len(low) > 1 else next_risk
    return ProbeOutcome(mix.log_layouts, next_risk, second, min(safe_cells, 2), clears)


def decided_with(
    view: View, base: Model, extra: list[Constraint], work: WorkBudget
) -> tuple[set[int], set[int]]:
    """The unknown cells of ``view`` (indices) certainly safe and certainly mined when
    ``extra`` constraints hold on top of the view's model ``base``, the counting spending
    ``work``. Raises ``ValueError`` when no layout fits them."""
    text, decided = view.text, base.safe | base.mined

    def unknown_cells() -> Iterable[int]:
        # The extended model leaves out what the base had already decided.
        return (m.start() for m in UNKNOWN_CELL.finditer(text) if m.start() not in decided)

    model = _with_constraints(base, extra)
    work.spend(UNITS_PER_CONSTRAINT * len(model.constraints))
    safe, mined = _certain(model, unknown_cells, None, work)
    return safe | base.safe, mined | base.mined


def _with_constraints(base: Model, extra: list[Constraint]) -> Model:
    """The view's model ``base`` with ``extra`` constraints added (over any unknown cells:
    what the base decided is taken out of them)."""
    added = [undecided_part(cells, need, base.safe, base.mined) for cells, need in extra]
    return model_of([*base.constraints, *added], base.unknown_total, base.mines_left)


def _unflagged_interior(
    text: str, cells: _CellOutcome, base: Model, index: int, interior: int
) -> int:
    """How many of a probe's ``interior`` cells are not flagged, counted up to 2 (a full
    analysis reports flagged cells apart: they are neither safe cells to open nor guesses,
    so a flagged interior cell must not count as a second safe cell or a second risk)."""
    if not interior or ViewChar.FLAG not in text:
        return min(2, interior)
    decided = cells.probability.keys() | base.safe | base.mined | {index}
    cells_left = (m.start() for m in UNFLAGGED_CELL.finditer(text) if m.start() not in decided)
    return sum(1 for _ in itertools.islice(cells_left, 2))


def _solve(
    model: Model,
    max_groups: int | None,
    stop: Stop | None,
    work: WorkBudget,
) -> tuple[_Mix, _CellOutcome]:
    """Count the model's components (estimating those past ``work``), combine them with the
    interior and weigh every frontier cell."""
    check_stop(stop)
    comps = components(model)
    check_stop(stop)
    exact, estimated_mines = _count_components(comps, model, max_groups, stop, work)
    approximate = len(exact) < len(comps)
    mix = _combine(model, exact, estimated_mines, approximate)
    cells = _CellOutcome({}, set(model.safe), set(model.mined), approximate)
    for i, comp in enumerate(exact):
        check_stop(stop)
        _weigh_component(comp, convolve(mix.prefix[i], mix.suffix[i + 1]), mix, cells)
        comp.release()
    for comp in comps:
        if comp.estimate is not None:
            for p, group in zip(comp.estimate, comp.members, strict=True):
                for c in group:
                    cells.probability[c] = p
    for c in model.safe:
        cells.probability[c] = 0.0
    for c in model.mined:
        cells.probability[c] = 1.0
    # What the counting's units leave out: planning every group, and weighing each
    # component against the mine counts of all the others (a product of distributions).
    work.spend(
        UNITS_PER_GROUP * sum(len(comp.sizes) for comp in comps)
        + sum(len(mix.prefix[i]) * len(mix.suffix[i + 1]) for i in range(len(exact)))
    )
    return mix, cells


def _count_components(
    comps: list[Component],
    model: Model,
    max_groups: int | None,
    stop: Stop | None,
    work: WorkBudget,
) -> tuple[list[Component], float]:
    """Count every component within ``work``; estimate the others. Returns
    the counted components and the mines the estimated ones are expected to hold."""
    exact: list[Component] = []
    estimated_mines = 0.0
    for comp in comps:
        check_stop(stop)
        try:
            if max_groups is not None and len(comp.sizes) > max_groups:
                raise WorkExceeded
            count_layouts(comp, work)
        except WorkExceeded:
            comp.release()
            comp.estimate = estimate(comp, model)
            estimated_mines += sum(p * s for p, s in zip(comp.estimate, comp.sizes, strict=True))
            continue
        if not comp.counts:
            raise ValueError("the view is inconsistent: no mine layout fits its numbers")
        exact.append(comp)
    return exact, estimated_mines


@dataclass(slots=True)
class _Mix:
    """The counted components and the interior combined under the global mine count."""

    mines_left: int  # for the counted components and the interior together
    interior: int  # covered cells next to no number
    prefix: list[dict[int, int]]  # layouts by mines of the components before each one...
    suffix: list[dict[int, int]]  # ... and after it (products that avoid dividing)
    weights: dict[int, int]  # interior layouts by mine count, scaled (interior_weights)
    z: int  # all layouts, scaled like ``weights``
    interior_mines: int  # the interior's mines summed over all layouts, scaled likewise
    log_layouts: float


def _combine(
    model: Model, exact: list[Component], estimated_mines: float, approximate: bool
) -> _Mix:
    """Combine the counted components and the interior under the global mine count."""
    mines_left = model.mines_left - round(estimated_mines)
    interior = model.unknown_total - len(model.frontier)
    prefix = [{0: 1}]
    for comp in exact:
        prefix.append(convolve(prefix[-1], comp.counts))
    suffix = [{0: 1}]
    for comp in reversed(exact):
        suffix.append(convolve(suffix[-1], comp.counts))
    suffix.reverse()
    total_front = prefix[-1]
    if approximate:
        # The estimate may leave too few or too many mines: keep the count feasible.
        low, high = min(total_front), max(total_front)
        mines_left = min(max(mines_left, low), high + interior)
    low = max(mines_left - max(total_front), 0)
    high = min(mines_left - min(total_front), interior)
    weights = interior_weights(interior, low, high)
    z = 0
    interior_mines = 0
    for t, count in total_front.items():
        wt = weights.get(mines_left - t, 0)
        z += count * wt
        interior_mines += count * wt * (mines_left - t)
    if z == 0:
        raise ValueError("the view is inconsistent: the mine count does not fit its numbers")
    # The interior weights were divided by interior! / (high! (interior - low)!).
    log_layouts = (
        math.log(z)
        + math.lgamma(interior + 1)
        - math.lgamma(high + 1)
        - math.lgamma(interior - low + 1)
    )
    return _Mix(mines_left, interior, prefix, suffix, weights, z, interior_mines, log_layouts)


@dataclass(slots=True)
class _CellOutcome:
    """What the analysis found out about the view's cells (indices into its text)."""

    probability: dict[int, float]  # of the frontier cells
    safe: set[int]
    mined: set[int]
    approximate: bool  # part of the frontier was estimated


def _weigh_component(
    comp: Component, others: dict[int, int], mix: _Mix, cells: _CellOutcome
) -> None:
    """The probability of each cell of a counted component, and which are certain.

    ``others`` are the layouts of the other counted components by mine count.
    """
    ext: dict[int, int] = {}
    for m in comp.counts:
        value = 0
        for t, count in others.items():
            wt = mix.weights.get(mix.mines_left - m - t, 0)
            if wt:
                value += count * wt
        ext[m] = value
    sums = expected_mines(comp, ext)
    sure, total = sums, mix.z
    if cells.approximate:
        # The global count was estimated: only what holds for every mine count of
        # this component alone is certain.
        sure = expected_mines(comp, dict.fromkeys(comp.counts, 1))
        total = sum(comp.counts.values())
    for size, group, s, certain in zip(comp.sizes, comp.members, sums, sure, strict=True):
        denominator = mix.z * size
        p = float(Fraction(s, denominator)) if s else 0.0
        if certain == 0:
            cells.safe.update(group)
        elif certain == total * size:
            cells.mined.update(group)
        for c in group:
            cells.probability[c] = p


def _report(
    view: View, mines: int, model: Model, mix: _Mix, cells: _CellOutcome, stop: Stop | None
) -> Analysis:
    """The analysis of every unknown cell of ``view``, in the view's coordinates."""
    w = view.width
    interior = mix.interior
    interior_p: float | None = None
    if interior:
        interior_p = float(Fraction(mix.interior_mines, mix.z * interior))
    default = interior_p if interior_p is not None else 0.0
    # Only an exact count proves the interior safe or mined.
    exact = bool(interior) and not cells.approximate
    interior_safe = exact and mix.interior_mines == 0
    interior_mined = exact and mix.interior_mines == mix.z * interior
    probs: dict[Cell, float] = {}
    flag_probs: dict[Cell, float] = {}
    safe: set[Cell] = set()
    mined: set[Cell] = set()
    wrong: set[Cell] = set()
    for number, match in enumerate(UNKNOWN_CELL.finditer(view.text), 1):
        if not number % ITEMS_PER_CHECK:
            check_stop(stop)
        index = match.start()
        cell = (index % w, index // w)
        known = cells.probability.get(index)
        if known is None:
            p, is_safe, is_mined = default, interior_safe, interior_mined
        else:
            p, is_safe, is_mined = known, index in cells.safe, index in cells.mined
        if match.group() == ViewChar.FLAG:
            flag_probs[cell] = p
            if is_safe:
                wrong.add(cell)
            continue
        probs[cell] = p
        if is_safe:
            safe.add(cell)
        elif is_mined:
            mined.add(cell)
    frontier = frozenset((c % w, c // w) for c in model.frontier | model.safe | model.mined)
    return Analysis(
        view.width,
        view.height,
        mines,
        probs,
        frozenset(safe),
        frozenset(mined),
        cells.approximate,
        interior_p,
        flag_probs,
        frozenset(wrong),
        frontier,
        mix.log_layouts,
    )
