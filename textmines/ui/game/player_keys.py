"""The player's keys: the key preset and the ``[keys]`` entries of the settings over the
bindings' own keys, put in effect for the whole app (Textual's keymap), and the words every
screen uses for them (the help, the menus, the status line's hints, the toasts). On a touch
screen (a browser tab started with ``--touch``) the hints and the toasts speak of taps."""

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
    current_id,
    hint_texts,
    kept_keys,
    key_label,
    resolve,
)
from textmines.ui.widgets.status import (
    GAME_OVER_HINTS,
    HINTS,
    SWAPPED_TOUCH_HINTS,
    TOUCH_GAME_OVER_HINTS,
    TOUCH_HINTS,
)

#: Every key of the game by section: the one list the keys screen, the help and the player's
#: ``[keys]`` entries are read from. Each binding lives where its action does: ``GAME_KEYS``
#: (the game screen's and the app's, ``keys/game_keys.py``), then the board's own.
KEY_SECTIONS: tuple[tuple[str, Sequence[BindingType]], ...] = (
    ("Game", GAME_KEYS),
    ("Board", BoardView.BINDINGS),
)


#: On a touch screen, the taps that do what a toast asks for, by binding id: the pause box
#: stands in for the board, and a tap on it resumes (the toasts that name the pause key ask
#: for a resume); the face starts a new game.
TOUCH_TAPS: dict[str, str] = {"game.pause": "tap the board", "game.new_game": "tap the face"}
#: ... and the menu items of the other actions a toast names (a phone has no keys).
TOUCH_MENU_ITEMS: dict[str, str] = {
    "game.overlay": "Options > Probability overlay",
    "game.autoplay": "Options > Autoplay",
    "game.autoplay_faster": "Options > Autoplay faster",
    "game.autoplay_slower": "Options > Autoplay slower",
}


def key_actions() -> tuple[Action, ...]:
    """Every action a key can be given, in ``KEY_SECTIONS``' order."""
    return actions(KEY_SECTIONS)


class PlayerKeys:
    """The keys in effect in ``app``."""

    def __init__(self, app: App[Any], *, touch: bool = False) -> None:
        self.app = app
        self.keymap: KeyMap
        #: The status hints with these keys: while a game is played (False), once it is over.
        self.status_hints: dict[bool, list[str]] = {}
        #: Whether the player taps a touch screen (``--touch``: a browser tab on a phone or a
        #: tablet): the hints and the toasts then say what to tap, not what to press.
        self.touch = touch

    def hints(self, over: bool, swapped: bool) -> list[str]:
        """The status line's hints while a game is played, or once it is ``over``: the keys,
        or on a touch screen the taps (``swapped``: Options > Swap mouse buttons is on, and a
        tap flags as a left click then does)."""
        if not self.touch:
            return self.status_hints[over]
        if over:
            return list(TOUCH_GAME_OVER_HINTS)
        return list(SWAPPED_TOUCH_HINTS if swapped else TOUCH_HINTS)

    def way_to(self, binding_id: str) -> str:
        """What the player does for the action of ``binding_id``, as a toast asks for it
        ("press p"; on a touch screen "tap the board", "choose Options > Autoplay")."""
        if self.touch and binding_id in TOUCH_TAPS:
            return TOUCH_TAPS[binding_id]
        control = self.control(binding_id)
        return f"choose {control}" if self.touch else f"press {control}"

    def control(self, binding_id: str) -> str:
        """The player's first key for ``binding_id`` (``first_key``), or on a touch screen
        the menu item that does it; "" when there is none."""
        if self.touch:
            return TOUCH_MENU_ITEMS.get(current_id(binding_id), "")
        return self.first_key(binding_id)

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
