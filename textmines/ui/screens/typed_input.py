"""``TypedInput``: a text field whose editing keys run in the order they were typed."""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.binding import Binding
from textual.widgets import Input


class TypedInput(Input):
    """A text field whose editing keys (Backspace, the arrows, Ctrl+A...) run in the order they
    were typed. Textual types a character as its key arrives but runs an editing key's binding
    only once the key has gone up to the app, so in keys read together (typed fast, a paste)
    the characters after it came first: 2 5 Backspace 7 gave 25, not 27."""

    #: The field's own editing keys, each with its action.
    _EDITING: ClassVar[dict[str, str]] = {
        binding.key: binding.action for binding in Binding.make_bindings(Input.BINDINGS)
    }

    async def _on_key(self, event: events.Key) -> None:
        action = None if event.is_printable else self._EDITING.get(event.key)
        if action is None:
            await super()._on_key(event)
            return
        event.stop()
        event.prevent_default()
        await self.run_action(action)
