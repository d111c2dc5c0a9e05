"""show_notice: a message that stands in for the board (paused, terminal too small).

The widget (``notice_widget.Notice``) and its rules load with the first notice shown: a start
shows none (a Textual widget class costs 1.5-2M instructions to create).
"""

from __future__ import annotations

from typing import Any

from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Static


def show_notice(
    screen: Screen[Any],
    name: str,
    message: str | None,
    *,
    parent: Widget | None = None,
    size: tuple[int, int] | None = None,
) -> None:
    """Show on ``screen`` (or with None remove) the notice ``name`` saying ``message``:
    mounted in ``parent`` (default: the screen) at ``size`` (default: its CSS size), and
    only while needed, since a hidden widget still costs time on every key press."""
    existing = screen.query(f"#{name}")
    if message is None:
        existing.remove()
    elif existing:
        existing.first(Static).update(message)
    else:
        from textmines.ui.widgets.notice_widget import Notice  # loaded with the first notice shown

        notice = Notice(message, id=name, markup=False)
        if size is not None:
            notice.styles.width, notice.styles.height = size
        (parent or screen).mount(notice)
    # After the mount: the first notice brings the rules that this class switches on.
    screen.set_class(message is not None, f"-{name}")
