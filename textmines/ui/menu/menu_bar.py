"""A small menu bar for Textual: a row of titles and a drop-down on a modal screen.

The app owns the F10 key: bind it to an app action that calls `MenuBar.open_menu()`, e.g.

    BINDINGS = [Binding("f10", "open_menu", "Menu", id="menu.open")]

    def action_open_menu(self) -> None:
        self.query_one(MenuBar).open_menu()

The bar itself is not focusable, so a binding on it would never fire while the game has focus.
The open drop-down is a screen of its own (``menu_screen.py``), loaded when a menu first opens.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import ClassVar

from textual import events
from textual.message import Message
from textual.reactive import reactive

from textmines.ui.drawing.colours import PieceStyle
from textmines.ui.drawing.line import OneLineWidget, Piece
from textmines.ui.menu.items import Menu, MenuItem


class MenuBar(OneLineWidget):
    """One row of menu titles docked at the top; see the module docstring for F10."""

    DEFAULT_CSS = """
    MenuBar {
        dock: top;
        height: 1;
        width: 1fr;
        background: $panel;
        color: $foreground;
    }
    """
    PIECE_STYLES: ClassVar[Mapping[str, PieceStyle]] = {
        "hover": PieceStyle(background="boost"),
        "active": PieceStyle(color="text", background="accent", bold=True),
    }

    #: The title under the mouse, and the title whose menu is open.
    hover: reactive[int | None] = reactive(None)
    active: reactive[int | None] = reactive(None)

    class ItemSelected(Message):
        """Posted when an item is chosen, just before its action runs."""

        def __init__(self, action: str, item: MenuItem | None = None) -> None:
            super().__init__()
            self.action = action
            self.item = item

    def __init__(
        self,
        menus: Sequence[Menu],
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.menus: tuple[Menu, ...] = tuple(menus)

    def left(self, width: int) -> list[Piece]:
        pieces: list[Piece] = []
        for index, menu in enumerate(self.menus):
            style = "active" if index == self.active else "hover" if index == self.hover else None
            pieces.append((f" {menu.title} ", style))
        return pieces

    def all_items(self) -> Iterator[tuple[str, MenuItem]]:
        """(menu title, item) for every item that is not a separator."""
        for menu in self.menus:
            for item in menu.items:
                if not item.is_separator:
                    yield menu.title, item

    @property
    def is_open(self) -> bool:
        from textmines.ui.menu.menu_screen import MenuScreen

        return any(
            isinstance(screen, MenuScreen) and screen.bar is self
            for screen in self.app.screen_stack
        )

    def open_menu(self, index: int = 0) -> None:
        """Open menu `index` (wrapping); does nothing if a menu is already open."""
        if not self.menus or self.is_open:
            return
        from textmines.ui.menu.menu_screen import MenuScreen  # loaded when a menu first opens

        self.app.push_screen(MenuScreen(self, index % len(self.menus)), self._menu_closed)

    def action_open_menu(self, index: int = 0) -> None:
        self.open_menu(index)

    def set_active(self, index: int | None) -> None:
        """Highlight the title of the open menu (None: no menu open)."""
        self.active = index

    def title_x(self, index: int) -> int:
        """Screen column where title ``index`` begins."""
        return self.region.x + self.left_spans()[index][0]

    def title_at(self, x: int, y: int) -> int | None:
        """Index of the title at screen coordinates, if any."""
        if y != self.region.y:
            return None
        return self.left_piece_at(x - self.region.x)

    def on_mouse_move(self, event: events.MouseMove) -> None:
        self.hover = self.left_piece_at(event.x) if event.y == 0 else None

    def on_leave(self) -> None:
        self.hover = None

    def on_click(self, event: events.Click) -> None:
        index = self.left_piece_at(event.x) if event.y == 0 else None
        if index is not None:
            event.stop()
            self.open_menu(index)

    async def _menu_closed(self, item: MenuItem | None) -> None:
        # Called after the menu screen left the stack, so the action may push its own screen.
        # An item's action is the bar's screen's (``app.`` ones the app's), as a binding of
        # that screen would be.
        self.set_active(None)
        if item is None:
            return
        self.post_message(self.ItemSelected(item.action, item))
        await self.app.run_action(item.action, self.screen)
