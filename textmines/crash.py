"""What happens when something goes wrong that nobody expected: the details go to a file.

The player sees one short line saying that the game was saved and where the details are; the
traceback, which means nothing to a player but everything to a bug report, goes to the crash
log. Textual-free, so the command line and the app share it.
"""

from __future__ import annotations

import platform
import traceback
from datetime import UTC, datetime
from pathlib import Path

from textmines import __version__
from textmines.store.paths import describe_os_error, ensure_dir


def write_crash_log(path: Path, error: BaseException, *, now: datetime | None = None) -> str | None:
    """Append ``error``'s traceback, the time and the versions to ``path``.

    Returns ``None`` when written, else a short reason. Never raises: a crash report that
    crashes would hide the first error.
    """
    return write_report(path, "".join(traceback.format_exception(error)), now=now)


def write_report(path: Path, details: str, *, now: datetime | None = None) -> str | None:
    """Append ``details`` (a traceback, or where each thread was when textmines had to be
    ended) to the crash log ``path``, under the time and the versions. ``None`` when written,
    else a short reason; never raises."""
    moment = (now or datetime.now(UTC)).isoformat(timespec="seconds")
    entry = (
        f"=== {moment} textmines {__version__}, Python {platform.python_version()}, "
        f"{platform.platform()}\n{details.rstrip()}\n\n"
    )
    reason = ensure_dir(path.parent)
    if reason is not None:
        return reason
    try:
        with path.open("a", encoding="utf-8") as log:
            log.write(entry)
    except OSError as os_error:
        return describe_os_error(os_error)
    return None


def crash_message(
    error: BaseException,
    log: Path | None,
    log_problem: str | None,
    saved: str,
    *,
    public: bool = False,
) -> str:
    """The line the player reads after a crash: what happened, the game (``saved``; "" to
    say nothing of it), where the details are. ``public``: the player is a browser's on a
    host, who is not the host's owner: neither the error's words nor the log's path (the
    owner's folders) are theirs to read."""
    what = f"textmines stopped on an unexpected error ({_error_words(error, public)})."
    where = _where_details(log, log_problem, public) or "The details were not written anywhere."
    return " ".join(part for part in (what, saved, where) if part)


def _error_words(error: BaseException, public: bool) -> str:
    return type(error).__name__ if public else f"{type(error).__name__}: {error}"


def _where_details(log: Path | None, log_problem: str | None, public: bool) -> str | None:
    """Where an error's details went: ``log``, or why not (``log_problem``); None: no log."""
    if log is None:
        return None
    if public:
        kept = "are in" if log_problem is None else "could not be written to"
        return f"The details {kept} the host's crash log: tell whoever runs this server."
    if log_problem is not None:
        return f"The details could not be written to {log} ({log_problem})."
    return f"Details: {log} (please attach it to a bug report)."


def background_failure_message(
    what: str, error: BaseException, log: Path | None, *, public: bool = False
) -> str:
    """The toast after a background job (``what``, "" if unknown) failed: the error is written
    to ``log`` (if any) and the player told where (``public``: as ``crash_message``); the game
    plays on."""
    problem = write_crash_log(log, error) if log is not None else None
    where = _where_details(log, problem, public)
    return (
        f"{what or 'A background job'} failed ({_error_words(error, public)}); the game "
        f"plays on." + (f" {where}" if where else "")
    )
