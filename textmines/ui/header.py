"""The header: mine counter, smiley (new game) and timer."""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Static

FACES: dict[str, str] = {"normal": "🙂", "pressed": "😮", "won": "😎", "lost": "😵"}


def format_counter(value: int) -> str:
    """Three characters, like the LED counters of the classic game: ``010``, ``-03``."""
    value = max(-99, min(999, value))
    return f"-{-value:02d}" if value < 0 else f"{value:03d}"


class Smiley(Static):
    """The face; a click asks for a new game."""

    class Clicked(Message):
        """The player clicked the face."""

    face: reactive[str] = reactive("normal")

    def render(self) -> str:
        return FACES.get(self.face, FACES["normal"])

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Clicked())


class GameHeader(Horizontal):
    """Mine counter, smiley and timer on one line."""

    DEFAULT_CSS: ClassVar[str] = """
    GameHeader { height: 1; align-horizontal: center; background: $panel; }
    GameHeader > .digits {
        width: 5; content-align: center middle; color: $mines-digits;
        background: $mines-digits-background; text-style: bold;
    }
    GameHeader > Smiley { width: 4; margin: 0 3; content-align: center middle; }
    GameHeader > Smiley:hover { background: $boost; }
    """

    mines_left: reactive[int] = reactive(0)
    seconds: reactive[int] = reactive(0)

    def compose(self) -> ComposeResult:
        yield Static(format_counter(self.mines_left), id="counter", classes="digits")
        yield Smiley(id="smiley")
        yield Static(format_counter(self.seconds), id="timer", classes="digits")

    def watch_mines_left(self, value: int) -> None:
        if self.is_mounted:
            self.query_one("#counter", Static).update(format_counter(value), layout=False)

    def watch_seconds(self, value: int) -> None:
        if self.is_mounted:
            self.query_one("#timer", Static).update(format_counter(min(value, 999)), layout=False)

    def set_face(self, face: str) -> None:
        """Show ``normal``, ``pressed``, ``won`` or ``lost``."""
        self.query_one(Smiley).face = face
