"""Hints and autoplay moves: certain moves first, then the guessing policy."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from textmines.engine.actions import ActionKind
from textmines.engine.board import neighbour_lists
from textmines.engine.solver.analysis import Analysis, Move, analyse_view
from textmines.engine.solver.guessing import best_guess
from textmines.engine.solver.view import Cell, View, parse_view, reading_order
from textmines.engine.view_alphabet import ViewChar

#: Where autoplay makes its first click (clamped to the board), as the benchmarks specify.
FIRST_CLICK: Final = (3, 3)
#: A hint looks for a safe cell that one number explains among at most this many safe cells.
HINT_EXPLAINED_CELLS: Final = 256
#: Where a number lies from the hinted cell, as the hint says it.
_WHERE: Final = {
    (-1, -1): "up and to its left",
    (0, -1): "above it",
    (1, -1): "up and to its right",
    (-1, 0): "to its left",
    (1, 0): "to its right",
    (-1, 1): "down and to its left",
    (0, 1): "below it",
    (1, 1): "down and to its right",
}


@dataclass(frozen=True, slots=True)
class Hint:
    """A cell to reveal next: certain (``probability`` 0) or the best guess."""

    x: int
    y: int
    probability: float
    certain: bool
    #: Why a certain cell is safe, in words for the player (see ``why_safe``).
    reason: str = ""


def first_click(width: int, height: int) -> Cell:
    """Where autoplay clicks first: ``FIRST_CLICK`` clamped to the board."""
    return min(FIRST_CLICK[0], width - 1), min(FIRST_CLICK[1], height - 1)


def hint(view_text: str, mines: int) -> Hint | None:
    """The cell to reveal next: a certainly safe one if any (first in reading order), else
    the best guess of the autoplay policy. ``None`` when no covered cell is left, or every
    one left is certainly a mine (flagged cells are never suggested). The analysis and the
    guess each stop on their budget of work (``ANALYSIS_WORK``, ``GUESS_WORK``), so the same
    view always gets the same hint."""
    view = parse_view(view_text)
    analysis = analyse_view(view, mines)
    if len(analysis.mined) == len(analysis.probabilities):
        return None
    if analysis.safe:
        # The simplest step first: a cell one number explains, if there is one.
        cells = sorted(analysis.safe, key=reading_order)
        proven = proven_mines(analysis)
        for x, y in cells[:HINT_EXPLAINED_CELLS]:
            reason = number_reason(view, proven, (x, y))
            if reason is not None:
                return Hint(x, y, 0.0, True, reason)
        # No number alone settles any of them (the first was among those looked at).
        x, y = cells[0]
        return Hint(x, y, 0.0, True, _decided_reason(analysis, (x, y)))
    if not view.started:
        x, y = first_click(view.width, view.height)
        if (x, y) in analysis.probabilities:
            return Hint(x, y, analysis.probabilities[(x, y)], False)
    x, y = best_guess(view_text, analysis)
    return Hint(x, y, analysis.probabilities[(x, y)], False)


def next_move(
    view_text: str,
    mines: int,
    *,
    flag_mines: bool = True,
) -> Move | None:
    """The next autoplay move, or ``None`` when no covered cell is left.

    Before anything is revealed this is the first click (``first_click``). Then certain
    reveals come first, then (with ``flag_mines``) flags on certain mines, then a guess.
    Without ``flag_mines``, ``None`` also when every covered cell is certainly a mine.
    Autoplay that wants speed can take every certain reveal at once (``next_reveals``).
    """
    view = parse_view(view_text)
    analysis = analyse_view(view, mines)
    return _next_move(view_text, view, analysis, flag_mines)


def next_reveals(view_text: str, mines: int, *, all_certain: bool = False) -> list[Move]:
    """Autoplay's next reveals: its next move without flags (``next_move``), or with
    ``all_certain`` every certainly safe cell at once, in reading order, when there is one
    (a big board is then cleared in seconds rather than minutes). Empty when nothing is left
    to reveal. The view is analysed once either way."""
    view = parse_view(view_text)
    analysis = analyse_view(view, mines)
    if all_certain and analysis.safe:
        return [m for m in analysis.certain_moves() if m.kind == ActionKind.REVEAL]
    move = _next_move(view_text, view, analysis, False)
    return [] if move is None else [move]


def _next_move(view_text: str, view: View, analysis: Analysis, flag_mines: bool) -> Move | None:
    """``next_move`` of a view already analysed."""
    if not analysis.probabilities:
        return None
    if not view.started:
        x, y = first_click(view.width, view.height)
        if (x, y) in analysis.probabilities:
            return Move(ActionKind.REVEAL, x, y, analysis.probabilities[(x, y)])
    if analysis.safe:
        x, y = min(analysis.safe, key=reading_order)
        return Move(ActionKind.REVEAL, x, y, 0.0)
    if analysis.mined:
        if flag_mines:
            x, y = min(analysis.mined, key=reading_order)
            return Move(ActionKind.FLAG, x, y, 1.0)
        if len(analysis.mined) == len(analysis.probabilities):
            return None
    x, y = best_guess(view_text, analysis)
    return Move(ActionKind.REVEAL, x, y, analysis.probabilities[(x, y)])


def why_safe(view: View, analysis: Analysis, cell: Cell) -> str:
    """Why ``cell``, certainly safe in ``analysis``, is safe, in words for the player: the
    number beside it that already touches all its mines, when one does (``number_reason``);
    otherwise what decides it."""
    reason = number_reason(view, proven_mines(analysis), cell)
    return _decided_reason(analysis, cell) if reason is None else reason


def _decided_reason(analysis: Analysis, cell: Cell) -> str:
    """Why a safe cell that no number alone settles is safe."""
    if cell not in analysis.frontier:
        return "the mine counter leaves no mine for the cells away from the numbers"
    return "the numbers around it, taken together, leave no room for a mine there"


def proven_mines(analysis: Analysis) -> frozenset[Cell]:
    """The cells ``analysis`` proves to be mines, flagged or not."""
    flagged = {c for c, p in analysis.flag_probabilities.items() if p == 1.0}
    return analysis.mined | flagged


def number_reason(view: View, proven: frozenset[Cell], cell: Cell) -> str | None:
    """The number beside ``cell`` that already touches all its mines, all of them among the
    ``proven`` mines (``proven_mines``): "the 2 above it already touches 2 certain mines";
    ``None`` when no number alone settles the cell."""
    x, y = cell
    for n in neighbour_lists(view.width, view.height)[y * view.width + x]:
        number = view.text[n]
        if number not in ViewChar.NUMBERS[1:]:  # a 0 touches no mine
            continue
        mines = sum(view.cell(m) in proven for m in view.unknown_neighbours(n))
        if mines == int(number):
            nx, ny = view.cell(n)
            plural = "s" if mines > 1 else ""
            return (
                f"the {number} {_WHERE[(nx - x, ny - y)]} already touches {mines} certain "
                f"mine{plural}"
            )
    return None
