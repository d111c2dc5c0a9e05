"""A browser tab's game (``textmines --tab``): Textual's web driver, but the page going away
is the game's to handle.

When its tab closes, or the server stops, textual-serve asks the game to quit, and Textual's
web driver ends the app at once, past textmines' save: the game in play was lost. This
driver hands the request to the app instead (``PageClosed``), which saves the game in the
browser's profile first (``TextminesApp.on_page_closed``). The server gives it 10 s.

A server that dies without asking (kill -9, a crash, the OOM killer) asks nothing: its end
is the end of the tab's input, and a broken pipe for what the tab draws. Textual's driver
then stops reading and the game ran on for ever, unseen, its saved game held. This one
leaves as when the page closes, as soon as its input ends; what it draws after that goes
nowhere, without an error.

A game that leaves on a signal says which when it tells the server it is leaving (its
"exit"), so that the server knows the same signal may be stopping it as well.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from textual.drivers.web_driver import WebDriver
from textual.message import Message


class PageClosed(Message):
    """The page this game is drawn in has gone: its tab closed, or the server stopped (or
    died: the input ended)."""


class TabDriver(WebDriver):
    """Textual's web driver, whose request to quit goes to the app as ``PageClosed``, as does
    the end of its input; writes to a server that has gone are dropped."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        write = self._write
        #: What the tab draws has nowhere to go: the server has gone.
        self.output_gone = False

        def write_while_read(data: bytes) -> int:
            if not self.output_gone:
                try:
                    return write(data)
                except OSError:  # a broken pipe: the server has gone
                    self.output_gone = True
            return len(data)

        self._write = partial(write_while_read)

    def write_meta(self, data: dict[str, object]) -> None:
        # A game that leaves on a signal (128 + n) says which in its "exit": the same signal
        # may be stopping the server too (a closed terminal reaches the whole process group),
        # which then tells the page so, however soon this game ended.
        code = getattr(self._app, "return_code", None) or 0
        if data.get("type") == "exit" and code > 128:
            data = {**data, "signal": code - 128}
        super().write_meta(data)

    def on_meta(self, packet_type: str, payload: dict[str, object]) -> None:
        if packet_type == "quit":
            # From the driver's input thread: post_message is safe from any thread.
            self._app.post_message(PageClosed())
            return
        super().on_meta(packet_type, payload)

    def run_input_thread(self) -> None:
        super().run_input_thread()
        if not self.exit_event.is_set():
            # The input ended, and nobody asked the app to stop: the server has gone.
            self._app.post_message(PageClosed())
