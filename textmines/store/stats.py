"""Statistics: one row per game in ``stats.db`` (SQLite) and the figures of the statistics screen.

Recording
    Every game that got a first reveal is recorded once, when it ends: ``won``, ``lost`` or
    ``abandoned`` (a new game or another board was chosen while it was running). Times are UTC,
    stored as fixed-width ISO 8601 text (``2024-05-01T12:34:56.789Z``) so that text order is time
    order and the file stays readable with the ``sqlite3`` shell. One transaction per game.
    A game is never recorded twice: a record with the start time, board and seed of one already
    there is ignored (a game resumed after a crash that followed its recording keeps its start).

Groups
    Games are grouped by board: one group per preset and one per custom size
    (width, height, mines). No-guess games form groups of their own ("Expert, no-guess").

What counts where
    * *Played*, *won*, *lost*, *abandoned* and the win percentage count every game, assisted or
      not (the player did play them).
    * Records never include assisted games: best times, best 3BV/s, the average winning time and
      the last-50 chart use unassisted wins only.
    * Streaks follow the games in the order they ended. An unassisted win extends a winning
      streak. A loss or an abandoned game (assisted or not) extends a losing streak: abandoning a
      bad-looking game cannot protect a streak, as in the classic Windows game. An assisted win
      ends both kinds of streak (it is not a loss, nor an unaided win), so turning help on never
      improves a streak.

Failures
    ``open_stats`` never raises: a damaged, foreign or newer database is moved aside (never
    deleted) and a new one started, with a notice saying where the old file went; an unusable
    directory gives no store and a "Statistics not saved: ..." notice. ``record``, ``record_many``
    and ``reset`` return ``None`` or such a notice. Queries raise ``StatsError``, whose message is
    ready to show.
"""

from __future__ import annotations

import errno
import os
import re
import sqlite3
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any, Final

from textmines.engine.game import Game, Status
from textmines.engine.metrics import game_metrics
from textmines.engine.presets import PRESETS, preset_for
from textmines.store.paths import describe_os_error, ensure_dir
from textmines.store.saves import move_aside

OUTCOMES: Final = ("won", "lost", "abandoned")
CUSTOM: Final = "custom"
BUSY_TIMEOUT: Final = 5.0
BEST_TIMES: Final = 10
RECENT_WINS: Final = 50
SQLITE_MAGIC: Final = b"SQLite format 3\x00"
SQLITE_HEADER_SIZE: Final = 100
_COMPANIONS: Final = ("-wal", "-shm")

# ---------------------------------------------------------------------------- schema
#: Each entry moves the schema one version up: ``MIGRATIONS[n]`` takes version ``n`` to ``n + 1``.
#: Never edit a step that has shipped; append a new one.
MIGRATIONS: Final[tuple[tuple[str, ...], ...]] = (
    # 0 -> 1: the first schema.
    (
        """CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            started_at TEXT NOT NULL,
            ended_at TEXT NOT NULL,
            preset TEXT NOT NULL,
            width INTEGER NOT NULL,
            height INTEGER NOT NULL,
            mines INTEGER NOT NULL,
            first_click TEXT NOT NULL,
            seed TEXT,
            outcome TEXT NOT NULL CHECK (outcome IN ('won', 'lost', 'abandoned')),
            time_ms INTEGER NOT NULL,
            bbbv INTEGER NOT NULL,
            solved_bbbv INTEGER NOT NULL,
            left_clicks INTEGER NOT NULL,
            right_clicks INTEGER NOT NULL,
            chord_clicks INTEGER NOT NULL,
            efficiency REAL NOT NULL,
            bbbv_per_s REAL NOT NULL
        )""",
        "CREATE INDEX games_by_board ON games (preset, width, height, mines, ended_at)",
    ),
    # 1 -> 2: help and no-guess flags; indexes that answer every statistics query.
    (
        "ALTER TABLE games ADD COLUMN assisted INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE games ADD COLUMN no_guess INTEGER NOT NULL DEFAULT 0",
        "DROP INDEX games_by_board",
        # History of a group in end order, covering what streaks need.
        "CREATE INDEX games_history ON games"
        " (preset, width, height, mines, no_guess, ended_at, id, outcome, assisted)",
        # Best times and the average winning time.
        "CREATE INDEX games_times ON games"
        " (preset, width, height, mines, no_guess, outcome, assisted, time_ms, ended_at)",
        # Best 3BV/s.
        "CREATE INDEX games_rates ON games"
        " (preset, width, height, mines, no_guess, outcome, assisted, bbbv_per_s)",
        # Finding a game already recorded.
        "CREATE INDEX games_by_start ON games (started_at)",
    ),
)
SCHEMA_VERSION: Final = len(MIGRATIONS)

