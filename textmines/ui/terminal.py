"""The terminal driver: Textual's own (``LinuxDriver``), made safe for a terminal that goes away.

Textual draws through a writer thread fed by a queue of 30 writes. Three things in how that
works kept textmines running after its terminal had closed (issue 34, item 9):

* When a terminal hangs up, the kernel sends SIGCONT along with SIGHUP. Textual takes every
  SIGCONT for the end of a Ctrl+Z and starts application mode again: a second writer thread
  on a terminal that is gone. Its first write fails, the thread dies, the next writes fill
  its queue, and the event loop waits on it for ever: the SIGHUP that would save the game and
  quit is never handled.
* Any failed write (EIO from a terminal that hung up, EPIPE from a closed pipe) ends the
  writer thread in the same way.
* A terminal or a pipe that stops reading (output nobody reads, a frozen terminal) blocks the
  writer thread; the queue fills and the loop waits with it, signals and all.

So here the output never raises, a SIGCONT resumes only what a Ctrl+Z suspended, and once the
app is leaving on a signal (``leave``) no write waits long for a terminal that does not read.

The input has an end too: a terminal that hangs up reads as end-of-file (or EIO), and so does
standard input from ``/dev/null``, a file or a pipe once it is used up. Textual's input thread
takes an empty read for "nothing yet" and selects again at once, for ever, at full CPU. Here
the input's end is the terminal's: the app is sent SIGHUP, and leaves as when a terminal hangs
up (the game in play saved, exit status 129).
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import sys
import time
from codecs import getincrementaldecoder
from queue import Full
from typing import TYPE_CHECKING, Any

from textual.drivers.linux_driver import LinuxDriver

from textmines.ui.textual_private import XTermParser, writer_queue

if TYPE_CHECKING:
    from textual.app import App

#: How long a write waits for room in the queue at a time, between looks at whether the app
#: is leaving (seconds).
WAIT_STEP = 0.1
#: Once the app is leaving on a signal: how long the output may take to drain before what is
#: left of it is dropped (seconds). A terminal that is there drains in milliseconds.
LEAVING_PATIENCE = 0.5
#: Messages waiting for the app beyond which the input is not read until it catches up: no
#: hand types that far ahead, and input that never stops (stdin at /dev/zero) would bury a
#: quit signal's save under millions of keys.
INPUT_BACKLOG = 500
#: What the player is told when the input ended (the app then leaves as on a hang-up).
INPUT_ENDED = (
    "the input ended (end of file on standard input), so textmines left as when its terminal "
    "closes (a game in play is saved for next time); to play, start it in a terminal with no "
    "input redirected"
)


class TerminalOutput:
    """What Textual's writer thread writes to: the terminal's file descriptor, through a
    file object of its own, and never an exception.

    Not ``sys.__stderr__`` itself: a write blocked on a terminal that does not read would hold
    that object's lock against every other writer, the interpreter's last flush included. A
    terminal that failed once (it hung up) takes no more output.
    """

    def __init__(self, fd: int, encoding: str) -> None:
        self._file = open(  # noqa: SIM115 - it lives as long as the process's terminal
            fd, "w", encoding=encoding, errors="backslashreplace", closefd=False
        )
        #: A write failed: the terminal is gone (or the pipe closed).
        self.failed = False

    def write(self, text: str) -> int:
        if not self.failed:
            try:
                self._file.write(text)
            except (OSError, ValueError):
                self.failed = True
        return len(text)

    def flush(self) -> None:
        if not self.failed:
            try:
                self._file.flush()
            except (OSError, ValueError):
                self.failed = True

    def fileno(self) -> int:
        return self._file.fileno()


class TerminalDriver(LinuxDriver):
    """Textual's Linux and macOS driver, with output that cannot keep textmines from ending."""

    def __init__(
        self,
        app: App[Any],
        *,
        debug: bool = False,
        mouse: bool = True,
        size: tuple[int, int] | None = None,
    ) -> None:
        super().__init__(app, debug=debug, mouse=mouse, size=size)
        stderr = sys.__stderr__
        if stderr is not None:
            # A file in all that the writer thread uses of one: write, flush and fileno.
            output = TerminalOutput(stderr.fileno(), stderr.encoding or "utf-8")
            self._file = output  # type: ignore[assignment]
        #: When the app began to leave on a signal (``leave``); None while it plays.
        self._leaving_since: float | None = None
        #: The output was given up: what is written from now on is dropped.
        self._given_up = False

    def leave(self) -> None:
        """The app leaves on a signal: from now on the output has ``LEAVING_PATIENCE`` seconds
        to drain, then what cannot be written is dropped. Safe to call from a signal handler."""
        if self._leaving_since is None:
            self._leaving_since = time.monotonic()

    def _stuck(self) -> bool:
        """Whether the app is leaving and the output has had its time."""
        if not self._given_up and self._leaving_since is not None:
            self._given_up = time.monotonic() - self._leaving_since > LEAVING_PATIENCE
        return self._given_up

    def _queue(self) -> Any:
        # Textual's writer thread keeps its writes in ``_queue``; without one (another Textual)
        # the writes go through its own, unbounded, methods.
        return writer_queue(self)

    def write(self, data: str) -> None:
        queue = self._queue()
        if queue is None:
            super().write(data)
            return
        # In steps, not one wait: a signal that arrives meanwhile must get its answer.
        while not self._given_up:
            try:
                queue.put(data, timeout=WAIT_STEP)
                return
            except Full:
                if self._stuck():
                    return

    def close(self) -> None:
        writer, queue = self._writer_thread, self._queue()  # see textual_private
        if writer is None or queue is None:
            super().close()
            return
        while not self._given_up:
            try:
                queue.put(None, timeout=WAIT_STEP)  # the writer thread's signal to end
                break
            except Full:
                if self._stuck():
                    return
        while writer.is_alive() and not self._stuck():
            writer.join(WAIT_STEP)

    def _sigcont_application(self, *_: object) -> None:
        # The kernel sends SIGCONT with the SIGHUP of a terminal that hangs up, and ``kill
        # -CONT`` can come at any time: only the end of a Ctrl+Z (Textual's SIGTSTP handler
        # suspended application mode and noted it) starts application mode again.
        if self._must_signal_resume:
            super()._sigcont_application()

    def run_input_thread(self) -> None:
        """Read the keys and the mouse until the app stops or leaves on a signal, or until the
        input ends: then the app leaves as when its terminal hangs up (``_input_ended``), and
        nothing spins."""
        parser = XTermParser(self._debug)
        decode = getincrementaldecoder("utf-8")().decode
        # select(), as Textual's own loop: epoll refuses a regular file or /dev/null.
        with selectors.SelectSelector() as selector:
            selector.register(self.fileno, selectors.EVENT_READ)
            while not self.exit_event.is_set():
                if self._leaving_since is not None:
                    return  # leaving on a signal: no key matters now
                if self._backlog() > INPUT_BACKLOG:
                    self.exit_event.wait(WAIT_STEP / 10)  # let the app catch up
                    continue
                data = self._read_input() if selector.select(0.1) else None
                if data == b"":
                    self._input_ended()
                    return
                if data:
                    for message in parser.feed(decode(data)):
                        self.process_message(message)
                for message in parser.tick():
                    self.process_message(message)

    def _backlog(self) -> int:
        """Messages waiting for the app and for where its keys go (read from this thread:
        an estimate, which is all a brake needs)."""
        app = self._app
        waiting = app.message_queue_size
        with contextlib.suppress(Exception):  # no screen yet, or the app is closing
            screen = app.screen
            waiting += screen.message_queue_size
            if screen.focused is not None:
                waiting += screen.focused.message_queue_size
        return waiting

    def _read_input(self) -> bytes | None:
        """What the input holds: b"" at its end (end-of-file, or an error such as the EIO of a
        terminal that hung up), None when nothing is there after all."""
        try:
            return os.read(self.fileno, 4096)
        except BlockingIOError:  # a non-blocking descriptor another program shares
            return None
        except OSError:
            return b""

    def _input_ended(self) -> None:
        """The input ended: the app leaves as on a hang-up, through its SIGHUP handler (the
        game saved, exit status 129), unless it is leaving already."""
        if self._leaving_since is not None or self.exit_event.is_set():
            return  # the hang-up itself (its SIGHUP came first), or any other way out
        if hasattr(self._app, "exit_message") and self._app.exit_message is None:
            self._app.exit_message = INPUT_ENDED
        # Until the app has its handlers (the input may end before it has mounted), SIGHUP
        # would end the process as it is: the terminal not set back, nothing saved.
        while signal.getsignal(signal.SIGHUP) in (signal.SIG_DFL, signal.SIG_IGN, None):
            if self.exit_event.wait(0.1):
                return
        os.kill(os.getpid(), signal.SIGHUP)
