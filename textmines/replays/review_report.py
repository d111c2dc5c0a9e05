"""The review of a recorded game as ``textmines --review`` prints it: every competitive
figure and the solver's judgement of every decision (``engine.review``), as text for a
player or as JSON for scripts (the shape is documented in docs/replays-and-metrics.md and
kept stable)."""

from __future__ import annotations

from typing import Any, Final

from textmines.engine.game import Status
from textmines.engine.metrics import game_metrics
from textmines.engine.review import Decision, DecisionKind, Review, review_game
from textmines.engine.solver.model import Stop
from textmines.replays.foreign import board_zini
from textmines.replays.recording import Recording


def review_of(recording: Recording, stop: Stop | None = None, judged_from: int = 0) -> Review:
    """The solver's review of ``recording``'s game (``stop``, ``judged_from``: see
    ``review_game``)."""
    return review_game(
        recording.board,
        recording.actions,
        question_marks=recording.question_marks,
        stop=stop,
        judged_from=judged_from,
    )


def review_json(recording: Recording, review: Review) -> dict[str, Any]:
    """The review in the documented JSON shape (ZiNi and HZiNi are null without ms-toollib)."""
    m = game_metrics(recording.game())
    zini = board_zini(recording.board)
    metrics = {
        "bbbv": m.bbbv,
        "solved_bbbv": m.solved_bbbv,
        "clicks": m.clicks,
        "left_clicks": m.left_clicks,
        "right_clicks": m.right_clicks,
        "chord_clicks": m.chord_clicks,
        "effective_clicks": m.effective_clicks,
        "ioe": m.ioe,
        "correctness": m.correctness,
        "throughput": m.throughput,
        "rqp": m.rqp,
        "stnb": m.stnb,
        "bbbv_per_s": m.bbbv_per_second,
        "zini": zini[0] if zini else None,
        "hzini": zini[1] if zini else None,
    }
    decisions = [
        {
            "t_ms": d.t_ms,
            "x": d.x,
            "y": d.y,
            "kind": d.kind.value,
            "mine_probability": d.mine_probability,
            "safest": d.safest,
            "opened": list(d.cell),
            "safe_cell": list(d.safe_cell) if d.safe_cell is not None else None,
            "safe_cell_flagged": d.safe_cell_flagged,
        }
        for d in review.decisions
    ]
    board = recording.board
    return {
        "board": {"width": board.width, "height": board.height, "mines": board.mine_count},
        "won": m.won,
        "time_ms": m.elapsed_ms,
        "metrics": metrics,
        "review": {
            "decisions": decisions,
            "guesses": review.guesses,
            "avoidable": review.avoidable,
            "blunders": review.blunders,
            "luck": review.luck,
            "forced_loss": review.forced_loss,
            "complete": review.complete,
            "reviewed_ms": review.reviewed_ms,
        },
    }


def review_summary(review: Review) -> str:
    """One line: "2 guesses (50%, 18%) - luck 41% - no avoidable risk", "... - 1 blunder", or
    how a lost game was lost first ("Lost on a forced 50/50 - ...")."""
    lost = _lost_on(review)
    guesses = [d for d in review.risky if d.kind is DecisionKind.GUESS]
    none = "no guesses" if lost else "No guesses"  # mid-line after how it was lost
    parts = [_count(len(guesses), "guess", "guesses") if guesses else none]
    if guesses:
        parts[0] += " (" + ", ".join(_percent(d.mine_probability) for d in guesses) + ")"
    if any(d.kind is not DecisionKind.BLUNDER for d in review.risky):
        parts.append(f"luck {_percent(review.luck)}")
    avoidable = review.avoidable
    parts.append(
        _count(avoidable, "avoidable risk", "avoidable risks") if avoidable else "no avoidable risk"
    )
    if review.blunders:
        parts.append(_count(review.blunders, "blunder", "blunders"))
    if not review.complete:
        parts.append(f"reviewed up to {review.reviewed_ms / 1000:.0f} s (too long to review)")
    line = " - ".join(parts)
    return f"{lost} - {line}" if lost else line


def box_line(review: Review) -> str:
    """The end-of-game box's line: how the clicks went ("2 guesses (50%, 18%) - luck 41% -
    no avoidable risk"), or for a loss, the click that lost ("Lost on a forced 50/50")."""
    return _lost_on(review) or review_summary(review)


def _lost_on(review: Review) -> str:
    """ "Lost on ..." naming the click that lost the game; "" for a game not lost."""
    if review.status != Status.LOST or not review.decisions:
        return ""
    return f"Lost on {fatal_words(review.decisions[-1])}"


