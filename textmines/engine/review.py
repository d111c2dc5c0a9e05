"""The review of a recorded game: every decision that opened cells, judged by the exact
solver from what the player could see at that moment (the revealed numbers and the mine
count; the player's flags are opinions, not facts), as chess programs review a game.

Each decision is one of:

* ``safe``: every cell it opened was certainly safe;
* ``guess``: it opened a cell that was not certainly safe, and nothing the player could
  have learnt first would have changed that: no covered cell was certainly safe, or
  opening every certainly safe cell (and those that then became certainly safe, until none
  is left) would have left the cell's odds and the best odds on the board as they were. A
  guess taken while such a cell was left keeps it in ``safe_cell`` ("taken early");
* ``avoidable``: a certainly safe cell existed, and opening the certainly safe cells would
  have changed the odds of the cell it opened or shown a safer one;
* ``blunder``: it opened a cell that was certainly a mine.

A chord is judged by the cells it opens: its mine probability is the highest of theirs, and
``opened`` names that cell. The first click is safe by the rules (the first click never hits
a mine). Luck is the product of (1 - mine probability) over the guesses and avoidable risks
(a blunder has its own count): the odds of surviving them all.

A review spends at most ``REVIEW_WORK`` units of work (``engine.work``), a position at most
``POSITION_WORK``: the same recording gets the same review on any machine, and a huge
recording is reviewed up to where the budget ends (``Review.complete`` is False).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Final

from textmines.engine.actions import MOVES, ActionKind
from textmines.engine.board import Board
from textmines.engine.game import Action, Game, Status
from textmines.engine.solver import Analysis, analyse_view
from textmines.engine.solver.analysis import safe_by_numbers_near
from textmines.engine.solver.model import Stop, check_stop
from textmines.engine.solver.view import View, parse_view, reading_order
from textmines.engine.view_alphabet import ViewChar
from textmines.engine.work import WorkBudget

#: Units of work the exact counting of one position may spend (a position past it is
#: estimated, and the review says so). Expert positions take a few thousand.
POSITION_WORK: Final = 2_000_000
#: Units of work a position costs to read and to model beyond its counting: one a cell, and
#: as many as a Expert position's counting for each one (measured: a unit of counting, a
#: cell read and a 10,000th of a position each take about a microsecond and a half).
READ_UNITS_PER_CELL: Final = 1
UNITS_PER_POSITION: Final = 10_000
#: Units of work a whole review may spend: an Expert game spends a few hundred thousand, a
#: 60x36 game played well about two million; a review past the budget stops there (a replay
#: of thousands of risky clicks on a 60x36 or a 255x255 board, after 10 to 15 s on a core).
REVIEW_WORK: Final = 10_000_000
#: How far around an opened cell the review first looks for the numbers that decide it.
NEAR: Final = 5
#: Odds closer than this are the same odds.
_SAME: Final = 1e-9
#: What is not open in a view: covered, question-marked and flagged cells.
_CLOSED = (*ViewChar.OPENABLE, ViewChar.FLAG)

Cell = tuple[int, int]


class DecisionKind(StrEnum):
    """How a decision that opened cells is judged."""

    SAFE = "safe"
    GUESS = "guess"
    AVOIDABLE = "avoidable"
    BLUNDER = "blunder"

    @property
    def risky(self) -> bool:
        return self is not DecisionKind.SAFE


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision that opened cells: when (game time), where it was made (the clicked
    cell; a chord's number), how it is judged, the mine probability of what it opened, and
    the best odds the player could have had instead (0 when a cell was certainly safe)."""

    t_ms: int
    x: int
    y: int
    kind: DecisionKind
    mine_probability: float
    safest: float
    #: A certainly safe cell left when the decision was made: the one to open instead (for
    #: ``avoidable`` and ``blunder``), or the one a forced guess was taken before.
    safe_cell: Cell | None = None
    #: The decision's place in the recording's actions (-1: not from a recording).
    index: int = -1
    #: The riskiest cell it opened: the clicked cell, or the cell a chord opened (None: the
    #: clicked cell, as for a decision built by hand).
    opened: Cell | None = None
    #: Whether ``safe_cell`` was under the player's own flag.
    safe_cell_flagged: bool = False

    @property
    def cell(self) -> Cell:
        """The riskiest cell the decision opened."""
        return self.opened if self.opened is not None else (self.x, self.y)


