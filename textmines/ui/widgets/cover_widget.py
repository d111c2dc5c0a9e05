"""Cover: the widget of a message that stands in for the board (``cover.show_cover``)."""

from __future__ import annotations

from typing import ClassVar

from textual.widgets import Static


class Cover(Static):
    """Mounted on the game's screen only while shown, with the id of what it says: ``paused``
    or ``too-small``. The screen then has the class ``-paused`` or ``-too-small``.

    Its rules reach the screen and the board (``SCOPED_CSS`` off). They are added to the
    stylesheet when the first cover is mounted, so start-up does not parse or match them.
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


__all__ = ["Cover"]
