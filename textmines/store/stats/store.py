"""``StatsStore``: writing games and reading the figures of an open ``stats.db``.

This module owns the SQL of the queries and the mapping between rows and the dataclasses of
``records`` and ``figures``. Opening the file is ``opening.open_stats``'s job.
"""

from __future__ import annotations

import base64
import contextlib
import json
import sqlite3
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import Any, Final

from textmines.engine.metrics import STNB_CONSTANTS
from textmines.store.paths import move_aside, write_atomic
from textmines.store.stats.errors import StatsError, describe_sqlite_error, is_busy
from textmines.store.stats.figures import (
    BEST_TIMES,
    RECENT_WINS,
    BestTime,
    DailyStats,
    GroupStats,
    StoredReplay,
    daily_figures,
    streaks,
)
from textmines.store.stats.records import GameRecord, Group
from textmines.store.stats.schema import (
    COLUMNS,
    COLUMNS_AT,
    LATER_DEFAULTS,
    parse_utc,
    transaction,
    utc_text,
)

# A game is the same game if it started at the same moment on the same board with the same seed:
# a resumed game keeps its start time, so a game recorded just before a crash (and resumed from
# its last save) is not counted twice.
_SAME_GAME: Final = " AND ".join(
    f"{column} {'IS' if column == 'seed' else '='} ?{COLUMNS.index(column) + 1}"
    for column in ("started_at", "width", "height", "mines", "seed")
)
_INSERT: Final = (
    f"INSERT INTO games ({', '.join(COLUMNS)})"
    f" SELECT {', '.join(f'?{number}' for number in range(1, len(COLUMNS) + 1))}"
    f" WHERE NOT EXISTS (SELECT 1 FROM games WHERE {_SAME_GAME})"
)
_IN_GROUP: Final = "preset = ? AND width = ? AND height = ? AND mines = ? AND no_guess = ?"
_CLEAN_WINS: Final = f"{_IN_GROUP} AND outcome = 'won' AND assisted = 0"
#: The best competitive figures of a group's unassisted wins (see ``GroupStats.best_figures``).
BEST_FIGURE_NAMES: Final = ("IOE", "Correctness", "Throughput", "STNB", "RQP")
_BEST_FIGURES: Final = f"""
    SELECT max(efficiency),
        max(CAST(effective_clicks AS REAL) / (left_clicks + right_clicks + chord_clicks)),
        max(CAST(solved_bbbv AS REAL) / effective_clicks),
        max(stnb),
        min(rqp)
    FROM games WHERE {_CLEAN_WINS} AND effective_clicks IS NOT NULL
"""
# One letter per game for the streak pass: upper case unassisted, lower case assisted.
_HISTORY: Final = f"""
    SELECT CASE outcome WHEN 'won' THEN 'W' WHEN 'lost' THEN 'L' ELSE 'Q' END, assisted
    FROM games WHERE {_IN_GROUP} ORDER BY ended_at, id
"""


#: Games kept for later because another program held the database when they ended (and
#: still at exit) wait in this file beside it, and are written when it is next opened.
PENDING_SUFFIX: Final = "-pending.json"
#: How long closing the store waits for the database to write the games kept for later.
CLOSING_WAIT_MS: Final = 1000
_SQLITE_INT: Final = range(-(2**63), 2**63)
#: The lengths of the rows a pending file may hold: this build's, or an older one's.
COLUMN_COUNTS: Final = {len(columns) for columns in COLUMNS_AT.values()}

Row = tuple[Any, ...]


def _checked(row: Row) -> Row:
    """``row`` if SQLite can hold every value (a game kept for later must never fail)."""
    for value in row:
        if isinstance(value, int) and value not in _SQLITE_INT:
            raise OverflowError(f"{value} does not fit in a 64-bit integer")
    return row


def _row(record: GameRecord) -> Row:
    """The values of ``record`` for ``_INSERT``, in the order of ``COLUMNS``."""
    values = (
        utc_text(record.started_at),
        utc_text(record.ended_at),
        record.preset,
        record.width,
        record.height,
        record.mines,
        record.first_click,
        None if record.seed is None else str(record.seed),
        record.outcome,
        record.time_ms,
        record.bbbv,
        record.solved_bbbv,
        record.left_clicks,
        record.right_clicks,
        record.chord_clicks,
        record.efficiency,
        record.bbbv_per_s,
        int(record.assisted),
        int(record.no_guess),
        record.effective_clicks,
        record.flags_placed,
        record.rqp,
        record.stnb,
        record.replay,
        record.daily,
        int(record.practice),
    )
    return _checked(values)


_REPLAY: Final = COLUMNS.index("replay")


def _to_json(row: Row) -> list[Any]:
    """A row as the pending file keeps it: the recording's bytes as base64 text."""
    values = list(row)
    if isinstance(values[_REPLAY], bytes):
        values[_REPLAY] = base64.b64encode(values[_REPLAY]).decode("ascii")
    return values


