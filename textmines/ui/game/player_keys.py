"""The player's keys: the key preset and the ``[keys]`` entries of the settings over the
bindings' own keys, put in effect for the whole app (Textual's keymap), and the words every
screen uses for them (the help, the menus, the status line's hints)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.table import Table
from textual.app import App
from textual.binding import Binding, BindingType

from textmines.store.settings import Settings
from textmines.ui.board.board_view import MOUSE_CONTROLS, BoardView
from textmines.ui.keys.game_keys import GAME_KEYS, GAME_OVER_KEYS
from textmines.ui.keys.keymap import (
    Action,
    KeyMap,
    actions,
    hint_texts,
    kept_keys,
    key_label,
    resolve,
)
from textmines.ui.widgets.status import GAME_OVER_HINTS, HINTS

#: Every key of the game by section: the one list the keys screen, the help and the player's
#: ``[keys]`` entries are read from. Each binding lives where its action does: ``GAME_KEYS``
#: (the game screen's and the app's, ``keys/game_keys.py``), then the board's own.
KEY_SECTIONS: tuple[tuple[str, Sequence[BindingType]], ...] = (
    ("Game", GAME_KEYS),
    ("Board", BoardView.BINDINGS),
)


def key_actions() -> tuple[Action, ...]:
    """Every action a key can be given, in ``KEY_SECTIONS``' order."""
    return actions(KEY_SECTIONS)


class PlayerKeys:
    """The keys in effect in ``app``."""

    def __init__(self, app: App[Any]) -> None:
        self.app = app
        self.keymap: KeyMap
        #: The status hints with these keys: while a game is played (False), once it is over.
        self.status_hints: dict[bool, list[str]] = {}

    def use(self, settings: Settings, source: str) -> list[str]:
        """Put the preset and the [keys] entries of ``settings`` in effect over the bindings'
        own keys. Returns a warning for each entry that cannot be used (``source`` names the
        settings' file in it)."""
        self.keymap, warnings = resolve(
            key_actions(),
            settings.key_preset,
            settings.keys,
            source,
            kept_keys([("the game-over box", GAME_OVER_KEYS)]),
        )
        self.app.set_keymap(self.keymap.textual())
        self.status_hints = {
            False: hint_texts(self.keymap, HINTS),
            True: hint_texts(self.keymap, GAME_OVER_HINTS),
        }
        return warnings

    def first_key(self, binding_id: str) -> str:
        """The player's first key for the binding ``binding_id`` (``game.autoplay_faster``),
        written as the help screen writes it; "" when it has none."""
        keys = self.keymap.keys_for(binding_id)
        return key_label(keys[0]) if keys else ""

    def key_for(self, action: str) -> str:
        """The player's first key for the menu action ``action`` (``hint``, ``app.help``),
        written as the help screen writes it; "" for an action without a key."""
        name = action.removeprefix("app.")
        for binding in GAME_KEYS:
            if binding.action == name and binding.id:
                return self.first_key(binding.id)
        return ""

    def controls_table(self, palette_key: str) -> Table:
        """The help's table of every control, with the player's keys."""
        from textmines.ui.screens.help import controls_table

        # The palette's key is Textual's own binding, not one of the game's: listed too.
        palette = Binding(palette_key, "command_palette", "Command palette: any command by name")
        (game, game_keys), *others = [
            (title, self.keymap.bindings(keys)) for title, keys in KEY_SECTIONS
        ]
        return controls_table([(game, [*game_keys, palette]), *others], MOUSE_CONTROLS)
