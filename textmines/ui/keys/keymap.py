"""The player's keys: presets to start from, the ``[keys]`` table of settings.toml over them, and
the checks that keep a bad entry from costing the player a key.

Every remappable action is a Textual binding with an id (``game.hint``, ``board.mark``); the map
in effect goes to ``App.set_keymap``. The help screen, the menus and the status hints read their
keys from the same map, so they always show the player's keys.
"""

from __future__ import annotations

import contextlib
import difflib
import unicodedata
from collections.abc import Iterable, Mapping
from functools import cache
from types import MappingProxyType
from typing import Final

from textual.binding import Binding, BindingType
from textual.keys import KEY_NAME_REPLACEMENTS, Keys, key_to_character

from textmines.value import Value

#: Keys the screens keep for themselves: closing dialogs and menus, moving between buttons, the
#: command palette and Textual's own quit.
RESERVED: frozenset[str] = frozenset({"escape", "tab", "shift+tab", "ctrl+p", "ctrl+q"})
#: Keys a terminal cannot tell from others: it sends Ctrl+M as Enter, Ctrl+I as Tab...
TERMINAL_ALIASES: dict[str, str] = {
    "ctrl+m": "enter",
    "ctrl+i": "tab",
    "ctrl+left_square_bracket": "escape",
}
MODIFIERS = ("ctrl", "alt", "shift", "meta", "super", "hyper")


@cache
def _named_keys() -> frozenset[str]:
    """Every key Textual names (made when a player's key is first checked, not at start)."""
    return frozenset(
        key.value for key in Keys if not key.value.startswith("<") and "+" not in key.value
    ) | frozenset(KEY_NAME_REPLACEMENTS.values())


#: Starting points for the player's keys: binding id -> keys, over the bindings' own keys.
PRESETS: dict[str, dict[str, str]] = {
    "default": {},
    # The default keys already move with h/j/k/l; vim adds the row's ends and m for a mark.
    "vim": {
        "board.home": "0,circumflex_accent,home",
        "board.end": "dollar_sign,end",
        "board.mark": "m,f,plus",
    },
    # NumLock on: the keypad's digits move, 5 reveals, 0 (Ins) flags, 7 / 1 (Home / End) go to
    # the row's ends and 9 / 3 (PgUp / PgDn) jump five rows; the board sizes move to F5..F7
    # (terminals send Alt+digit as other characters, so Alt+1 would never arrive).
    "numpad": {
        "board.up": "8,up,k",
        "board.down": "2,down,j",
        "board.left": "4,left,h",
        "board.right": "6,right,l",
        "board.up5": "9,shift+up,K",
        "board.down5": "3,shift+down,J",
        "board.home": "7,home",
        "board.end": "1,end",
        "board.open": "5,space,enter",
        "board.mark": "0,plus,f",
        "game.beginner": "f5",
        "game.intermediate": "f6",
        "game.expert": "f7",
    },
    # The mouse in the left hand, the keys under the right: i/j/k/l move, Enter or ; reveals,
    # ' or m flags; the hint moves from i to h.
    "left-handed": {
        "board.up": "i,up",
        "board.down": "k,down",
        "board.left": "j,left",
        "board.right": "l,right",
        "board.up5": "I,shift+up",
        "board.down5": "K,shift+down",
        "board.left5": "J,shift+left",
        "board.right5": "L,shift+right",
        "board.open": "enter,space,semicolon",
        "board.mark": "apostrophe,m,plus",
        "game.hint": "h",
    },
}


_KEY_NAMES = {
    "up": "↑",
    "down": "↓",
    "left": "←",
    "right": "→",
    "space": "Space",
    "enter": "Enter",
    "plus": "+",
    "minus": "-",
    "question_mark": "?",
    "home": "Home",
    "end": "End",
    "escape": "Esc",
    "pageup": "PgUp",
    "pagedown": "PgDn",
}


def key_label(key: str) -> str:
    """``shift+up`` -> ``Shift+↑``, ``f2`` -> ``F2``, ``ctrl+c`` -> ``Ctrl+C``.

    A letter alone is shown as it is typed: ``k`` moves one cell and ``K`` five, as the README
    says, so the case is the information.
    """
    *mods, last = key.split("+")
    character = key_to_character(last)
    if last in _KEY_NAMES:
        name = _KEY_NAMES[last]
    elif (
        character is not None
        and len(last) > 1
        and character.isprintable()
        and not character.isspace()
    ):
        name = character  # "greater_than_sign" -> ">"
    elif len(last) == 1 and not mods:
        name = last
    elif len(last) == 1 or (last[0] == "f" and last[1:].isdigit()):
        name = last.upper()  # Ctrl+C, F5
    else:
        name = last.capitalize()  # Backspace, Insert
    return "+".join([*(mod.capitalize() for mod in mods), name])


