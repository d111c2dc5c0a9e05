"""The program's entry point: ``textmines`` and ``python -m textmines``.

Garbage is collected rarely while the program starts (``textmines.collector``); the app puts
the usual collections back once its first frame is on screen.

An error that no check foresaw, before the app runs or after it (the app reports its own),
is told as the app tells one: one line, and the traceback in the crash log.
"""

from __future__ import annotations

import contextlib
import sys

from textmines import collector


def main() -> int:
    """Run the command line, starting with rare garbage collections."""
    collector.starting()
    from textmines.cli import main as run

    try:
        return run()
    except Exception as error:  # the last resort: SystemExit and Ctrl+C pass on as they are
        return _crashed(error)


def _crashed(error: Exception) -> int:
    """Write ``error`` to the crash log and say so on stderr in one line; status 1."""
    from textmines.crash import crash_message, write_crash_log
    from textmines.printable import printable
    from textmines.store.paths import default_paths

    try:
        log = default_paths().crash_log
    except Exception:  # no folder for it: the line says no details were kept
        log = None
    problem = write_crash_log(log, error) if log is not None else None
    with contextlib.suppress(OSError):
        print(printable(crash_message(error, log, problem, "")), file=sys.stderr, flush=True)
    return 1