@dataclass(frozen=True, slots=True)
class Review:
    """Every decision of a game, in order, the fatal one of a loss included."""

    decisions: tuple[Decision, ...]
    #: Whether any position was estimated (its counting passed ``POSITION_WORK``).
    approximate: bool = False
    #: How the game stood after its last action.
    status: Status = Status.READY
    #: False when the review's work budget ran out: the decisions after are not judged.
    complete: bool = True
    #: The game time up to which the decisions are judged (the whole game when complete).
    reviewed_ms: int = 0
    #: The units of work the review spent (the same on any machine).
    work: int = 0

    @property
    def forced_loss(self) -> bool:
        """Whether the game was lost on a guess: nothing the player could know would have
        changed the odds of the fatal click."""
        last = self.decisions[-1] if self.decisions else None
        return (
            self.complete
            and self.status == Status.LOST
            and last is not None
            and last.kind is DecisionKind.GUESS
        )

    def count(self, kind: DecisionKind) -> int:
        return sum(1 for decision in self.decisions if decision.kind is kind)

    @property
    def guesses(self) -> int:
        return self.count(DecisionKind.GUESS)

    @property
    def avoidable(self) -> int:
        return self.count(DecisionKind.AVOIDABLE)

    @property
    def blunders(self) -> int:
        return self.count(DecisionKind.BLUNDER)

    @property
    def risky(self) -> list[Decision]:
        return [decision for decision in self.decisions if decision.kind.risky]

    @property
    def luck(self) -> float:
        """The odds of surviving every guess and avoidable risk: the product of
        (1 - probability). Blunders are left out: they are not luck (see ``blunders``)."""
        odds = 1.0
        for decision in self.risky:
            if decision.kind is not DecisionKind.BLUNDER:
                odds *= 1.0 - decision.mine_probability
        return odds


class _OutOfWork(Exception):
    """The review's work budget is spent."""


def review_game(
    board: Board,
    actions: Iterable[Action],
    *,
    question_marks: bool,
    work: int | None = None,
    stop: Stop | None = None,
    judged_from: int = 0,
) -> Review:
    """Replay ``actions`` on ``board`` and judge every decision that opened cells, within
    ``work`` units of work (default ``REVIEW_WORK``). ``stop`` is asked as the review goes:
    when it returns True the review ends with ``AnalysisStopped`` (a screen closed, the app
    quitting). The first ``judged_from`` actions are made but not judged: the clicks a
    practice game was played on from, which were another game's."""
    game = Game.from_board(board, question_marks=question_marks)
    budget = WorkBudget(REVIEW_WORK if work is None else work)
    decisions: list[Decision] = []
    approximate = False
    view = game.view_text()  # as it stands before each action: only a move changes it
    reviewed_ms = 0
    for index, action in enumerate(actions):
        check_stop(stop)
        if game.status.is_over:
            break
        reviewed_ms = action.t_ms
        if action.kind == ActionKind.QUESTION_MARKS:
            game.question_marks = bool(action.x)
            continue
        if action.kind not in MOVES or not (
            0 <= action.x < board.width and 0 <= action.y < board.height
        ):
            continue
        before, first = view, game.status == Status.READY
        if not game.act(action.kind, action.x, action.y):
            continue
        view = game.view_text()
        opened = _opened(board, before, view, action)
        if not opened or index < judged_from:
            continue
        try:
            decision, estimated = (
                (_first_click(board, action), False)
                if first
                else _judged(_Position(before, board, budget, stop), opened, action)
            )
        except _OutOfWork:
            return Review(
                tuple(decisions), approximate, game.status, False, action.t_ms, budget.used
            )
        decisions.append(replace(decision, index=index))
        approximate |= estimated
    return Review(tuple(decisions), approximate, game.status, True, reviewed_ms, budget.used)


