"""A browser player's place on its host's leaderboard: the games a browser tab wins on a board
its host dealt are ranked as they end, under the player's name, with nothing to upload (the
host ran the game itself).

A tab is a process of the host (``textmines --tab``): the host gives it the leaderboard's
place (``LEADERBOARD_VARIABLE``: its SQLite file or PostgreSQL URL) and the tab writes to the
store itself. Its player is the browser's profile: the token is kept in the profile's folder
(``leaderboard-token``, 0600), the name is the profile's player name.

Ranked for now: a win of the daily board, the profile's first try of the day (a later one is
practice), its first click made by the host as for everyone. Never: a game with help, or
practice (a restart, a game played on, a board seen before). A tab's other boards are not
ranked yet: a preset's first click is the player's there, where a challenge's is the host's,
and a board ID the player typed has mines someone chose.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Final

from textmines.engine.board_id import shared_board_of
from textmines.engine.game import Status
from textmines.leaderboard.boards import Dealt
from textmines.leaderboard.store import LeaderboardStore, Player
from textmines.leaderboard.verify import Refused, verify
from textmines.replays.evf import export_evf
from textmines.replays.recording import Recording
from textmines.store.paths import LEADERBOARD_VARIABLE, write_atomic

if TYPE_CHECKING:
    from textmines.session import GameSession

TOKEN_FILE: Final = "leaderboard-token"
__all__ = ["LEADERBOARD_VARIABLE", "TOKEN_FILE", "BrowserSeat"]


class BrowserSeat:
    """The leaderboard at ``where`` as the profile whose folder is ``folder`` plays on it;
    ``name()`` is the player's name now."""

    def __init__(
        self,
        where: str,
        folder: Path,
        *,
        name: Callable[[], str],
        clock: Callable[[], int] = lambda: int(datetime.now(UTC).timestamp() * 1000),
    ) -> None:
        self.where = where
        self.folder = folder
        self._name = name
        self._clock = clock

    def finished(self, session: GameSession) -> str | None:
        """Rank ``session``'s game if it counts; the line the player is told, or None."""
        board = shared_board_of(session.game)
        if session.daily is None or board is None or session.game.status != Status.WON:
            return None
        if session.assisted or session.practice:
            return None
        now = self._clock()
        started = session.started_at or datetime.now(UTC)
        since_ms = max(0, now - int(started.timestamp() * 1000)) + 1000
        store = LeaderboardStore.open(self.where)
        try:
            player = self._player(store, now)
            dealt = Dealt("daily", board, session.daily)
            recording = Recording.of(session.game)
            verified = verify(recording, dealt, since_issued_ms=since_ms)
            challenge = store.issue(player, dealt, now)
            ranked = store.submit(challenge, player, verified, export_evf(recording), now)
        except Refused as refused:
            return f"Not on the leaderboard: {refused}"
        finally:
            store.close()
        if ranked.rank is None:
            return None
        return f"Leaderboard: #{ranked.rank} of {ranked.of} on the daily board of {session.daily}."

    def _player(self, store: LeaderboardStore, now: int) -> Player:
        """The profile's player (made the first time), under its name now."""
        path = self.folder / TOKEN_FILE
        try:
            player = store.player(path.read_text(encoding="ascii").strip())
        except (OSError, UnicodeDecodeError):
            player = None
        if player is None:
            player, token = store.new_player(self._name(), now)
            self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            write_atomic(path, token.encode("ascii"))  # a new file is 0600
        if self._name() and self._name() != player.name:
            player = store.rename(player, self._name())
        return player
