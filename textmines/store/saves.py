"""The game in progress, saved as JSON so that quitting and coming back resumes it.

The file holds the game (``game_to_dict``) and a small dict of UI data (``extra``) such as when
the game started, whether the player used help, and the preset. It is always replaced
atomically: a crash while saving leaves the previous save or the new one, never half a file.

Nothing here raises for a file-system problem: each function returns a notice for the player
instead. A save that cannot be resumed is moved aside (never deleted) and the notice says where.

Two textmines at once
    Each game has an id in its save (``extra["game_id"]``). ``save_own_game`` writes a game
    to the save file only if that file is free or holds the same game; otherwise the game
    waits in a file of its own beside it (``saved-game-<id>.json``), so that neither game is
    lost. ``load_game`` resumes the save file, or, when there is none, the oldest waiting
    game; while a textmines plays a saved game it holds a claim on it (``locks.claim``),
    and a second textmines starts a new game instead of playing the same one.
"""

from __future__ import annotations

import contextlib
import os
import stat
import time
import uuid
from collections.abc import Callable, Mapping
from datetime import UTC, date, datetime
from functools import partial
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

from textmines.engine.clock import Clock
from textmines.engine.game import Game
from textmines.store import locks
from textmines.store.paths import (
    FileTooLarge,
    NotRegularFile,
    describe_os_error,
    ensure_dir,
    move_aside,
    not_regular,
    read_regular_file,
    write_atomic,
)
from textmines.value import Value

SAVE_FILE_FORMAT: Final = "textmines-saved-game"
SAVE_FILE_VERSION: Final = 1
#: Temporary files left by a save that was killed half-way are removed once this old (seconds).
STALE_TEMP_AGE: Final = 3600.0
#: The key of ``extra`` that names the game a save holds.
GAME_ID_KEY: Final = "game_id"
#: Given to the player whose saved game another textmines is playing.
IN_USE_NOTICE: Final = (
    "Your saved game is open in another textmines, so this one starts a new game; "
    "each is saved on its own when you quit."
)


class LoadedGame(Value):
    """A saved game ready to be played on, with the UI data saved beside it.

    ``started_at`` lets a resumed game keep the start time of its single statistics record.
    ``extra`` is the whole dict given to ``save_game`` (datetimes come back as ISO strings).
    """

    game: Game
    started_at: datetime | None = None
    assisted: bool = False
    preset: str | None = None
    saved_at: datetime | None = None
    extra: Mapping[str, Any] = MappingProxyType({})
    #: Which game this is (``new_game_id``; older saves get one from their save time).
    game_id: str = ""
    #: The board was restarted: its win sets no record (``GameSession.restarted``).
    restarted: bool = False
    #: The day whose daily board this is, if it is one, and whether it is a later try.
    daily: date | None = None
    practice: bool = False
    #: Nobody chose its mines: a new game dealt at random, no seed given
    #: (``GameSession.dealt_at_random``).
    dealt_at_random: bool = False


def new_game_id() -> str:
    """A fresh game id: no two games share one."""
    return uuid.uuid4().hex


def _game_id(document: object) -> str:
    """The id of the game in a save document; saves from before ids had none, and take one
    from their save time (which stays the same however often the file is read)."""
    if isinstance(document, dict):
        extra = document.get("extra")
        found = extra.get(GAME_ID_KEY) if isinstance(extra, dict) else None
        if isinstance(found, str) and found:
            return found
        return f"saved-at:{document.get('saved_at')}"
    return "?"


def waiting_path(path: Path, game_id: str) -> Path:
    """Where a game waits while ``path`` holds another game: ``saved-game-<hash>.json``."""
    import hashlib  # here: only a save that finds another game's file needs it, not the start

    digest = hashlib.sha256(game_id.encode("utf-8")).hexdigest()[:16]
    return path.with_name(f"{path.stem}-{digest}{path.suffix}")


#: The largest save read. The largest board's (1000x1000) holds its layout and view, 2 MB,
#: and its actions at about 25 bytes each: a million of them fit, with room to spare.
MAX_SAVE_BYTES: Final = 64_000_000
#: The range of dates a save may hold, and the longest game time (ten years).
EARLIEST: Final = datetime(2000, 1, 1, tzinfo=UTC)
LATEST: Final = datetime(9000, 1, 1, tzinfo=UTC)
LONGEST_GAME_MS: Final = 10 * 365 * 24 * 3600 * 1000


class _Unusable(Exception):
    """The save file exists but cannot be resumed; the message says why."""


# ---------------------------------------------------------------------------- saving
def _json_default(value: object) -> str:
    if isinstance(value, datetime):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} cannot be saved in a game file")