def _from_json(values: Any) -> Row:
    """A row of the pending file, written by this build or an older one (fewer columns)."""
    if not isinstance(values, list) or len(values) not in COLUMN_COUNTS:
        raise ValueError("not a list of games")
    values = values + [LATER_DEFAULTS.get(column) for column in COLUMNS[len(values) :]]
    if isinstance(values[_REPLAY], str):
        values[_REPLAY] = base64.b64decode(values[_REPLAY], validate=True)
    return _checked(tuple(values))


def _group_params(group: Group) -> tuple[str, int, int, int, int]:
    """The parameters of ``_IN_GROUP``."""
    return group.preset, group.width, group.height, group.mines, int(group.no_guess)


class StatsStore:
    """An open ``stats.db``. Get one from ``open_stats``; safe to share between threads."""

    def __init__(self, path: Path, connection: sqlite3.Connection) -> None:
        self.path = path
        self._connection = connection
        self._lock = threading.Lock()
        #: Rows not written yet because another program held the database.
        self._pending: list[Row] = []
        self._pending_file = path.with_name(path.name + PENDING_SUFFIX)
        self._pending_from_file = False

    # -- lifecycle
    def close(self) -> None:
        """Close the database; later calls report that the store is closed.

        Games still kept for later get one more, longer try; those that still cannot be
        written go to a file beside the database and are written the next time it opens.
        """
        if self._pending:
            with contextlib.suppress(sqlite3.Error):
                self._connection.execute(f"PRAGMA busy_timeout = {CLOSING_WAIT_MS}")
            self.retry_pending()
        if self._pending:
            self._keep_pending_in_file()
        with self._lock:
            self._connection.close()

    def _keep_pending_in_file(self) -> None:
        # Best effort: with the database locked and the folder unwritable there is no place
        # left to keep them.
        with contextlib.suppress(OSError, ValueError, TypeError):
            rows = [_to_json(row) for row in self._pending]
            write_atomic(self._pending_file, json.dumps(rows).encode("utf-8"))

    def take_pending_file(self) -> str | None:
        """Write the games an earlier run kept beside the database (``close``), if any.

        A file that cannot be read is moved aside. Returns a notice only if that happened.
        """
        try:
            rows = json.loads(self._pending_file.read_bytes())
            if not isinstance(rows, list):
                raise ValueError("not a list of games")
            checked = [_from_json(row) for row in rows]
        except FileNotFoundError:
            return None
        except (OSError, ValueError, RecursionError, OverflowError) as error:
            problem = f"Statistics: games kept in {self._pending_file} cannot be read ({error})"
            with contextlib.suppress(OSError):
                return f"{problem}; it was moved to {move_aside(self._pending_file)}"
            return problem
        self._pending.extend(checked)
        self._pending_from_file = True
        self.retry_pending()
        return None

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
        with self._lock, transaction(self._connection, begin) as connection:
            yield connection

    # -- writing
    def record(self, record: GameRecord) -> str | None:
        """Add one game in its own transaction; ``None``, or a notice if it was not saved.

        ``None`` also when the same game (start time, board, seed) is already recorded.
        """
        return self.record_many((record,))

    def record_many(self, records: Iterable[GameRecord]) -> str | None:
        """Add several games in one transaction (all or none); ``None`` or a notice.

        Games kept for later (``pending``) go first. If another program holds the database
        longer than the busy timeout, these games are kept too, and the notice says so:
        they are written by the next ``record``, ``retry_pending`` or ``close``.
        """
        try:
            rows = [_row(record) for record in records]
        except (ValueError, OverflowError, TypeError) as error:
            # A record out of range (a game from a damaged save, say) must not end the game.
            return f"Statistics not saved: the game's record is not valid ({error})"
        return self._write(rows)

    def _why(self, error: sqlite3.Error) -> str:
        return describe_sqlite_error(error, self.path)

    @property
    def pending(self) -> int:
        """How many games are kept for later (the database was busy when they ended)."""
        return len(self._pending)

    def retry_pending(self) -> str | None:
        """Write the games kept for later; ``None`` when none is left, else a notice."""
        return self._write([]) if self._pending else None

    def _write(self, rows: list[Row]) -> str | None:
        batch = [*self._pending, *rows]
        try:
            with self._transaction("BEGIN IMMEDIATE") as connection:
                connection.executemany(_INSERT, batch)
        except sqlite3.Error as error:
            if not is_busy(error):
                return f"Statistics not saved: {self.path}: {self._why(error)}"
            self._pending = batch
            return (
                f"Statistics: {self.path} is held by another program; "
                f"{len(batch)} game{' is' if len(batch) == 1 else 's are'} kept and will be "
                "recorded once it is free"
            )
        self._pending = []
        if self._pending_from_file:
            self._pending_from_file = False
            with contextlib.suppress(OSError):
                self._pending_file.unlink()
        return None

    def reset(self, group: Group | None = None) -> str | None:
        """Forget the games of ``group``, or every game; ``None``, or a notice on failure."""
        try:
            with self._transaction("BEGIN IMMEDIATE") as connection:
                if group is None:
                    connection.execute("DELETE FROM games")
                else:
                    connection.execute(f"DELETE FROM games WHERE {_IN_GROUP}", _group_params(group))
        except sqlite3.Error as error:
            return f"Statistics not reset: {self.path}: {self._why(error)}"
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
                f"Statistics could not be read: {self.path}: {self._why(error)}"
            ) from error
        except (ValueError, TypeError, OverflowError) as error:
            # A value no query expects (a row edited by hand): reported, never fatal.
            raise StatsError(f"Statistics could not be read: {self.path}: {error}") from error

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
            best, _ = self._best_times(connection, group, 1)
        return best[0] if best else None

    def stored_replay(self, game_id: int | None = None) -> StoredReplay | None:
        """The recording of game ``game_id``, or of the last game that has one; None if there
        is no such game or it was recorded before recordings were kept. Raises
        ``StatsError`` if the database cannot be read."""
        if game_id is not None and not 0 < game_id < 2**63:
            return None  # beyond SQLite's integers: no game has that number
        where = "id = ?" if game_id is not None else "replay IS NOT NULL"
        query = (
            "SELECT id, started_at, ended_at, outcome, assisted, replay FROM games"
            f" WHERE {where} ORDER BY ended_at DESC, id DESC LIMIT 1"
        )
        with self._reading() as connection:
            row = connection.execute(query, () if game_id is None else (game_id,)).fetchone()
            if row is None or not isinstance(row[5], bytes):
                return None
            number, started, ended, outcome, assisted, data = row
            return StoredReplay(
                int(number), parse_utc(started), parse_utc(ended), outcome, bool(assisted), data
            )

    def has_game(self, game_id: int) -> bool:
        """Whether game ``game_id`` is recorded, with a recording or without (``stored_replay``
        is None for both). Raises ``StatsError`` if the database cannot be read."""
        if not 0 < game_id < 2**63:
            return False  # beyond SQLite's integers: no game has that number
        with self._reading() as connection:
            row = connection.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone()
        return row is not None

    def daily_counted(self, day: str) -> bool:
        """Whether a try of ``day``'s daily board is recorded (the next one is practice)."""
        with self._reading() as connection:
            row = connection.execute(
                "SELECT 1 FROM games WHERE daily = ? AND practice = 0 LIMIT 1", (day,)
            ).fetchone()
        return row is not None

    def daily_stats(self) -> DailyStats:
        """The daily boards' figures, from the try that counted on each day."""
        with self._reading() as connection:
            rows = connection.execute(
                "SELECT daily, outcome, time_ms FROM games WHERE daily IS NOT NULL"
                " AND practice = 0 ORDER BY daily, ended_at, id"
            ).fetchall()
        days: dict[str, tuple[str, int]] = {}
        for day, outcome, time_ms in rows:
            days.setdefault(str(day), (str(outcome), int(time_ms)))
        return daily_figures(days)

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
    def _best_times(
        connection: sqlite3.Connection, group: Group, limit: int
    ) -> tuple[list[BestTime], int]:
        """The ``limit`` fastest clean wins, and how many damaged rows were passed over."""
        rows = connection.execute(
            f"SELECT ended_at, time_ms, bbbv, bbbv_per_s, id FROM games WHERE {_CLEAN_WINS}"
            " ORDER BY time_ms, ended_at, id",
            _group_params(group),
        )
        best: list[BestTime] = []
        damaged = 0
        for ended, time_ms, bbbv, rate, game_id in rows:  # lazily: stops at ``limit`` good rows
            try:
                best.append(
                    BestTime(parse_utc(ended), int(time_ms), int(bbbv), float(rate), game_id)
                )
            except (ValueError, TypeError, OverflowError):
                damaged += 1
                continue
            if len(best) == limit:
                break
        return best, damaged

    def _group_stats(self, connection: sqlite3.Connection, group: Group) -> GroupStats:
        params = _group_params(group)
        rows = connection.execute(_HISTORY, params).fetchall()
        history = "".join(letter.lower() if assisted else letter for letter, assisted in rows)
        current, longest_win, longest_loss = streaks(history)
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
        best, damaged = self._best_times(connection, group, BEST_TIMES)
        figures = connection.execute(_BEST_FIGURES, params).fetchone()
        # Games recorded while textmines gave 9x9/10 an STNB still hold one; ms-toollib
        # measures none on that board, so neither do the best figures.
        has_stnb = (group.width, group.height, group.mines) in STNB_CONSTANTS
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
            best_times=tuple(best),
            best_bbbv_per_s=best_rate,
            recent_winning_ms=tuple(time_ms for (time_ms,) in reversed(recent)),
            damaged=damaged,
            best_figures=tuple(
                (name, float(value))
                for name, value in zip(BEST_FIGURE_NAMES, figures, strict=True)
                if value is not None and (name != "STNB" or has_stnb)
            ),
        )
