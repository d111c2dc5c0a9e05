"""The ``games`` table: its migrations, its columns, how times are written, and the transaction
helper that the migrations and the store share."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from typing import Final

from textmines.engine.presets import MAX_SIDE
from textmines.store.stats.errors import UnusableDatabase

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
    # 2 -> 3: the competitive numbers and the recording of each game (NULL for older games).
    (
        "ALTER TABLE games ADD COLUMN effective_clicks INTEGER",
        "ALTER TABLE games ADD COLUMN flags_placed INTEGER",
        "ALTER TABLE games ADD COLUMN rqp REAL",
        "ALTER TABLE games ADD COLUMN stnb REAL",
        "ALTER TABLE games ADD COLUMN replay BLOB",
    ),
    # 3 -> 4: daily boards: the day (YYYY-MM-DD, UTC) and whether it was a later try.
    (
        "ALTER TABLE games ADD COLUMN daily TEXT",
        "ALTER TABLE games ADD COLUMN practice INTEGER NOT NULL DEFAULT 0",
        "CREATE INDEX games_daily ON games (daily, practice, ended_at) WHERE daily IS NOT NULL",
    ),
    # 4 -> 5: the solver's review of a recorded game (textmines.engine.review), one row per
    # game reviewed; games are reviewed after they are recorded, older ones in the background.
    (
        """CREATE TABLE reviews (
            game_id INTEGER PRIMARY KEY,
            guesses INTEGER NOT NULL CHECK (guesses >= 0),
            avoidable INTEGER NOT NULL CHECK (avoidable >= 0),
            blunders INTEGER NOT NULL CHECK (blunders >= 0),
            luck REAL NOT NULL CHECK (luck BETWEEN 0 AND 1),
            forced_loss INTEGER NOT NULL CHECK (forced_loss IN (0, 1))
        )""",
    ),
    # 5 -> 6: practice is any game on a board the player had seen (a later daily try, a
    # restart, a game played on from a replay), left out of every figure of their own play:
    # the indexes that answer those figures hold the flag, so that they still cover them.
    (
        "DROP INDEX games_history",
        "CREATE INDEX games_history ON games"
        " (preset, width, height, mines, no_guess, ended_at, id, outcome, assisted, practice)",
        "DROP INDEX games_times",
        "CREATE INDEX games_times ON games"
        " (preset, width, height, mines, no_guess, outcome, assisted, practice, time_ms,"
        " ended_at)",
        "DROP INDEX games_rates",
        "CREATE INDEX games_rates ON games"
        " (preset, width, height, mines, no_guess, outcome, assisted, practice, bbbv_per_s)",
    ),
    # 6 -> 7: the review tells a forced guess from an avoidable risk by what opening the
    # certainly safe cells would have shown, and luck leaves blunders out (issue 46): every
    # game is reviewed again, in the background. A recording that cannot be reviewed (it
    # cannot be read, or it takes more than a review's budget of work) is kept here, once,
    # and never tried again.
    (
        "DELETE FROM reviews",
        """CREATE TABLE unreviewable (
            game_id INTEGER PRIMARY KEY,
            reason TEXT NOT NULL
        )""",
    ),
)
SCHEMA_VERSION: Final = len(MIGRATIONS)

#: The columns a game is written to, in the order of ``GameRecord``'s fields.
COLUMNS: Final = (
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
    "effective_clicks",
    "flags_placed",
    "rqp",
    "stnb",
    "replay",
    "daily",
    "practice",
)


#: The longest game a row may hold: ten years, as for a saved game.
MAX_TIME_MS: Final = 10 * 365 * 24 * 3600 * 1000
#: No 3BV, solved or not, exceeds the cells of the largest board.
MAX_CELLS: Final = MAX_SIDE * MAX_SIDE
#: Clicks beyond this are no game's (and stop being exact in REAL arithmetic).
MAX_COUNT: Final = 2**53
#: A figure (IOE, 3BV/s, RQP, STNB) above this is no game's: RQP, the largest, is at most
#: about 1e17 (ten years squared over one 3BV). Infinity is above it too.
MAX_FIGURE: Final = 1e18


def _numbers(columns: tuple[str, ...], high: float) -> str:
    """Each of ``columns`` a number from 0 to ``high``. SQLite orders any text or blob after
    every number, so one comparison refuses them too; a NULL makes the whole NULL."""
    listed = ", ".join(columns)
    return f"min({listed}, 0) >= 0 AND max({listed}, 0) <= {high}"


# What textmines writes in the columns the statistics read, as conditions on a row. A row
# edited by hand ('abc' in time_ms, infinity in bbbv_per_s, a NULL where the constraints were
# dropped) fails them and is left out, and counted, rather than reaching a figure as text or
# infinity. Each is true or false, never NULL; they are checked on every row a figure reads,
# so they are plain comparisons (typeof and GLOB on every row cost twice as much).
#: Every game of a group: its outcome, its help, whether it was practice and an end that
#: reads as a date (a text starting with a digit: numbers sort before any text, blobs after).
SOUND_GAME: Final = (
    "(ended_at BETWEEN '0' AND ':' AND outcome IN ('won', 'lost', 'abandoned')"
    " AND assisted IN (0, 1) AND practice IN (0, 1)) IS 1"
)
#: A win's figures: its time, 3BV, clicks, IOE, 3BV/s, RQP and STNB.
SOUND_WIN: Final = (
    "("
    + " AND ".join(
        (
            f"time_ms BETWEEN 0 AND {MAX_TIME_MS}",
            _numbers(("bbbv", "solved_bbbv"), MAX_CELLS),
            _numbers(
                ("left_clicks", "right_clicks", "chord_clicks", "coalesce(effective_clicks, 0)"),
                MAX_COUNT,
            ),
            _numbers(
                ("bbbv_per_s", "efficiency", "coalesce(rqp, 0)", "coalesce(stnb, 0)"), MAX_FIGURE
            ),
        )
    )
    + ") IS 1"
)


#: A game's review (``reviews``, read with the alias ``r``): counts no larger than the
#: largest board, a luck between 0 and 1 and a forced loss 0 or 1. The table written without
#: its CHECKs (by hand) may hold NULL, text, infinity or an integer whose sum overflows.
SOUND_REVIEW: Final = (
    "("
    + _numbers(("r.guesses", "r.avoidable", "r.blunders"), MAX_CELLS)
    + " AND r.luck BETWEEN 0 AND 1 AND r.forced_loss IN (0, 1)) IS 1"
)


def _moment(column: str) -> str:
    return (
        f"{column} GLOB"
        " '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]*'"
    )


#: The end of a game as the best times show it: checked where few rows are read, or once
#: a row is known to be damaged (reading ISO text as a date needs Python).
SOUND_ENDED: Final = _moment("ended_at")
#: A game's recording and what an exported replay file says of it.
SOUND_REPLAY: Final = (
    f"{_moment('started_at')} AND {SOUND_ENDED} AND {SOUND_GAME} AND typeof(replay) = 'blob'"
)


def utc_text(moment: datetime) -> str:
    """``moment`` in UTC as ``YYYY-MM-DDTHH:MM:SS.mmmZ`` (naive times are local, as in Python)."""
    utc = moment.astimezone(UTC)
    return utc.strftime("%Y-%m-%dT%H:%M:%S.") + f"{utc.microsecond // 1000:03d}Z"


def parse_utc(text: str) -> datetime:
    """The moment ``utc_text`` wrote, as an aware UTC datetime."""
    return datetime.fromisoformat(text).astimezone(UTC)


@contextmanager
def transaction(connection: sqlite3.Connection, begin: str) -> Iterator[sqlite3.Connection]:
    """Run the block in one transaction opened with ``begin`` (``"BEGIN"``, ``"BEGIN
    IMMEDIATE"``): committed when the block ends, rolled back if it raises.

    The connection must be in autocommit mode (``isolation_level=None``).
    """
    connection.execute(begin)
    try:
        yield connection
    except BaseException:
        with suppress(sqlite3.Error):
            connection.execute("ROLLBACK")
        raise
    connection.execute("COMMIT")


def user_version(connection: sqlite3.Connection) -> int:
    """The schema version written in the database file (0 for a new or foreign file)."""
    return int(connection.execute("PRAGMA user_version").fetchone()[0])


#: The columns of ``games`` at each schema version.
COLUMNS_AT: Final = {
    1: COLUMNS[:17],
    2: COLUMNS[:19],
    3: COLUMNS[:24],
    **dict.fromkeys(range(4, len(MIGRATIONS) + 1), COLUMNS),
}
#: What a column added later holds in a row written before it (NOT NULL columns only).
LATER_DEFAULTS: Final = {"practice": 0}


def check_before_use(connection: sqlite3.Connection, version: int) -> None:
    """Raise ``UnusableDatabase`` for a file that is no statistics database of ``version``:
    tables of another program, or a ``games`` table without every column it had then.
    Only reads."""
    if version == 0:
        if connection.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
            raise UnusableDatabase("is not a textmines statistics database")
        return
    _check_columns(connection, COLUMNS_AT.get(version, COLUMNS))


def migrate(connection: sqlite3.Connection) -> None:
    """Bring the schema to ``SCHEMA_VERSION``, all steps in one transaction.

    Raises ``UnusableDatabase`` for a file that holds tables of another program, or whose
    tables a step cannot change (an index or column missing): the transaction is rolled
    back, so the file is left as it was.
    """
    try:
        with transaction(connection, "BEGIN IMMEDIATE"):
            # Read again under the write lock: another textmines may have migrated meanwhile.
            version = user_version(connection)
            check_before_use(connection, version)
            for step in MIGRATIONS[version:]:
                for statement in step:
                    connection.execute(statement)
            connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    except sqlite3.OperationalError as error:
        if getattr(error, "sqlite_errorcode", None) != sqlite3.SQLITE_ERROR:
            raise  # busy, locked, disk full...: the file may be fine
        raise UnusableDatabase(f"cannot be brought up to date ({error})") from None


def check_schema(connection: sqlite3.Connection) -> None:
    """Raise ``UnusableDatabase`` unless the ``games`` table has every column."""
    _check_columns(connection, COLUMNS)


def _check_columns(connection: sqlite3.Connection, columns: tuple[str, ...]) -> None:
    present = {row[1] for row in connection.execute("PRAGMA table_info(games)")}
    missing = [column for column in columns if column not in present]
    if missing:
        raise UnusableDatabase(
            "is not a textmines statistics database (no column " + ", ".join(missing) + ")"
        )
