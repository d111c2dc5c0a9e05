"""Who the ``--serve`` host answers: requests that name it by one of its own names, websockets
from its own page; and a log that says each refusal but sums a flood of them up."""

from __future__ import annotations

import ipaddress
import logging
import socket
import time
from collections.abc import Callable
from urllib.parse import urlsplit

from aiohttp.http_exceptions import HttpProcessingError

log = logging.getLogger("textmines.serve")


#: Seconds between two lines about refused connections (a flood prints a count, not a flood).
REFUSAL_LOG_SECONDS = 5.0


class _EveryFewSeconds:
    """Lets one thing through every ``REFUSAL_LOG_SECONDS``, counting the ones held back."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self._clock = clock
        self._last = -REFUSAL_LOG_SECONDS
        self._quiet = 0

    def passes(self) -> int | None:
        """None: held back (counted); else it passes, and how many were held back since the
        last one that passed."""
        now = self._clock()
        if now - self._last < REFUSAL_LOG_SECONDS:
            self._quiet += 1
            return None
        held, self._last, self._quiet = self._quiet, now, 0
        return held


class RefusalLog:
    """Says each refused connection, but a flood of them as one line every few seconds."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._lines = _EveryFewSeconds(clock)

    def note(self, text: str) -> None:
        held = self._lines.passes()
        if held is None:
            return
        more = f" (and {held} more refused since the last line)" if held else ""
        log.warning("textmines: %s%s", text, more)


class FloodGuard(logging.Filter):
    """For aiohttp's and asyncio's loggers: what a client got wrong is a refusal, not an error
    (a request the parser refuses: no Host, an 8 KB URL, 500 headers; a connection that could
    not be accepted), one line in ``refusals`` with a flood summed up; any other error keeps
    its traceback, but one every few seconds at most, with a count of the ones left out."""

    def __init__(self, refusals: RefusalLog, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self._refusals = refusals
        self._errors = _EveryFewSeconds(clock)

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        said = record.getMessage()
        if isinstance(error, HttpProcessingError):
            where = said.removeprefix("Error handling request").strip()
            self._refusals.note(f"refused a malformed request {where}: {_reason(error)}".strip())
            return False
        if said.startswith("socket.accept() out of system resource"):
            self._refusals.note(f"could not accept a connection: {_reason(error)}")
            return False
        if record.levelno < logging.ERROR:
            return True
        held = self._errors.passes()
        if held is None:
            return False
        if held:
            record.msg = f"{record.msg} (and {held} more errors since the last one)"
        return True


def _reason(error: BaseException | None) -> str:
    """What was wrong, in a few words: the parser's message without the bytes it quotes."""
    if error is None:
        return "no reason given"
    text = getattr(error, "message", None) or str(error) or type(error).__name__
    return str(text).strip().split(": ", 1)[0][:120]


# ------------------------------------------------------------------ who may ask, from where


def host_names(host: str) -> frozenset[str]:
    """The names (as well as any address) a request may call this server by: ``localhost``,
    this machine's name (and its ``.local`` form), and ``host`` if it is a name."""
    names = {"localhost"}
    machine = socket.gethostname().lower().rstrip(".")
    if machine:
        names.add(machine)
        if "." not in machine:
            names.add(f"{machine}.local")
    if not _is_address(host):
        names.add(host.lower().rstrip("."))
    return frozenset(names)


def host_allowed(header: str, names: frozenset[str]) -> bool:
    """Whether a request's Host header names this server: an address (a rebinding site can
    only ever send its own name), or one of ``names``."""
    try:
        parts = urlsplit(f"//{header}")
        _ = parts.port  # a port that is not a number raises
    except ValueError:
        return False
    if parts.hostname is None or parts.path or parts.query or parts.fragment:
        return False
    if "@" in parts.netloc:
        return False
    return _is_address(parts.hostname) or parts.hostname.rstrip(".") in names


def same_origin(origin: str | None, host: str) -> bool:
    """Whether a browser's ``Origin`` is the page this server sent for ``host`` (a browser
    always sends it with a websocket; any other program is not a page)."""
    if origin is None:
        return False
    host = host.lower()
    return origin.lower() in (f"http://{host}", f"https://{host}")


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return False
    return True
