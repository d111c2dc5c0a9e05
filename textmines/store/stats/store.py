"""``StatsStore``: writing games and reading the figures of an open ``stats.db``.

This module owns the SQL of the queries and the mapping between rows and the dataclasses of
``records`` and ``figures``. Opening the file is ``opening.open_stats``'s job.
"""

from __future__ import annotations

import base64
import contextlib
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import date, datetime
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Final

from textmines.engine.presets import MAX_SIDE, MIN_SIDE
from textmines.store.paths import (
    describe_os_error,
    move_aside,
    read_regular_file,
    write_atomic,
)
from textmines.store.stats.errors import StatsError
from textmines.store.stats.groups import OUTCOMES, Group, Outcome
from textmines.store.stats.reasons import describe_sqlite_error, is_busy
from textmines.store.stats.schema import (
    COLUMNS,
    COLUMNS_AT,
    LATER_DEFAULTS,
    MAX_TIME_MS,
    SOUND_ENDED,
    SOUND_GAME,
    SOUND_REPLAY,
    SOUND_REVIEW,
    SOUND_WIN,
    parse_utc,
    transaction,
    utc_text,
)
from textmines.value import Value

# The figures (``figures``) are imported where they are read, not here: a game's start opens
# the store to write, and the statistics screen is the one reader.
if TYPE_CHECKING:
    from textmines.store.stats.figures import (
        BestTime,
        DailyStats,
        GroupStats,
        ReviewFigures,
        StoredReplay,
    )
    from textmines.store.stats.records import GameRecord, GameReview, Written

# A game is the same game if it started at the same moment on the same board with the same seed:
# a resumed game keeps its start time, so a game recorded just before a crash (and resumed from
# its last save) is not counted twice.
_SAME_GAME_COLUMNS: Final = ("started_at", "width", "height", "mines", "seed")
_SAME_GAME: Final = " AND ".join(
    f"{column} {'IS' if column == 'seed' else '='} ?{COLUMNS.index(column) + 1}"
    for column in _SAME_GAME_COLUMNS
)
_DAY, _PRACTICE = (f"?{COLUMNS.index(column) + 1}" for column in ("daily", "practice"))
# A daily try is practice when its day has a try that counts already: decided here, in the
# transaction that writes it, as two textmines may each have started a try thinking it the
# first (and a game kept for later is written after others).
_WRITTEN_PRACTICE: Final = (
    f"{_PRACTICE} OR ({_DAY} IS NOT NULL AND EXISTS"
    f" (SELECT 1 FROM games WHERE daily = {_DAY} AND practice = 0))"
)
_INSERT: Final = (
    f"INSERT INTO games ({', '.join(COLUMNS)})"
    " SELECT "
    + ", ".join(
        _WRITTEN_PRACTICE if column == "practice" else f"?{number}"
        for number, column in enumerate(COLUMNS, 1)
    )
    + f" WHERE NOT EXISTS (SELECT 1 FROM games WHERE {_SAME_GAME})"
)
#: The row of a game just written (or found written already), from its values' first
#: ``_FOUND_PARAMS`` (those ``_SAME_GAME`` names).
_FOUND: Final = f"SELECT id, practice FROM games WHERE {_SAME_GAME} ORDER BY id LIMIT 1"
_FOUND_PARAMS: Final = 1 + max(COLUMNS.index(column) for column in _SAME_GAME_COLUMNS)
_IN_GROUP: Final = "preset = ? AND width = ? AND height = ? AND mines = ? AND no_guess = ?"
#: The wins of the player's own play, unaided: what records (best times...) are made of.
_CLEAN_WINS: Final = f"{_IN_GROUP} AND outcome = 'won' AND assisted = 0 AND practice = 0"
#: The best competitive figures of a group's unassisted wins (see ``GroupStats.best_figures``).
BEST_FIGURE_NAMES: Final = ("IOE", "Correctness", "Throughput", "STNB", "RQP")
# Two queries also say whether a row they read fails its conditions (``schema.SOUND_*``):
# a group with none, the usual case, is read in one go, with no pass of its own for them.
# The clean wins are looked up for the best figures: their conditions are checked there.
_BEST_FIGURES: Final = f"""
    SELECT max(iif(effective_clicks IS NOT NULL, efficiency, NULL)),
        max(CAST(effective_clicks AS REAL) / (left_clicks + right_clicks + chord_clicks)),
        max(CAST(solved_bbbv AS REAL) / effective_clicks),
        max(stnb),
        min(rqp),
        total(NOT {SOUND_WIN})
    FROM games WHERE {_CLEAN_WINS}{{skip}}
"""
# One letter per game for the streak pass: upper case unassisted, lower case assisted; "?"
# for a game that fails its conditions, "p" for a practice game (counted apart).
_HISTORY: Final = f"""
    SELECT CASE WHEN NOT {SOUND_GAME} THEN '?'
        WHEN practice THEN 'p'
        WHEN outcome = 'won' THEN iif(assisted, 'w', 'W')
        WHEN outcome = 'lost' THEN iif(assisted, 'l', 'L')
        ELSE iif(assisted, 'q', 'Q') END
    FROM games WHERE {_IN_GROUP}{{skip}} ORDER BY ended_at, id
"""
# The rows of a group edited by hand into values a statistic cannot read: read only when
# the queries above met one.
_DAMAGED: Final = f"""
    SELECT id FROM games WHERE {_IN_GROUP} AND NOT ({SOUND_GAME} AND {SOUND_ENDED})
    UNION SELECT id FROM games WHERE {_CLEAN_WINS} AND NOT {SOUND_WIN}
"""


