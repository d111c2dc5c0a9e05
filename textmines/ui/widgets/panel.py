"""GamePanel: the header and the board in one bevelled frame, as in Windows Minesweeper.

The panel is raised (light top and left edges, dark bottom and right); inside it the counter,
face and timer sit on one strip exactly as wide as the board below, and the board is sunken
into it. The panel is centred in the room between the menu bar and the status line.
"""

from __future__ import annotations

from typing import ClassVar, Final

from textual.widget import Widget

#: Screen cells the panel adds around the board's tiles: (columns, rows). The frame on each
#: side, the board's sunken edge on each side, and the header row.
CHROME: Final = (4, 5)
#: The same in a short terminal, where the frames go (see app.tcss): the header row only.
COMPACT_CHROME: Final = (0, 1)


class GamePanel(Widget):
    """The framed header and board; its children are the app's header and board."""

    # The frames' kind is the theme's (``$mines-edge``): half blocks, or + - | in an ASCII theme.
    DEFAULT_CSS: ClassVar[str] = """
    GamePanel {
        layout: vertical;
        overflow: hidden hidden;
        width: auto;
        height: auto;
        max-width: 100%;
        max-height: 100%;
        background: $mines-frame;
        border-top: $mines-edge $mines-bevel-light;
        border-left: $mines-edge $mines-bevel-light;
        border-bottom: $mines-edge $mines-bevel-dark;
        border-right: $mines-edge $mines-bevel-dark;
    }
    GamePanel > GameHeader {
        width: 100%;
        background: $mines-frame;
    }
    GamePanel > BoardView {
        border-top: $mines-edge $mines-bevel-dark;
        border-left: $mines-edge $mines-bevel-dark;
        border-bottom: $mines-edge $mines-bevel-light;
        border-right: $mines-edge $mines-bevel-light;
    }
    """

    def resized(self) -> None:
        """The board or the header changed size: lay the panel out anew in the very next
        layout. Textual forgets a container's cached arrangement only when the changed child
        next goes idle, so a layout that comes first (the screen's own, on a terminal resize)
        would draw one frame at the old tile size."""
        for node in (self, *self.ancestors):
            if isinstance(node, Widget):
                node._clear_arrangement_cache()