_COLUMNS: Final = (
    "started_at",
    "ended_at",
    "preset",
    "width",
    "height",
    "mines",
    "first_click",
    "seed",
    "outcome",
    "time_ms",
    "bbbv",
    "solved_bbbv",
    "left_clicks",
    "right_clicks",
    "chord_clicks",
    "efficiency",
    "bbbv_per_s",
    "assisted",
    "no_guess",
)
# A game is the same game if it started at the same moment on the same board with the same seed:
# a resumed game keeps its start time, so a game recorded just before a crash (and resumed from
# its last save) is not counted twice.
_SAME_GAME: Final = " AND ".join(
    f"{column} {'IS' if column == 'seed' else '='} ?{_COLUMNS.index(column) + 1}"
    for column in ("started_at", "width", "height", "mines", "seed")
)
_INSERT: Final = (
    f"INSERT INTO games ({', '.join(_COLUMNS)})"
    f" SELECT {', '.join(f'?{number}' for number in range(1, len(_COLUMNS) + 1))}"
    f" WHERE NOT EXISTS (SELECT 1 FROM games WHERE {_SAME_GAME})"
)
_IN_GROUP: Final = "preset = ? AND width = ? AND height = ? AND mines = ? AND no_guess = ?"
_CLEAN_WINS: Final = f"{_IN_GROUP} AND outcome = 'won' AND assisted = 0"
# One letter per game for the streak pass: upper case unassisted, lower case assisted.
_HISTORY: Final = f"""
    SELECT CASE outcome WHEN 'won' THEN 'W' WHEN 'lost' THEN 'L' ELSE 'Q' END, assisted
    FROM games WHERE {_IN_GROUP} ORDER BY ended_at, id
"""
_WIN_RUN: Final = re.compile("W+")
_LOSS_RUN: Final = re.compile("[LlQq]+")


def utc_text(moment: datetime) -> str:
    """``moment`` in UTC as ``YYYY-MM-DDTHH:MM:SS.mmmZ`` (naive times are local, as in Python)."""
    utc = moment.astimezone(UTC)
    return utc.strftime("%Y-%m-%dT%H:%M:%S.") + f"{utc.microsecond // 1000:03d}Z"


def _parse_utc(text: str) -> datetime:
    return datetime.fromisoformat(text).astimezone(UTC)


