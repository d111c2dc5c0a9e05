"""The game review in the replay viewer: where the risky clicks are on the progress bar
(coloured by kind), the words for one of them, and going from one to the next."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from textmines.engine.review import Decision, DecisionKind, Review
from textmines.replays.review_report import safe_cell_words, where_words

#: The colour of each kind of risky click on the progress bar.
RISK_STYLES: Final = {
    DecisionKind.GUESS: "bold yellow",
    DecisionKind.AVOIDABLE: "bold dark_orange",
    DecisionKind.BLUNDER: "bold red",
}


def bar_marks(review: Review, end_ms: int, actions: int) -> list[tuple[float, str]]:
    """Each risky click's place on the progress bar (0 to 1: by time, or by its place among
    the actions for a game that took no time) and its style."""
    marks = []
    for decision in review.risky:
        where = decision.t_ms / end_ms if end_ms else decision.index / max(1, actions)
        marks.append((min(1.0, max(0.0, where)), RISK_STYLES[decision.kind]))
    return marks


def risky_near(review: Review, done: int, step: int) -> Decision | None:
    """The next risky click after the moment ``done`` actions in (``step`` 1), or the one
    before it (-1); None if there is none that way. The moment of a click is just before
    it: the position the player chose from."""
    risky: Sequence[Decision] = review.risky
    if step > 0:
        return next((d for d in risky if d.index > done), None)
    return next((d for d in reversed(risky) if d.index < done), None)


def decision_words(decision: Decision) -> str:
    """What the solver says of one risky click, in a line under the progress bar: the cell it
    opened and the certainly safe cell it names are marked on the board; cells are named
    from the top-left corner ("row 5, column 8"), as ``textmines --review`` names them.
    "Guess at row 7, column 7: 50% of a mine, the safest 50%."; a chord: "Guess, the chord
    on row 3, column 1 opened row 2, column 1: ..."."""
    where = where_words(decision, ", ")
    odds = f"{decision.mine_probability * 100:.0f}% of a mine"
    safe = safe_cell_words(decision)
    if decision.kind is DecisionKind.BLUNDER:
        instead = f"; {safe} was certainly safe" if safe else ""
        return f"Blunder{where}: certainly a mine{instead}."
    if decision.kind is DecisionKind.AVOIDABLE:
        return f"Avoidable risk{where}: {odds}; {safe} was certainly safe."
    safest = f"the safest {decision.safest * 100:.0f}%"
    if safe:
        return f"Guess{where}: {odds}, {safest}; {safe} was safe but would not change the odds."
    return f"Guess{where}: {odds}, {safest}."
