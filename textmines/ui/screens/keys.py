"""Options > Keys...: every action with the keys it has; pick a preset, change a key, save."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, DataTable, Static

from textmines.ui.keys.keymap import PRESETS, KeyMap, key_label, preset_keys
from textmines.ui.screens.dialog import Dialog, dialog_css

HELP = "Enter: change · a: add a key · Delete: back to the preset's · Esc: close"
UNSAVED = "Your changes are not saved: Save keeps them, Esc again leaves them"


@dataclass(frozen=True)
class KeyChoice:
    """What the player saved: the preset and the ``[keys]`` entries over it."""

    preset: str
    entries: tuple[tuple[str, str], ...]


class KeyCatcher(Static):
    """Takes the next key press whatever it is, so no binding of the game runs on it. Focusable
    only while the screen waits for a key (Tab never lands on it)."""

    def on_key(self, event: events.Key) -> None:
        event.stop()
        event.prevent_default()
        screen = self.screen
        if isinstance(screen, KeysScreen):
            screen.caught(event.key)


class KeyTable(DataTable[Text]):
    """The actions and their keys (a modal screen: the game's own keys do not run behind it)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "screen.capture(True)", "Add a key", show=False),
        Binding("delete,backspace", "screen.reset_action", "The preset's keys", show=False),
    ]