# ---------------------------------------------------------------------------- records
@dataclass(frozen=True, slots=True)
class Group:
    """A set of comparable games: a preset or a custom size, with or without no-guess.

    ``preset`` is a key of ``PRESETS`` or ``"custom"``; it always agrees with the size.
    """

    preset: str
    width: int
    height: int
    mines: int
    no_guess: bool = False

    @classmethod
    def for_board(cls, width: int, height: int, mines: int, *, no_guess: bool = False) -> Group:
        """The group of games on this board."""
        preset = preset_for(width, height, mines)
        key = preset.key if preset is not None else CUSTOM
        return cls(key, width, height, mines, bool(no_guess))

    @classmethod
    def for_preset(cls, key: str, *, no_guess: bool = False) -> Group:
        """The group of a preset, by key (``"beginner"`` ...). Raises ``KeyError`` if unknown."""
        return cls.for_board(*PRESETS[key].size, no_guess=no_guess)

    @classmethod
    def for_game(cls, game: Game) -> Group:
        """The group ``game`` is recorded in."""
        no_guess = bool(getattr(game, "no_guess", False))
        return cls.for_board(game.width, game.height, game.mines, no_guess=no_guess)

    @property
    def label(self) -> str:
        """``Expert``, ``Custom 30x20/100``, ``Expert, no-guess`` ..., for tabs and headings."""
        preset = PRESETS.get(self.preset)
        name = preset.name if preset else f"Custom {self.width}x{self.height}/{self.mines}"
        return f"{name}, no-guess" if self.no_guess else name

    def sort_key(self) -> tuple[int, int, int, int, int, bool]:
        """Presets in menu order, then custom boards by size; no-guess after the plain group."""
        order = list(PRESETS).index(self.preset) if self.preset in PRESETS else len(PRESETS)
        cells = self.width * self.height
        return order, cells, self.width, self.height, self.mines, self.no_guess

    def _params(self) -> tuple[str, int, int, int, int]:
        return self.preset, self.width, self.height, self.mines, int(self.no_guess)


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One row of ``stats.db``: a game that ended.

    ``preset`` is a preset key or ``"custom"``; ``first_click`` is ``"opening"`` or ``"safe"``;
    ``seed`` is ``None`` for a game on a fixed layout; ``outcome`` is one of ``OUTCOMES``;
    ``assisted`` means hints, autoplay or the probability overlay were used.
    """

    started_at: datetime
    ended_at: datetime
    preset: str
    width: int
    height: int
    mines: int
    first_click: str
    seed: int | None
    outcome: str
    time_ms: int
    bbbv: int
    solved_bbbv: int
    left_clicks: int
    right_clicks: int
    chord_clicks: int
    efficiency: float
    bbbv_per_s: float
    assisted: bool = False
    no_guess: bool = False

    def __post_init__(self) -> None:
        if self.outcome not in OUTCOMES:
            raise ValueError(f"outcome must be one of {', '.join(OUTCOMES)}, not {self.outcome!r}")

    @property
    def group(self) -> Group:
        """The group this game counts in."""
        return Group(self.preset, self.width, self.height, self.mines, self.no_guess)

    def _row(self) -> tuple[Any, ...]:
        return (
            utc_text(self.started_at),
            utc_text(self.ended_at),
            self.preset,
            self.width,
            self.height,
            self.mines,
            self.first_click,
            None if self.seed is None else str(self.seed),
            self.outcome,
            self.time_ms,
            self.bbbv,
            self.solved_bbbv,
            self.left_clicks,
            self.right_clicks,
            self.chord_clicks,
            self.efficiency,
            self.bbbv_per_s,
            int(self.assisted),
            int(self.no_guess),
        )


_STATUS_FOR: Final = {"won": Status.WON, "lost": Status.LOST, "abandoned": Status.PLAYING}


def record_for(
    game: Game, *, outcome: str, started_at: datetime, ended_at: datetime, assisted: bool
) -> GameRecord:
    """The record of ``game`` as it ends now.

    ``outcome`` must match the game: ``won`` and ``lost`` for a game over, ``abandoned`` for a
    game still running; a game without a first reveal is never recorded. Anything else raises
    ``ValueError`` (a programming error, not a runtime condition).
    """
    expected = _STATUS_FOR.get(outcome)
    if expected is None:
        raise ValueError(f"outcome must be one of {', '.join(OUTCOMES)}, not {outcome!r}")
    if game.status != expected:
        raise ValueError(f"a game that is {game.status} cannot be recorded as {outcome}")
    metrics = game_metrics(game)
    group = Group.for_game(game)
    return GameRecord(
        started_at=started_at,
        ended_at=ended_at,
        preset=group.preset,
        width=game.width,
        height=game.height,
        mines=game.mines,
        first_click=game.first_click,
        seed=game.seed,
        outcome=outcome,
        time_ms=metrics.elapsed_ms,
        bbbv=metrics.bbbv,
        solved_bbbv=metrics.solved_bbbv,
        left_clicks=metrics.left_clicks,
        right_clicks=metrics.right_clicks,
        chord_clicks=metrics.chord_clicks,
        efficiency=metrics.efficiency,
        bbbv_per_s=metrics.bbbv_per_second,
        assisted=bool(assisted),
        no_guess=group.no_guess,
    )


# ---------------------------------------------------------------------------- figures
@dataclass(frozen=True, slots=True)
class BestTime:
    """One entry of a best-times table (an unassisted win)."""

    ended_at: datetime
    time_ms: int
    bbbv: int
    bbbv_per_s: float


@dataclass(frozen=True, slots=True)
class Streak:
    """The run of results the player is on: ``outcome`` ``"won"``, ``"lost"`` or ``""`` (none)."""

    outcome: str
    length: int
    #: Games of a losing streak that were abandoned rather than lost.
    abandoned: int = 0
    #: No streak because the last game was an assisted win (which ends every streak).
    after_assisted_win: bool = False

    @property
    def signed(self) -> int:
        """Wins positive, losses negative, 0 for none."""
        return -self.length if self.outcome == "lost" else self.length

    def __str__(self) -> str:
        """Named by what it counts: ``3 wins``, ``2 losses``, ``14 abandoned``, ``5 lost or
        abandoned``; ``none`` says why when an assisted win ended the streak."""
        if self.outcome == "won":
            return f"{self.length} win" + ("" if self.length == 1 else "s")
        if self.outcome == "lost":
            if self.abandoned == 0:
                return f"{self.length} loss" + ("" if self.length == 1 else "es")
            if self.abandoned == self.length:
                return f"{self.length} abandoned"
            return f"{self.length} lost or abandoned"
        return "none (an assisted win ends a streak)" if self.after_assisted_win else "none"


NO_STREAK: Final = Streak("", 0)


@dataclass(frozen=True, slots=True)
class GroupStats:
    """Everything the statistics screen shows for one group (see the module notes)."""

    group: Group
    played: int
    won: int
    lost: int
    abandoned: int
    assisted: int
    current_streak: Streak
    longest_winning_streak: int
    longest_losing_streak: int
    #: Mean time of the unassisted wins, ``None`` without any.
    average_winning_ms: float | None
    #: Up to ten unassisted wins, fastest first (ties: the earlier game first).
    best_times: tuple[BestTime, ...]
    best_bbbv_per_s: float | None
    #: Times of the last fifty unassisted wins, oldest first (for a sparkline).
    recent_winning_ms: tuple[int, ...]

    @property
    def win_percent(self) -> float:
        """Won games per hundred played; 0 when none was played."""
        return 100.0 * self.won / self.played if self.played else 0.0


def _streaks(history: str) -> tuple[Streak, int, int]:
    """Current streak, longest winning and longest losing streak of a history string.

    ``history`` has one letter per game in end order: ``W``/``w`` won, ``L``/``l`` lost,
    ``Q``/``q`` abandoned, lower case when assisted.
    """
    longest_win = max((len(run) for run in _WIN_RUN.findall(history)), default=0)
    longest_loss = max((len(run) for run in _LOSS_RUN.findall(history)), default=0)
    if not history:
        return NO_STREAK, longest_win, longest_loss
    if history[-1] == "w":
        return Streak("", 0, after_assisted_win=True), longest_win, longest_loss
    last = history[-1]
    tail = history.rstrip("W") if last == "W" else history.rstrip("LlQq")
    run = history[len(tail) :]
    if last == "W":
        return Streak("won", len(run)), longest_win, longest_loss
    abandoned = sum(1 for game in run if game in "Qq")
    return Streak("lost", len(run), abandoned), longest_win, longest_loss


# ---------------------------------------------------------------------------- errors
class StatsError(Exception):
    """A statistics query failed; the message is meant for the player."""


def _describe(error: sqlite3.Error) -> str:
    """A short reason for a SQLite failure, for notices."""
    code = getattr(error, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    reasons = {
        sqlite3.SQLITE_BUSY: "the database stayed locked by another program for too long",
        sqlite3.SQLITE_LOCKED: "the database stayed locked by another program for too long",
        sqlite3.SQLITE_FULL: "the disk is full",
        sqlite3.SQLITE_READONLY: "the database is read-only",
        sqlite3.SQLITE_CORRUPT: "the database is damaged",
        sqlite3.SQLITE_NOTADB: "the file is not a database",
        sqlite3.SQLITE_IOERR: "disk input/output error",
        sqlite3.SQLITE_CANTOPEN: "the database file cannot be opened",
        sqlite3.SQLITE_PERM: "permission denied",
    }
    if primary in reasons:
        return reasons[primary]
    if isinstance(error, sqlite3.ProgrammingError):
        return "the statistics store is closed"
    return str(error) or type(error).__name__


def _is_damage(error: sqlite3.Error) -> bool:
    """Whether ``error`` means the file's content is unusable (as opposed to unreachable)."""
    code = getattr(error, "sqlite_errorcode", None)
    return isinstance(code, int) and code & 0xFF in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)


