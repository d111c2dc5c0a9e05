"""Where textmines keeps its files, and the file-system operations everything else needs:
creating directories, atomic writes, and moving an unusable file aside."""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from platformdirs import user_config_dir, user_data_dir

from textmines.value import Value

APP_NAME = "textmines"
#: Setting this environment variable puts every file under one directory (tests, portable use).
HOME_VARIABLE = "TEXTMINES_HOME"
#: The browser profile of a ``--tab``, as ``--serve`` gives it: in the environment, which only
#: the machine's owner can read, not on the command line, which every user can.
PROFILE_VARIABLE = "TEXTMINES_PROFILE"
#: Where a ``--tab``'s host keeps its leaderboard (its file, or its database's URL), as
#: ``--serve`` tells its tabs: the tab ranks its daily wins there (``leaderboard.seat``).
LEADERBOARD_VARIABLE = "TEXTMINES_LEADERBOARD"
#: The leaderboard entry whose replay a ``--tab`` shows first (its page's ``?watch=ID``).
WATCH_VARIABLE = "TEXTMINES_WATCH"
#: How many ``.bad`` names are tried before giving up (``x.bad``, ``x.bad-2`` ... ``x.bad-N``).
MAX_BAD_NAMES: Final = 1000
#: The folder (in the data folder) that holds a folder of each browser's profile.
PROFILES_FOLDER: Final = "profiles"
#: A profile's id: 64 lowercase hex digits (128 random bits, then the host's signature of
#: them: ``web/profiles.py``), or 32 (128 random bits: the ids of older releases), nothing
#: else. Its folder is named by a hash of it (``profile_folder_name``): the id is the
#: profile's only credential, and a folder's name is there for any local user to read.
_PROFILE_ID: Final = r"[0-9a-f]{32}(?:[0-9a-f]{32})?"  # compiled by ``re`` when first used


def is_profile_id(text: str) -> bool:
    """Whether ``text`` is shaped as a profile id (whether a host issued it is the host's
    to say)."""
    # fullmatch: `$` would let a trailing newline through.
    return re.fullmatch(_PROFILE_ID, text) is not None


def profile_folder_name(profile: str) -> str:
    """The name of the folder of the profile ``profile``: a hash of its id, from which the id
    cannot be found (the id is 128 random bits)."""
    import hashlib  # here: a game's start never needs it

    return hashlib.sha256(_checked_profile(profile).encode("ascii")).hexdigest()[:32]


class Paths(Value):
    """The directories textmines uses and the files inside them. Nothing is created here.

    With a ``profile`` (a browser's, ``--serve``), the statistics, settings, saved game and
    replays are that profile's own, in ``profile_dir``; the themes and the crash log stay the
    machine owner's. Without one, everything is the owner's, at the top of the folders.
    """

    data_dir: Path
    config_dir: Path
    profile: str | None = None

    def for_profile(self, profile: str) -> Paths:
        """The files of the browser profile ``profile``; ``ValueError`` if it is no id."""
        return self._replace(profile=_checked_profile(profile))

    @property
    def profile_dir(self) -> Path | None:
        """The profile's own folder, or None for the owner's files."""
        if self.profile is None:
            return None
        # Checked here too, where the id becomes a path: no path of a profile can point
        # outside the profiles' folder.
        return self.data_dir / PROFILES_FOLDER / profile_folder_name(self.profile)

    @property
    def _own_data(self) -> Path:
        return self.profile_dir or self.data_dir

    @property
    def stats_db(self) -> Path:
        return self._own_data / "stats.db"

    @property
    def saved_game(self) -> Path:
        return self._own_data / "saved-game.json"

    @property
    def crash_log(self) -> Path:
        """Where the details of an unexpected error go (appended, newest last): the owner's,
        profile or not, since it is the owner who can act on them."""
        return self.data_dir / "crash.log"

    @property
    def replays_dir(self) -> Path:
        """Where replays exported from the app go (.evf files)."""
        return self._own_data / "replays"

    @property
    def settings_file(self) -> Path:
        return (self.profile_dir or self.config_dir) / "settings.toml"

    @property
    def themes_dir(self) -> Path:
        """The owner's themes, for every profile too (a browser has no way to add one)."""
        return self.config_dir / "themes"


def _checked_profile(profile: str) -> str:
    if not is_profile_id(profile):
        raise ValueError(f"not a profile id: {profile[:40]!r}")
    return profile


def default_paths(environ: Mapping[str, str] = os.environ) -> Paths:
    """``$TEXTMINES_HOME`` for everything when set, else the platform's usual user directories."""
    home = environ.get(HOME_VARIABLE, "")
    if home:
        root = Path(home)
        return Paths(data_dir=root, config_dir=root)
    return Paths(
        data_dir=Path(user_data_dir(APP_NAME, appauthor=False)),
        config_dir=Path(user_config_dir(APP_NAME, appauthor=False)),
    )