def _game_dict(game: Game) -> dict[str, Any]:
    # The engine's serialisation loads with the first save, not with every start.
    from textmines.engine.saved_game import game_to_dict

    return game_to_dict(game)


def save_game(
    path: Path, game: Game, extra: Mapping[str, Any] | None = None, *, now: datetime | None = None
) -> str | None:
    """Write ``game`` and ``extra`` to ``path`` atomically; ``None``, or a notice on failure.

    ``extra`` must hold JSON values or datetimes (saved as ISO text). Known keys:
    ``started_at`` (datetime), ``assisted``, ``restarted`` and ``practice`` (bool), ``daily``
    (ISO date), ``preset`` (str). A finished game is not
    saved: that is a programming error and raises ``ValueError``, as does an ``extra`` that
    cannot be written as JSON.
    """
    if game.status.is_over:
        raise ValueError(f"a {game.status} game is over and is not saved")
    import json  # here, as in _holder and _parse: a start without a saved game needs none

    moment = (now or datetime.now(UTC)).astimezone(UTC)
    document = {
        "format": SAVE_FILE_FORMAT,
        "version": SAVE_FILE_VERSION,
        "saved_at": moment.isoformat(),
        "game": _game_dict(game),
        "extra": dict(extra or {}),
    }
    try:
        text = json.dumps(document, default=_json_default, separators=(",", ":"))
    except (TypeError, ValueError) as error:
        raise ValueError(f"the saved game cannot be written as JSON: {error}") from None
    reason = ensure_dir(path.parent)
    if reason is not None:
        return f"Game not saved: cannot create {path.parent}: {reason}"
    try:
        write_atomic(path, text.encode("utf-8"))
    except OSError as error:
        return f"Game not saved: {path}: {describe_os_error(error)}"
    return None


def _holder(path: Path) -> str | None:
    """The id of the game saved in ``path``: None when there is no file, ``"?"`` when it
    cannot be told (an unreadable or damaged file is never taken to be ours)."""
    try:
        raw = read_regular_file(path, MAX_SAVE_BYTES)
    except FileNotFoundError:
        return None
    except OSError:
        return "?"
    import json  # here: see save_game

    try:
        return _game_id(json.loads(raw.decode("utf-8")))
    except (ValueError, RecursionError):
        return "?"


def save_own_game(
    path: Path,
    game: Game,
    extra: Mapping[str, Any],
    game_id: str,
    *,
    now: datetime | None = None,
) -> tuple[Path, str | None]:
    """Save the game ``game_id`` at ``path``, or beside it if ``path`` holds another game.

    Returns where it went and ``None``, or a notice on failure (as ``save_game``). Another
    textmines saving at the same moment waits for this one, so neither overwrites the other.
    The game saved is claimed for this process, as a loaded one is: a textmines that saves
    and plays on (a browser's tab does) is not joined by another playing the same game.
    """
    reason = ensure_dir(path.parent)
    if reason is not None:
        return path, f"Game not saved: cannot create {path.parent}: {reason}"
    with locks.held(path):
        holder = _holder(path)
        target = path if holder is None or holder == game_id else waiting_path(path, game_id)
        notice = save_game(target, game, {**extra, GAME_ID_KEY: game_id}, now=now)
        if notice is None:
            locks.claim(target)
        return target, notice


#: Why a game went beside the save file, when another textmines's game was in it.
SAVED_BESIDE_ANOTHER: Final = (
    "Another textmines saved its game first: this one is kept beside it and comes back when "
    "you start textmines with no other game saved."
)


def beside_notice(path: Path) -> str:
    """What to tell the player whose game ``save_own_game`` saved beside ``path``: another
    textmines's game is in it, or something that is no saved game (a folder, a FIFO) is in
    its way, and the game waits until that is gone (``load_game`` reads no game from it and
    puts none in its place)."""
    try:
        kind = not_regular(os.stat(path).st_mode)
    except OSError:
        kind = None
    if kind is None:
        return SAVED_BESIDE_ANOTHER
    return (
        f"{path} is {kind}, not a saved game: this game was saved beside it, and comes back "
        "when you start textmines once that is removed or moved away."
    )


def discard_own_save(path: Path, game_id: str) -> str | None:
    """Remove the save of the game ``game_id`` at ``path`` (once its game is over or
    recorded) and give up this process's claim on it; a file that now holds another game
    is left alone. A notice on failure."""
    try:
        with locks.held(path):
            if _holder(path) in (None, game_id):
                return discard_save(path)
            return None
    finally:
        locks.release(path)


