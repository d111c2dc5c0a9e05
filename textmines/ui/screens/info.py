"""Simple dialogs: a title, some text, a Close button."""

from __future__ import annotations

from typing import ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Button, Static

from textmines.ui.screens.dialog import Dialog

#: Rows around the text: frame (2), title and the gap under it (2), button and its margin (4).
CHROME = 8


class InfoScreen(Dialog[None]):
    """A dialog showing a renderable; Escape, Enter or Close dismisses it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,enter", "close", "Close", show=False, priority=True),
    ]

    DEFAULT_CSS = """
    /* Between the menu bar and the status line: a taller dialog would cover them in part. */
    InfoScreen { align: center middle; }
    InfoScreen > Vertical {
        width: 76; max-width: 100%; height: auto; max-height: 100%; margin: 1 0;
        border: round $primary; background: $surface; padding: 0 1;
    }
    InfoScreen #title { text-style: bold; padding: 0 0 1 0; }
    InfoScreen VerticalScroll { height: auto; }
    InfoScreen #body { width: 100%; }
    InfoScreen Button { margin-top: 1; }
    """

    def __init__(self, title: str, body: RenderableType) -> None:
        super().__init__()
        self._title = title
        self.body = body

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self._title, id="title", markup=False)
            with VerticalScroll():
                yield Static(self.body, id="body")
            yield Button("Close", variant="primary", id="close", compact=True)

    def on_mount(self) -> None:
        # The text has the focus, so arrows and Page Up/Down scroll it straight away.
        self.query_one(VerticalScroll).focus()
        self._fit()

    def on_resize(self) -> None:
        self._fit()

    def _fit(self) -> None:
        # An auto-height scroll area inside an auto-height dialog collapses when the text is
        # taller than the screen: bound it by what is left after the other rows.
        room = self.size.height - 2  # the menu bar's row and the status line's
        self.query_one(VerticalScroll).styles.max_height = max(3, room - CHROME)

    @on(Button.Pressed, "#close")
    def action_close(self) -> None:
        self.dismiss(None)


def about_screen() -> InfoScreen:
    """Help > About: the version and what textmines is."""
    from textmines import __version__

    text = Text.assemble(
        (f"textmines {__version__}\n", "bold"),
        "Minesweeper for the terminal, built on Textual.\n",
        "Boards: Beginner 9x9/10, Intermediate 16x16/40, Expert 30x16/99, or custom.",
    )
    return InfoScreen("About", text)
