"""The constraints a view puts on its unknown cells, after the trivial deductions."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Final

from textmines.engine.board import neighbour_lists
from textmines.engine.solver.view import KNOWN_MINE, NUMBER, UNKNOWN, View
from textmines.engine.view_alphabet import ViewChar

#: The unknown cells around a number and how many mines they hold.
Constraint = tuple[list[int], int]
#: Asked now and then during an analysis: True ends it with ``AnalysisStopped``.
Stop = Callable[[], bool]
#: Numbers (or cells) handled between two questions to ``stop``.
ITEMS_PER_CHECK: Final = 4096


class AnalysisStopped(Exception):
    """The caller's ``stop`` asked an analysis to end before it was done."""


def probe_constraint(view: View, index: int, number: int) -> list[Constraint]:
    """What revealing the unknown cell at ``index`` as ``number`` adds to ``view``'s
    constraints: the cell is safe, and its number over the unknown cells around it."""
    around = neighbour_lists(view.width, view.height)[index]
    return [([index], 0), _number_around(view.text, around, number)]


def _number_around(text: str, around: list[int], number: int) -> Constraint:
    """A number's constraint: the unknown cells of ``around`` (its neighbours) and the mines
    they hold, ``number`` less the mines already shown among them."""
    cells, need = [], number
    for n in around:
        c = text[n]
        if c in UNKNOWN:
            cells.append(n)
        elif c in KNOWN_MINE:
            need -= 1
    return cells, need


def check_stop(stop: Stop | None) -> None:
    """Raise ``AnalysisStopped`` if ``stop`` says so."""
    if stop is not None and stop():
        raise AnalysisStopped


@dataclass(slots=True)
class Model:
    """Constraints over the undecided frontier cells after trivial propagation.

    Cells are indices into the view's text. ``safe`` and ``mined`` are the cells the
    trivial deductions decided; ``constraints`` and ``frontier`` cover only the others.
    """

    unknown_total: int  # unknown cells still undecided (frontier + interior)
    mines_left: int  # mines among them
    safe: set[int]
    mined: set[int]
    constraints: list[Constraint]  # (cells, mines) over undecided cells, no duplicates
    frontier: set[int]


def build_model(view: View, mines: int, stop: Stop | None = None) -> Model:
    """The constraints of ``view`` with ``mines`` mines in all, trivially propagated.

    Raises ``ValueError`` when a number cannot be satisfied, ``AnalysisStopped`` when
    ``stop`` (asked every few thousand numbers) returns True.
    """
    text = view.text
    known_mines = sum(text.count(c) for c in KNOWN_MINE)
    unknown_total = sum(text.count(c) for c in UNKNOWN)
    return model_of(number_constraints(view, stop), unknown_total, mines - known_mines, stop)


def model_of(
    numbers: list[Constraint], unknown_total: int, mines_left: int, stop: Stop | None = None
) -> Model:
    """The model of constraints ``numbers`` over ``unknown_total`` unknown cells holding
    ``mines_left`` mines (the view's, or a view's with more constraints: the look-ahead adds
    a revealed cell's to its view's without reading the view again)."""
    safe: set[int] = set()
    mined: set[int] = set()
    pending = _propagate(numbers, safe, mined, stop)
    constraints = list({(tuple(sorted(c)), n): (c, n) for c, n in pending}.values())
    frontier = {c for cells, _ in constraints for c in cells}
    return Model(
        unknown_total - len(safe) - len(mined),
        mines_left - len(mined),
        safe,
        mined,
        constraints,
        frontier,
    )


def number_constraints(view: View, stop: Stop | None = None) -> list[Constraint]:
    """One constraint per revealed number that still has unknown cells around it, in
    reading order."""
    w, text = view.width, view.text
    around = neighbour_lists(w, view.height)
    out: list[Constraint] = []
    for number, match in enumerate(NUMBER.finditer(text), 1):
        if not number % ITEMS_PER_CHECK:
            check_stop(stop)
        index = match.start()
        cells, need = _number_around(text, around[index], int(match.group()))
        if not cells:
            if need != 0:
                y, x = divmod(index, w)
                raise ValueError(f"the number at ({x}, {y}) cannot be satisfied")
            continue
        out.append((cells, need))
    return out


def numbers_near(view: View, indices: Iterable[int], reach: int) -> list[Constraint]:
    """The constraints of the revealed numbers within ``reach`` cells of ``indices`` (those
    with unknown cells around them): a few of the view's facts, enough to decide most cells
    near ``indices`` without reading the whole view (the game review's first look)."""
    w, h, text = view.width, view.height, view.text
    around = neighbour_lists(w, h)
    numbers: set[int] = set()
    for index in indices:
        y, x = divmod(index, w)
        for ny in range(max(0, y - reach), min(h, y + reach + 1)):
            row = ny * w
            numbers.update(
                row + nx
                for nx in range(max(0, x - reach), min(w, x + reach + 1))
                if text[row + nx] in ViewChar.NUMBERS
            )
    constraints = [_number_around(text, around[n], int(text[n])) for n in sorted(numbers)]
    return [constraint for constraint in constraints if constraint[0]]


def _propagate(
    pending: list[Constraint], safe: set[int], mined: set[int], stop: Stop | None
) -> list[Constraint]:
    """Apply trivial constraints (no mine left, or only mines left) until none is left,
    adding to ``safe`` and ``mined``; returns the constraints still open, over the cells
    still undecided."""
    while True:
        check_stop(stop)
        progressed = False
        kept: list[Constraint] = []
        for cells, need in pending:
            live, need = undecided_part(cells, need, safe, mined)
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
            return pending


def undecided_part(cells: list[int], need: int, safe: set[int], mined: set[int]) -> Constraint:
    """A constraint restricted to its undecided cells. Raises ``ValueError`` when it can
    no longer be met."""
    live = []
    for cell in cells:
        if cell in mined:
            need -= 1
        elif cell not in safe:
            live.append(cell)
    if need < 0 or need > len(live):
        raise ValueError("the view is inconsistent: no mine layout fits its numbers")
    return live, need
