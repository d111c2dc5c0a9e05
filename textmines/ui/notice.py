"""Notice: a message that stands in for the board (paused, terminal too small)."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Static


class Notice(Static):
    """Mounted on the game's screen only while shown, with the id of what it says: ``paused``
    or ``too-small``. The screen then has the class ``-paused`` or ``-too-small``.

    Its rules reach the screen and the board (``SCOPED_CSS`` off). They are added to the
    stylesheet when the first notice is mounted, so start-up does not parse or match them.
    """

    SCOPED_CSS = False
    DEFAULT_CSS: ClassVar[str] = """
    #paused {
        width: auto;
        padding: 1 2;
        border: round $primary;
        background: $surface;
        color: $foreground;
        content-align: center middle;
        text-align: center;
    }
    Screen.-paused BoardView {
        display: none;
    }
    #too-small {
        width: 100%;
        height: 100%;
        content-align: center middle;
        text-align: center;
    }
    Screen.-too-small > * {
        display: none;
    }
    Screen.-too-small > #too-small {
        display: block;
    }
    """


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
        existing.first(Notice).update(message)
    else:
        notice = Notice(message, id=name, markup=False)
        if size is not None:
            notice.styles.width, notice.styles.height = size
        (parent or screen).mount(notice)
    # After the mount: the first notice brings the rules that this class switches on.
    screen.set_class(message is not None, f"-{name}")
