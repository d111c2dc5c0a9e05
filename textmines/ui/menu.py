"""A small menu bar for Textual: a row of titles and a drop-down on a modal screen.

The app owns the F10 key: bind it to an app action that calls `MenuBar.open_menu()`, e.g.

    BINDINGS = [Binding("f10", "open_menu", "Menu", id="menu.open")]

    def action_open_menu(self) -> None:
        self.query_one(MenuBar).open_menu()

The bar itself is not focusable, so a binding on it would never fire while the game has focus.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import ClassVar, NamedTuple

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from textmines.ui.colours import PieceStyle
from textmines.ui.line import OneLineWidget, Piece
from textmines.ui.screens.dialog import Dialog

CHECK_MARK = "✓"


class MenuItem(NamedTuple):
    """One entry of a drop-down.

    `checked` makes the item checkable; it is called each time the menu opens. `group` names a
    set of mutually exclusive items (e.g. the presets); the marks still come from `checked`.
    """

    label: str
    action: str
    key: str = ""
    checked: Callable[[], bool] | None = None
    group: str | None = None

    @classmethod
    def separator(cls) -> MenuItem:
        return SEPARATOR

    @property
    def is_separator(self) -> bool:
        return not self.label and not self.action


SEPARATOR = MenuItem("", "")


class Menu(NamedTuple):
    title: str
    items: tuple[MenuItem, ...]


def _item_prompt(item: MenuItem, label_width: int, key_width: int) -> Text:
    mark = CHECK_MARK if item.checked is not None and item.checked() else " "
    prompt = Text(f"{mark} {item.label.ljust(label_width)}")
    if key_width:
        prompt.append("  ")
        prompt.append(item.key.rjust(key_width), style="dim")
    return prompt


class MenuDropDown(OptionList):
    """The list of items under an open title."""


class MenuScreen(Dialog[MenuItem | None]):
    """The open drop-down. Dismissed with the chosen item, or None when closed."""

    DEFAULT_CSS = """
    MenuScreen {
        background: transparent;
        overflow: hidden;
    }
    MenuScreen > MenuDropDown, MenuScreen > MenuDropDown:focus {
        /* Placed by its offset from the screen's corner, whatever the app aligns screens to. */
        position: absolute;
        border: round $accent;
        background: $panel;
        color: $foreground;
        padding: 0 1;
        scrollbar-size-vertical: 1;
    }
    """
    # Priority: the drop-down inherits left/right scrolling bindings we want to override.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,f10", "close", "Close menu", show=False, priority=True),
        Binding("left", "switch(-1)", "Previous menu", show=False, priority=True),
        Binding("right", "switch(1)", "Next menu", show=False, priority=True),
    ]
    #: Alt + a title's first letter opens that menu, from the game or another menu.
    MNEMONIC_PREFIX = "alt+"

    def __init__(self, bar: MenuBar, index: int) -> None:
        super().__init__()
        self.bar = bar
        self.index = index
        self._content_width = 0

    @property
    def menu(self) -> Menu:
        return self.bar.menus[self.index]

    @property
    def dropdown(self) -> MenuDropDown:
        return self.query_one(MenuDropDown)

    def compose(self) -> ComposeResult:
        yield MenuDropDown()

    def on_mount(self) -> None:
        self.show_menu(self.index)

    def on_resize(self) -> None:
        self._place()

    def show_menu(self, index: int) -> None:
        """Fill the drop-down with menu `index`, reading checked states now."""
        self.index = index % len(self.bar.menus)
        items = self.menu.items
        label_width = max((len(item.label) for item in items), default=0)
        key_width = max((len(item.key) for item in items), default=0)
        options: list[Option | None] = [
            None
            if item.is_separator
            else Option(_item_prompt(item, label_width, key_width), id=str(position))
            for position, item in enumerate(items)
        ]
        dropdown = self.dropdown
        dropdown.clear_options()
        dropdown.add_options(options)
        dropdown.highlighted = 0 if dropdown.option_count else None
        # check column + space + label (+ gap + key), plus padding and border.
        self._content_width = 2 + label_width + (2 + key_width if key_width else 0)
        self.bar.set_active(self.index)
        self._place()
        dropdown.focus()

    def _place(self) -> None:
        """Put the drop-down under its title, kept inside the screen."""
        if not self.is_mounted:
            return
        width, height = self.size
        # Padding and border take 4 columns; one more keeps a scrollbar from wrapping items.
        dropdown_width = min(self._content_width + 5, max(width, 1))
        x = min(self.bar.title_x(self.index), max(width - dropdown_width, 0))
        dropdown = self.dropdown
        dropdown.styles.width = dropdown_width
        dropdown.styles.max_height = max(height - 1, 1)
        dropdown.styles.offset = (x, 1)

    def action_close(self) -> None:
        self.dismiss(None)

    def on_key(self, event: events.Key) -> None:
        # Alt+letter moves to the menu of that letter, as in desktop menus.
        if not event.key.startswith(self.MNEMONIC_PREFIX):
            return
        letter = event.key.removeprefix(self.MNEMONIC_PREFIX)
        for index, menu in enumerate(self.bar.menus):
            if menu.title[:1].lower() == letter:
                event.stop()
                self.show_menu(index)
                return

    def action_switch(self, step: int) -> None:
        self.show_menu(self.index + step)

    @on(OptionList.OptionSelected)
    def _item_chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(self.menu.items[int(event.option.id or 0)])

    def on_mouse_move(self, event: events.MouseMove) -> None:
        # As in desktop menu bars: with a menu open, pointing at another title opens its menu.
        title = self.bar.title_at(event.screen_x, event.screen_y)
        if title is not None and title != self.index:
            self.show_menu(title)

    def on_click(self, event: events.Click) -> None:
        x, y = event.screen_x, event.screen_y
        if self.dropdown.region.contains(x, y):
            return
        event.stop()
        title = self.bar.title_at(x, y)
        if title is None or title == self.index:
            self.dismiss(None)
        else:
            self.show_menu(title)


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
        return any(
            isinstance(screen, MenuScreen) and screen.bar is self
            for screen in self.app.screen_stack
        )

    def open_menu(self, index: int = 0) -> None:
        """Open menu `index` (wrapping); does nothing if a menu is already open."""
        if not self.menus or self.is_open:
            return
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
        self.set_active(None)
        if item is None:
            return
        self.post_message(self.ItemSelected(item.action, item))
        await self.app.run_action(item.action)
