"""The guessing policy: which cell to reveal when none is certainly safe."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Final, NamedTuple

from textmines.engine.board import NeighbourLists, neighbour_lists
from textmines.engine.solver.analysis import (
    Analysis,
    ProbeOutcome,
    analyse_probe,
    decided_with,
)
from textmines.engine.solver.endgame import endgame_guess, region_guess
from textmines.engine.solver.model import Constraint, Model, build_model
from textmines.engine.solver.view import KNOWN_MINE, UNKNOWN, Cell, View, parse_view
from textmines.engine.work import WorkBudget

#: Units of work (``WorkBudget``: layout states counted, probes' constraints, end-game
#: positions) one guess may spend on its searches and its look-ahead, shared among them in
#: the order they run. A budget of work, not of seconds, so the same view always gets the
#: same guess, on an idle machine or a busy one. Set so that no guess here takes much more
#: than half a second (see docs/solver.md).
GUESS_WORK: Final = 400_000

#: Cells whose mine probability is within this much of the lowest are guess candidates.
#: Measured on the same 5,000 Expert seeds (opening rule) against 0.1: 0.05 lost 0.34
#: points, 0.2 won 0.14 (10 games won that 0.1 lost, 3 the other way), 0.3 won 0.16.
GUESS_SLACK: Final = 0.2
#: At most this many frontier and this many interior candidates get a look-ahead.
FRONTIER_CANDIDATES: Final = 8
INTERIOR_CANDIDATES: Final = 4
# Also taking the interior cells two steps straight out from a number that still touches
# covered cells (at most 8) was measured and dropped: on 20,000 Expert games (seeds
# 0-19999, on top of REGIONS and PSEUDO_5050) it changed nothing with the opening rule (74
# games won only with it, 74 only without) and lost 0.30 points with the safe corner rule
# (mostly an edge cell two steps from a lone corner number taken over another corner).
#: Bonus for the chance of progress on top of the two-move survival chance. Measured on
#: Expert (4000 games): 0 does best; the pure progress score (1 - p) * (1 + progress)
#: without the second move's safety did about one point worse.
PROGRESS_WEIGHT: Final = 0.0
#: The next move's safety in the look-ahead is the safest cell's blended with the second
#: safest's, this much of the second (David Hill's 4:1): an outcome that leaves a second
#: good cell is worth more than one that leaves a single cell to take. 20,000 Expert games
#: (seeds 0-19999): 0.2 won 0.13 points over 0 with the opening rule (167 games won only
#: with it, 141 only without; z +1.48) and 0.09 with the safe corner (148 against 129).
SECOND_WEIGHT: Final = 0.2
#: Play a sealed-off part of the frontier exactly before any other guess (``region_guess``).
#: 20,000 Expert games (opening rule, seeds 0-19999): +0.05 points (23 games won only with
#: it, 13 only without; z +1.67).
REGIONS: Final = True
#: Play a cell whose every mine layout is an unbreakable 50/50 before any other guess
#: (``pseudo_fifty_fifty``). The same games, on top of REGIONS: +0.27 points (144 games won
#: only with it, 90 only without; z +3.53).
PSEUDO_5050: Final = True
#: ... when at most this many of the cells that could tell the sides apart are not yet
#: known mines (each pattern costs an analysis; more are seldom a 50/50). Also taking 2x2
#: blocks' diagonals, and counting a candidate's 50/50 layouts 0.9 as safe (Hill's
#: long-term risk), changed nothing on the same games (54.48%, 70 won only with them, 74
#: only without).
PSEUDO_MISSING: Final = 2
#: Then a cell of a link (a number needing one mine in two cells) whose every mine layout
#: has a twin no reveal tells apart, such as a chain of links closed at both ends
#: (``twin_cells``). 20,000 Expert games (seeds 0-19999), on top of SECOND_WEIGHT: +0.04
#: points with the opening rule (63 games won only with it, 55 only without) and +0.04
#: with the safe corner (50 against 43); the games took 6-13% longer.
CHAINS: Final = True
#: The second click when the first, in a corner, showed a number and nothing else is
#: known: by that number, the cell to take as (dx, dy) steps in from that corner (-1: the
#: far side of the board); a number not listed is left to the look-ahead, which takes the
#: far corner after a 2 or a 3 but, after a 1, the edge cell two steps out (its number
#: often settles the 1, so it scores best on surviving two moves). The far corner along the
#: edge, which opens a zero half the time, wins more of those games (Expert, safe first
#: click in the corner, paired): 33.83% against 33.02% on the 7,769 of seeds 0-19999 the
#: book was chosen on (697 won only with it, 634 only without), and 33.57% against 32.82%
#: on the 7,748 of seeds 20000-39999, tried once the book was set (662 against 604); z +2.37
#: over both. So +0.3 points on the whole safe rule (42.17% against 41.82% on seeds
#: 0-9999); the opening rule never shows a lone corner number. The cell two steps out
#: diagonally did worse (30.6% against 33.2%, seeds 0-9999). Below Expert's density the
#: look-ahead takes a far corner already.
CORNER_BOOK: Final[dict[int, tuple[int, int]]] = {1: (-1, 0)}

#: Scores equal to this many decimals are a tie, broken by the expected number of cells
#: the guess makes certainly safe (as JSMinesweeper rounds its scores to 6 decimals and
#: breaks ties by expected clears); 0: no rounding, ties go to the candidate order. Issue
#: 50, paired on Expert seeds 5,000,000-5,001,499 (opening rule): 6 decimals changed one
#: game of 1,500, won (+1 / -0); 3 decimals +2 / -1 on the first 1,154. Exact ties of the
#: two-move score are rare: cells tied in probability differ in what they reveal.
TIE_DIGITS: Final = 6
#: Every frontier cell tied at the lowest mine probability is a candidate, however many
#: (else ``FRONTIER_CANDIDATES`` at most). The same 1,500 games: not one changed.
TIED_CANDIDATES: Final = False

#: Sort key of a candidate: probability, covered neighbours, then reading order.
GuessOrder = Callable[[Cell], tuple[float, int, int, int]]


def best_guess(view_text: str, analysis: Analysis, *, work: int = GUESS_WORK) -> Cell:
    """The autoplay policy's guess when no cell is certainly safe.

    Candidates are the cells whose mine probability is within ``GUESS_SLACK`` of the
    lowest: the safest frontier cells and the interior cells with the fewest covered
    neighbours (corners, then edges: the likeliest to open a zero). Each is looked at one
    move ahead: every number it could show is analysed, and the score is the chance of
    surviving this move and the next, ``(1 - p) * E[next safety]``, where the next move's
    safety blends that of the safest cell of that position with the second safest's
    (``SECOND_WEIGHT``), a cell the number makes certainly safe counting as safe (a zero
    makes all its covered neighbours so). This prefers cells that give information and
    avoids "dead" cells whose number tells nothing. Ties go to the lower probability, then
    to fewer covered neighbours, then reading order; everything stops once ``work`` units
    (``GUESS_WORK``) are spent. When few cells are left undecided (``ENDGAME_CELLS``), an
    exact search over every fitting layout picks the cell that wins most often instead
    (see ``endgame``). Before the look-ahead, guesses that cost nothing come first: the
    best cell of a sealed-off part of the frontier, by the same exact search
    (``region_guess``), then a cell that is safe or one of an unbreakable 50/50
    (``pseudo_fifty_fifty``), then one of a chained 50/50 (``twin_cells``).
    """
    view = parse_view(view_text)
    probs = analysis.probabilities
    if not probs:
        raise ValueError("no covered cell to guess")
    budget = WorkBudget(work)
    order = _guess_order(view, probs)
    candidates = _candidates(analysis, order)
    if len(candidates) == 1:
        return candidates[0]
    book = corner_book_guess(view, probs)
    if book is not None:
        return book
    # The view's model, read once: the end game and every look-ahead start from it.
    base = build_model(view, analysis.mines)
    log_layouts = None if analysis.approximate else analysis.log_layouts
    endgame = endgame_guess(view, analysis.mines, budget, log_layouts, base)
    if endgame is not None:
        return endgame
    if REGIONS:
        region = region_guess(view, base, budget)
        if region is not None:
            return region
    when_mined = WhenMined(view, base)
    if PSEUDO_5050:
        pseudo = pseudo_fifty_fifty(view, analysis, base, budget, when_mined)
        if pseudo:
            return min(pseudo, key=order)
    if CHAINS:
        twins = twin_cells(view, analysis, base, budget, when_mined)
        if twins:
            return min(twins, key=order)
    return _look_ahead_choice(view, analysis, base, candidates, order, budget)


def corner_book_guess(view: View, probs: dict[Cell, float]) -> Cell | None:
    """``CORNER_BOOK``'s cell when the only revealed cell is a number in a corner
    (``probs``: the view's mine probabilities)."""
    w, h = view.width, view.height
    if len(probs) != w * h - 1 or w < 3 or h < 3:
        return None
    shown = [c for c in ((0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)) if c not in probs]
    if len(shown) != 1:
        return None
    x, y = shown[0]
    number = view.text[y * w + x]
    if not number.isdigit() or int(number) not in CORNER_BOOK:
        return None
    dx, dy = CORNER_BOOK[int(number)]
    sx, sy = (1 if x == 0 else -1), (1 if y == 0 else -1)
    gx = w - 1 - x if dx < 0 else x + sx * dx
    gy = h - 1 - y if dy < 0 else y + sy * dy
    return (gx, gy) if (gx, gy) in probs else None


def _look_ahead_choice(
    view: View,
    analysis: Analysis,
    base: Model,
    candidates: list[Cell],
    order: GuessOrder,
    work: WorkBudget,
) -> Cell:
    """The candidate most likely to survive this move and the next (see ``best_guess``)."""
    probs = analysis.probabilities
    best: tuple[float, float, float, int, int, int] | None = None
    choice = min(candidates, key=order)
    # Safest first: a cell whose score cannot beat the best so far (the next move's safety
    # and the progress are at most 1) needs no look-ahead. Keys are unique (they end in the
    # cell's coordinates), so the order changes nothing but the work.
    for cell in sorted(candidates, key=order):
        if work.exhausted:
            break
        safety = 1 - probs[cell]
        bound = _tied(safety * (1 + PROGRESS_WEIGHT))
        if best is not None and (-bound > best[0] or (not TIE_DIGITS and -bound == best[0])):
            continue
        ahead = look_ahead(view, analysis.mines, cell, work, base)
        score = _tied(safety * ahead.safety * (1 + PROGRESS_WEIGHT * ahead.progress))
        key = (-score, -ahead.clears if TIE_DIGITS else 0.0, *order(cell))
        if best is None or key < best:
            best, choice = key, cell
    return choice


def _tied(score: float) -> float:
    """``score`` rounded to ``TIE_DIGITS`` decimals (unrounded when that is 0)."""
    return round(score, TIE_DIGITS) if TIE_DIGITS else score


class WhenMined:
    """What a mine on a cell of a view decides (``decided_with``), each cell worked out
    once: the cells then certainly safe and certainly mined, or ``None`` when the cell
    cannot hold a mine."""

    def __init__(self, view: View, base: Model) -> None:
        self.view, self.base = view, base
        self.known: dict[int, tuple[set[int], set[int]] | None] = {}

    def __call__(self, cell: int, work: WorkBudget) -> tuple[set[int], set[int]] | None:
        if cell not in self.known:
            try:
                self.known[cell] = decided_with(self.view, self.base, [([cell], 1)], work)
            except ValueError:
                self.known[cell] = None
        return self.known[cell]


def pseudo_fifty_fifty(
    view: View,
    analysis: Analysis,
    base: Model,
    work: WorkBudget,
    when_mined: WhenMined | None = None,
) -> list[Cell]:
    """The cells that are either safe or part of an unbreakable 50/50: whenever the cell
    holds a mine, its neighbour in a pair is safe and every covered cell that could tell
    the two apart is a mine, so no number ever will. Those layouts and their mirror images
    (the pair swapped) are half lost whatever the play, and guessing the cell loses
    exactly that half: it costs nothing the game had not already lost, and its number may
    help elsewhere."""
    patterns = _FiftyFifties(view, analysis, base)
    when_mined = when_mined or WhenMined(view, base)
    found: list[Cell] = []
    for a in sorted(patterns.open):
        for one, other in _patterns(a, view.width, view.height):
            missing = patterns.undecided_sides(one, other)
            # A cell away from the numbers is never decided by one mine (unless the mine
            # count decides them all).
            if (
                missing is None
                or len(missing) > PSEUDO_MISSING
                or not patterns.frontier.issuperset(missing)
            ):
                continue
            for mines, clear in ((one, other), (other, one)):
                for cell in mines:
                    if work.exhausted:
                        return found
                    decided = when_mined(cell, work)
                    if decided is None or view.cell(cell) in found:
                        continue
                    safe, mined = decided
                    if mined.issuperset((*mines, *missing)) and safe.issuperset(clear):
                        found.append(view.cell(cell))
    return found


def twin_cells(
    view: View,
    analysis: Analysis,
    base: Model,
    work: WorkBudget,
    when_mined: WhenMined | None = None,
) -> list[Cell]:
    """The cells of a 2-cell link (a number needing one mine in two cells) whose every mine
    layout has a twin no safe reveal tells apart: flipping a set of undecided cells (the
    cell itself, safe then, and cells whose state the cell's mine decides) keeps every
    number and the mine count, and every covered cell whose number would change is a mine
    whenever the cell is. Guessing such a cell loses only layouts half lost anyway."""
    by_cell: dict[int, list[Constraint]] = {}
    for constraint in base.constraints:
        for c in constraint[0]:
            by_cell.setdefault(c, []).append(constraint)
    # A flagged cell is never a guess (its probability is a flag's, apart).
    guesses = analysis.probabilities.keys() - analysis.mined
    links = sorted(
        {
            c
            for cells, need in base.constraints
            if need == 1 and len(cells) == 2
            for c in cells
            if view.cell(c) in guesses
        }
    )
    when_mined = when_mined or WhenMined(view, base)
    around = neighbour_lists(view.width, view.height)
    found: list[Cell] = []
    for a in links:
        if work.exhausted:
            break
        decided = when_mined(a, work)
        if decided is None:
            continue
        twin = _Twin(a, decided, by_cell, around, view.text)
        if twin.found():
            found.append(view.cell(a))
        work.spend(_Twin.UNITS_PER_NODE * twin.nodes)
    return found


class _Twin:
    """The search for a twin of a cell's mine layouts (see ``twin_cells``): a set of cells
    to flip, each decided by the cell's mine, that keeps every number and the mine count.
    ``safe`` and ``mined`` are what the mine on ``cell`` decides."""

    #: The search gives up after this many steps or past this many cells to flip.
    NODES: Final = 200
    CELLS: Final = 24
    #: Units of the guess's work budget a step of the search costs.
    UNITS_PER_NODE: Final = 20

    def __init__(
        self,
        cell: int,
        decided: tuple[set[int], set[int]],
        by_cell: dict[int, list[Constraint]],
        around: NeighbourLists,
        text: str,
    ) -> None:
        self.safe, self.mined = decided
        self.by_cell, self.around, self.text = by_cell, around, text
        #: The cells flipped and how their mine count changes: +1 a safe cell turns into a
        #: mine, -1 a mine turns safe.
        self.flip = {cell: -1}
        self.nodes = 0

    def found(self) -> bool:
        """Whether a twin exists (searched depth first, a number at a time)."""
        self.nodes += 1
        if self.nodes > self.NODES or len(self.flip) > self.CELLS:
            return False
        constraint = self._unbalanced()
        if constraint is None:
            return self._unseen()
        net = self._change(constraint[0])
        if abs(net) != 1:
            return False
        # A number lost a mine: one of its cells that is safe turns into a mine (or the
        # other way round).
        turn, change = (self.safe, 1) if net < 0 else (self.mined, -1)
        for x in constraint[0]:
            if x not in self.flip and x in turn:
                self.flip[x] = change
                if self.found():
                    return True
                del self.flip[x]
        return False

    def _change(self, cells: Iterable[int]) -> int:
        return sum(self.flip.get(x, 0) for x in cells)

    def _unbalanced(self) -> Constraint | None:
        """A number around the flipped cells whose count the flip changes."""
        for c in self.flip:
            for constraint in self.by_cell.get(c, ()):
                if self._change(constraint[0]):
                    return constraint
        return None

    def _unseen(self) -> bool:
        """Whether the flip keeps the mine count and every covered cell whose number it
        changes is a mine whenever the cell is (so no reveal tells the twins apart)."""
        if sum(self.flip.values()):
            return False
        return not any(
            self._change(self.around[n])
            for c in self.flip
            for n in self.around[c]
            if n not in self.flip and self.text[n] in UNKNOWN and n not in self.mined
        )


class _FiftyFifties:
    """What the 50/50 patterns of a view are checked against."""

    def __init__(self, view: View, analysis: Analysis, base: Model) -> None:
        w, text = view.width, view.text
        self.view = view
        self.around = neighbour_lists(w, view.height)
        self.known = {y * w + x for x, y in analysis.mined} | base.mined
        self.known.update(i for i, c in enumerate(text) if c in KNOWN_MINE)
        probs = analysis.probabilities
        #: The undecided cells next to a number: a pattern's cells are among them.
        self.frontier = {y * w + x for x, y in analysis.frontier if (x, y) in probs}
        self.open = {c for c in self.frontier if c not in self.known}

    def undecided_sides(self, one: tuple[int, ...], other: tuple[int, ...]) -> list[int] | None:
        """The cells around a pattern that could tell its sides apart and are not known
        mines; ``None`` when one of them is revealed (its number tells them apart) or a cell
        of the pattern is not an undecided frontier cell."""
        if not self.open.issuperset((*one, *other)):
            return None
        sides = _telling_cells(one, other, self.around)
        text, known = self.view.text, self.known
        if any(text[c] not in UNKNOWN and c not in known for c in sides):
            return None
        return [c for c in sides if c not in known]


def _patterns(a: int, w: int, h: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """The 50/50 patterns whose first cell is ``a``: two cells side by side, each as its
    two sides (the cell mined in one layout and the cell mined in its mirror image)."""
    x, y = a % w, a // w
    out: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    if x + 1 < w:
        out.append(((a,), (a + 1,)))
    if y + 1 < h:
        out.append(((a,), (a + w,)))
    return out


def _telling_cells(
    one: tuple[int, ...], other: tuple[int, ...], around: NeighbourLists
) -> list[int]:
    """The cells around a pattern that touch more mines of one side than of the other."""
    pattern = {*one, *other}
    near = {n for c in pattern for n in around[c]} - pattern
    return sorted(
        n
        for n in near
        if len(set(around[n]).intersection(one)) != len(set(around[n]).intersection(other))
    )


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
    )
    lowest = probs[frontier[0]] if frontier else 0.0
    tied = sum(1 for c in frontier if probs[c] == lowest) if TIED_CANDIDATES else 0
    frontier = frontier[: max(FRONTIER_CANDIDATES, tied)]
    interior: list[Cell] = []
    if analysis.interior_probability is not None and analysis.interior_probability <= limit:
        interior = sorted((c for c in open_cells if c not in analysis.frontier), key=order)[
            :INTERIOR_CANDIDATES
        ]
    return frontier + interior


def _next_safety(after: ProbeOutcome, safe_cells: int) -> float:
    """The next move's safety after an outcome with ``safe_cells`` cells certainly safe
    (counted up to 2): the safest cell's and the second safest's, blended by
    ``SECOND_WEIGHT`` (a certainly safe cell's is 1)."""
    risks = [0.0] * safe_cells + [after.next_risk, after.second_risk]
    return 1 - (1 - SECOND_WEIGHT) * risks[0] - SECOND_WEIGHT * risks[1]


def progress_chance(view_text: str, mines: int, cell: Cell, *, work: int = GUESS_WORK) -> float:
    """If ``cell`` is safe, the chance that revealing it leads to a certain move.

    Every number the cell could show is tried: the view with that number is analysed, its
    layout count weighs it, and it counts as progress when it makes some cell certainly
    safe (a zero always does: its neighbours are).
    """
    view = parse_view(view_text)
    return look_ahead(view, mines, cell, WorkBudget(work)).progress


class LookAhead(NamedTuple):
    """What revealing a cell leads to, if it is safe (``look_ahead``)."""

    #: The chance that some other cell becomes certainly safe.
    progress: float
    #: The expected safety of the next move (``_next_safety``).
    safety: float
    #: The expected number of other cells that become certainly safe.
    clears: float


def look_ahead(
    view: View, mines: int, cell: Cell, work: WorkBudget, base: Model | None = None
) -> LookAhead:
    """If ``cell`` is safe: the chance of progress, the expected safety of the next move
    (``_next_safety``: 1 when two cells become certainly safe) and the expected number of
    cells it makes certainly safe. ``base`` is ``view``'s model (``build_model``), worked
    out here when not given."""
    if base is None:
        base = build_model(view, mines)
    x, y = cell
    index = y * view.width + x
    outcomes: list[tuple[float, bool, float, int]] = []
    covered = len(view.unknown_neighbours(index))
    for number in range(covered + 1):
        try:
            after = analyse_probe(view, base, index, number, work)
        except ValueError:
            continue
        # A zero opens its neighbours; a cell with none tells only that it was safe.
        safes = max(after.safe_cells, min(covered, 2) if number == 0 else 0)
        clears = max(after.clears, covered if number == 0 else 0)
        outcomes.append((after.log_layouts, safes > 0, _next_safety(after, safes), clears))
    if not outcomes:
        return LookAhead(0.0, 1.0, 0.0)
    top = max(outcome[0] for outcome in outcomes)
    weights = [math.exp(outcome[0] - top) for outcome in outcomes]
    total = sum(weights)
    paired = list(zip(weights, outcomes, strict=True))
    progress = sum((w for w, outcome in paired if outcome[1]), 0.0)
    safety = sum(w * outcome[2] for w, outcome in paired)
    expected = sum(w * outcome[3] for w, outcome in paired)
    return LookAhead(progress / total, safety / total, expected / total)