def _blocking_file(path: Path) -> Path | None:
    """The nearest existing ancestor-or-self of ``path`` that is not a directory, if any."""
    for candidate in (path, *path.parents):
        if candidate.exists():
            return None if candidate.is_dir() else candidate
    return None


def ensure_dir(path: Path) -> str | None:
    """Create ``path`` and its parents; ``None`` on success, else a short reason. Never raises.

    The reason does not repeat ``path``: the caller says which directory it wanted.
    """
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        return _reason(path, error)
    return None


def _reason(path: Path, error: OSError) -> str:
    if isinstance(error, FileExistsError | NotADirectoryError):
        blocker = _blocking_file(path)
        if blocker is None or blocker == path:
            return "a file is in the way"
        return f"a file is in the way ({blocker})"
    return describe_os_error(error)


class ReadOnlyFile(PermissionError):
    """The file exists and its permissions say it must not be written."""


def refuse_read_only(path: Path) -> None:
    """Raise ``ReadOnlyFile`` if ``path`` exists without any write permission.

    ``write_atomic`` replaces a file by renaming over it, which only needs the folder to be
    writable: without this check a file the user made read-only would be replaced silently
    (and root, whom permissions do not stop, would replace it too).
    """
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return
    if stat.S_ISREG(mode) and (not mode & 0o222 or not os.access(path, os.W_OK)):
        raise ReadOnlyFile(errno.EACCES, "the file is read-only", str(path))


def describe_os_error(error: OSError) -> str:
    """A short lower-case reason for ``error``, without the file name."""
    if isinstance(error, ReadOnlyFile):
        return "the file is read-only (its permissions allow no writing)"
    if isinstance(error, NotRegularFile | FileTooLarge):
        return error.strerror or str(error)
    if isinstance(error, PermissionError):
        return "permission denied"
    if error.errno == errno.EROFS:
        return "read-only file system"
    if error.errno == errno.ENOSPC:
        return "no space left on device"
    return (error.strerror or str(error)).lower()


class NotRegularFile(OSError):
    """The path names a FIFO, a device, a socket or a directory, where a file was expected."""


class FileTooLarge(OSError):
    """The file is larger than anything textmines writes there."""


_KINDS: Final = (
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISDIR, "a directory"),
)


def not_regular(mode: int) -> str | None:
    """What a file of ``mode`` is when it is not a regular file: "a named pipe (FIFO)"..."""
    if stat.S_ISREG(mode):
        return None
    return next((kind for test, kind in _KINDS if test(mode)), "not a regular file")


