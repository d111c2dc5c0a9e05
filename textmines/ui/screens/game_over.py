"""The box at the end of a game: how it went, and what next (play again, restart, close)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Literal

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Static

#: What the player chose: a new board, the same board again, or just looking at the board.
Choice = Literal["new", "restart"] | None


class GameOverScreen(ModalScreen[Choice]):
    """A small box at the foot of the screen over a see-through backdrop, so the final board
    stays in sight. Enter or N plays again, R restarts the board, Escape or a click anywhere
    outside the box closes it and leaves the final board to look at.

    ``figures`` are ``(label, value)`` rows shown as plain text.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n,f2", "choose('new')", "Play again", show=False),
        Binding("r", "choose('restart')", "Restart", show=False),
        Binding("escape,q", "choose(None)", "Close", show=False),
        Binding("left", "app.focus_previous", "Previous button", show=False),
        Binding("right", "app.focus_next", "Next button", show=False),
    ]

    DEFAULT_CSS = """
    GameOverScreen { align: center bottom; background: transparent; }
    GameOverScreen > Vertical {
        width: auto; min-width: 36; max-width: 100%; height: auto; max-height: 100%;
        border: round $primary; background: $surface; padding: 0 1; margin-bottom: 1;
    }
    GameOverScreen.-lost > Vertical { border: round $error; }
    GameOverScreen.-won > Vertical { border: round $success; }
    GameOverScreen #title { text-style: bold; width: 100%; content-align: center middle; }
    GameOverScreen #figures { width: auto; margin: 1 0; }
    GameOverScreen Horizontal { width: auto; height: auto; }
    GameOverScreen Button { margin-right: 1; }
    """

    def __init__(self, won: bool, title: str, figures: Sequence[tuple[str, str]]) -> None:
        super().__init__(classes="-won" if won else "-lost")
        self._title = title
        self.figures = list(figures)

    def compose(self) -> ComposeResult:
        width = max((len(label) for label, _ in self.figures), default=0) + 2
        text = Content("\n").join(
            Content.assemble((label.ljust(width), "$text-muted"), value)
            for label, value in self.figures
        )
        with Vertical(id="box"):
            yield Static(self._title, id="title", markup=False)
            yield Static(text, id="figures")
            with Horizontal():
                yield Button("Play again", variant="primary", id="new", compact=True)
                yield Button("Restart", id="restart", compact=True)
                yield Button("Close", id="close", compact=True)

    def on_mount(self) -> None:
        self.query_one("#new", Button).focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        choice = event.button.id
        self.dismiss(choice if choice in ("new", "restart") else None)  # type: ignore[arg-type]

    def action_choose(self, choice: Choice) -> None:
        self.dismiss(choice)

    def on_click(self, event: events.Click) -> None:
        # A click on the board behind the box: the player wants to look at it.
        if not self.query_one("#box").region.contains(event.screen_x, event.screen_y):
            self.dismiss(None)
