"""show_cover: a message that stands in for the board (paused, terminal too small).

The widget (``cover_widget.Cover``) and its rules load with the first cover shown: a start
shows none (a Textual widget class costs 1.5-2M instructions to create).
"""

from __future__ import annotations

from typing import Any

from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Static


def show_cover(
    screen: Screen[Any],
    name: str,
    message: str | None,
    *,
    parent: Widget | None = None,
    size: tuple[int, int] | None = None,
) -> None:
    """Show on ``screen`` (or with None remove) the cover ``name`` saying ``message``:
    mounted in ``parent`` (default: the screen) at ``size`` (default: its CSS size), and
    only while needed, since a hidden widget still costs time on every key press."""
    existing = screen.query(f"#{name}")
    if message is None:
        existing.remove()
    elif existing:
        existing.first(Static).update(message)
    else:
        from textmines.ui.widgets.cover_widget import Cover  # loaded with the first cover shown

        cover = Cover(message, id=name, markup=False)
        if size is not None:
            cover.styles.width, cover.styles.height = size
        (parent or screen).mount(cover)
    # After the mount: the first cover brings the rules that this class switches on.
    screen.set_class(message is not None, f"-{name}")
