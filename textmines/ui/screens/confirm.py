"""A yes/no question before something that cannot be undone."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static

from textmines.ui.screens.dialog import Dialog


class ConfirmScreen(Dialog[bool]):
    """Ask before acting; dismisses with ``True`` (confirmed) or ``False`` (Cancel, Escape).

    ``message`` and ``title`` are shown as plain text (never read as markup), so they may quote
    user data. Cancel has the focus: pressing Enter by reflex keeps the data.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", show=False, priority=True),
        Binding("left,right", "switch_button", "Switch button", show=False, priority=True),
    ]

    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    ConfirmScreen > Vertical {
        width: 56; max-width: 100%; height: auto; max-height: 100%;
        border: round $error; background: $surface; padding: 0 1;
    }
    ConfirmScreen #title { text-style: bold; padding: 0 0 1 0; }
    ConfirmScreen #message { width: 100%; }
    ConfirmScreen Horizontal { height: auto; align-horizontal: right; margin-top: 1; }
    ConfirmScreen Button { margin-left: 1; }
    """

    def __init__(
        self,
        message: str,
        *,
        title: str = "Are you sure?",
        confirm_label: str = "Reset",
        cancel_label: str = "Cancel",
    ) -> None:
        super().__init__()
        self.message = message
        self._title = title
        self._labels = (confirm_label, cancel_label)

    def compose(self) -> ComposeResult:
        confirm_label, cancel_label = self._labels
        with Vertical():
            yield Static(self._title, id="title", markup=False)
            yield Static(self.message, id="message", markup=False)
            with Horizontal():
                yield Button(confirm_label, variant="error", id="confirm", compact=True)
                yield Button(cancel_label, variant="primary", id="cancel", compact=True)

    def on_mount(self) -> None:
        # Toasts sit in the bottom right, over the buttons; the question is what matters now.
        self.app.clear_notifications()
        self.set_focus(self.query_one("#cancel", Button))

    def action_switch_button(self) -> None:
        # The screen's own set_focus moves the focus now: a Button's focus() would move it a
        # message later, and an Enter read with the arrow (keys typed fast, a paste) would press
        # the button the arrow left.
        focused = self.focused
        target = "#confirm" if focused is not None and focused.id == "cancel" else "#cancel"
        self.set_focus(self.query_one(target, Button))

    @on(Button.Pressed, "#confirm")
    def action_confirm(self) -> None:
        self.dismiss(True)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(False)
