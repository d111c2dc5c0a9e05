"""``open_stats``: opening, creating or migrating ``stats.db``, and moving an unusable one aside."""

from __future__ import annotations

import errno
import os
import sqlite3
from pathlib import Path
from typing import Final

from textmines.store.paths import describe_os_error, ensure_dir, move_aside, not_regular
from textmines.store.stats.errors import UnusableDatabase
from textmines.store.stats.reasons import describe_sqlite_error, is_damage
from textmines.store.stats.schema import (
    SCHEMA_VERSION,
    check_before_use,
    check_schema,
    migrate,
    user_version,
)
from textmines.store.stats.store import StatsStore

#: How long a write waits for another program holding the database (seconds): short, as a
#: game is recorded on the UI thread; a game that waits longer is kept and written later
#: (``StatsStore.retry_pending``).
BUSY_TIMEOUT: Final = 0.25
SQLITE_MAGIC: Final = b"SQLite format 3\x00"
SQLITE_HEADER_SIZE: Final = 100
_COMPANIONS: Final = ("-wal", "-shm")
#: The files SQLite opens beside the database.
_JOURNALS: Final = (*_COMPANIONS, "-journal")


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
        raise UnusableDatabase("is not an SQLite database")
    if len(header) < SQLITE_HEADER_SIZE:
        raise UnusableDatabase("is truncated")


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


def _open(path: Path, busy_timeout: float) -> StatsStore:
    """Open and if needed create or migrate ``path``.

    Raises ``UnusableDatabase``, ``sqlite3.Error`` or ``OSError``.
    """
    _check_writable(path)
    _check_header(path)
    connection = sqlite3.connect(
        path, timeout=busy_timeout, isolation_level=None, check_same_thread=False
    )
    try:
        # Before anything writes to the file: a newer database is left exactly as it was.
        version = user_version(connection)
        if version > SCHEMA_VERSION:
            raise UnusableDatabase(
                f"was written by a newer version of textmines (schema version {version}; "
                f"this one reads up to {SCHEMA_VERSION})"
            )
        # Still only reading: a foreign file, or one whose table lacks columns, is moved aside
        # byte for byte as it was (switching to WAL rewrites the header).
        check_before_use(connection, version)
        if version < SCHEMA_VERSION:
            migrate(connection)  # one transaction: a step that fails leaves the file as it was
        check_schema(connection)
        connection.execute("PRAGMA journal_mode = WAL")
        # In WAL mode NORMAL loses nothing when the process dies (SIGKILL included) and keeps
        # the file consistent through a power cut, which may only undo the last few games;
        # FULL would add a disk flush to every game (measured 0.25-4 ms here, more on slow
        # disks) for that last bit of durability.
        connection.execute("PRAGMA synchronous = NORMAL")
    except BaseException:
        connection.close()
        raise
    return StatsStore(path, connection)


def _not_a_file(path: Path) -> str | None:
    """Why SQLite must not open ``path``: it or a file of its own beside it (a journal) is a
    FIFO, which would block the start, or a device. ``None`` if each is a file or absent."""
    for name in (path, *(path.with_name(path.name + suffix) for suffix in _JOURNALS)):
        try:
            kind = not_regular(os.stat(name).st_mode)
        except OSError:
            continue  # absent, or a problem opening reports better
        if kind is not None:
            return _not_saved(
                name, f"it is {kind}, not a regular file; move it away to keep statistics"
            )
    return None


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
    try:
        in_the_way = path.is_dir()
    except OSError as error:  # a folder that cannot be searched (permission denied)
        return None, [_not_saved(path, describe_os_error(error))]
    if in_the_way:
        return None, [_not_saved(path, "a directory is in the way")]
    blocker = _not_a_file(path)
    if blocker is not None:
        return None, [blocker]
    try:
        store = _open(path, busy_timeout)
    except UnusableDatabase as unusable:
        problem = str(unusable)
    except sqlite3.Error as error:
        if not is_damage(error):
            return None, [_not_saved(path, describe_sqlite_error(error, path))]
        problem = f"is damaged ({error})"
    except OSError as error:
        return None, [_not_saved(path, describe_os_error(error))]
    else:
        notice = store.take_pending_file()
        return store, [] if notice is None else [notice]
    return _start_afresh(path, problem, busy_timeout)


def _start_afresh(
    path: Path, problem: str, busy_timeout: float
) -> tuple[StatsStore | None, list[str]]:
    """Move the unusable ``path`` aside and open a new database in its place (``open_stats``)."""
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
    except (UnusableDatabase, sqlite3.Error, OSError) as error:
        why = describe_sqlite_error(error, path) if isinstance(error, sqlite3.Error) else str(error)
        if isinstance(error, OSError):
            why = describe_os_error(error)
        return None, [notice, _not_saved(path, why)]
