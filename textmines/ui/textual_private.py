"""Every use textmines makes of Textual's private API, in one place: why, and the test that
fails if a Textual release changes it. pyproject.toml bounds Textual to the minor release the
suite has passed on; docs/development.md says how to take a new one (run these tests first).

Reached through the functions below:

* ``App._notifications``, ``App._unnotify``, ``App._refresh_notifications``: a toast that
  replaces the last one of its kind at once, rather than a message later, and the toasts on
  screen for the tests (``tests/ui/test_toasts.py``). ``App.notify`` posts a message when
  called from another thread; from the app's own thread it must be shown at once, and
  ``App._thread_id`` says which thread that is.
* ``App._exit_renderables``: after a crash the player gets one line, not Textual's screenful
  of locals (``tests/ui/test_persistence.py``, the test of an unexpected error).
* ``textual._xterm_parser.XTermParser`` and the driver's ``_writer_thread`` queue: the
  terminal driver reads its input itself (to notice the input's end and to pause a flood)
  and bounds its writes to a terminal that no longer reads (``tests/ui/test_terminal_eof.py``,
  ``tests/ui/test_exit.py``).

Overridden in subclasses, where no wrapper can stand between (the same tests pin them):
``App._handle_exception`` (the app's one exit for an unhandled exception: save first;
``ui/app.py``), and ``LinuxDriver``'s ``_file``, ``_app``, ``_debug``,
``_sigcont_application`` and ``_must_signal_resume`` (``ui/terminal.py``), ``WebDriver``'s
``_app`` and ``_write`` (``ui/web_tab.py``: a write to a server that has gone is dropped;
``tests/web/test_serve.py``, the test of a server killed hard).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from textual._xterm_parser import XTermParser

if TYPE_CHECKING:
    from collections.abc import Iterable

    from textual.app import App
    from textual.driver import Driver
    from textual.notifications import Notification


def notifications(app: App[Any]) -> Iterable[Notification]:
    """The toasts the app holds (on screen, or waiting for the screen to show them)."""
    return app._notifications


def add_notification(app: App[Any], notification: Notification) -> None:
    """Show ``notification`` at once (call on the app's thread)."""
    app._notifications.add(notification)
    app._refresh_notifications()


def remove_notification(app: App[Any], notification: Notification, *, refresh: bool) -> None:
    """Take ``notification`` off (and redraw the toasts, with ``refresh``)."""
    app._unnotify(notification, refresh=refresh)


def on_app_thread(app: App[Any]) -> bool:
    """Whether this code runs on the app's own thread (not a worker's)."""
    return bool(app._thread_id == threading.get_ident())


def forget_exit_renderables(app: App[Any]) -> None:
    """Drop what Textual would print after the app ends (a crash's screenful)."""
    app._exit_renderables.clear()


def writer_queue(driver: Driver) -> Any:
    """The queue of the driver's writer thread, or None (another Textual, no thread)."""
    return getattr(getattr(driver, "_writer_thread", None), "_queue", None)


__all__ = [
    "XTermParser",
    "add_notification",
    "forget_exit_renderables",
    "notifications",
    "on_app_thread",
    "remove_notification",
    "writer_queue",
]