def _first_click(board: Board, action: Action) -> Decision:
    """The first click: safe, as its rule makes it; a blind guess at the board's density
    where it opened a mine (a board laid before it, as a practice game's from a replay)."""
    cell = (action.x, action.y)
    if not board.is_mine(action.x, action.y):
        return Decision(action.t_ms, *cell, DecisionKind.SAFE, 0.0, 0.0, opened=cell)
    odds = board.mine_count / (board.width * board.height)
    return Decision(action.t_ms, *cell, DecisionKind.GUESS, odds, odds, opened=cell)


@dataclass(slots=True)
class _Position:
    """The position before a decision, with what judging it needs: the true board (to
    open the certainly safe cells and see what they show), the review's budget and stop."""

    before: str
    board: Board
    budget: WorkBudget
    stop: Stop | None

    def analyse(self, view: View) -> Analysis:
        """The whole position counted, its reading and counting spent from the budget."""
        budget = self.budget
        if not budget.spend(UNITS_PER_POSITION + READ_UNITS_PER_CELL * view.width * view.height):
            raise _OutOfWork
        position = WorkBudget(min(POSITION_WORK, budget.limit - budget.used))
        analysis = analyse_view(view, self.board.mine_count, stop=self.stop, work=position)
        if not budget.spend(position.used):
            raise _OutOfWork
        return analysis


def _judged(position: _Position, opened: Sequence[Cell], action: Action) -> tuple[Decision, bool]:
    """The decision that opened ``opened`` in ``position``, and whether the position had to
    be estimated. Most clicks open cells the numbers near them prove safe (counted exactly,
    cheap): only the others need the whole position counted."""
    view = parse_view(position.before)
    cells = [y * view.width + x for x, y in opened]
    near = WorkBudget(POSITION_WORK)
    proven = safe_by_numbers_near(view, cells, NEAR, near)
    # The numbers read around each cell, and their counting.
    if not position.budget.spend(len(cells) * (2 * NEAR + 1) ** 2 + near.used):
        raise _OutOfWork
    if proven == set(cells):
        return _safe(action, opened), False
    analysis = position.analyse(view)
    decision = judge(analysis, opened, action)
    estimated = analysis.approximate
    if decision.kind is DecisionKind.AVOIDABLE:
        after = _safe_cells_opened(position, view, analysis, opened)
        if after is not None:
            decision = _forced(decision, after)
            estimated |= after.approximate
    flagged = decision.safe_cell is not None and _flagged(view, decision.safe_cell)
    return replace(decision, safe_cell_flagged=flagged), estimated


def _safe(action: Action, opened: Sequence[Cell]) -> Decision:
    return Decision(action.t_ms, action.x, action.y, DecisionKind.SAFE, 0.0, 0.0, opened=opened[0])


def _flagged(view: View, cell: Cell) -> bool:
    return view.text[cell[1] * view.width + cell[0]] == ViewChar.FLAG


def _opened(board: Board, before: str, after: str, action: Action) -> list[Cell]:
    """The cells ``action`` opened itself (a flood's further cells are its consequences):
    the clicked cell of a reveal, the covered neighbours a chord opened."""
    width = board.width + 1  # the view's rows end in a newline
    if action.kind == ActionKind.REVEAL:
        candidates: Sequence[Cell] = [(action.x, action.y)]
    elif action.kind == ActionKind.CHORD:
        candidates = list(board.neighbours(action.x, action.y))
    else:
        return []
    return [
        (x, y)
        for x, y in candidates
        if before[y * width + x] in ViewChar.OPENABLE and after[y * width + x] not in _CLOSED
    ]


