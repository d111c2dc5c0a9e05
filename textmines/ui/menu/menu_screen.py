"""The open drop-down of a ``MenuBar`` (``menu.py``): a modal screen with the list of one
menu's items under its title. Loaded when a menu first opens: the game's first frame needs only
the bar."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Protocol

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from textmines.ui.menu.items import Menu, MenuItem
from textmines.ui.screens.dialog import Dialog

CHECK_MARK = "✓"


class MenuOwner(Protocol):
    """The bar a drop-down belongs to (``MenuBar``)."""

    @property
    def menus(self) -> Sequence[Menu]: ...

    def set_active(self, index: int | None) -> None:
        """Highlight the title of the open menu (None: no menu open)."""

    def title_x(self, index: int) -> int:
        """Screen column where title ``index`` begins."""

    def title_at(self, x: int, y: int) -> int | None:
        """Index of the title at screen coordinates, if any."""


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

    def __init__(self, bar: MenuOwner, index: int) -> None:
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