#: Games kept for later because another program held the database when they ended (and
#: still at exit) wait in this file beside it, and are written when it is next opened.
PENDING_SUFFIX: Final = "-pending.json"
#: The largest file of games kept for later read: more than a thousand games with their
#: recordings (a few KB each), and a FIFO or /dev/zero are refused before reading.
MAX_PENDING_BYTES: Final = 64_000_000
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


def _group_of(
    preset: object, width: object, height: object, mines: object, no_guess: object
) -> Group | None:
    """The group of a row's board columns, or None when they hold values textmines never
    writes: text for a size, a board no game is played on, a preset not of that size."""
    if no_guess not in (0, 1):
        return None
    if not (isinstance(width, int) and isinstance(height, int) and isinstance(mines, int)):
        return None
    if not (MIN_SIDE <= width <= MAX_SIDE and MIN_SIDE <= height <= MAX_SIDE):
        return None
    if not 0 < mines < width * height:
        return None
    group = Group.for_board(width, height, mines, no_guess=bool(no_guess))
    return group if group.preset == preset else None


def _sound_day(day: object, outcome: object, time_ms: object) -> bool:
    """Whether a row of the daily boards holds what textmines writes there."""
    if not isinstance(day, str) or outcome not in OUTCOMES:
        return False
    if not isinstance(time_ms, int) or not 0 <= time_ms <= MAX_TIME_MS:
        return False
    try:
        return date.fromisoformat(day).isoformat() == day
    except ValueError:
        return False


def _moment_of(value: object) -> datetime | None:
    """The moment a time column holds, or None if it holds none (a row edited by hand)."""
    if not isinstance(value, str):
        return None
    try:
        return parse_utc(value)
    except (ValueError, OverflowError):
        return None


def _shown(value: object) -> str:
    """A value read from a damaged row, for a message: never very long."""
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:37]}..."