def _odds(analysis: Analysis) -> dict[Cell, float]:
    """The mine probability of every unknown cell, flagged ones included."""
    return {**analysis.flag_probabilities, **analysis.probabilities}


def _safe_cells(analysis: Analysis) -> set[Cell]:
    """The certainly safe cells, those under a flag included."""
    return set(analysis.safe | analysis.wrong_flags)


def judge(analysis: Analysis, opened: Sequence[Cell], action: Action) -> Decision:
    """How the decision that opened ``opened`` looks from ``analysis`` of the position before
    it (``opened`` must be covered or question-marked cells there), before asking whether
    the certainly safe cells would have changed anything (``_judged`` asks)."""
    odds = _odds(analysis)
    riskiest = max(sorted(opened, key=reading_order), key=odds.__getitem__)
    probability = odds[riskiest]
    safest = min(odds.values())
    safe_cells = sorted(_safe_cells(analysis), key=reading_order)
    # Name an unflagged safe cell first: the one the player can open at once.
    safe_cells.sort(key=lambda cell: cell in analysis.wrong_flags)
    mines = [cell for cell in opened if cell in analysis.mined]
    if mines:
        kind, probability, riskiest = DecisionKind.BLUNDER, 1.0, mines[0]
    elif all(cell in analysis.safe for cell in opened):
        kind, probability = DecisionKind.SAFE, 0.0
    elif safe_cells:
        kind = DecisionKind.AVOIDABLE
    else:
        kind = DecisionKind.GUESS
    safe_cell = (
        safe_cells[0]
        if kind in (DecisionKind.AVOIDABLE, DecisionKind.BLUNDER) and safe_cells
        else None
    )
    x, y, t_ms = action.x, action.y, action.t_ms
    return Decision(t_ms, x, y, kind, probability, safest, safe_cell, opened=riskiest)


def _safe_cells_opened(
    position: _Position, view: View, analysis: Analysis, opened: Sequence[Cell]
) -> Analysis | None:
    """The position after opening every certainly safe cell on the true board (a 0 opens
    its neighbours, as in play), again until no cell is certainly safe: what the player
    could have known before taking a risk. None as soon as what they show changes the
    risk (``_changes``): most avoidable risks are known after one round."""
    board, width = position.board, view.width
    text = list(view.text)
    now = analysis
    while safe := _safe_cells(now):
        todo = [y * width + x for x, y in safe]
        while todo:
            index = todo.pop()
            if text[index] not in _CLOSED:
                continue
            x, y = index % width, index // width
            number = board.number(x, y)
            text[index] = str(number)
            if number == 0:
                todo += [
                    ny * width + nx
                    for nx, ny in board.neighbours(x, y)
                    if text[ny * width + nx] in ViewChar.OPENABLE
                ]
        now = position.analyse(View(view.width, view.height, "".join(text)))
        if _changes(analysis, now, opened):
            return None
    return now


def _changes(before: Analysis, after: Analysis, opened: Sequence[Cell]) -> bool:
    """Whether ``after`` (certainly safe cells opened) changes the odds of the cells
    ``opened`` from ``before``, or offers better odds than the best ``before`` had among
    the cells that were not certainly safe."""
    odds, later = _odds(before), _odds(after)
    safe, safe_later = _safe_cells(before), _safe_cells(after)
    best_before = min((p for cell, p in odds.items() if cell not in safe), default=1.0)
    best_after = min((p for cell, p in later.items() if cell not in safe_later), default=1.0)
    changed = any(abs(later.get(cell, 0.0) - odds[cell]) > _SAME for cell in opened)
    return changed or best_after < best_before - _SAME


def _forced(decision: Decision, after: Analysis) -> Decision:
    """A risk the certainly safe cells would not have changed: the same guess, taken early;
    its best odds those left once they are open."""
    return replace(
        decision, kind=DecisionKind.GUESS, safest=min(_odds(after).values(), default=1.0)
    )
