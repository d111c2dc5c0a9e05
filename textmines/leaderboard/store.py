"""The leaderboard's store: the players (a token each, and a name), the challenges the host
issued, and the entries their replays proved. SQLite in the host's data folder
(``leaderboard.db``); the SQL is kept to what PostgreSQL runs as well, for several hosts
sharing one leaderboard (issue 49, next).

- A player is their token: 32 random bytes the host gives once; the store keeps only a hash.
- A challenge is single use, and it counts on the leaderboard unless it is a daily board's
  second try: a player's first daily challenge of a day counts, later ones are practice.
- An entry is written, and its rank read, in one transaction: two submissions at once never
  share a rank or lose one. A board's players are ranked by each one's best time (then by
  which came first).
"""

from __future__ import annotations

import hashlib
import secrets
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Final

from textmines.leaderboard.boards import BoardKind, Dealt
from textmines.leaderboard.verify import Refused, Verified
from textmines.store.settings import clean_player_name

#: ``MIGRATIONS[n]`` takes the schema from version ``n`` to ``n + 1``; never edit a shipped one.
MIGRATIONS: Final[tuple[tuple[str, ...], ...]] = (
    (
        """CREATE TABLE players (
            id INTEGER PRIMARY KEY,
            token_hash TEXT NOT NULL UNIQUE,
            name TEXT NOT NULL,
            created_ms INTEGER NOT NULL
        )""",
        """CREATE TABLE challenges (
            id TEXT PRIMARY KEY,
            player_id INTEGER NOT NULL REFERENCES players (id),
            kind TEXT NOT NULL,
            board_id TEXT NOT NULL,
            day TEXT,
            counted INTEGER NOT NULL,
            issued_ms INTEGER NOT NULL,
            submitted INTEGER NOT NULL DEFAULT 0
        )""",
        "CREATE INDEX challenges_by_day ON challenges (player_id, kind, day)",
        """CREATE TABLE entries (
            id INTEGER PRIMARY KEY,
            challenge_id TEXT NOT NULL UNIQUE REFERENCES challenges (id),
            player_id INTEGER NOT NULL REFERENCES players (id),
            kind TEXT NOT NULL,
            day TEXT,
            time_ms INTEGER NOT NULL,
            bbbv INTEGER NOT NULL,
            bbbv_per_s REAL NOT NULL,
            played_ms INTEGER NOT NULL,
            replay BLOB NOT NULL
        )""",
        "CREATE INDEX entries_by_board ON entries (kind, day, player_id, time_ms, id)",
    ),
)


@dataclass(frozen=True, slots=True)
class Player:
    id: int
    name: str


@dataclass(frozen=True, slots=True)
class Challenge:
    """A board dealt to a player: ``counted`` on the leaderboard, or practice."""

    id: str
    player_id: int
    kind: BoardKind
    board_id: str
    day: date | None
    counted: bool
    issued_ms: int
    submitted: bool


@dataclass(frozen=True, slots=True)
class Ranked:
    """A submission written: its rank among the board's players (None: practice, unranked)."""

    rank: int | None
    of: int
    verified: Verified