class _Unusable(Exception):
    """The file is not a statistics database this version can use; the message says why."""


# ---------------------------------------------------------------------------- the store
class StatsStore:
    """An open ``stats.db``. Get one from ``open_stats``; safe to share between threads."""

    def __init__(self, path: Path, connection: sqlite3.Connection) -> None:
        self.path = path
        self._connection = connection
        self._lock = threading.Lock()

    # -- lifecycle
    def close(self) -> None:
        """Close the database; later calls report that the store is closed."""
        with self._lock:
            self._connection.close()

    def __enter__(self) -> StatsStore:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    @contextmanager
    def _transaction(self, begin: str) -> Iterator[sqlite3.Connection]:
        with self._lock:
            connection = self._connection
            connection.execute(begin)
            try:
                yield connection
            except BaseException:
                with suppress(sqlite3.Error):
                    connection.execute("ROLLBACK")
                raise
            connection.execute("COMMIT")

    # -- writing
    def record(self, record: GameRecord) -> str | None:
        """Add one game in its own transaction; ``None``, or a notice if it was not saved.

        ``None`` also when the same game (start time, board, seed) is already recorded.
        """
        return self.record_many((record,))

    def record_many(self, records: Iterable[GameRecord]) -> str | None:
        """Add several games in one transaction (all or none); ``None`` or a notice."""
        rows = [record._row() for record in records]
        try:
            with self._transaction("BEGIN IMMEDIATE") as connection:
                connection.executemany(_INSERT, rows)
        except sqlite3.Error as error:
            return f"Statistics not saved: {self.path}: {_describe(error)}"
        return None

    def reset(self, group: Group | None = None) -> str | None:
        """Forget the games of ``group``, or every game; ``None``, or a notice on failure."""
        try:
            with self._transaction("BEGIN IMMEDIATE") as connection:
                if group is None:
                    connection.execute("DELETE FROM games")
                else:
                    connection.execute(f"DELETE FROM games WHERE {_IN_GROUP}", group._params())
        except sqlite3.Error as error:
            return f"Statistics not reset: {self.path}: {_describe(error)}"
        return None

    # -- reading
    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        """One read transaction, so that every figure comes from the same snapshot."""
        try:
            with self._transaction("BEGIN") as connection:
                yield connection
        except sqlite3.Error as error:
            raise StatsError(
                f"Statistics could not be read: {self.path}: {_describe(error)}"
            ) from error

    def groups(self) -> list[Group]:
        """The groups that have at least one game, in display order."""
        with self._reading() as connection:
            return self._groups(connection)

    def group_stats(self, group: Group) -> GroupStats:
        """The figures of one group (all zero and empty if it has no game)."""
        with self._reading() as connection:
            return self._group_stats(connection, group)

    def all_group_stats(self) -> list[GroupStats]:
        """The figures of every group that has games, in display order, from one snapshot."""
        with self._reading() as connection:
            return [self._group_stats(connection, group) for group in self._groups(connection)]

    def best_time(self, group: Group) -> BestTime | None:
        """The fastest unassisted win of ``group`` (call before ``record`` to show the old best)."""
        with self._reading() as connection:
            best = self._best_times(connection, group, 1)
        return best[0] if best else None

    def count(self) -> int:
        """How many games are recorded."""
        with self._reading() as connection:
            return int(connection.execute("SELECT count(*) FROM games").fetchone()[0])

    @staticmethod
    def _groups(connection: sqlite3.Connection) -> list[Group]:
        rows = connection.execute(
            "SELECT DISTINCT preset, width, height, mines, no_guess FROM games"
        ).fetchall()
        groups = [Group(p, w, h, m, bool(ng)) for p, w, h, m, ng in rows]
        return sorted(groups, key=Group.sort_key)

    @staticmethod
    def _best_times(connection: sqlite3.Connection, group: Group, limit: int) -> list[BestTime]:
        rows = connection.execute(
            f"SELECT ended_at, time_ms, bbbv, bbbv_per_s FROM games WHERE {_CLEAN_WINS}"
            " ORDER BY time_ms, ended_at, id LIMIT ?",
            (*group._params(), limit),
        ).fetchall()
        return [BestTime(_parse_utc(e), t, b, r) for e, t, b, r in rows]

    def _group_stats(self, connection: sqlite3.Connection, group: Group) -> GroupStats:
        params = group._params()
        rows = connection.execute(_HISTORY, params).fetchall()
        history = "".join(letter.lower() if assisted else letter for letter, assisted in rows)
        current, longest_win, longest_loss = _streaks(history)
        # Two queries, not one: each is answered from its own index without touching the table.
        (average,) = connection.execute(
            f"SELECT avg(time_ms) FROM games WHERE {_CLEAN_WINS}", params
        ).fetchone()
        (best_rate,) = connection.execute(
            f"SELECT max(bbbv_per_s) FROM games WHERE {_CLEAN_WINS}", params
        ).fetchone()
        recent = connection.execute(
            f"SELECT time_ms FROM games WHERE {_CLEAN_WINS} ORDER BY ended_at DESC, id DESC"
            " LIMIT ?",
            (*params, RECENT_WINS),
        ).fetchall()
        lost = history.count("L") + history.count("l")
        won = history.count("W") + history.count("w")
        return GroupStats(
            group=group,
            played=len(history),
            won=won,
            lost=lost,
            abandoned=len(history) - won - lost,
            assisted=sum(1 for letter in history if letter.islower()),
            current_streak=current,
            longest_winning_streak=longest_win,
            longest_losing_streak=longest_loss,
            average_winning_ms=average,
            best_times=tuple(self._best_times(connection, group, BEST_TIMES)),
            best_bbbv_per_s=best_rate,
            recent_winning_ms=tuple(time_ms for (time_ms,) in reversed(recent)),
        )


