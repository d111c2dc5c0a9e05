"""A browser player's place on its host's leaderboard: the games a browser tab wins on a board
its host dealt are ranked as they end, under the player's name, with nothing to upload (the
host ran the game itself).

A tab is a process of the host (``textmines --tab``): the host gives it the leaderboard's
place (``LEADERBOARD_VARIABLE``: its SQLite file or PostgreSQL URL) and the tab writes to the
store itself. Its player is the browser's profile: the token is kept in the profile's folder
(``leaderboard-token``, 0600), the name is the profile's player name.

Ranked: a win on a board nobody chose, played without help, as the player's first sight of
it. That is the daily board (the profile's first try of the day: a later one is practice,
its first click made by the host as for everyone) and a new Beginner, Intermediate or Expert
game the tab dealt at random (its first click the player's, an opening as in a challenge).
Never: a game with help, practice (a restart, a game played on, a board seen before), a
board ID the player typed or a seed (someone chose the mines), a custom size, a no-guess
board or one whose first click only is safe (not the ranked boards' rules: the player is
told why).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Final

from textmines.engine.board_id import shared_board_of
from textmines.engine.game import Status
from textmines.engine.presets import preset_for
from textmines.leaderboard.boards import Dealt, kind_named
from textmines.leaderboard.store import LeaderboardStore, Player, database_errors
from textmines.leaderboard.verify import Refused, verify
from textmines.replays.evf import export_evf
from textmines.replays.recording import Recording
from textmines.store.paths import LEADERBOARD_VARIABLE, read_token, write_atomic

if TYPE_CHECKING:
    from textmines.session import GameSession

TOKEN_FILE: Final = "leaderboard-token"
__all__ = ["LEADERBOARD_VARIABLE", "TOKEN_FILE", "BrowserSeat", "ranked_board"]


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
        dealt = ranked_board(session)
        if not isinstance(dealt, Dealt):
            return dealt
        try:
            return self._rank(session, dealt)
        except (OSError, *database_errors()) as error:  # type: ignore[misc]
            # The host's database is down or full: the game is kept all the same (statistics,
            # replay); only the leaderboard misses it, and the player is told so.
            return f"The leaderboard could not take this win: {_one_line(error)}"

    def _rank(self, session: GameSession, dealt: Dealt) -> str | None:
        now = self._clock()
        started = session.started_at or datetime.now(UTC)
        since_ms = max(0, now - int(started.timestamp() * 1000)) + 1000
        store = LeaderboardStore.open(self.where)
        try:
            player = self._player(store, now)
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
        where = f"the daily board of {dealt.day}" if dealt.day else f"{dealt.kind.capitalize()}"
        return f"Leaderboard: #{ranked.rank} of {ranked.of} on {where}."

    def _player(self, store: LeaderboardStore, now: int) -> Player:
        """The profile's player (made the first time), under its name now."""
        path = self.folder / TOKEN_FILE
        name = self._name()  # the profile's settings, read once
        token = read_token(path)
        player = None if token is None else store.player(token)
        if player is None:
            player, token = store.new_player(name, now)
            self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            write_atomic(path, token.encode("ascii"))  # a new file is 0600
        if name and name != player.name:
            player = store.rename(player, name)
        return player


def ranked_board(session: GameSession) -> Dealt | str | None:
    """The board ``session``'s game is ranked on (a win that counts), or what the player is
    told when a win on a board dealt at random does not count (a rule of theirs), or None."""
    game = session.game
    board = shared_board_of(game)
    if board is None or game.status != Status.WON or session.assisted or session.practice:
        return None
    if session.daily is not None:
        return Dealt("daily", board, session.daily)
    preset = preset_for(game.width, game.height, game.mines)
    if not session.dealt_at_random or preset is None:
        return None
    if game.no_guess:
        return "Not on the leaderboard: ranked boards may need a guess (Options > No-guess boards)."
    if game.first_click != "opening":
        return (
            "Not on the leaderboard: ranked boards open an area at the first click "
            "(Options > First click: opening)."
        )
    return Dealt(kind_named(preset.key), board)


def watched_entry(where: str, entry: int) -> tuple[Recording, str]:
    """The replay of leaderboard entry ``entry`` at ``where`` and its title, to watch in a tab
    (its page's ``?watch=ID``). Raises ``ValueError`` saying why there is none."""
    from textmines.replays.foreign import ReplayFileError, read_bytes_as_replay

    try:
        store = LeaderboardStore.open(where)
        try:
            data, title = store.replay(entry), store.entry_title(entry)
        finally:
            store.close()
    except (OSError, *database_errors()) as error:  # type: ignore[misc]
        raise ValueError(f"the leaderboard cannot be read ({_one_line(error)})") from None
    if data is None or title is None:
        raise ValueError(f"this host's leaderboard has no entry {entry}")
    try:
        return read_bytes_as_replay(data, f"entry-{entry}.evf").recording, f"Leaderboard: {title}"
    except ReplayFileError as error:
        raise ValueError(str(error)) from None


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__
