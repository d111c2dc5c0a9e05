"""The review of a recorded game: every decision that opened cells, judged by the exact
solver from what the player could see at that moment (the revealed numbers and the mine
count; the player's flags are opinions, not facts), as chess programs review a game.

Each decision is one of:

* ``safe``: every cell it opened was certainly safe;
* ``guess``: no covered cell was certainly safe (its mine probability and the lowest one on
  the board are kept);
* ``avoidable``: a certainly safe cell existed, yet it opened a cell that was not;
* ``blunder``: it opened a cell that was certainly a mine.

A chord is judged by the cells it opens: its mine probability is the highest of theirs. The
first click is safe by the rules (the first click never hits a mine). Luck is the product of
(1 - mine probability) over every risky decision: the odds of surviving them all.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from textmines.engine.actions import MOVES, ActionKind
from textmines.engine.board import Board
from textmines.engine.game import Action, Game, Status
from textmines.engine.solver import Analysis, analyse_view
from textmines.engine.solver.analysis import safe_by_numbers_near
from textmines.engine.solver.view import parse_view
from textmines.engine.view_alphabet import ViewChar

#: Seconds the exact counting of one position may take (a position past it is estimated, and
#: the review says so). Expert positions take a few milliseconds.
POSITION_TIME_LIMIT = 5.0
#: How far around an opened cell the review first looks for the numbers that decide it.
NEAR = 5
#: What is not open in a view: covered, question-marked and flagged cells.
_CLOSED = (*ViewChar.OPENABLE, ViewChar.FLAG)


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
    """One decision that opened cells: when (game time), where, how it is judged, the mine
    probability of what it opened, and the lowest mine probability on the board then."""

    t_ms: int
    x: int
    y: int
    kind: DecisionKind
    mine_probability: float
    safest: float
    #: A certainly safe cell the player could have opened instead (for ``avoidable``).
    safe_cell: tuple[int, int] | None = None
    #: The decision's place in the recording's actions (-1: not from a recording).
    index: int = -1


@dataclass(frozen=True, slots=True)
class Review:
    """Every decision of a game, in order, the fatal one of a loss included."""

    decisions: tuple[Decision, ...]
    #: Whether any position was estimated (its counting passed ``POSITION_TIME_LIMIT``).
    approximate: bool = False
    #: How the game stood after its last action.
    status: Status = Status.READY

    @property
    def forced_loss(self) -> bool:
        """Whether the game was lost on a guess (no covered cell was certainly safe)."""
        last = self.decisions[-1] if self.decisions else None
        return self.status == Status.LOST and last is not None and last.kind is DecisionKind.GUESS

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
        """The odds of surviving every risky decision: the product of (1 - probability)."""
        odds = 1.0
        for decision in self.risky:
            odds *= 1.0 - decision.mine_probability
        return odds


def review_game(board: Board, actions: Iterable[Action], *, question_marks: bool) -> Review:
    """Replay ``actions`` on ``board`` and judge every decision that opened cells."""
    game = Game.from_board(board, question_marks=question_marks)
    decisions: list[Decision] = []
    approximate = False
    view = game.view_text()  # as it stands before each action: only a move changes it
    for index, action in enumerate(actions):
        if game.status.is_over:
            break
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
        if not opened:
            continue
        if first:
            decision = _first_click(board, action)
            estimated = False
        else:
            decision, estimated = _judged(before, board.mine_count, opened, action)
        decisions.append(replace(decision, index=index))
        approximate |= estimated
    return Review(tuple(decisions), approximate, game.status)


def _first_click(board: Board, action: Action) -> Decision:
    """The first click: safe, as its rule makes it; a blind guess at the board's density
    where it opened a mine (a board laid before it, as a practice game's from a replay)."""
    if not board.is_mine(action.x, action.y):
        return Decision(action.t_ms, action.x, action.y, DecisionKind.SAFE, 0.0, 0.0)
    odds = board.mine_count / (board.width * board.height)
    return Decision(action.t_ms, action.x, action.y, DecisionKind.GUESS, odds, odds)


def _judged(
    before: str, mines: int, opened: Sequence[tuple[int, int]], action: Action
) -> tuple[Decision, bool]:
    """The decision that opened ``opened`` in the position ``before``, and whether the
    position had to be estimated. Most clicks open cells the numbers near them prove safe
    (counted exactly, cheap): only the others need the whole position counted."""
    view = parse_view(before)
    cells = [y * view.width + x for x, y in opened]
    if safe_by_numbers_near(view, cells, NEAR) == set(cells):
        return Decision(action.t_ms, action.x, action.y, DecisionKind.SAFE, 0.0, 0.0), False
    analysis = analyse_view(view, mines, POSITION_TIME_LIMIT)
    return judge(analysis, opened, action), analysis.approximate


def _opened(board: Board, before: str, after: str, action: Action) -> list[tuple[int, int]]:
    """The cells ``action`` opened itself (a flood's further cells are its consequences):
    the clicked cell of a reveal, the covered neighbours a chord opened."""
    width = board.width + 1  # the view's rows end in a newline
    if action.kind == ActionKind.REVEAL:
        candidates: Sequence[tuple[int, int]] = [(action.x, action.y)]
    elif action.kind == ActionKind.CHORD:
        candidates = list(board.neighbours(action.x, action.y))
    else:
        return []
    return [
        (x, y)
        for x, y in candidates
        if before[y * width + x] in ViewChar.OPENABLE and after[y * width + x] not in _CLOSED
    ]


def judge(analysis: Analysis, opened: Sequence[tuple[int, int]], action: Action) -> Decision:
    """How the decision that opened ``opened`` looks from ``analysis`` of the position before
    it (``opened`` must be covered or question-marked cells there)."""
    odds = {**analysis.flag_probabilities, **analysis.probabilities}
    probability = max(odds[cell] for cell in opened)
    safest = min(odds.values())
    safe_cells = sorted(analysis.safe | analysis.wrong_flags, key=lambda c: (c[1], c[0]))
    if any(cell in analysis.mined for cell in opened):
        kind = DecisionKind.BLUNDER
        probability = 1.0
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
    return Decision(action.t_ms, action.x, action.y, kind, probability, safest, safe_cell)
