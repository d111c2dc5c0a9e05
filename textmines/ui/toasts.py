"""The game's toasts: one of a kind at a time, and out of the way of the board's cursor.

``TextminesApp.notify`` uses both: a toast replaces, rather than stacks on, the last one of
its kind (``ToastKinds``), and goes to the corner of the screen farthest from the cursor
(``place_toasts``).
"""

from __future__ import annotations

from collections.abc import Iterable

from textual.notifications import Notification
from textual.screen import Screen

from textmines.ui.board.board_view import BoardView
from textmines.ui.game.game_screen import TOAST_RACK
from textmines.ui.widgets.header import GameHeader


class ToastKinds:
    """The kind of each toast shown with one (``"hint"``, ``"zoom"``...), by its identity."""

    def __init__(self) -> None:
        self._kinds: dict[str, str] = {}

    def replaced(
        self, shown: Iterable[Notification], message: str, title: str, kind: str | None
    ) -> list[Notification]:
        """The toasts of ``shown`` that a new one replaces: those of its ``kind``, and any
        with the same text."""
        return [
            toast
            for toast in shown
            if (kind is not None and self._kinds.get(toast.identity) == kind)
            or (toast.message == message and toast.title == title)
        ]

    def of_kind(self, shown: Iterable[Notification], kind: str) -> list[Notification]:
        """The toasts of ``shown`` of ``kind``."""
        return [toast for toast in shown if self._kinds.get(toast.identity) == kind]

    def keep(
        self, notification: Notification, kind: str | None, shown: Iterable[Notification]
    ) -> None:
        """Note the kind of a new toast; forget those of toasts no longer ``shown``."""
        live = {toast.identity for toast in shown}
        self._kinds = {key: k for key, k in self._kinds.items() if key in live}
        if kind is not None:
            self._kinds[notification.identity] = kind


def place_toasts(screen: Screen[object], board: BoardView, header: GameHeader) -> None:
    """Put the toasts in the screen half away from the cursor, left or right, top or
    bottom, so that a hint never hides the cell it points at."""
    if not board.is_mounted or board.screen is not screen:
        # Another screen (the replay viewer): Textual's corner, at the bottom.
        screen.remove_class("-toasts-left", "-toasts-top")
        return
    x, y = board.cursor_screen_offset()
    top = y >= screen.size.height // 2
    screen.set_class(x >= screen.size.width // 2, "-toasts-left")
    screen.set_class(top, "-toasts-top")
    # At the top they start below the header: the counter and the timer stay in sight.
    for rack in screen.query(f"#{TOAST_RACK}"):
        if top:
            rack.styles.margin = (max(1, header.region.bottom), 0, 0, 0)
        else:
            rack.styles.clear_rule("margin")
