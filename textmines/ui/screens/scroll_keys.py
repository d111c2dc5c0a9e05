"""The keys that scroll a screen's body (the statistics, the end-of-game box's figures): the
screen has ``action_scroll(direction)``, which scrolls its body by that direction."""

from __future__ import annotations

from typing import Final

from textual.binding import Binding

SCROLL_KEYS: Final = (
    Binding("up", "scroll('up')", "Scroll up", show=False),
    Binding("down", "scroll('down')", "Scroll down", show=False),
    Binding("pageup", "scroll('page_up')", "Page up", show=False),
    Binding("pagedown", "scroll('page_down')", "Page down", show=False),
    Binding("home", "scroll('home')", "Top", show=False),
    Binding("end", "scroll('end')", "Bottom", show=False),
)
