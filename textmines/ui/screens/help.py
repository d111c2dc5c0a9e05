"""The controls, generated from the bindings so the help never drifts from the keys."""

from __future__ import annotations

from collections.abc import Iterable

from rich.table import Table
from textual.binding import Binding, BindingType

from textmines.ui.keys.keymap import key_label


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