# ---------------------------------------------------------------------------- opening
def _check_header(path: Path) -> None:
    """Reject, before SQLite touches it, a file that is plainly not an SQLite database."""
    try:
        with path.open("rb") as file:
            header = file.read(SQLITE_HEADER_SIZE)
    except FileNotFoundError:
        return
    if not header:
        return  # an empty file is what SQLite itself creates before the first write
    if not header.startswith(SQLITE_MAGIC[: len(header)]) or len(header) < len(SQLITE_MAGIC):
        raise _Unusable("is not an SQLite database")
    if len(header) < SQLITE_HEADER_SIZE:
        raise _Unusable("is truncated")


def _check_writable(path: Path) -> None:
    """Raise ``OSError`` unless the database and its directory can be written.

    SQLite would fail too, but with "unable to open database file" whatever the cause; this
    names it (permission denied, read-only file system). The directory must be writable because
    WAL mode keeps its ``-wal`` and ``-shm`` files beside the database.
    """
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    os.close(fd)
    if not os.access(path.parent, os.W_OK):
        read_only = os.statvfs(path.parent).f_flag & os.ST_RDONLY if hasattr(os, "statvfs") else 0
        code = errno.EROFS if read_only else errno.EACCES
        raise OSError(code, os.strerror(code), str(path.parent))