def release_save(path: Path) -> None:
    """This process will not play the game saved at ``path``: another textmines may."""
    locks.release(path)


# ---------------------------------------------------------------------------- loading
def _beside(path: Path, wanted: Callable[[str], bool]) -> list[Path]:
    """The files in ``path``'s folder whose names are ``wanted`` (a listing of the folder: a
    glob pattern would be compiled for it, at every start). Raises ``OSError``."""
    with os.scandir(path.parent) as entries:
        return [path.parent / entry.name for entry in entries if wanted(entry.name)]


def _is_waiting(path: Path, name: str) -> bool:
    """Whether ``name`` is a game waiting beside ``path``: ``save-<id>.json``."""
    head, tail = f"{path.stem}-", path.suffix
    return name.startswith(head) and name.endswith(tail) and len(name) >= len(head) + len(tail)


def _is_temp(path: Path, name: str) -> bool:
    """Whether ``name`` is a temporary file of a save of ``path`` or of a game waiting beside
    it: ``.save<anything>.json.<anything>.tmp``."""
    head, tail = f".{path.stem}", ".tmp"
    if not (name.startswith(head) and name.endswith(tail)):
        return False
    return f"{path.suffix}." in name[len(head) : len(name) - len(tail)]


def _waiting_saves(path: Path) -> list[Path]:
    """The games waiting beside ``path``, oldest first."""
    found: list[tuple[float, str, Path]] = []
    with contextlib.suppress(OSError):
        for candidate in _beside(path, partial(_is_waiting, path)):
            with contextlib.suppress(OSError):
                info = candidate.stat()
                # A FIFO or a device of that name is none of ours: it would block reading.
                if stat.S_ISREG(info.st_mode):
                    found.append((info.st_mtime, candidate.name, candidate))
    return [candidate for _, _, candidate in sorted(found)]


def _promote_waiting(path: Path) -> int:
    """With no game at ``path``, the oldest waiting game moves there, unless another
    textmines plays it on (it saved it and went on: ``save_own_game``). Returns how many
    games still wait."""
    waiting = _waiting_saves(path)
    free = [candidate for candidate in waiting if not locks.claimed_elsewhere(candidate)]
    if free and not path.exists():
        with contextlib.suppress(OSError):
            free[0].rename(path)
            waiting.remove(free[0])
    return len(waiting)


def _moment(value: object, key: str) -> datetime | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise _Unusable(f"{key!r} must be a date and time, not {value!r}")
    try:
        moment = datetime.fromisoformat(value)
        # Naive times were never written by textmines; read them as UTC rather than fail.
        moment = moment.astimezone(UTC) if moment.tzinfo else moment.replace(tzinfo=UTC)
    except (ValueError, OverflowError):
        raise _Unusable(f"{key!r} is not a date and time: {value!r}") from None
    if not EARLIEST <= moment <= LATEST:
        # Game times are computed from it: a moment near the ends of the calendar overflows.
        raise _Unusable(f"{key!r} must be between 2000 and 9000, not {value!r}")
    return moment


def _parse(raw: bytes, clock: Clock) -> LoadedGame:
    import json  # here: see save_game

    try:
        document = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise _Unusable("it is not UTF-8 text") from None
    except (ValueError, RecursionError) as error:  # nesting or digits beyond Python's limits
        reason = "it nests too deeply" if isinstance(error, RecursionError) else str(error)
        raise _Unusable(f"it is not valid JSON: {reason}") from None
    if not isinstance(document, dict) or document.get("format") != SAVE_FILE_FORMAT:
        raise _Unusable("it is not a textmines saved game")
    version = document.get("version")
    if version != SAVE_FILE_VERSION:
        raise _Unusable(
            f"it has version {version!r}; this version of textmines reads {SAVE_FILE_VERSION}"
        )
    extra = document.get("extra", {})
    if not isinstance(extra, dict):
        raise _Unusable("'extra' must be a JSON object")
    assisted, restarted, practice, dealt_at_random = (
        _flag(extra, key) for key in ("assisted", "restarted", "practice", "dealt_at_random")
    )
    daily = _day(extra.get("daily"))
    preset = extra.get("preset")
    if preset is not None and not isinstance(preset, str):
        raise _Unusable(f"'preset' must be text, not {preset!r}")
    started_at = _moment(extra.get("started_at"), "started_at")
    saved_at = _moment(document.get("saved_at"), "saved_at")
    game_data = document.get("game")
    elapsed = game_data.get("elapsed_ms") if isinstance(game_data, dict) else None
    if isinstance(elapsed, int) and not 0 <= elapsed <= LONGEST_GAME_MS:
        raise _Unusable(f"'elapsed_ms' must be between 0 and {LONGEST_GAME_MS}, not {elapsed}")
    try:
        from textmines.engine.saved_game import game_from_dict  # with a saved game only

        game = game_from_dict(game_data, clock=clock)
    except (ValueError, TypeError, OverflowError, RecursionError) as error:
        raise _Unusable(str(error) or type(error).__name__) from None
    if game.status.is_over:
        raise _Unusable("the game in it is already over")
    return LoadedGame(
        game,
        started_at,
        assisted,
        preset,
        saved_at,
        extra,
        _game_id(document),
        restarted,
        daily,
        practice,
        dealt_at_random,
    )


