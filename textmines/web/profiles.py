"""Every browser is its own player: the profile id in its cookie names its folder of
statistics, settings, saved game and replays (``Paths.profile``).

The id is the profile's only credential, so:

- the host issues every id, signed with a key of its own (``serve-key`` in the data folder,
  owner-only): an id it did not issue names no profile, whatever its shape; ids of older
  releases (32 hex digits, unsigned) still name the profiles they already have;
- a profile's folder is named by a hash of its id (``profile_folder_name``), and the
  profiles, their folders and files are the owner's alone (0700 and 0600: the server's umask
  is the tabs'), so another user of the machine can neither list the ids nor read a game;
- a visit that kept nothing (no game recorded, no save, no settings) leaves no folder, and
  the number of profiles and their disk use are capped: past either, the host refuses new
  players in one clear line, and players it has already play on.
"""

from __future__ import annotations

import contextlib
import hmac
import logging
import os
import secrets
import shutil
import sqlite3
from collections import Counter
from pathlib import Path

from aiohttp import web

from textmines.store.paths import (
    PROFILES_FOLDER,
    is_profile_id,
    profile_folder_name,
    read_token,
)

log = logging.getLogger("textmines.serve")

#: The cookie that names a browser's profile (``Paths.profile``), and how long a browser
#: keeps it (400 days, the most browsers allow; each visit renews it).
PROFILE_COOKIE = "textmines-profile"


PROFILE_COOKIE_SECONDS = 400 * 24 * 3600


#: A cookie beside it that says only that the browser has a profile. The profile's is
#: SameSite=Strict: a browser that follows a link from another site to the page withholds it
#: from that one request (not from the page's websocket). This one is Lax, sent then too:
#: with it, a request without the profile is not given a new one, which would replace it.
KNOWN_COOKIE = "textmines-known"


#: The file (in the data folder) of the key that signs the ids this host issues.
KEY_FILE = "serve-key"
#: Profiles a host keeps at most, unless told otherwise (a visit that kept nothing keeps none).
MAX_PROFILES = 5000
#: The disk the profiles may take at most, unless told otherwise (MB): about 25,000 players'
#: statistics of a few dozen games each.
MAX_PROFILES_MB = 1024
#: The files of a folder that hold nothing when its statistics hold no game.
_STATS_FILES = frozenset({"stats.db", "stats.db-wal", "stats.db-shm", "stats.db-journal"})


def profile_of(request: web.Request) -> str | None:
    """The profile id the request's cookie names, if it has an id's shape (anything else is
    no profile: a cookie is the browser's, and may say anything)."""
    given = request.cookies.get(PROFILE_COOKIE, "")
    return given if is_profile_id(given) else None


def give_profile(response: web.StreamResponse, profile: str) -> None:
    """The cookies that keep ``profile`` in the browser: the id, sent by the browser with
    this server's own requests alone (Strict) and read by no script (HttpOnly: the id is all
    it takes to play as that browser); and ``KNOWN_COOKIE``, which holds nothing secret."""
    for name, value, same_site in ((PROFILE_COOKIE, profile, "Strict"), (KNOWN_COOKIE, "1", "Lax")):
        response.set_cookie(
            name,
            value,
            max_age=PROFILE_COOKIE_SECONDS,
            path="/",
            httponly=True,
            samesite=same_site,
        )


def host_key(data_dir: Path) -> bytes:
    """This host's signing key, made (owner-only) the first time. ``OSError`` if it can be
    neither read nor made."""
    path = data_dir / KEY_FILE
    try:
        key = path.read_bytes()
    except FileNotFoundError:
        data_dir.mkdir(parents=True, exist_ok=True)
        key = secrets.token_bytes(32)
        try:
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # another server made it meanwhile
            return path.read_bytes()
        with os.fdopen(descriptor, "wb") as file:
            file.write(key)
    if len(key) < 16:
        raise OSError(
            f"{path} holds no key (delete it: a new one is made, and browsers get new profiles)"
        )
    return key