def _user_version(connection: sqlite3.Connection) -> int:
    return int(connection.execute("PRAGMA user_version").fetchone()[0])


def _migrate(connection: sqlite3.Connection) -> None:
    """Bring the schema to ``SCHEMA_VERSION``, all steps in one transaction."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        # Read again under the write lock: another textmines may have migrated meanwhile.
        version = _user_version(connection)
        if version == 0 and connection.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
            raise _Unusable("is not a textmines statistics database")
        for step in MIGRATIONS[version:]:
            for statement in step:
                connection.execute(statement)
        connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    except BaseException:
        with suppress(sqlite3.Error):
            connection.execute("ROLLBACK")
        raise
    connection.execute("COMMIT")


def _check_schema(connection: sqlite3.Connection) -> None:
    present = {row[1] for row in connection.execute("PRAGMA table_info(games)")}
    missing = [column for column in _COLUMNS if column not in present]
    if missing:
        raise _Unusable(
            "is not a textmines statistics database (no column " + ", ".join(missing) + ")"
        )


def _open(path: Path, busy_timeout: float) -> StatsStore:
    """Open and if needed create or migrate ``path``. Raises ``_Unusable``, sqlite3 or OS errors."""
    _check_writable(path)
    _check_header(path)
    connection = sqlite3.connect(
        path, timeout=busy_timeout, isolation_level=None, check_same_thread=False
    )
    try:
        # Before anything writes to the file: a newer database is left exactly as it was.
        version = _user_version(connection)
        if version > SCHEMA_VERSION:
            raise _Unusable(
                f"was written by a newer version of textmines (schema version {version}; "
                f"this one reads up to {SCHEMA_VERSION})"
            )
        connection.execute("PRAGMA journal_mode = WAL")
        # In WAL mode NORMAL loses nothing when the process dies (SIGKILL included) and keeps
        # the file consistent through a power cut, which may only undo the last few games;
        # FULL would add a disk flush to every game (measured 0.25-4 ms here, more on slow
        # disks) for that last bit of durability.
        connection.execute("PRAGMA synchronous = NORMAL")
        if version < SCHEMA_VERSION:
            _migrate(connection)
        _check_schema(connection)
    except BaseException:
        connection.close()
        raise
    return StatsStore(path, connection)


def _not_saved(path: Path, reason: str) -> str:
    return f"Statistics not saved: {path}: {reason}"


def open_stats(
    path: Path, *, busy_timeout: float = BUSY_TIMEOUT
) -> tuple[StatsStore | None, list[str]]:
    """Open (creating or migrating) the statistics database at ``path``. Never raises.

    Returns the store, or ``None`` when statistics cannot be kept this session, and the notices
    to show the player:

    * ``"Statistics not saved: <where>: <reason>"`` when the directory cannot be created or the
      file cannot be opened or written (no store);
    * ``"Statistics: <path> <problem>, so it was moved to <path.bad> and new statistics were
      started"`` when the file ``is damaged (...)``, ``is truncated``, ``is not an SQLite
      database``, ``is not a textmines statistics database`` or ``was written by a newer version
      of textmines (...)`` (the store is on a fresh file). The old file, with its ``-wal`` and
      ``-shm`` files, is never deleted nor overwritten: it goes to the first free ``.bad``,
      ``.bad-2``, ... name.

    ``busy_timeout`` (seconds) is how long a write waits for another process holding the lock.
    """
    reason = ensure_dir(path.parent)
    if reason is not None:
        return None, [f"Statistics not saved: cannot create {path.parent}: {reason}"]
    if path.is_dir():
        return None, [_not_saved(path, "a directory is in the way")]
    try:
        return _open(path, busy_timeout), []
    except _Unusable as unusable:
        problem = str(unusable)
    except sqlite3.Error as error:
        if not _is_damage(error):
            return None, [_not_saved(path, _describe(error))]
        problem = f"is damaged ({error})"
    except OSError as error:
        return None, [_not_saved(path, describe_os_error(error))]

    try:
        moved = move_aside(path, _COMPANIONS)
    except OSError as error:
        return None, [
            f"Statistics not saved: {path} {problem} and could not be moved aside "
            f"({describe_os_error(error)})"
        ]
    notice = (
        f"Statistics: {path} {problem}, so it was moved to {moved} and new statistics were started"
    )
    try:
        return _open(path, busy_timeout), [notice]
    except (_Unusable, sqlite3.Error, OSError) as error:
        why = _describe(error) if isinstance(error, sqlite3.Error) else str(error)
        if isinstance(error, OSError):
            why = describe_os_error(error)
        return None, [notice, _not_saved(path, why)]