def _flag(extra: dict[str, Any], key: str) -> bool:
    value = extra.get(key, False)
    if not isinstance(value, bool):
        raise _Unusable(f"{key!r} must be true or false, not {value!r}")
    return value


def _day(value: object) -> date | None:
    if value is None:
        return None
    try:
        if isinstance(value, str):
            return date.fromisoformat(value)
    except ValueError:
        pass
    raise _Unusable(f"'daily' must be a date such as 2026-11-24, not {value!r}")


def _remove_stale_temps(path: Path) -> None:
    """Delete temporary files that a killed save left behind (best effort, old ones only)."""
    cutoff = time.time() - STALE_TEMP_AGE
    with contextlib.suppress(OSError):
        # The save's own temporary files and those of the games waiting beside it.
        for temp in _beside(path, partial(_is_temp, path)):
            with contextlib.suppress(OSError):
                if temp.stat().st_mtime < cutoff:
                    temp.unlink()


def load_game(path: Path, clock: Clock = time.monotonic) -> tuple[LoadedGame | None, str | None]:
    """Read the saved game at ``path``: ``(game, None)``, ``(None, None)`` or ``(None, notice)``.

    No file gives ``(None, None)``. A file that cannot be read is left in place and reported. A
    file that cannot be resumed (not JSON, not a textmines save, another version, a game that
    does not replay) is moved to ``path.bad`` (or ``.bad-2``, ... if that exists) and the notice
    says so and where it went. The game's clock restarts from the saved time, now.

    Without a file at ``path``, the oldest game waiting beside it (``save_own_game``) takes
    its place. A game returned is claimed for this process (``discard_own_save`` or
    ``release_save`` give it up); one that another textmines is playing gives
    ``(None, IN_USE_NOTICE)``.
    """
    _remove_stale_temps(path)
    with locks.held(path):
        waiting = _promote_waiting(path)
    if not locks.claim(path):
        return None, IN_USE_NOTICE
    loaded, notice = _read(path, clock)
    if loaded is None:
        locks.release(path)
    elif waiting:
        games = "1 more saved game" if waiting == 1 else f"{waiting} more saved games"
        notice = (
            f"{games} (left by another textmines running at the same time) kept beside this "
            "one: the oldest comes back when you start textmines with no other game saved."
        )
    return loaded, notice


def _contents(path: Path) -> bytes:
    """The bytes of the save at ``path``; one larger than any save is ``_Unusable``."""
    try:
        return read_regular_file(path, MAX_SAVE_BYTES)
    except FileTooLarge as error:
        raise _Unusable(f"{error.strerror}, more than any saved game") from None


def _read(path: Path, clock: Clock) -> tuple[LoadedGame | None, str | None]:
    """``load_game`` once the file to read is known."""
    try:
        return _parse(_contents(path), clock), None
    except FileNotFoundError:
        return None, None
    except NotRegularFile as error:
        # A FIFO would block the start, /dev/zero never end: refused before reading. Not a
        # game of the player's, so left where it is; saving goes to a file beside it.
        return None, (
            f"Saved game {path} could not be read: {error.strerror}. Games are saved beside "
            "it until you remove it or move it away."
        )
    except OSError as error:
        return None, f"Saved game {path} could not be read: {describe_os_error(error)}"
    except _Unusable as problem:
        try:
            moved = move_aside(path)
        except OSError as error:
            return None, (
                f"Saved game {path} could not be resumed ({problem}) "
                f"and could not be moved aside: {describe_os_error(error)}"
            )
        return None, f"Saved game {path} could not be resumed ({problem}); it was moved to {moved}"


def discard_save(path: Path) -> str | None:
    """Remove the save once it has been resumed or its game has ended; a notice on failure."""
    try:
        path.unlink(missing_ok=True)
    except OSError as error:
        return f"Saved game {path} could not be removed: {describe_os_error(error)}"
    return None