@dataclass(frozen=True, slots=True)
class Entry:
    """One player's best on a board, as the leaderboard lists it."""

    rank: int
    name: str
    time_ms: int
    bbbv: int
    bbbv_per_s: float
    played_ms: int
    entry_id: int


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class LeaderboardStore:
    """The leaderboard in a SQLite file (see the module's docstring)."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._db = connection

    @classmethod
    def open(cls, path: Path | str) -> LeaderboardStore:
        """The store at ``path`` (``":memory:"`` for tests), its schema brought up to date."""
        connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        connection.execute("PRAGMA foreign_keys = ON")
        if path != ":memory:":
            connection.execute("PRAGMA journal_mode = WAL")
        store = cls(connection)
        store._migrate()
        return store

    def close(self) -> None:
        self._db.close()

    def _migrate(self) -> None:
        with self._transaction():
            self._db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER)")
            row = self._db.execute("SELECT version FROM schema_version").fetchone()
            version = 0 if row is None else int(row[0])
            if version > len(MIGRATIONS):
                raise sqlite3.DatabaseError(
                    f"the leaderboard's schema is version {version}, newer than this textmines"
                )
            for step in MIGRATIONS[version:]:
                for statement in step:
                    self._db.execute(statement)
            self._db.execute("DELETE FROM schema_version")
            self._db.execute("INSERT INTO schema_version VALUES (?)", (len(MIGRATIONS),))

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One transaction that holds the write lock from its start (two submissions at once
        run one after the other)."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            with suppress(sqlite3.Error):
                self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    # ----------------------------------------------------------------------------- players

    def new_player(self, name: str, now_ms: int) -> tuple[Player, str]:
        """A new player and their token (given once: the store keeps only its hash)."""
        token = secrets.token_urlsafe(32)
        shown = clean_player_name(name) or "Anonymous"
        with self._transaction():
            cursor = self._db.execute(
                "INSERT INTO players (token_hash, name, created_ms) VALUES (?, ?, ?)",
                (token_hash(token), shown, now_ms),
            )
        assert cursor.lastrowid is not None
        return Player(cursor.lastrowid, shown), token

    def player(self, token: str) -> Player | None:
        """The player whose token is ``token``, if any."""
        row = self._db.execute(
            "SELECT id, name FROM players WHERE token_hash = ?", (token_hash(token),)
        ).fetchone()
        return None if row is None else Player(int(row[0]), str(row[1]))

    def rename(self, player: Player, name: str) -> Player:
        """``player`` under ``name`` (cleaned: plain text, capped); their entries follow."""
        shown = clean_player_name(name) or player.name
        with self._transaction():
            self._db.execute("UPDATE players SET name = ? WHERE id = ?", (shown, player.id))
        return Player(player.id, shown)

    # -------------------------------------------------------------------------- challenges

    def issue(self, player: Player, dealt: Dealt, now_ms: int) -> Challenge:
        """A challenge of ``dealt`` for ``player``: counted, unless it is a daily board the
        player was dealt before that day (then practice)."""
        challenge_id = secrets.token_urlsafe(18)
        day = dealt.day.isoformat() if dealt.day is not None else None
        with self._transaction():
            counted = dealt.kind != "daily" or (
                self._db.execute(
                    "SELECT 1 FROM challenges WHERE player_id = ? AND kind = ? AND day = ?",
                    (player.id, dealt.kind, day),
                ).fetchone()
                is None
            )
            self._db.execute(
                "INSERT INTO challenges (id, player_id, kind, board_id, day, counted, issued_ms)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (challenge_id, player.id, dealt.kind, dealt.board_id, day, int(counted), now_ms),
            )
        return Challenge(
            challenge_id, player.id, dealt.kind, dealt.board_id, dealt.day, counted, now_ms, False
        )

    def challenge(self, challenge_id: str) -> Challenge | None:
        row = self._db.execute(
            "SELECT id, player_id, kind, board_id, day, counted, issued_ms, submitted"
            " FROM challenges WHERE id = ?",
            (challenge_id,),
        ).fetchone()
        if row is None:
            return None
        day = date.fromisoformat(row[4]) if row[4] is not None else None
        return Challenge(
            str(row[0]),
            int(row[1]),
            row[2],
            str(row[3]),
            day,
            bool(row[5]),
            int(row[6]),
            bool(row[7]),
        )

    # ------------------------------------------------------------------------- submissions

    def submit(
        self,
        challenge: Challenge,
        player: Player,
        verified: Verified,
        replay: bytes,
        now_ms: int,
    ) -> Ranked:
        """Write the verified win of ``challenge`` and read its rank, in one transaction.
        Raises ``Refused``: 403 for another player's challenge, 409 for one already
        submitted."""
        if challenge.player_id != player.id:
            raise Refused("this challenge was dealt to another player", 403)
        day = challenge.day.isoformat() if challenge.day is not None else None
        with self._transaction():
            taken = self._db.execute(
                "UPDATE challenges SET submitted = 1 WHERE id = ? AND submitted = 0",
                (challenge.id,),
            ).rowcount
            if taken != 1:
                raise Refused("this challenge has been submitted already", 409)
            rank = None
            if challenge.counted:
                self._db.execute(
                    "INSERT INTO entries (challenge_id, player_id, kind, day, time_ms, bbbv,"
                    " bbbv_per_s, played_ms, replay) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        challenge.id,
                        player.id,
                        challenge.kind,
                        day,
                        verified.time_ms,
                        verified.bbbv,
                        verified.bbbv_per_s,
                        now_ms,
                        replay,
                    ),
                )
                rank = self._rank_of(player.id, challenge.kind, day)
            players = self._players_on(challenge.kind, day)
        return Ranked(rank, players, verified)

    # ------------------------------------------------------------------------ leaderboards

    def leaderboard(
        self, kind: BoardKind, *, day: date | None = None, since_ms: int = 0, limit: int = 100
    ) -> list[Entry]:
        """Each player's best on ``kind`` (``day``'s daily board; for a preset, the entries
        played since ``since_ms``), best first: at most ``limit``."""
        rows = self._db.execute(
            _BEST + " SELECT best.id, players.name, best.time_ms, best.bbbv, best.bbbv_per_s,"
            " best.played_ms FROM best JOIN players ON players.id = best.player_id"
            " ORDER BY best.time_ms, best.id LIMIT ?",
            (kind, _day_text(day), _day_text(day), since_ms, limit),
        ).fetchall()
        return [
            Entry(n, str(r[1]), int(r[2]), int(r[3]), float(r[4]), int(r[5]), int(r[0]))
            for n, r in enumerate(rows, 1)
        ]

    def replay(self, entry_id: int) -> bytes | None:
        row = self._db.execute("SELECT replay FROM entries WHERE id = ?", (entry_id,)).fetchone()
        return None if row is None else bytes(row[0])

    def _rank_of(self, player_id: int, kind: str, day: str | None) -> int:
        row = self._db.execute(
            _BEST + " SELECT 1 + COUNT(*) FROM best, best AS mine WHERE mine.player_id = ?"
            " AND (best.time_ms < mine.time_ms OR (best.time_ms = mine.time_ms"
            " AND best.id < mine.id))",
            (kind, day, day, 0, player_id),
        ).fetchone()
        return int(row[0])

    def _players_on(self, kind: str, day: str | None) -> int:
        row = self._db.execute(
            "SELECT COUNT(DISTINCT player_id) FROM entries WHERE kind = ?"
            " AND (day = ? OR ? IS NULL)",
            (kind, day, day),
        ).fetchone()
        return int(row[0])


#: Each player's best entry on a board (parameters: kind, day twice, since_ms): the earliest
#: of their fastest, so that equal times rank by who came first.
_BEST: Final = """
WITH ranked AS (
    SELECT entries.*, ROW_NUMBER() OVER (
        PARTITION BY player_id ORDER BY time_ms, id
    ) AS nth
    FROM entries
    WHERE kind = ? AND (day = ? OR ? IS NULL) AND played_ms >= ?
),
best AS (SELECT * FROM ranked WHERE nth = 1)
"""


def _day_text(day: date | None) -> str | None:
    return None if day is None else day.isoformat()
