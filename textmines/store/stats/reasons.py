"""The short reasons the player is shown for SQLite's errors on ``stats.db``."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from typing import Final

#: Below this much free space, a failed write is put down to a full disk: SQLite often
#: reports a write that ran out of room as an input/output error.
FULL_DISK_BYTES: Final = 1 << 20


_REASONS = {
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


def _primary_code(error: sqlite3.Error) -> int | None:
    # Extended result codes carry the primary code in their low byte.
    code = getattr(error, "sqlite_errorcode", None)
    return code & 0xFF if isinstance(code, int) else None


def _disk_full(path: Path | None) -> bool:
    if path is None:
        return False
    try:
        return shutil.disk_usage(path.parent).free < FULL_DISK_BYTES
    except OSError:
        return False


def describe_sqlite_error(error: sqlite3.Error, path: Path | None = None) -> str:
    """A short reason for a SQLite failure, for notices. With the database's ``path``, an
    input/output error on a disk that has no room left says that the disk is full."""
    primary = _primary_code(error)
    if primary == sqlite3.SQLITE_IOERR and _disk_full(path):
        return _REASONS[sqlite3.SQLITE_FULL]
    if primary in _REASONS:
        return _REASONS[primary]
    if isinstance(error, sqlite3.ProgrammingError):
        return "the statistics store is closed"
    return str(error) or type(error).__name__


def is_damage(error: sqlite3.Error) -> bool:
    """Whether ``error`` means the file's content is unusable (as opposed to unreachable)."""
    return _primary_code(error) in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)


def is_busy(error: sqlite3.Error) -> bool:
    """Whether ``error`` means another connection held the database too long (try later)."""
    return _primary_code(error) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