_SET_REVIEW: Final = (
    "INSERT OR REPLACE INTO reviews (game_id, guesses, avoidable, blunders, luck, forced_loss)"
    " SELECT ?1, ?2, ?3, ?4, ?5, ?6 WHERE EXISTS (SELECT 1 FROM games WHERE id = ?1)"
)
_FORGET_ORPHAN_REVIEWS: Final = (
    "DELETE FROM reviews WHERE game_id NOT IN (SELECT id FROM games)",
    "DELETE FROM unreviewable WHERE game_id NOT IN (SELECT id FROM games)",
)
_SET_UNREVIEWABLE: Final = (
    "INSERT OR REPLACE INTO unreviewable (game_id, reason)"
    " SELECT ?1, ?2 WHERE EXISTS (SELECT 1 FROM games WHERE id = ?1)"
)
#: A group's reviewed games in figures, and the reviews left out because they hold values
#: textmines never writes (``SOUND_REVIEW``; an ``iif`` reads a value only of a sound review,
#: so a huge integer never overflows a sum). Damaged games (``SOUND_GAME``) and practice
#: games are left out.
_REVIEW_FIGURES: Final = (
    f"SELECT total({SOUND_REVIEW}), avg(iif({SOUND_REVIEW}, r.guesses, NULL)),"
    f" avg(iif({SOUND_REVIEW}, r.avoidable, NULL)), avg(iif({SOUND_REVIEW}, r.blunders, NULL)),"
    f" avg(iif({SOUND_REVIEW}, r.luck, NULL)),"
    f" total(iif({SOUND_REVIEW}, g.outcome = 'lost', 0)),"
    f" total(iif({SOUND_REVIEW}, r.forced_loss, 0)), total(NOT {SOUND_REVIEW})"
    f" FROM reviews AS r JOIN games AS g ON g.id = r.game_id"
    f" WHERE {_IN_GROUP} AND {SOUND_GAME} AND NOT g.practice"
)


def _review_figures(
    connection: sqlite3.Connection, group: Group
) -> tuple[ReviewFigures | None, int]:
    """What the reviews of ``group``'s games add up to (None when none is reviewed), and
    how many reviews were left out as damaged."""
    from textmines.store.stats.figures import ReviewFigures

    count, guesses, avoidable, blunders, luck, losses, forced, damaged = connection.execute(
        _REVIEW_FIGURES, _group_params(group)
    ).fetchone()
    if not count:
        return None, int(damaged)
    figures = ReviewFigures(
        int(count),
        float(guesses),
        float(avoidable),
        float(luck),
        int(losses),
        int(forced),
        float(blunders),
    )
    return figures, int(damaged)


def _group_params(group: Group) -> tuple[str, int, int, int, int]:
    """The parameters of ``_IN_GROUP``."""
    return group.preset, group.width, group.height, group.mines, int(group.no_guess)


