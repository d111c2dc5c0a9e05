"""``TypedInput``: a text field whose editing keys run in the order they were typed, and whose
text is selected whenever it gets the focus, so that typing replaces it."""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.widgets import Input


class TypedInput(Input):
    """A text field whose editing keys (Backspace, the arrows, Ctrl+A...) run in the order they
    were typed. Textual types a character as its key arrives but runs an editing key's binding
    only once the key has gone up to the app, so in keys read together (typed fast, a paste)
    the characters after it came first: 2 5 Backspace 7 gave 25, not 27.

    Its text is selected when it gets the focus, by Tab or by a click, and Ctrl+A selects it
    all (Textual's Ctrl+A goes to the start, and a click put the cursor where it landed): the
    fields hold numbers and names a player replaces far more often than edits (issue 46.14:
    Ctrl+A then 50 on 16 gave 5016)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+a", "select_all", "Select all", show=False),
    ]

    #: The field's own editing keys, each with its action.
    _EDITING: ClassVar[dict[str, str]] = {
        **{binding.key: binding.action for binding in Binding.make_bindings(Input.BINDINGS)},
        "ctrl+a": "select_all",
    }

    #: The focus came with the mouse press that is on its way: it keeps the selection.
    _focused_by_press = False

    # Textual runs the handler of each class in the field's ancestry, this one first: Input's
    # own runs after these unless one prevents it.
    def _on_focus(self, event: events.Focus) -> None:
        # A click focuses the field before its press arrives, and the press would put the
        # cursor where it landed: the press already queued keeps the selection; a later one
        # places the cursor, as in any field that has the focus.
        self._focused_by_press = True
        self.call_later(self._press_seen)

    def _press_seen(self) -> None:
        self._focused_by_press = False

    async def _on_mouse_down(self, event: events.MouseDown) -> None:
        if self._focused_by_press:
            self._focused_by_press = False
            event.prevent_default()

    async def _on_key(self, event: events.Key) -> None:
        action = None if event.is_printable else self._EDITING.get(event.key)
        if action is None:
            await super()._on_key(event)
            return
        event.stop()
        event.prevent_default()
        await self.run_action(action)