def read_regular_file(path: Path, max_bytes: int) -> bytes:
    """The bytes of ``path`` (a link is followed) if it is a regular file of at most
    ``max_bytes``. Raises ``FileNotFoundError``, ``NotRegularFile``, ``FileTooLarge`` or
    another ``OSError``; their ``strerror`` says what is wrong without the path.

    Never waits and never reads without end: a FIFO opens without waiting for a writer and is
    refused before a byte is read, as is /dev/zero; at most ``max_bytes + 1`` bytes are read.
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        kind = not_regular(os.fstat(fd).st_mode)
    except BaseException:
        os.close(fd)
        raise
    if kind is not None:
        os.close(fd)
        raise NotRegularFile(errno.EINVAL, f"it is {kind}, not a regular file", str(path))
    with os.fdopen(fd, "rb") as file:
        data = file.read(max_bytes + 1)
    if len(data) > max_bytes:
        size = f"{max_bytes / 1e6:g} MB" if max_bytes >= 1e6 else f"{max_bytes:,} bytes"
        raise FileTooLarge(errno.EFBIG, f"it is larger than {size}", str(path))
    return data


def utf8_text(data: bytes) -> str:
    """``data`` as UTF-8 text, without the byte-order mark some Windows editors write first
    (Python's ``utf-8-sig`` codec does the same, but is a module of its own to load).
    Raises ``UnicodeDecodeError``."""
    return data.decode("utf-8").removeprefix("\ufeff")


#: The deepest that arrays and tables may nest in a theme file (``toml_document``): a theme
#: nests two deep. (tomllib spends frames of Python's stack on each level: about 500 levels,
#: a 1 KB file, raise RecursionError; fewer may, deep in the app's stack.)
MAX_TOML_DEPTH: Final = 20


class BeyondTOMLLimits(ValueError):
    """TOML that textmines does not read, valid or not: nested too deeply, or a number of
    more digits than Python converts. The message says which, without the file's name."""


def toml_document(text: str, max_depth: int | None = MAX_TOML_DEPTH) -> dict[str, Any]:
    """``text`` parsed as TOML. Raises ``tomllib.TOMLDecodeError`` for text that is not TOML,
    and ``BeyondTOMLLimits`` for what tomllib cannot take (nesting that exhausts Python's
    stack, a whole number of more than 4,300 digits: RecursionError, ValueError) and for
    arrays or tables nested more than ``max_depth`` deep (None: as deep as tomllib takes)."""
    import tomllib  # loaded by the settings at every start: this costs nothing more

    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        raise
    except RecursionError:
        raise BeyondTOMLLimits(_too_deep()) from None
    except ValueError as error:  # int() past sys.get_int_max_str_digits(), as far as known
        if "digits" not in str(error):
            raise BeyondTOMLLimits(f"tomllib cannot read it ({error})") from None
        raise BeyondTOMLLimits(
            f"it holds a whole number of more than {sys.get_int_max_str_digits():,} digits, "
            "and no value is a number that long"
        ) from None
    if max_depth is not None and _depth(document, max_depth) > max_depth:
        # Parsed, but what reads it next (a repr in a message, deep in the app's stack) would
        # recurse as deep.
        raise BeyondTOMLLimits(_too_deep(max_depth))
    return document


def _too_deep(max_depth: int | None = None) -> str:
    if max_depth is None:
        return "it nests arrays or tables too deeply for Python's stack, and no value does"
    return f"it nests arrays or tables more than {max_depth} deep, and no value does"


def _depth(document: dict[str, Any], enough: int) -> int:
    """How deep arrays and tables nest in ``document`` (1: none in it), counted without
    recursion and only until past ``enough``."""
    deepest = 0
    stack: list[tuple[dict[str, Any] | list[Any], int]] = [(document, 1)]
    while stack and deepest <= enough:
        value, depth = stack.pop()
        deepest = max(deepest, depth)
        items = value.values() if isinstance(value, dict) else value
        stack.extend((item, depth + 1) for item in items if isinstance(item, dict | list))
    return deepest


def read_token(path: Path) -> str | None:
    """The token kept in the file ``path`` (a host's, a leaderboard's), or None when there
    is none to read: no file, an unreadable one, or one that holds no ASCII text."""
    try:
        return path.read_text(encoding="ascii").strip() or None
    except (OSError, UnicodeDecodeError):
        return None


def write_atomic(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` so that a crash leaves either the old or the new file.

    The data goes to a temporary file in the same directory (so the rename cannot cross file
    systems), is flushed to disk, then renamed over ``path``. Raises ``OSError`` on failure and
    leaves no temporary file behind.
    """
    fd, temp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as temp:
            temp.write(data)
            temp.flush()
            os.fsync(temp.fileno())
        # mkstemp makes the file owner-only; keep whatever mode the old file had.
        with contextlib.suppress(OSError):
            os.chmod(temp_name, os.stat(path).st_mode & 0o777)
        os.replace(temp_name, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp_name)
        raise
    _sync_directory(path.parent)


def _sync_directory(directory: Path) -> None:
    """Make the rename itself durable where the platform allows it (best effort)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _bad_name(path: Path, number: int) -> Path:
    suffix = ".bad" if number == 1 else f".bad-{number}"
    return path.with_name(path.name + suffix)


def _rename_no_replace(source: Path, target: Path) -> None:
    """Rename ``source`` to ``target``; raise ``FileExistsError`` rather than replace a file.

    A hard link then an unlink cannot replace anything; file systems without hard links fall
    back to a checked rename.
    """
    try:
        os.link(source, target)
    except FileExistsError:
        raise
    except OSError as error:
        if error.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV):
            raise
        if target.exists():
            raise FileExistsError(errno.EEXIST, "file exists", str(target)) from None
        os.rename(source, target)
        return
    os.unlink(source)


def move_aside(path: Path, companions: tuple[str, ...] = ()) -> Path:
    """Rename ``path`` to the first free ``path.bad``, ``path.bad-2``, ... and return that name.

    ``companions`` are suffixes of files that belong with ``path`` (SQLite's ``-wal`` and
    ``-shm``); those that exist follow it under the new name. An existing ``.bad`` file is never
    replaced. Raises ``OSError`` if the file cannot be moved.
    """
    for number in range(1, MAX_BAD_NAMES + 1):
        target = _bad_name(path, number)
        names = [target.with_name(target.name + suffix) for suffix in ("", *companions)]
        if any(os.path.lexists(name) for name in names):
            continue
        try:
            _rename_no_replace(path, target)
        except FileExistsError:
            continue
        for suffix in companions:
            source = path.with_name(path.name + suffix)
            if os.path.lexists(source):
                _rename_no_replace(source, target.with_name(target.name + suffix))
        return target
    raise OSError(errno.EEXIST, f"{MAX_BAD_NAMES} older .bad files are in the way", str(path))
