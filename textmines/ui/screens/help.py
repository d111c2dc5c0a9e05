"""The controls, generated from the bindings so the help never drifts from the keys."""

from __future__ import annotations

from collections.abc import Iterable

from rich.table import Table
from textual.binding import Binding, BindingType
from textual.keys import key_to_character

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
    elif character is not None and len(last) > 1 and not character.isspace():
        name = character  # "greater_than_sign" -> ">"
    elif len(last) == 1 and not mods:
        name = last
    else:
        name = last.upper()
    return "+".join([*(mod.capitalize() for mod in mods), name])


def binding_rows(bindings: Iterable[BindingType]) -> list[tuple[str, str]]:
    """(keys, description) for every binding that has a description."""
    rows = []
    for binding in bindings:
        if isinstance(binding, Binding) and binding.description:
            keys = " / ".join(key_label(key.strip()) for key in binding.key.split(","))
            rows.append((keys, binding.description))
    return rows


def controls_table(
    sections: Iterable[tuple[str, Iterable[BindingType]]], mouse: Iterable[tuple[str, str]]
) -> Table:
    """A two-column table: every key binding by section, then the mouse controls."""
    table = Table(box=None, show_header=False, padding=(0, 2, 0, 0))
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    for title, bindings in sections:
        table.add_row(f"[u]{title}[/u]", "")
        for keys, description in binding_rows(bindings):
            table.add_row(keys, description)
        table.add_row("", "")
    table.add_row("[u]Mouse[/u]", "")
    for control, description in mouse:
        table.add_row(control, description)
    return table
