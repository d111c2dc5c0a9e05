"""The theme picker: every theme, bundled and the player's own, in one list."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from textmines.themes import MinesTheme
from textmines.ui.screens.dialog import Dialog


def theme_prompt(theme: MinesTheme, current: bool, name_width: int = 0) -> Text:
    """One line of the list: a mark for the current theme, the name (padded to
    ``name_width``), and where it is from.

    Built as ``Text``, never markup: names and paths come from the player's files.
    """
    prompt = Text("✓ " if current else "  ")
    prompt.append(theme.name.ljust(name_width), style="bold" if current else "")
    origin = "bundled" if theme.bundled else f"user: {theme.source}"
    prompt.append(f"  {origin}", style="dim")
    return prompt


class ThemeScreen(Dialog[str | None]):
    """Dismissed with the chosen theme's name, or None when closed."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,t", "close", "Close", show=False, priority=True),
    ]

    DEFAULT_CSS = """
    ThemeScreen { align: center middle; }
    ThemeScreen > Vertical {
        width: auto; min-width: 30; max-width: 100%; height: auto; max-height: 100%;
        border: round $primary; background: $surface; padding: 0 1;
    }
    ThemeScreen #title { text-style: bold; padding: 0 0 1 0; }
    ThemeScreen OptionList { width: auto; max-width: 100%; height: auto; max-height: 20; }
    ThemeScreen #hint { color: $text-muted; padding: 1 0 0 0; }
    """

    def __init__(self, themes: Mapping[str, MinesTheme], current: str) -> None:
        super().__init__()
        self.themes = dict(themes)
        self.current = current

    def compose(self) -> ComposeResult:
        names = list(self.themes)
        width = max((len(name) for name in names), default=0)
        with Vertical():
            yield Static("Theme", id="title")
            yield OptionList(
                *(
                    Option(theme_prompt(theme, name == self.current, width), id=name)
                    for name, theme in self.themes.items()
                )
            )
            yield Static("Enter: use it · Esc: close", id="hint")
        self._start = names.index(self.current) if self.current in names else 0

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        options.highlighted = self._start
        options.focus()

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)

    def action_close(self) -> None:
        self.dismiss(None)
