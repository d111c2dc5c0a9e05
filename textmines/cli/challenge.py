"""``textmines --challenge URL``: a board the host at URL deals, played in the terminal as any
game, and its win submitted to the host's leaderboard; ``--retry`` sends the wins the host has
not had yet. The host's token and the wins not yet sent are kept in the data folder
(``leaderboard.client``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textmines.cli.options import fail
from textmines.engine.board_id import BoardId, parse_board_id
from textmines.engine.game import Status
from textmines.leaderboard.client import HostClient, Unreachable, host_folder
from textmines.printable import printable
from textmines.replays.evf import export_evf
from textmines.replays.recording import Recording

if TYPE_CHECKING:
    import argparse
    from pathlib import Path

    from textmines.session import GameSession

#: ``play(board, finished)``: the game played on ``board``, each finished game told to
#: ``finished``; the exit status.
Play = Callable[[BoardId, Callable[["GameSession"], object]], int]


def board_kind(args: argparse.Namespace) -> str:
    """The board asked for: a preset's (``--expert`` ...), else today's daily board."""
    preset = getattr(args, "preset", None)
    return preset if preset in ("beginner", "intermediate", "expert") else "daily"


def challenge_command(args: argparse.Namespace, data_dir: Path, play: Play) -> int:
    client = HostClient(args.challenge, host_folder(data_dir, args.challenge))
    if args.retry:
        return send_pending(client)
    kind = board_kind(args)
    try:
        dealt = client.challenge(kind)
        board = parse_board_id(str(dealt["board_id"]))
    except Unreachable as error:
        fail(f"--challenge: {error}; no board to play for it: try again when it answers", 1)
    except (ValueError, KeyError) as error:
        fail(f"--challenge: the host did not deal a board: {error}", 1)
    wins: list[GameSession] = []

    def finished(session: GameSession) -> None:
        # The first game on the board dealt: the one the challenge is for.
        if not wins and session.game.board == board.board:
            wins.append(session)

    status = play(board, finished)
    _submit(client, dealt, wins[0] if wins else None, kind)
    return status


def _submit(
    client: HostClient, dealt: dict[str, Any], session: GameSession | None, kind: str
) -> None:
    if session is None or session.game.status != Status.WON:
        _say("No win on the board the host dealt: nothing to submit.")
        return
    if session.assisted or session.restarted or session.played_on_from:
        _say("A game with help, restarted or played on is not submitted to a leaderboard.")
        return
    replay = export_evf(Recording.of(session.game))
    kept = client.keep(str(dealt["challenge"]), replay)
    try:
        answer = client.submit(kept)
    except Unreachable as error:
        _say(f"{error}: your win is kept; send it with textmines --challenge {client.url} --retry")
        return
    _say(_answer_line(answer.status, answer.body, kind, dealt.get("date")))


def send_pending(client: HostClient) -> int:
    """Send every win kept for the host; 0 once none is left, 1 while the host is unreachable."""
    kept = client.pending()
    if not kept:
        _say(f"No win waiting for {client.url}.")
        return 0
    for path in kept:
        try:
            answer = client.submit(path)
        except Unreachable as error:
            _say(f"{error}: {len(client.pending())} wins still kept; try --retry again later")
            return 1
        _say(_answer_line(answer.status, answer.body, "", None))
    return 0


def _answer_line(status: int, body: dict[str, Any], kind: str, day: object) -> str:
    if status != 200:
        return f"The host refused the win: {body.get('error', status)}"
    if body.get("practice"):
        return "Submitted as practice: only the first daily try of a day counts."
    board = f"today's daily ({day})" if kind == "daily" else (kind or "its board")
    seconds = int(body.get("time_ms", 0)) / 1000
    return f"#{body.get('rank')} of {body.get('of')} on {board}, in {seconds:.3f} s."


def _say(line: str) -> None:
    print(printable(line), flush=True)
