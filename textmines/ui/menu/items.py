"""What a menu bar shows: menus of items (``menu.py`` draws the bar, ``menu_screen.py`` the
open drop-down)."""

from __future__ import annotations

from collections.abc import Callable

from textmines.value import Value


class MenuItem(Value):
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


class Menu(Value):
    title: str
    items: tuple[MenuItem, ...]
