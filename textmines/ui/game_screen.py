"""GameScreen: the screen the game is played on, the bottom of the screen stack."""

from __future__ import annotations

from collections.abc import Callable

from textual import events
from textual.geometry import Region, Size
from textual.message import Message
from textual.screen import Screen
from textual.widget import Widget

#: The id of the container Textual shows the toasts in.
TOAST_RACK = "textual-toastrack"


class GameScreen(Screen[None]):
    """The board's screen. It says when another screen (a dialog, a menu, the command palette)
    covers it and when it is back on top, so that the app can stop the clock meanwhile, as the
    classic game does under its dialogs.
    """

    # The board has the keys on this screen only: a dialog focuses its own first control.
    AUTO_FOCUS = "BoardView"

    class Covered(Message):
        """Another screen went over this one (``covered``), or this one is on top again."""

        def __init__(self, covered: bool) -> None:
            super().__init__()
            self.covered = covered

    def __init__(self, on_resize: Callable[[Size], None] | None = None) -> None:
        super().__init__(id="_default")
        self._resized = on_resize

    def on_resize(self, event: events.Resize) -> None:
        """Let the app fit the board to the new size first: Textual dispatches a subclass's
        handler before ``Screen._on_resize`` lays the screen out, so the first frame at the
        new size already has the new tiles (one layout, not one at each size)."""
        if self._resized is not None:
            self._resized(event.size)

    def get_widget_at(self, x: int, y: int) -> tuple[Widget, Region]:
        """The widget under a screen point for the mouse, looking through the toasts: a
        message over the board never takes the click meant for the cell under it (it goes
        when its time is up)."""
        for widget, region in self.get_widgets_at(x, y):
            if not any(node.id == TOAST_RACK for node in widget.ancestors_with_self):
                return widget, region
        return super().get_widget_at(x, y)

    def on_screen_suspend(self) -> None:
        # Textual shows the messages again on the screen on top; left here too, each would
        # show twice, dimmed behind a dialog and over its buttons. They come back here when
        # this screen is on top again (Textual refreshes the toasts of the screen resumed).
        for rack in self.query(f"#{TOAST_RACK}"):
            rack.remove_children()
        self.post_message(self.Covered(True))

    def on_screen_resume(self) -> None:
        self.post_message(self.Covered(False))
