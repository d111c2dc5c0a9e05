"""The command palette (Ctrl+P): Textual's, closed at most once.

Textual 8's palette runs its command and closes on every Enter it has queued: two Enters in
the same frame (a fast typist, or a key held down) closed it twice, and the second close
popped the screen under it, which ended the app (``ScreenStackError``), or opened the
command's dialog twice. Once this palette has closed it ignores every further Enter.
"""

from __future__ import annotations

from typing import Any

from textual import on
from textual.await_complete import AwaitComplete
from textual.command import CommandPalette
from textual.widgets import Button, Input


class OnceCommandPalette(CommandPalette):
    """Textual's command palette, which closes (and runs its command) once."""

    #: Set by the first dismiss (MessagePump has a ``_closing`` of its own).
    _dismissed = False

    def dismiss(self, result: Any = None) -> AwaitComplete:
        if self._dismissed:
            done: AwaitComplete = AwaitComplete.nothing()  # type: ignore[no-untyped-call]
            return done
        self._dismissed = True
        return super().dismiss(result)

    @on(Input.Submitted)
    @on(Button.Pressed)
    def _select_or_command(self, event: Input.Submitted | Button.Pressed | None = None) -> None:
        # Textual calls this both as its Enter handler and directly once a command is
        # picked; either way nothing more happens once the palette has closed. An event is
        # handled here only: prevent_default keeps Textual's own handler from running too.
        if event is not None:
            event.prevent_default()
        if not self._dismissed:
            super()._select_or_command(event)
