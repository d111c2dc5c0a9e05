"""A browser tab's game (``textmines --tab``): Textual's web driver, but the page going away
is the game's to handle.

When its tab closes, or the server stops, textual-serve asks the game to quit, and Textual's
web driver ends the app at once, past textmines' save: the game in play was lost. This
driver hands the request to the app instead (``PageClosed``), which saves the game in the
browser's profile first (``TextminesApp.on_page_closed``). The server gives it 10 s.
"""

from __future__ import annotations

from textual.drivers.web_driver import WebDriver
from textual.message import Message


class PageClosed(Message):
    """The page this game is drawn in has gone: its tab closed, or the server stopped."""


class TabDriver(WebDriver):
    """Textual's web driver, whose request to quit goes to the app as ``PageClosed``."""

    def on_meta(self, packet_type: str, payload: dict[str, object]) -> None:
        if packet_type == "quit":
            # From the driver's input thread: post_message is safe from any thread.
            self._app.post_message(PageClosed())
            return
        super().on_meta(packet_type, payload)
