"""Installing textmines themes into Textual: the one place that leans on how Textual's App
handles themes (tests/ui/test_theming.py pins that behaviour).

A textmines theme is a Textual theme (the screen's colours) plus the board's colours as CSS
variables (``$mines-*``) and glyphs. ``ThemedApp`` registers every theme and starts on the
chosen one without the work Textual does for a theme switch, and keeps the board readable
whatever Textual theme is active (its own theme picker included).
"""

from __future__ import annotations

from collections.abc import Mapping

from textual.app import App

from textmines.themes import DEFAULT_THEME, MinesTheme, to_textual_theme


class ThemedApp(App[None]):
    """An app styled by textmines themes: ``themes`` by name, starting with ``theme`` (default:
    the classic one, whose absence is a broken install the command line reports first)."""

    #: False while App.__init__ runs: our theme is not registered yet (see get_css_variables).
    _theme_chosen = False

    def __init__(self, themes: Mapping[str, MinesTheme], theme: MinesTheme | None) -> None:
        # Set before App.__init__, which reads the theme variables.
        self.themes = dict(themes)
        self.mines_theme = theme or self.themes[DEFAULT_THEME]
        # A theme given as a file (--theme PATH) joins the list for this run, under its name.
        self.themes[self.mines_theme.name] = self.mines_theme
        super().__init__()
        for each in self.themes.values():
            self.register_theme(to_textual_theme(each))
        # As App.__init__ does for its default theme: no watcher, no second pass over the CSS.
        self.set_reactive(App.theme, self.mines_theme.name)
        self._theme_chosen = True
        self.stylesheet.set_variables(self.get_css_variables())
        self.set_class(self.mines_theme.dark, "-dark-mode", update=False)
        self.set_class(not self.mines_theme.dark, "-light-mode", update=False)
        if self.mines_theme.ansi_only:
            self.set_reactive(App.ansi_color, True)

    def get_css_variables(self) -> dict[str, str]:
        # App.__init__ asks once for its default theme's variables, which ours replace straight
        # after: skip generating a whole colour system that nothing reads.
        return super().get_css_variables() if self._theme_chosen else {}

    def get_theme_variable_defaults(self) -> dict[str, str]:
        # Whatever Textual theme is active (its own picker included), the board's colours
        # come from the textmines theme, so the board stays readable.
        return {**super().get_theme_variable_defaults(), **self.mines_theme.board_variables()}

    def apply_mines_theme(self, theme: MinesTheme) -> None:
        """Switch the screen's colours to ``theme`` (registered again: it may have been
        replaced since the start); glyphs are the widgets' business."""
        self.mines_theme = theme
        self.register_theme(to_textual_theme(theme))
        self.ansi_color = True if theme.ansi_only else None
        if self.theme == theme.name:
            self.refresh_css(animate=False)  # the name is the same, the colours may not be
        else:
            self.theme = theme.name
