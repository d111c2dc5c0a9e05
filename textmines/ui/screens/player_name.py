"""Game > Player name...: the name shown over the player's statistics.

In a browser (``--serve``) every browser is a player of its own, with its own statistics,
settings and saved game: the name says whose they are.
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Static

from textmines.store.settings import NAME_LENGTH, clean_player_name
from textmines.ui.screens.dialog import Dialog, dialog_css
from textmines.ui.screens.typed_input import TypedInput


class PlayerNameScreen(Dialog[str | None]):
    """Ask for the player's name; dismisses with it cleaned ("" for none), or None."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel", priority=True)]
    DEFAULT_CSS = dialog_css("PlayerNameScreen", 60)

    def __init__(self, name: str, *, in_browser: bool = False) -> None:
        super().__init__()
        self._name = name
        self._in_browser = in_browser

    def compose(self) -> ComposeResult:
        whose = (
            "This browser is a player of its own: its statistics, settings and saved game "
            "are not the terminal's nor another browser's. The name says whose they are."
            if self._in_browser
            else "Shown over your statistics."
        )
        with Vertical():
            yield Static("[b]Player name[/b]")
            yield TypedInput(self._name, max_length=NAME_LENGTH, placeholder="your name", id="name")
            yield Static(whose, id="message", markup=False)
            with Horizontal():
                yield Button("Save", variant="primary", id="save", compact=True)
                yield Button("Cancel", id="cancel", compact=True)

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    @on(Button.Pressed, "#save")
    def _save(self) -> None:
        self.dismiss(clean_player_name(self.query_one(Input).value))

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