class Action(Value):
    """One thing a key can do: its binding id, what it does, where the help lists it."""

    id: str
    description: str
    section: str
    default: tuple[str, ...]


def actions(sections: Iterable[tuple[str, Iterable[BindingType]]]) -> tuple[Action, ...]:
    """Every binding with an id, by section (``("Game", App.BINDINGS)``), in order."""
    found = []
    for section, bindings in sections:
        for binding in bindings:
            if isinstance(binding, Binding) and binding.id:
                keys = tuple(normal_key(key) for key in split_keys(binding.key))
                found.append(Action(binding.id, binding.description, section, keys))
    return tuple(found)


def split_keys(keys: str) -> list[str]:
    """``"f, plus"`` -> ``["f", "plus"]``."""
    return [key.strip() for key in keys.split(",") if key.strip()]


def normal_key(key: str) -> str:
    """A key as Textual names it: ``?`` -> ``question_mark``, ``Ctrl+S`` -> ``ctrl+s``.

    A letter keeps its case (``K`` is Shift+k, as Textual reports it), except after Ctrl.
    """
    if key.endswith("+"):  # "+" or "ctrl++"
        head, last = key[:-1].rstrip("+"), "+"
    else:
        head, _, last = key.rpartition("+")
    mods = head.split("+") if head else []
    if len(last) == 1 and not last.isalnum():
        with contextlib.suppress(ValueError):  # a character without a name stays as it is
            last = unicodedata.name(last).lower().replace("-", "_").replace(" ", "_")
        last = KEY_NAME_REPLACEMENTS.get(last, last)
    elif len(last) > 1 or "ctrl" in (mod.lower() for mod in mods):
        last = last.lower()  # "Ctrl+S": a terminal sends Ctrl+letter without its case
    return "+".join([*(mod.lower() for mod in mods), last])