def cell_name(cell: tuple[int, int]) -> str:
    """A cell as a player finds it on a board with no labels: counted from the top-left
    corner, from 1 ("row 5, column 8" is (7, 4) in the JSON's 0-based x, y)."""
    x, y = cell
    return f"row {y + 1}, column {x + 1}"


def opened_words(decision: Decision) -> str:
    """Where a decision opened its riskiest cell: "row 5, column 8", or for a chord "the
    chord on row 3, column 2 opened row 4, column 3"."""
    clicked = (decision.x, decision.y)
    if decision.cell == clicked:
        return cell_name(clicked)
    return f"the chord on {cell_name(clicked)} opened {cell_name(decision.cell)}"


def where_words(decision: Decision, before_chord: str) -> str:
    """Where a decision took its risk, to follow the words for the risk: " at row 5, column
    8", or for a chord ``before_chord`` then "the chord on row 3, column 2 opened row 4,
    column 3"."""
    if decision.cell == (decision.x, decision.y):
        return f" at {cell_name(decision.cell)}"
    return f"{before_chord}{opened_words(decision)}"


def safe_cell_words(decision: Decision) -> str:
    """The certainly safe cell a decision left, and whether the player's flag was on it:
    "row 7, column 7 (under your flag)"; "" when there was none."""
    if decision.safe_cell is None:
        return ""
    flagged = " (under your flag)" if decision.safe_cell_flagged else ""
    return f"{cell_name(decision.safe_cell)}{flagged}"


def fatal_words(decision: Decision) -> str:
    """The click that lost, named plainly with the cell it opened: "a forced 50/50 at row 2,
    column 1", "a forced 22% guess: the chord on row 3, column 1 opened row 2, column 1",
    "an avoidable 22% risk at row 5, column 8; row 1, column 1 was certainly safe", "a
    blunder: row 5, column 8 was certainly a mine"; a forced guess taken while a certainly
    safe cell was left says so ("...; row 7, column 7 was certainly safe but would not have
    changed the odds")."""
    odds = _percent(decision.mine_probability)
    safe = safe_cell_words(decision)
    if decision.kind is DecisionKind.BLUNDER:
        return f"a blunder: {opened_words(decision)} was certainly a mine"
    if decision.kind is DecisionKind.AVOIDABLE:
        risk = f"an avoidable {odds} risk"
        instead = f"{safe} was certainly safe"
    else:
        fifty = abs(decision.mine_probability - 0.5) < 1e-9
        risk = "a forced 50/50" if fifty else f"a forced {odds} guess"
        instead = f"{safe} was certainly safe {_NO_HELP}" if safe else ""
    words = risk + where_words(decision, ": ")
    return f"{words}; {instead}" if instead else words


def risk_words(decision: Decision) -> str:
    """One risky decision in a line: what it opened, its odds and the best odds, and the
    certainly safe cell it left ("row 5, column 8: 22% of a mine, safest 0%; row 1, column 1
    was certainly safe")."""
    odds = f"{_percent(decision.mine_probability)} of a mine"
    if decision.kind is not DecisionKind.BLUNDER:
        odds += f", safest {_percent(decision.safest)}"
    line = f"{opened_words(decision)}: {odds}"
    safe = safe_cell_words(decision)
    if safe and decision.kind is DecisionKind.GUESS:
        return f"{line}; {safe} was certainly safe {_NO_HELP}"
    return f"{line}; {safe} was certainly safe" if safe else line


def review_text(recording: Recording, review: Review, title: str) -> str:
    """The review as a player reads it: the game, its figures, one line per risky click."""
    data = review_json(recording, review)
    board = data["board"]
    result = review.status.value if review.status.is_over else "not finished"
    lines = [
        f"{title}: {board['width']}x{board['height']}/{board['mines']}, {result} after "
        f"{data['time_ms'] / 1000:.3f} s",
        review_summary(review),
        "",
    ]
    for name, value in data["metrics"].items():
        lines.append(f"  {name:<17} {_figure(value)}")
    risky = review.risky
    if risky:
        lines += [
            "",
            f"Risky decisions ({len(risky)} of {len(review.decisions)}; rows and columns "
            "are counted from the top-left corner):",
        ]
    for d in risky:
        lines.append(f"  {d.t_ms / 1000:8.3f} s  {d.kind.value:<9}  {risk_words(d)}")
    if review.approximate:
        lines.append("Some positions were too large to count exactly: their odds are estimates.")
    if not review.complete:
        lines.append(
            f"The review stopped at {review.reviewed_ms / 1000:.3f} s: the rest of the game "
            "was too long to review."
        )
    return "\n".join(lines) + "\n"


#: Why a guess taken while a certainly safe cell was left is still forced.
_NO_HELP: Final = "but would not have changed the odds"


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _percent(p: float) -> str:
    return f"{p * 100:.0f}%"


def _figure(value: object) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)
