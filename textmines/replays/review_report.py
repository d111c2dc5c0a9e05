"""The review of a recorded game as ``textmines --review`` prints it: every competitive
figure and the solver's judgement of every decision (``engine.review``), as text for a
player or as JSON for scripts (the shape is documented in docs/replays-and-metrics.md and
kept stable)."""

from __future__ import annotations

from typing import Any

from textmines.engine.game import Status
from textmines.engine.metrics import game_metrics
from textmines.engine.review import Decision, DecisionKind, Review, review_game
from textmines.replays.foreign import board_zini
from textmines.replays.recording import Recording


def review_of(recording: Recording) -> Review:
    """The solver's review of ``recording``'s game."""
    return review_game(recording.board, recording.actions, question_marks=recording.question_marks)


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
        },
    }


def review_summary(review: Review) -> str:
    """One line: "2 guesses (50%, 18%) - luck 41% - no avoidable risk", or how a lost game
    was lost ("Lost on a forced 50% guess")."""
    guesses = [d for d in review.risky if d.kind is DecisionKind.GUESS]
    parts = [_count(len(guesses), "guess", "guesses") if guesses else "No guesses"]
    if guesses:
        parts[0] += " (" + ", ".join(_percent(d.mine_probability) for d in guesses) + ")"
    if review.risky:
        parts.append(f"luck {_percent(review.luck)}")
    avoidable = review.avoidable + review.blunders
    parts.append(
        _count(avoidable, "avoidable risk", "avoidable risks") if avoidable else "no avoidable risk"
    )
    line = " - ".join(parts)
    lost = _lost_on(review)
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


def fatal_words(decision: Decision) -> str:
    """The click that lost, named plainly: "a forced 50/50", "a forced 22% guess", "an
    avoidable 22% risk: (4, 7) was certainly safe", "a blunder: (4, 7) was a certain mine"."""
    odds = _percent(decision.mine_probability)
    safe = decision.safe_cell
    instead = f": {safe} was certainly safe" if safe is not None else ""
    if decision.kind is DecisionKind.BLUNDER:
        return f"a blunder: ({decision.x}, {decision.y}) was certainly a mine"
    if decision.kind is DecisionKind.AVOIDABLE:
        return f"an avoidable {odds} risk{instead}"
    if abs(decision.mine_probability - 0.5) < 1e-9:
        return "a forced 50/50"
    return f"a forced {odds} guess"


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
        lines += ["", f"Risky decisions ({len(risky)} of {len(review.decisions)}):"]
    for d in risky:
        lines.append(
            f"  {d.t_ms / 1000:8.3f} s  ({d.x}, {d.y})  {d.kind.value:<9} "
            f"{_percent(d.mine_probability):>4} mine, safest {_percent(d.safest)}"
            + (f", {d.safe_cell} was certainly safe" if d.safe_cell is not None else "")
        )
    if review.approximate:
        lines.append("Some positions were too large to count exactly: their odds are estimates.")
    return "\n".join(lines) + "\n"


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