def key_problem(key: str) -> str | None:
    """Why ``key`` (normalised) cannot be bound, or None."""
    *mods, last = key.split("+")
    unknown = [mod for mod in mods if mod not in MODIFIERS]
    if unknown or not last:
        return f"{_quoted(key)} is not a key name (modifiers are {', '.join(MODIFIERS)})"
    if not (
        (len(last) == 1 and last.isprintable() and not last.isspace())
        or last in _named_keys()
        or key_to_character(last) is not None
    ):
        close = difflib.get_close_matches(last, sorted(_named_keys()), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        return f"{_quoted(key)} is not a key name{hint}"
    if key in RESERVED:
        return f"{key!r} is kept for closing dialogs, moving between buttons and the palette"
    if key in TERMINAL_ALIASES:
        sent = TERMINAL_ALIASES[key]
        return f"{key!r} reaches textmines as {sent!r} (terminals send the two alike)"
    if mods == ["shift"] and len(last) == 1 and last.isprintable():
        # A terminal sends Shift with a character as the shifted character itself.
        shifted = repr(last.upper()) if last.isalpha() else "the character Shift+key types"
        return f"{key!r} reaches textmines as a plain character: write {shifted} instead"
    return None


#: A status-line hint: the action, the key to name when the player has it, what it does.
Hint = tuple[str, str, str]


def hint_texts(keymap: KeyMap, hints: Iterable[Hint]) -> list[str]:
    """``("board.mark", "f", "flag")`` -> ``"f flag"``, or the player's first key for the
    action if ``f`` is not one of them (no hint for an action without a key)."""
    texts = []
    for action_id, usual, what in hints:
        keys = keymap.keys_for(action_id)
        if keys:
            texts.append(f"{key_label(usual if usual in keys else keys[0])} {what}")
    return texts


class KeyMap(Value):
    """The keys in effect for every action."""

    actions: tuple[Action, ...]
    keys: Mapping[str, tuple[str, ...]]
    #: Keys an action may not have because a screen that also takes it (by its id) keeps
    #: them for itself: action id -> {key: what it does there} (see ``kept_keys``).
    kept: Mapping[str, Mapping[str, str]] = MappingProxyType({})

    def keys_for(self, action_id: str) -> tuple[str, ...]:
        return self.keys.get(current_id(action_id), ())

    def kept_by(self, action_id: str, key: str) -> str | None:
        """What ``key`` does on a screen that takes ``action_id`` too, or None."""
        return self.kept.get(action_id, {}).get(key)

    def refusal(self, action_id: str, key: str) -> str | None:
        """Why ``action_id`` may never have ``key`` (normalised): not a key, a key the dialogs
        keep, or one a screen that takes the action keeps for itself. None if it may (another
        action having it is a clash, settled apart)."""
        problem = key_problem(key)
        elsewhere = self.kept_by(action_id, key)
        if problem is None and elsewhere is not None:
            problem = f"{key!r} is {elsewhere}"
        return problem

    def owner(self, key: str) -> Action | None:
        """The action ``key`` is bound to, if any."""
        for action in self.actions:
            if key in self.keys_for(action.id):
                return action
        return None

    def action(self, action_id: str) -> Action | None:
        return next((action for action in self.actions if action.id == action_id), None)

    def textual(self) -> dict[str, str]:
        """The map for ``App.set_keymap``: the actions whose keys are not their bindings' own.

        ``set_keymap`` replaces the whole map, so an action left out has its own keys again;
        and Textual applies a non-empty map to every binding on every key press, so the
        default keys, the usual case, cost nothing.
        """
        return {
            action.id: ",".join(self.keys_for(action.id))
            for action in self.actions
            if self.keys_for(action.id) != action.default
        }

    def bindings(self, bindings: Iterable[BindingType]) -> list[BindingType]:
        """``bindings`` with the player's keys (for the help screen)."""
        return [
            binding.with_key(",".join(self.keys[binding.id]))
            if isinstance(binding, Binding) and binding.id is not None and binding.id in self.keys
            else binding
            for binding in bindings
        ]


def kept_keys(screens: Iterable[tuple[str, Iterable[BindingType]]]) -> dict[str, dict[str, str]]:
    """For screens (``("the game-over box", GameOverScreen.BINDINGS)``) whose bindings take
    some of the game's actions by id beside keys of their own: action id -> {own key: what it
    does there}. Given one of those keys, the action would take it from the screen."""
    kept: dict[str, dict[str, str]] = {}
    for name, bindings in screens:
        listed = [b for b in bindings if isinstance(b, Binding)]
        own = {
            normal_key(key): f"{b.description!r} in {name}"
            for b in listed
            if not b.id
            for key in split_keys(b.key)
        }
        for b in listed:
            if b.id:
                kept.setdefault(b.id, {}).update(own)
    return kept


def preset_keys(all_actions: tuple[Action, ...], preset: str) -> dict[str, tuple[str, ...]]:
    """Every action's keys in ``preset`` (the bindings' own keys where it says nothing)."""
    table = PRESETS.get(preset, {})
    return {
        action.id: tuple(normal_key(key) for key in split_keys(table[action.id]))
        if action.id in table
        else action.default
        for action in all_actions
    }


#: The names the game screen's actions had before their ids named where they live (issue
#: 47.4: every id said ``app.``): a player's ``[keys]`` entry with one still works.
OLD_IDS: Final = MappingProxyType(
    {
        f"app.{name}": f"game.{name}"
        for name in (
            "new_game",
            "restart",
            "beginner",
            "intermediate",
            "expert",
            "custom",
            "pause",
            "hint",
            "overlay",
            "autoplay",
            "autoplay_faster",
            "autoplay_slower",
            "watch_replay",
            "board_info",
            "daily",
            "zoom_in",
            "zoom_out",
            "zoom_fit",
        )
    }
)


def current_id(action_id: str) -> str:
    """The id ``action_id`` names now (an old name's new one; any other as it is)."""
    return OLD_IDS.get(action_id, action_id)


def resolve(
    all_actions: tuple[Action, ...],
    preset: str,
    overrides: Iterable[tuple[str, str]],
    source: str = "settings.toml",
    kept: Mapping[str, Mapping[str, str]] | None = None,
) -> tuple[KeyMap, list[str]]:
    """The preset's keys with the player's ``[keys]`` entries over them, and a warning naming
    ``source`` and the entry for each entry that cannot be used (the preset's keys stay for it):
    an unknown action or key name, a reserved key, or a key another action has too (of two
    entries that want one key, the later in the file gives way: that key only, when the
    entry names others)."""
    warnings = []
    if preset not in PRESETS:
        close = difflib.get_close_matches(preset, PRESETS, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        warnings.append(
            f"{source}: key_preset {preset!r} is unknown{hint}; using 'default'. "
            f"Presets: {', '.join(PRESETS)}"
        )
        preset = "default"
    base = KeyMap(all_actions, preset_keys(all_actions, preset), kept or {})
    known = {action.id for action in all_actions}
    entries: dict[str, tuple[str, tuple[str, ...]]] = {}  # action id -> (as written, keys)
    # (action id, as written, why, the keys of it still used): worded only for the few the
    # warning names.
    refused: list[tuple[str, str, str, tuple[str, ...]]] = []
    written_as: dict[str, str] = {}  # action id -> the name its entry gave (an old one too)
    for written, value in overrides:
        action_id = current_id(written)
        if action_id not in known:
            refused.append((written, value, _NO_ACTION, ()))
            continue
        problem, keys = _entry_problem(base, action_id, value)
        if problem is None:
            entries.pop(action_id, None)  # a later entry for one action wins, in file order
            entries[action_id] = (value, keys)
            written_as[action_id] = written
        else:
            refused.append((written, value, problem, ()))
    # Each clash takes one key out of an entry (the entry, with its last key), so it ends.
    while True:
        keymap = KeyMap(
            all_actions,
            {**base.keys, **{aid: keys for aid, (_, keys) in entries.items()}},
            base.kept,
        )
        clash = _first_clash(keymap, list(entries))
        if clash is None:
            return keymap, warnings + _entry_warnings(source, base, refused)
        loser, key, other = clash
        value, keys = entries[loser]
        rest = tuple(k for k in keys if k != key)
        if rest:
            entries[loser] = (value, rest)  # in place: its rank in the file stays
        else:
            del entries[loser]
        why = f"{key_label(key)!r} is already {other.description!r} ({other.id})"
        refused.append((written_as[loser], value, why, rest))


#: More unusable ``[keys]`` entries than this are one warning (each warning is a toast).
ENTRY_WARNINGS_SHOWN: Final = 3
#: The problem of an entry whose action does not exist; the closest id is found only for
#: the entries a warning names (a file may hold thousands).
_NO_ACTION: Final = "no such action"


def _entry_warnings(
    source: str, base: KeyMap, refused: list[tuple[str, str, str, tuple[str, ...]]]
) -> list[str]:
    """A warning for each refused entry, or one for all of them when there are many: how
    many, the first, and where to look."""
    named = refused if len(refused) <= ENTRY_WARNINGS_SHOWN else refused[:1]
    warnings = [_entry_warning(source, base, *entry) for entry in named]
    if len(refused) <= ENTRY_WARNINGS_SHOWN:
        return warnings
    return [
        f"{source}: {len(refused):,} entries of [keys] cannot be used, and their actions keep "
        f"their keys. The first: {warnings[0].removeprefix(f'{source}: ')}. Fix or remove them "
        "in [keys]; Options > Keys shows the keys in effect."
    ]


def _quoted(text: str) -> str:
    """``text`` quoted for a warning, and cut short: an entry may be a whole page long."""
    return repr(text) if len(text) <= 40 else f"{text[:37]!r}..."


def _entry_warning(
    source: str, base: KeyMap, action_id: str, value: str, problem: str, used: tuple[str, ...]
) -> str:
    if problem == _NO_ACTION:
        names = [*(a.id for a in base.actions), *OLD_IDS]
        close = [current_id(name) for name in difflib.get_close_matches(action_id, names, n=1)]
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        problem = f"there is no action {_quoted(action_id)}{hint}"
    name = action_id if len(action_id) <= 40 else f"{action_id[:37]}..."
    said = f"{source}: [keys] {name} = {_quoted(value)}: {problem}"
    if used:  # the entry's other keys are used: only the clashing one gave way
        return f"{said}; using {' / '.join(key_label(key) for key in used)}"
    kept = " / ".join(base.keys_for(action_id))
    return said + (f"; keeping {kept}" if kept else "")


def _entry_problem(
    keymap: KeyMap, action_id: str, value: str
) -> tuple[str | None, tuple[str, ...]]:
    """What is wrong with one ``[keys]`` entry of a known action on its own, and its keys."""
    keys = tuple(normal_key(key) for key in split_keys(value))
    if not keys:
        return "no key given", ()
    for key in keys:
        problem = keymap.refusal(action_id, key)
        if problem is not None:
            return problem, ()
    if len(set(keys)) != len(keys):
        return "a key is given twice", ()
    return None, keys


def _first_clash(keymap: KeyMap, entries: list[str]) -> tuple[str, str, Action] | None:
    """A key two actions have, one of them from a ``[keys]`` entry: (the entry that gives way,
    the key, the other action). ``entries`` are the entries' action ids in file order."""
    owners: dict[str, list[Action]] = {}
    for action in keymap.actions:
        for key in keymap.keys_for(action.id):
            owners.setdefault(key, []).append(action)
    for key, actions_ in owners.items():
        if len(actions_) < 2:
            continue
        ranked = sorted(actions_, key=lambda a: entries.index(a.id) if a.id in entries else -1)
        loser, other = ranked[-1], ranked[-2]
        if loser.id in entries:  # the presets themselves never clash (a test checks)
            return loser.id, key, other
    return None
