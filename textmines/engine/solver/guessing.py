"""The guessing policy: which cell to reveal when none is certainly safe."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Final

from textmines.engine.solver.analysis import DEFAULT_TIME_LIMIT, Analysis, analyse_probe
from textmines.engine.solver.endgame import endgame_guess
from textmines.engine.solver.model import Model, build_model
from textmines.engine.solver.view import Cell, View, parse_view

#: Cells whose mine probability is within this much of the lowest are guess candidates.
#: Measured on the same 5,000 Expert seeds (opening rule) against 0.1: 0.05 lost 0.34
#: points, 0.2 won 0.14 (10 games won that 0.1 lost, 3 the other way), 0.3 won 0.16.
GUESS_SLACK: Final = 0.2
#: At most this many frontier and this many interior candidates get a look-ahead.
FRONTIER_CANDIDATES: Final = 8
INTERIOR_CANDIDATES: Final = 4
#: Bonus for the chance of progress on top of the two-move survival chance. Measured on
#: Expert (4000 games): 0 does best; the pure progress score (1 - p) * (1 + progress)
#: without the second move's safety did about one point worse.
PROGRESS_WEIGHT: Final = 0.0

#: Sort key of a candidate: probability, covered neighbours, then reading order.
GuessOrder = Callable[[Cell], tuple[float, int, int, int]]


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
    (see ``endgame``).
    """
    view = parse_view(view_text)
    probs = analysis.probabilities
    if not probs:
        raise ValueError("no covered cell to guess")
    deadline = time.perf_counter() + time_limit
    order = _guess_order(view, probs)
    candidates = _candidates(analysis, order)
    if len(candidates) == 1:
        return candidates[0]
    # The view's model, read once: the end game and every look-ahead start from it.
    base = build_model(view, analysis.mines)
    log_layouts = None if analysis.approximate else analysis.log_layouts
    endgame = endgame_guess(view, analysis.mines, deadline, log_layouts, base)
    if endgame is not None:
        return endgame
    best: tuple[float, float, int, int, int] | None = None
    choice = min(candidates, key=order)
    # Safest first: a cell whose score cannot beat the best so far (the next move's safety
    # and the progress are at most 1) needs no look-ahead. Keys are unique (they end in the
    # cell's coordinates), so the order changes nothing but the work.
    for cell in sorted(candidates, key=order):
        if time.perf_counter() > deadline:
            break
        p = probs[cell]
        if best is not None and (-(1 - p) * (1 + PROGRESS_WEIGHT), *order(cell)) >= best:
            continue
        progress, next_safety = look_ahead(view, analysis.mines, cell, deadline, base)
        score = (1 - p) * next_safety * (1 + PROGRESS_WEIGHT * progress)
        key = (-score, *order(cell))
        if best is None or key < best:
            best, choice = key, cell
    return choice


def _guess_order(view: View, probs: dict[Cell, float]) -> GuessOrder:
    w = view.width

    def order(cell: Cell) -> tuple[float, int, int, int]:
        covered = len(view.unknown_neighbours(cell[1] * w + cell[0]))
        return probs[cell], covered, cell[1], cell[0]

    return order


def _candidates(analysis: Analysis, order: GuessOrder) -> list[Cell]:
    """The frontier, then the interior cells worth a look-ahead, best first."""
    probs = analysis.probabilities
    # A certain mine is never a guess unless nothing else is left.
    open_cells = [c for c in probs if c not in analysis.mined] or list(probs)
    limit = min(probs[c] for c in open_cells) + GUESS_SLACK
    frontier = sorted(
        (c for c in open_cells if c in analysis.frontier and probs[c] <= limit), key=order
    )[:FRONTIER_CANDIDATES]
    interior: list[Cell] = []
    if analysis.interior_probability is not None and analysis.interior_probability <= limit:
        interior = sorted((c for c in open_cells if c not in analysis.frontier), key=order)[
            :INTERIOR_CANDIDATES
        ]
    return frontier + interior


def progress_chance(
    view_text: str, mines: int, cell: Cell, *, time_limit: float = DEFAULT_TIME_LIMIT
) -> float:
    """If ``cell`` is safe, the chance that revealing it leads to a certain move.

    Every number the cell could show is tried: the view with that number is analysed, its
    layout count weighs it, and it counts as progress when it makes some cell certainly
    safe (a zero always does: its neighbours are).
    """
    view = parse_view(view_text)
    return look_ahead(view, mines, cell, time.perf_counter() + time_limit)[0]


def look_ahead(
    view: View, mines: int, cell: Cell, deadline: float, base: Model | None = None
) -> tuple[float, float]:
    """If ``cell`` is safe: the chance of progress, and the expected safety of the next
    move (1 when some cell becomes certainly safe, else that of the safest guess).
    ``base`` is ``view``'s model (``build_model``), worked out here when not given."""
    if base is None:
        base = build_model(view, mines)
    x, y = cell
    index = y * view.width + x
    outcomes: list[tuple[float, bool, float]] = []
    for number in range(len(view.unknown_neighbours(index)) + 1):
        try:
            after = analyse_probe(view, base, index, number, deadline)
        except ValueError:
            continue
        good = after.progress or number == 0
        outcomes.append((after.log_layouts, good, 1.0 if good else 1.0 - after.next_risk))
    if not outcomes:
        return 0.0, 1.0
    top = max(value for value, _, _ in outcomes)
    weights = [math.exp(value - top) for value, _, _ in outcomes]
    total = sum(weights)
    progress = sum(w for w, (_, good, _) in zip(weights, outcomes, strict=True) if good)
    safety = sum(w * nxt for w, (_, _, nxt) in zip(weights, outcomes, strict=True))
    return progress / total, safety / total
