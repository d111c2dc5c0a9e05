"""Advisory file locks between textmines processes (``flock``; none on Windows).

Two kinds, each on a hidden file beside the file it guards:

* ``held(path)``: a short exclusive lock around a read-then-write of ``path``, so that two
  processes never both decide they may write it;
* ``claim(path)``: held by the process that plays the game saved in ``path`` until it lets
  it go (``release``) or ends, so that a second textmines does not resume the same game.
  The operating system drops a claim when its process dies, SIGKILL included.

Locks are best effort: where the lock file cannot be created (a read-only folder, say) the
work goes ahead unguarded, and fails, if it must, on the file itself with a clear notice.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Final

if sys.platform != "win32":
    import fcntl

#: How long ``held`` waits for another process's short lock before going ahead without it.
LOCK_WAIT: Final = 2.0
_POLL: Final = 0.01

#: The claims this process holds: the guarded file's absolute path -> the lock file's fd.
_claims: dict[str, int] = {}


def _lock_file(path: Path, kind: str) -> Path:
    return path.with_name(f".{path.name}.{kind}")


def _try_lock(fd: int) -> bool:
    if sys.platform == "win32":
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    except OSError:
        return True  # a file system without locks: go ahead unguarded
    return True


def _open_lock(path: Path, kind: str) -> int | None:
    try:
        return os.open(_lock_file(path, kind), os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        return None


@contextlib.contextmanager
def held(path: Path, wait: float = LOCK_WAIT) -> Iterator[None]:
    """Hold the short lock of ``path`` for the block (waiting up to ``wait`` seconds for
    another process to finish; after that, or without a lock file, the block runs anyway)."""
    fd = _open_lock(path, "lock")
    if fd is None:
        yield
        return
    try:
        deadline = time.monotonic() + wait
        while not _try_lock(fd) and time.monotonic() < deadline:
            time.sleep(_POLL)
        yield
    finally:
        os.close(fd)  # closing drops the lock


def claim(path: Path) -> bool:
    """Claim ``path`` for this process: False if another process holds its claim.

    Claiming again what this process holds is True (one process plays one saved game).
    """
    key = str(path.absolute())
    if key in _claims:
        return True
    fd = _open_lock(path, "in-use")
    if fd is None:
        return True
    if not _try_lock(fd):
        os.close(fd)
        return False
    _claims[key] = fd
    return True


def claimed_elsewhere(path: Path) -> bool:
    """Whether another process holds its claim on ``path`` (asked without claiming it)."""
    if str(path.absolute()) in _claims:
        return False
    fd = _open_lock(path, "in-use")
    if fd is None:
        return False
    try:
        return not _try_lock(fd)
    finally:
        os.close(fd)  # closing drops the lock, if this took it


def release(path: Path) -> None:
    """Let another process claim ``path`` (nothing if this process does not hold it)."""
    fd = _claims.pop(str(path.absolute()), None)
    if fd is not None:
        os.close(fd)