class Profiles:
    """The browsers' profiles of one host (see the module's docstring)."""

    def __init__(
        self,
        data_dir: Path,
        key: bytes,
        *,
        max_profiles: int = MAX_PROFILES,
        max_bytes: int = MAX_PROFILES_MB * 1024 * 1024,
    ) -> None:
        self.folder = data_dir / PROFILES_FOLDER
        self._key = key
        self.max_profiles = max_profiles
        self.max_bytes = max_bytes
        #: The bytes each kept folder takes (by name), as last weighed.
        self._sizes: dict[str, int] = {}
        self._total = 0
        #: The tabs playing in each folder now (by name): never removed while one plays.
        self._playing: Counter[str] = Counter()

    # ----------------------------------------------------------------------------- the ids

    def new_id(self) -> str:
        """A new profile's id: 128 random bits, then this host's signature of them."""
        random = secrets.token_hex(16)
        return random + self._signature(random)

    def issued(self, profile: str | None) -> bool:
        """Whether this host issued ``profile`` (an id of an older release: whether it has a
        folder here)."""
        if profile is None or not is_profile_id(profile):
            return False
        if len(profile) == 64:
            return hmac.compare_digest(profile[32:], self._signature(profile[:32]))
        return (self.folder / profile_folder_name(profile)).is_dir() or (
            self.folder / profile
        ).is_dir()

    def read_token(self, profile: str | None) -> str | None:
        """The leaderboard token kept in ``profile``'s folder (``leaderboard.seat``), when this
        host issued the profile and its player has one."""
        from textmines.leaderboard.seat import TOKEN_FILE  # the leaderboard page only

        if profile is None or not self.issued(profile):
            return None
        return read_token(self.folder / profile_folder_name(profile) / TOKEN_FILE)

    def _signature(self, random: str) -> str:
        return hmac.new(self._key, random.encode("ascii"), "sha256").hexdigest()[:32]

    # ------------------------------------------------------------------------- the folders

    def room_for(self, profile: str | None) -> str | None:
        """Why a game of ``profile`` (None: a new player) cannot be kept here, or None when
        it can: the ones already kept always can."""
        if profile is not None and profile_folder_name(profile) in self._sizes:
            return None
        if len(self._sizes) >= self.max_profiles:
            players = len(self._sizes)
            return (
                f"this server keeps the games of {players:,} player{'s'[: players != 1]}, its most"
            )
        if self._total >= self.max_bytes:
            megabytes = self._total // (1024 * 1024)
            return f"its players' games take {megabytes:,} MB, its most"
        return None

    def open(self, profile: str) -> None:
        """Make ``profile``'s folder ready for a tab (owner-only; an older release's folder,
        named by the id, takes its hashed name). ``OSError`` when it cannot be made."""
        self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        name = profile_folder_name(profile)
        folder = self.folder / name
        old = self.folder / profile
        if len(profile) == 32 and old.is_dir() and not folder.exists():
            old.rename(folder)
        folder.mkdir(mode=0o700, exist_ok=True)
        for made in (self.folder, folder):  # also when an older release made them
            made.chmod(0o700)
        self._playing[name] += 1
        self._sizes.setdefault(name, 0)

    def close(self, profile: str) -> None:
        """A tab of ``profile`` has ended: its folder goes if the visit kept nothing (and no
        other tab plays there), else it is weighed again."""
        name = profile_folder_name(profile)
        self._playing[name] -= 1
        if self._playing[name] <= 0:
            del self._playing[name]
            self._weigh(name)

    def sweep(self) -> None:
        """At start: every folder made owner-only, the empty ones removed, the others
        weighed; one line says what was found."""
        with contextlib.suppress(OSError):
            self.folder.chmod(0o700)
        try:
            names = [entry.name for entry in os.scandir(self.folder) if entry.is_dir()]
        except OSError:
            names = []
        for name in names:
            _owner_only(self.folder / name)
            self._weigh(name)
        removed = len(names) - len(self._sizes)
        if names:
            log.info(
                "textmines: %s kept (%s MB)%s",
                _players(len(self._sizes)),
                f"{self._total / (1024 * 1024):,.1f}",
                f"; {removed:,} that kept nothing removed" if removed else "",
            )

    def _weigh(self, name: str) -> None:
        folder = self.folder / name
        self._total -= self._sizes.pop(name, 0)
        if name in self._playing:
            self._sizes[name] = 0
        elif not _keeps_anything(folder):
            shutil.rmtree(folder, ignore_errors=True)
            return
        size = _size(folder)
        self._sizes[name] = size
        self._total += size


def _players(count: int) -> str:
    return f"{count:,} player's profile" if count == 1 else f"{count:,} players' profiles"


def _keeps_anything(folder: Path) -> bool:
    """Whether ``folder`` holds anything of its player's: a file besides the statistics, or
    statistics with a game. What cannot be read is kept."""
    try:
        names = {entry.name for entry in os.scandir(folder)}
    except FileNotFoundError:
        return False
    except OSError:
        return True
    if not names <= _STATS_FILES:
        return True
    if "stats.db" not in names:
        return bool(names)
    try:
        with contextlib.closing(
            sqlite3.connect(f"file:{folder / 'stats.db'}?mode=ro", uri=True, timeout=1)
        ) as database:
            return database.execute("SELECT 1 FROM games LIMIT 1").fetchone() is not None
    except sqlite3.Error:
        return True


def _size(folder: Path) -> int:
    total = 0
    for root, _dirs, files in os.walk(folder):
        for file in files:
            with contextlib.suppress(OSError):
                total += os.lstat(os.path.join(root, file)).st_size
    return total


def _owner_only(folder: Path) -> None:
    """``folder`` and what it holds: the owner's alone (an older release made them 0755 and
    0644)."""
    for root, _dirs, files in os.walk(folder):
        with contextlib.suppress(OSError):
            os.chmod(root, 0o700)
        for file in files:
            path = os.path.join(root, file)
            if not os.path.islink(path):
                with contextlib.suppress(OSError):
                    os.chmod(path, 0o600)
