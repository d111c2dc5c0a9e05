"""Whether a replay proves a win on the board a host dealt (``boards.Dealt``), click by click
with the engine, and what it is worth on a leaderboard.

A submission is refused, with one line saying why, when its replay:

- is of another board (other mines, size, or first click). The rules that place the mines at
  the first click do not matter: the host made it, on mines already laid (and an .evf file
  does not carry them all);
- does not replay (an action off the board, one earlier than the one before it, one after
  the game's end);
- does not win the board, or says a time that is not its winning move's;
- was won faster than the time since the challenge was issued allows (a replay played before
  the board was dealt, or its times made up).

What a replay cannot prove (who played it; a bot that plays at a human's pace) is said in
docs/leaderboard.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from textmines.engine.actions import MOVES, ActionKind
from textmines.engine.game import Game, Status
from textmines.engine.metrics import game_metrics
from textmines.leaderboard.boards import Dealt
from textmines.replays.recording import Recording


class Refused(ValueError):
    """A submission the host does not rank: ``status`` (an HTTP status: 422 for a replay that
    does not prove a win on the board) and the message, one line."""

    def __init__(self, message: str, status: int = 422) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True, slots=True)
class Verified:
    """A win the replay proves: its time, the board's 3BV, and 3BV per second."""

    time_ms: int
    bbbv: int
    bbbv_per_s: float


def verify(recording: Recording, dealt: Dealt, *, since_issued_ms: int) -> Verified:
    """What ``recording`` proves on ``dealt``, issued ``since_issued_ms`` ago; raises
    ``Refused`` saying why when it proves no win there."""
    _same_board(recording, dealt)
    game = _replayed(recording, dealt)
    if game.status != Status.WON:
        raise Refused("the replay does not win the board")
    time_ms = game.elapsed_ms
    if recording.elapsed_ms != time_ms:
        raise Refused(
            f"the replay says {recording.elapsed_ms} ms, but its winning move is at {time_ms} ms"
        )
    if time_ms > since_issued_ms:
        raise Refused(
            f"the replay takes {time_ms / 1000:.3f} s, but the board was dealt only "
            f"{since_issued_ms / 1000:.3f} s before it came"
        )
    metrics = game_metrics(game)
    return Verified(time_ms, metrics.bbbv, metrics.bbbv_per_second)


def _same_board(recording: Recording, dealt: Dealt) -> None:
    board, wanted = recording.board, dealt.board.board
    if (board.width, board.height, board.mine_count) != (
        wanted.width,
        wanted.height,
        wanted.mine_count,
    ):
        raise Refused(
            f"the replay is of a {board.width}x{board.height} board with {board.mine_count} "
            f"mines, not the {wanted.width}x{wanted.height} with {wanted.mine_count} dealt"
        )
    if board.mine_indices() != wanted.mine_indices():
        raise Refused("the replay's mines are not those of the board dealt")
    moves = [a for a in recording.actions if a.kind in MOVES]
    if (
        not moves
        or moves[0].kind != ActionKind.REVEAL
        or (moves[0].x, moves[0].y) != dealt.board.first
    ):
        raise Refused("the replay does not start with the first click the host made")


def _replayed(recording: Recording, dealt: Dealt) -> Game:
    try:
        return Game.replayed(
            dealt.board.board, recording.actions, question_marks=recording.question_marks
        )
    except ValueError as error:
        raise Refused(f"the replay does not replay: {error}") from None