class KeysScreen(Dialog[KeyChoice | None]):
    """Dismissed with the keys to save, or None when closed without saving."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", "Close", show=False)]
    DEFAULT_CSS = (
        dialog_css("KeysScreen", 76)
        + """
    KeysScreen #title { text-style: bold; }
    KeysScreen #presets { height: auto; margin-top: 1; align-horizontal: left; }
    KeysScreen #presets Static { width: auto; padding: 0 1 0 0; }
    KeysScreen #presets Button { margin-left: 0; margin-right: 1; min-width: 8; }
    KeysScreen #presets Button.-current { text-style: bold reverse; }
    /* Between the menu bar and the status line, whatever the terminal's height. */
    KeysScreen > Vertical { height: 100%; max-height: 44; margin: 1 0; }
    KeysScreen KeyTable { height: 1fr; min-height: 3; margin-top: 1; }
    KeysScreen KeyCatcher { height: 0; width: 0; }
    """
    )

    def __init__(self, keymap: KeyMap, preset: str) -> None:
        super().__init__()
        self.actions = keymap.actions
        self.kept = keymap.kept
        self.preset = preset if preset in PRESETS else "default"
        base = preset_keys(self.actions, self.preset)
        #: The player's entries over the preset: action id -> keys.
        self.entries = {
            action.id: keymap.keys_for(action.id)
            for action in self.actions
            if keymap.keys_for(action.id) != base[action.id]
        }
        #: While waiting for a key: the action and whether the key is added (else replaces).
        self.capturing: tuple[str, bool] | None = None
        #: The keys as they were opened, to tell whether there is anything to save.
        self._opened = (self.preset, dict(self.entries))
        #: Esc was pressed once with changes not saved (the next Esc leaves them).
        self._warned = False

    @property
    def changed(self) -> bool:
        """Whether the keys differ from those the screen opened with."""
        return (self.preset, self.entries) != self._opened

    @property
    def keymap(self) -> KeyMap:
        keys = {**preset_keys(self.actions, self.preset), **self.entries}
        return KeyMap(self.actions, keys, self.kept)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Keys", id="title")
            with Horizontal(id="presets"):
                yield Static("Start from:")
                for name in PRESETS:
                    yield Button(name, id=f"preset-{name}", compact=True)
            yield KeyTable(cursor_type="row", zebra_stripes=True)
            yield Static(HELP, id="message")
            yield KeyCatcher()
            with Horizontal():
                yield Button("Save", variant="primary", id="save", compact=True)
                yield Button("Cancel", id="cancel", compact=True)

    def on_mount(self) -> None:
        table = self.query_one(KeyTable)
        table.add_columns("", "Action", "Keys")
        section = ""
        for action in self.actions:
            shown = action.section if action.section != section else ""
            section = action.section
            table.add_row(
                Text(shown, style="bold"), Text(action.description), Text(), key=action.id
            )
        self._show()
        table.focus()

    def _show(self) -> None:
        """The keys column and the preset buttons as they are now."""
        table, keymap = self.query_one(KeyTable), self.keymap
        for action in self.actions:
            keys = " / ".join(key_label(key) for key in keymap.keys_for(action.id))
            style = "bold" if action.id in self.entries else ""
            table.update_cell(action.id, table.ordered_columns[2].key, Text(keys, style=style))
        for name in PRESETS:
            self.query_one(f"#preset-{name}", Button).set_class(name == self.preset, "-current")

    def _say(self, text: str, error: bool = False) -> None:
        message = self.query_one("#message", Static)
        message.update(Text(text))
        message.set_class(error, "-error")

    def _selected(self, row: int | None = None) -> str:
        """The action of ``row`` (default: the table's cursor row)."""
        return self.actions[self.query_one(KeyTable).cursor_row if row is None else row].id

    @on(DataTable.RowSelected)
    def _row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        # The row Enter (or the click) chose: a key read with it may have moved the cursor.
        self.action_capture(False, event.cursor_row)

    def action_capture(self, add: bool, row: int | None = None) -> None:
        """Wait for the key to give the selected action, or ``row``'s (added to its keys, or
        replacing them)."""
        action_id = self._selected(row)
        self.capturing = (action_id, add)
        description = self.keymap.action(action_id)
        name = description.description if description else action_id
        verb = "add to" if add else "give"
        self._say(f"Press the key to {verb} {name!r} (Esc: leave it as it is)")
        catcher = self.query_one(KeyCatcher)
        catcher.can_focus = True
        self.set_focus(catcher)  # now, not a message later: the next key is the one caught

    def caught(self, key: str) -> None:
        """The key pressed while capturing."""
        if self.capturing is None:
            return
        action_id, add = self.capturing
        if key == "escape":
            self._end_capture(HELP)
            return
        keymap = self.keymap
        problem = keymap.refusal(action_id, key)
        owner = keymap.owner(key)
        if problem is None and owner is not None and owner.id != action_id:
            problem = f"{key_label(key)} is already {owner.description!r}"
        if problem is not None:
            self._say(f"{problem}: press another key (Esc: leave it as it is)", error=True)
            return
        keys = keymap.keys_for(action_id)
        new = (*keys, key) if add and key not in keys else keys if add else (key,)
        base = preset_keys(self.actions, self.preset)[action_id]
        if new == base:
            self.entries.pop(action_id, None)
        else:
            self.entries[action_id] = new
        self._show()
        self._end_capture(f"{key_label(key)} set. {HELP}")

    def _end_capture(self, message: str) -> None:
        self.capturing = None
        self.query_one(KeyCatcher).can_focus = False
        self._say(message)
        self.set_focus(self.query_one(KeyTable))

    def action_reset_action(self) -> None:
        """The selected action goes back to the preset's keys."""
        action_id = self._selected()
        keymap = self.keymap
        wanted = preset_keys(self.actions, self.preset)[action_id]
        owners = (keymap.owner(key) for key in wanted)
        owner = next((o for o in owners if o not in (None, keymap.action(action_id))), None)
        if owner is not None:
            self._say(f"The preset's keys are taken by {owner.description!r}", error=True)
            return
        self.entries.pop(action_id, None)
        self._show()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        button = event.button.id or ""
        if button.startswith("preset-"):
            self.preset = button.removeprefix("preset-")
            self.entries.clear()
            self._show()
            self._say(f"Keys of the {self.preset} preset. {HELP}")
        elif button == "save":
            entries = tuple((aid, ",".join(keys)) for aid, keys in self.entries.items())
            self.dismiss(KeyChoice(self.preset, entries))
        else:
            self.dismiss(None)

    def action_close(self) -> None:
        """Close without saving; with changes, only at the second Esc (the first says so)."""
        if self.changed and not self._warned:
            self._warned = True
            self._say(UNSAVED, error=True)
            return
        self.dismiss(None)