class _GroupRows(Value):
    """What the figures of a group are made of, as the database gave it."""

    history: str
    average: Any
    best_rate: Any
    recent: tuple[Any, ...]
    best: tuple[BestTime, ...]
    figures: tuple[Any, ...]
    #: The rows left out because a value in them is not one textmines writes.
    left_out: tuple[int, ...]
    #: Best times whose end cannot be read as a date, though it looks like one.
    unparsed: int
    #: A row read holds a value textmines never writes: read again without such rows.
    suspect: bool


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
        import json  # here, as in take_pending_file: only kept games need it, rarely

        with contextlib.suppress(OSError, ValueError, TypeError):
            rows = [_to_json(row) for row in self._pending]
            write_atomic(self._pending_file, json.dumps(rows).encode("utf-8"))

    def take_pending_file(self) -> str | None:
        """Write the games an earlier run kept beside the database (``close``), if any.

        A file that cannot be read is moved aside. Returns a notice only if that happened.
        """
        try:
            raw = read_regular_file(self._pending_file, MAX_PENDING_BYTES)
            import json  # here: most starts find no file (see _keep_pending_in_file)

            rows = json.loads(raw)
            if not isinstance(rows, list):
                raise ValueError("not a list of games")
            checked = [_from_json(row) for row in rows]
        except FileNotFoundError:
            return None
        except (OSError, ValueError, RecursionError, OverflowError) as error:
            why = describe_os_error(error) if isinstance(error, OSError) else str(error)
            problem = f"Statistics: games kept in {self._pending_file} cannot be read ({why})"
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
        return self.record_game(record).notice

    def record_game(self, record: GameRecord) -> Written:
        """``record``, saying also the game's number and whether it was written as practice
        (a daily try is, when its day has a try that counts already: decided in the
        transaction that writes it). A game recorded already gives its row's."""
        from textmines.store.stats.records import Written  # see the imports above

        try:
            row = _row(record)
        except (ValueError, OverflowError, TypeError) as error:
            return Written(f"Statistics not saved: the game's record is not valid ({error})")
        found: list[tuple[int, int]] = []

        def find(connection: sqlite3.Connection) -> None:
            found.extend(connection.execute(_FOUND, row[:_FOUND_PARAMS]))

        notice = self._write([row], find)
        if notice is not None or not found:
            return Written(notice)
        game_id, practice = found[0]
        return Written(None, game_id, practice == 1)

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

    def _write(
        self, rows: list[Row], then: Callable[[sqlite3.Connection], None] | None = None
    ) -> str | None:
        """Write the games kept for later and ``rows`` in one transaction, then call ``then``
        in it (to read back what was written)."""
        batch = [*self._pending, *rows]
        try:
            with self._transaction("BEGIN IMMEDIATE") as connection:
                connection.executemany(_INSERT, batch)
                if then is not None:
                    then(connection)
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
                for forget in _FORGET_ORPHAN_REVIEWS:
                    connection.execute(forget)
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
            return self._groups(connection)[0]

    def groups_and_left_out(self) -> tuple[list[Group], int]:
        """``groups()``, and how many games are in none because their board (size, mines,
        preset or no-guess flag) holds values textmines never writes: they are left out."""
        with self._reading() as connection:
            return self._groups(connection)

    def group_stats(self, group: Group) -> GroupStats:
        """The figures of one group (all zero and empty if it has no game)."""
        with self._reading() as connection:
            return self._group_stats(connection, group)

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
        # The last game passes over rows edited by hand; a game asked for by number is
        # said to be damaged instead.
        where = "id = ?" if game_id is not None else f"replay IS NOT NULL AND {SOUND_REPLAY}"
        query = (
            "SELECT id, started_at, ended_at, outcome, assisted, replay, practice"
            f" FROM games WHERE {where} ORDER BY ended_at DESC, id DESC LIMIT 1"
        )
        with self._reading() as connection:
            row = connection.execute(query, () if game_id is None else (game_id,)).fetchone()
        if row is None or row[5] is None:
            return None
        number, started, ended, outcome, assisted, data, practice = row
        checks = (
            ("started_at", started, _moment_of(started) is not None),
            ("ended_at", ended, _moment_of(ended) is not None),
            ("outcome", outcome, outcome in OUTCOMES),
            ("assisted", assisted, assisted in (0, 1)),
            ("replay", data, isinstance(data, bytes)),
            ("practice", practice, practice in (0, 1)),
        )
        for name, value, sound in checks:
            if not sound:
                raise StatsError(
                    f"Game {number} in {self.path} is damaged: its {name} is {_shown(value)},"
                    " which textmines never writes (edited by hand?)"
                )
        from textmines.store.stats.figures import StoredReplay  # see the imports above

        return StoredReplay(
            number,
            parse_utc(started),
            parse_utc(ended),
            Outcome(outcome),
            bool(assisted),
            data,
            practice=bool(practice),
        )

    def games_to_review(self, limit: int, max_cells: int) -> list[tuple[int, bytes]]:
        """Up to ``limit`` recorded games with a recording and no review yet, on boards of at
        most ``max_cells`` cells, the last recorded first: (game number, recording). Practice
        games are not among them: their reviews are in no figure (``--review N`` reviews one
        when asked). Raises ``StatsError`` if the database cannot be read. In the order of the
        table's own key, so that finding the latest few stops early."""
        query = (
            "SELECT id, replay FROM games WHERE replay IS NOT NULL AND "
            f"{SOUND_REPLAY} AND NOT practice AND width * height <= ?"
            " AND id NOT IN (SELECT game_id FROM reviews)"
            " AND id NOT IN (SELECT game_id FROM unreviewable) ORDER BY id DESC LIMIT ?"
        )
        with self._reading() as connection:
            return list(connection.execute(query, (max_cells, limit)))

    def set_reviews(self, reviews: Iterable[GameReview]) -> str | None:
        """Keep the solver's reviews of recorded games (a game reviewed again keeps the
        latest); ``None``, or a notice when they could not be written (they are worked out
        again later)."""
        rows = [
            (r.game_id, r.guesses, r.avoidable, r.blunders, r.luck, int(r.forced_loss))
            for r in reviews
        ]
        try:
            with self._transaction("BEGIN IMMEDIATE") as connection:
                connection.executemany(_SET_REVIEW, rows)
                for forget in _FORGET_ORPHAN_REVIEWS:  # a game reset meanwhile
                    connection.execute(forget)
        except sqlite3.Error as error:
            return f"Game reviews not saved: {self.path}: {self._why(error)}"
        return None

    def set_unreviewable(self, games: Iterable[tuple[int, str]]) -> str | None:
        """Keep that recorded games cannot be reviewed, as (game number, why): their
        recording cannot be read, or takes more than a review's budget of work. They are not
        among ``games_to_review`` again. ``None``, or a notice when not written."""
        try:
            with self._transaction("BEGIN IMMEDIATE") as connection:
                connection.executemany(_SET_UNREVIEWABLE, list(games))
        except sqlite3.Error as error:
            return f"Game reviews not saved: {self.path}: {self._why(error)}"
        return None

    def has_game(self, game_id: int) -> bool:
        """Whether game ``game_id`` is recorded, with a recording or without (``stored_replay``
        is None for both). Raises ``StatsError`` if the database cannot be read."""
        if not 0 < game_id < 2**63:
            return False  # beyond SQLite's integers: no game has that number
        with self._reading() as connection:
            row = connection.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone()
        return row is not None

    def daily_counted(self, day: str) -> bool:
        """Whether a try of ``day``'s daily board counts already (the next one is practice;
        ``record_game`` decides again as it writes one)."""
        with self._reading() as connection:
            row = connection.execute(
                "SELECT 1 FROM games WHERE daily = ? AND practice = 0 LIMIT 1", (day,)
            ).fetchone()
        return row is not None

    def daily_stats(self) -> DailyStats:
        """The daily boards' figures, from the try that counted on each day. A win with help
        (hints, autoplay) is that day's ``assisted``: no day won, and it ends a streak."""
        from textmines.store.stats.figures import DayResult, daily_figures  # see the imports

        with self._reading() as connection:
            rows = connection.execute(
                "SELECT daily, practice, outcome, time_ms, assisted, id FROM games"
                " WHERE daily IS NOT NULL ORDER BY daily, ended_at, id"
            ).fetchall()
        days: dict[str, tuple[DayResult, int]] = {}
        numbers: dict[str, int] = {}
        damaged = 0
        for day, practice, outcome, time_ms, assisted, number in rows:
            if practice == 1:
                continue
            if practice != 0 or assisted not in (0, 1) or not _sound_day(day, outcome, time_ms):
                damaged += 1
            elif day not in days:
                days[day] = (DayResult.of(Outcome(outcome), assisted=bool(assisted)), time_ms)
                numbers[day] = number
        return daily_figures(days, damaged, numbers)

    def count(self) -> int:
        """How many games are recorded."""
        with self._reading() as connection:
            return int(connection.execute("SELECT count(*) FROM games").fetchone()[0])

    @staticmethod
    def _groups(connection: sqlite3.Connection) -> tuple[list[Group], int]:
        rows = connection.execute(
            "SELECT preset, width, height, mines, no_guess, count(*) FROM games"
            " GROUP BY preset, width, height, mines, no_guess"
        ).fetchall()
        groups: list[Group] = []
        left_out = 0
        for *key, count in rows:
            group = _group_of(*key)
            if group is None:
                left_out += count
            else:
                groups.append(group)
        return sorted(groups, key=Group.sort_key), left_out

    def _group_rows(
        self, connection: sqlite3.Connection, group: Group, left_out: Sequence[int]
    ) -> _GroupRows:
        """What the figures of ``group`` are made of, its rows ``left_out`` left out."""
        from textmines.store.stats.figures import BEST_TIMES, RECENT_WINS  # see the imports

        params = _group_params(group)
        # The rowid is in every index: leaving rows out keeps each query on its own index.
        skip = f" AND id NOT IN ({', '.join(map(str, left_out))})" if left_out else ""
        rows = connection.execute(_HISTORY.format(skip=skip), params).fetchall()
        history = "".join(letter for (letter,) in rows)
        # Two queries, not one: each is answered from its own index without touching the table.
        (average,) = connection.execute(
            f"SELECT avg(time_ms) FROM games WHERE {_CLEAN_WINS}{skip}", params
        ).fetchone()
        (best_rate,) = connection.execute(
            f"SELECT max(bbbv_per_s) FROM games WHERE {_CLEAN_WINS}{skip}", params
        ).fetchone()
        recent = connection.execute(
            f"SELECT time_ms FROM games WHERE {_CLEAN_WINS}{skip}"
            " ORDER BY ended_at DESC, id DESC LIMIT ?",
            (*params, RECENT_WINS),
        ).fetchall()
        best, unparsed = self._best_times(connection, group, BEST_TIMES, skip)
        *figures, bad_figures = connection.execute(
            _BEST_FIGURES.format(skip=skip), params
        ).fetchone()
        return _GroupRows(
            history=history,
            average=average,
            best_rate=best_rate,
            recent=tuple(time_ms for (time_ms,) in reversed(recent)),
            best=tuple(best),
            figures=tuple(figures),
            left_out=tuple(left_out),
            unparsed=unparsed,
            suspect="?" in history or bool(bad_figures or unparsed),
        )

    @staticmethod
    def _best_times(
        connection: sqlite3.Connection, group: Group, limit: int, skip: str = ""
    ) -> tuple[list[BestTime], int]:
        """The ``limit`` fastest clean wins, and how many were passed over because their end
        is no date (``skip`` leaves rows out as in ``_group_rows``)."""
        # The conditions are checked row by row in time order: only up to ``limit`` good rows
        # (and the damaged ones before them) are read.
        from textmines.store.stats.figures import BestTime  # see the imports above

        rows = connection.execute(
            f"SELECT ended_at, time_ms, bbbv, bbbv_per_s, id FROM games WHERE {_CLEAN_WINS}"
            f" AND {SOUND_GAME} AND {SOUND_WIN}{skip} ORDER BY time_ms, ended_at, id",
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
        from textmines.engine.metrics import STNB_CONSTANTS  # see the imports above
        from textmines.store.stats.figures import GroupStats, streaks

        found = self._group_rows(connection, group, ())
        if found.suspect:
            params = _group_params(group) * 2
            left_out = [number for (number,) in connection.execute(_DAMAGED, params)]
            found = self._group_rows(connection, group, left_out)
        # Practice games are counted apart: the streaks and counts are the player's own play.
        practice = found.history.count("p")
        history = found.history.replace("p", "")
        current, longest_win, longest_loss = streaks(history)
        average, best_rate, figures = found.average, found.best_rate, found.figures
        # Games recorded while textmines gave 9x9/10 an STNB still hold one; ms-toollib
        # measures none on that board, so neither do the best figures.
        has_stnb = (group.width, group.height, group.mines) in STNB_CONSTANTS
        lost = history.count("L") + history.count("l")
        won = history.count("W") + history.count("w")
        review, damaged_reviews = _review_figures(connection, group)
        return GroupStats(
            review=review,
            damaged_reviews=damaged_reviews,
            practice=practice,
            group=group,
            played=len(history),
            won=won,
            lost=lost,
            abandoned=len(history) - won - lost,
            assisted=sum(1 for letter in history if letter.islower()),
            current_streak=current,
            longest_winning_streak=longest_win,
            longest_losing_streak=longest_loss,
            average_winning_ms=None if average is None else float(average),
            best_times=found.best,
            best_bbbv_per_s=None if best_rate is None else float(best_rate),
            recent_winning_ms=found.recent,
            damaged=len(found.left_out) + found.unparsed,
            best_figures=tuple(
                (name, float(value))
                for name, value in zip(BEST_FIGURE_NAMES, figures, strict=True)
                if value is not None and (name != "STNB" or has_stnb)
            ),
        )
