"""Closing the terminal, kill, kill -INT: the game is saved, and the process ends soon after.

``QuitSignals`` installs Python's own handlers for SIGHUP, SIGTERM and SIGINT while the app
runs, not the event loop's: the loop's run only when the loop gets round to them, which it
never did while it waited for a terminal that had gone (issue 34 item 9). A handler runs in
the main thread between any two steps of what that thread was doing, so it only arranges the
quit: the event loop saves the game (at a moment when the game is whole), the terminal driver
stops waiting for a terminal that does not read (``textmines.ui.terminal``), and a watch thread
ends the process ``EXIT_GRACE`` seconds after the save if it has not ended by then.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

from textmines.crash import write_report

#: The signals that end the game after saving it (closing the terminal, kill, kill -INT); the
#: exit status is 128 + the signal's number, as shells report it.
QUIT_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)
#: After a quit signal, once the game is saved: how long the process has to end the usual way
#: before it is ended (seconds). Closing a terminal ends textmines within 2 s, whatever the
#: event loop, a worker thread or the gone terminal are waiting for.
EXIT_GRACE = 1.5
#: After a quit signal: how long the event loop has to save the game in play (it normally
#: does at once; a move on a huge board may hold it a moment) before the process is ended
#: anyway (seconds).
SAVE_PATIENCE = 10.0


class QuitSignals:
    """The quit signals' handlers for one app.

    ``quit(signal_number)`` is called on the event loop and must call ``kept()`` once the game
    in play is saved or kept; ``in_play()`` (from the watch thread) says whether there is a
    game to wait for; ``leave()`` tells the terminal driver to stop waiting for output. Without
    ``watch`` (an app without a terminal: a test's) nothing ends the process but the app.
    """

    def __init__(
        self,
        quit: Callable[[int], None],
        in_play: Callable[[], bool],
        crash_log: Path | None,
        *,
        watch: bool = True,
    ) -> None:
        self._quit = quit
        self._in_play = in_play
        self._crash_log = crash_log
        self._watch = watch
        self._leave: Callable[[], None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        #: The handlers from before, put back by ``restore``.
        self._before: dict[int, Any] = {}
        #: The signal the app is leaving on, once one came.
        self._leaving_on: int | None = None
        self._kept = threading.Event()

    def install(self, leave: Callable[[], None] | None) -> None:
        """Handle the quit signals from now on (from the event loop's thread, the main one:
        elsewhere, as in some tests, nothing is installed)."""
        self._loop = asyncio.get_running_loop()
        self._leave = leave
        for signal_number in QUIT_SIGNALS:
            with contextlib.suppress(ValueError, OSError):
                self._before[signal_number] = signal.signal(signal_number, self._received)

    def restore(self) -> None:
        """Put the handlers from before back (the app has ended). Not after a quit signal
        with the watch on: the process is ending on that signal, and the same signal again
        (a terminal that closes sends SIGHUP, and so may whoever closed it) must not end it
        another way than with 128 + its number."""
        if self._watch and self._leaving_on is not None:
            return
        for signal_number, before in self._before.items():
            # Only our own: an app started since (a test runs two) keeps its handler.
            if signal.getsignal(signal_number) == self._received:
                with contextlib.suppress(ValueError, OSError, TypeError):
                    signal.signal(signal_number, before)
        self._loop = None

    def kept(self) -> None:
        """The game in play has been saved or kept (or there was none): the watch gives the
        process ``EXIT_GRACE`` seconds from now."""
        self._kept.set()

    def _received(self, signal_number: int, frame: FrameType | None) -> None:
        if self._leaving_on is not None:
            return  # already leaving: the process ends in time (the watch sees to it)
        loop = self._loop
        if loop is None or loop.is_closed():
            self._pass_on(signal_number, frame)  # the app has ended: not ours any more
            return
        self._leaving_on = signal_number
        if self._leave is not None:
            self._leave()
        if self._watch:
            threading.Thread(
                target=self._end_soon,
                args=(signal_number,),
                name="textmines-exit-watch",
                daemon=True,
            ).start()
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: the watch ends it
            loop.call_soon_threadsafe(self._quit, signal_number)

    def _pass_on(self, signal_number: int, frame: FrameType | None) -> None:
        """Do what the handler from before would have done with the signal."""
        before = self._before.get(signal_number, signal.SIG_DFL)
        if callable(before):
            before(signal_number, frame)
        elif before != signal.SIG_IGN:
            signal.signal(signal_number, signal.SIG_DFL)
            os.kill(os.getpid(), signal_number)

    def _end_soon(self, signal_number: int) -> None:
        """The watch, in a thread of its own: once the game is saved, the process has
        ``EXIT_GRACE`` seconds to end the usual way, then it is ended here (128 + the signal,
        as if the signal had ended it). Whatever the loop or a worker thread still waits for
        then, a terminal that is gone is not worth it."""
        began = time.monotonic()
        while not self._kept.wait(0.05):
            waited = time.monotonic() - began
            if waited >= SAVE_PATIENCE:
                break  # the loop never got to it: nothing more can be done for the game
            if waited >= EXIT_GRACE and not self._in_play():
                break  # nothing in play to wait for
        if self._kept.is_set():
            time.sleep(EXIT_GRACE)
        if self._crash_log is not None:
            write_report(self._crash_log, self._stall_report(signal_number))
        os._exit(128 + signal_number)

    def _stall_report(self, signal_number: int) -> str:
        """For the crash log: that textmines was ended after a quit signal, and where each
        thread was (what it was waiting for is the bug)."""
        name = signal.Signals(signal_number).name
        if self._kept.is_set():
            game = "after the game in play had been saved or kept"
        elif self._in_play():
            game = f"the game in play still unsaved after {SAVE_PATIENCE:g} s"
        else:
            game = "with no game in play"
        names = {thread.ident: thread.name for thread in threading.enumerate()}
        stacks = [
            f"Thread {names.get(ident, ident)}:\n{''.join(traceback.format_stack(frame))}"
            for ident, frame in sys._current_frames().items()
        ]
        return (
            f"textmines had not ended {EXIT_GRACE:g} s after {name} and was ended, {game}.\n"
            + "\n".join(stacks)
        )
