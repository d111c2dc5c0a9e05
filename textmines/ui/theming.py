"""Installing textmines themes into Textual: the one place that leans on how Textual's App
handles themes (tests/ui/test_theming.py pins that behaviour).

A textmines theme is a Textual theme (the screen's colours) plus the board's colours as CSS
variables (``$mines-*``) and glyphs. ``ThemedApp`` registers every theme and starts on the
chosen one without the work Textual does for a theme switch, and keeps the board readable
whatever Textual theme is active (its own theme picker included).

Only the first theme is registered with Textual at start (and only it is read from its file,
see ``textmines.themes.load.Themes``); every other one is registered as it is first shown,
through ``use_theme``. Textual refuses ``App.theme`` set to a theme it has not registered, so
nothing here sets it any other way.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import cache, partial
from typing import TYPE_CHECKING

from textual.app import App, SystemCommand
from textual.filter import LineFilter
from textual.markup import escape as escape_markup
from textual.screen import Screen

from textmines.themes import DEFAULT_THEME, MinesTheme, Themes, to_textual_theme

if TYPE_CHECKING:
    from textmines.ui.drawing.ascii_filter import ASCIIFilter


@cache
def _ascii_filter() -> ASCIIFilter:
    """The filter of ASCII themes, made when one is first shown."""
    from textmines.ui.drawing.ascii_filter import ASCIIFilter

    return ASCIIFilter()


class ThemedApp(App[None]):
    """An app styled by textmines themes: ``themes`` by name, starting with ``theme`` (default:
    the classic one, whose absence is a broken install the command line reports first).

    ``App.theme`` names the theme on screen: the one place the choice lives. Only textmines
    themes are registered, so whatever sets it (our picker, Textual's "Theme" command, code)
    restyles everything through ``theme_applied``. A theme is registered as it is first
    shown: switch with ``use_theme`` or ``action_theme``, not by setting ``App.theme``.
    """

    #: False while App.__init__ runs: our theme is not registered yet (see get_css_variables).
    _theme_chosen = False

    def __init__(self, themes: Mapping[str, MinesTheme], theme: MinesTheme | None) -> None:
        # Set before App.__init__, which reads the theme variables. A copy that reads a
        # bundled theme's file only when the theme is needed.
        self.themes = Themes(themes)
        #: (theme name, whether it is an ASCII theme), for get_line_filters.
        self._ascii_for: tuple[str | None, bool] = ("", False)
        self._first_theme = theme or self.themes[DEFAULT_THEME]
        # A theme given as a file (--theme PATH) joins the list for this run, under its name.
        self.themes[self._first_theme.name] = self._first_theme
        #: The broken bundled themes the player has been told of (at start: by the caller).
        self._told = set(self.themes.broken)
        super().__init__()
        for name in list(self.available_themes):
            self.unregister_theme(name)  # Textual's own: they know nothing of the board
        self.register_theme(to_textual_theme(self._first_theme))
        # As App.__init__ does for its default theme: no watcher, no second pass over the CSS.
        self.set_reactive(App.theme, self._first_theme.name)
        self._theme_chosen = True
        self.stylesheet.set_variables(self.get_css_variables())
        self.set_class(self.mines_theme.dark, "-dark-mode", update=False)
        self.set_class(not self.mines_theme.dark, "-light-mode", update=False)
        if self.mines_theme.ansi_only:
            self.ansi_color = True  # its watcher turns off the truecolor filter

    @property
    def mines_theme(self) -> MinesTheme:
        """The textmines theme on screen (the one ``App.theme`` names)."""
        return self.themes[self.theme] if self._theme_chosen else self._first_theme

    def get_css_variables(self) -> dict[str, str]:
        # App.__init__ asks once for its default theme's variables, which ours replace straight
        # after: skip generating a whole colour system that nothing reads.
        return super().get_css_variables() if self._theme_chosen else {}

    def get_line_filters(self) -> Sequence[LineFilter]:
        # An ASCII theme: everything on screen in ASCII, not only the board (see ascii_filter).
        # Asked for by every widget at every repaint: the theme's answer is kept per theme.
        filters = super().get_line_filters()
        name = self.theme if self._theme_chosen else None
        if name != self._ascii_for[0]:
            self._ascii_for = (name, self.mines_theme.glyphs.ascii)
        return [*filters, _ascii_filter()] if self._ascii_for[1] else filters

    def get_theme_variable_defaults(self) -> dict[str, str]:
        # The board's colours, as CSS variables ($mines-*), beside the screen's.
        return {**super().get_theme_variable_defaults(), **self.mines_theme.board_variables()}

    def use_theme(self, theme: MinesTheme) -> None:
        """Show ``theme``, registered again: a theme of that name may have been replaced."""
        self.themes[theme.name] = theme
        self._ascii_for = ("", False)  # the theme of that name may have other glyphs now
        self.register_theme(to_textual_theme(theme))
        if self.theme == theme.name:
            self.refresh_css(animate=False)  # the name is the same, the colours may not be
            self.watch_theme(theme.name)
        else:
            self.theme = theme.name

    def watch_theme(self, name: str) -> None:
        # After Textual's own watcher has switched the colours.
        theme = self.themes[name]
        self.ansi_color = True if theme.ansi_only else None
        self.theme_applied(theme)

    def theme_applied(self, theme: MinesTheme) -> None:
        """``theme`` is on screen now: subclasses restyle what CSS does not (glyphs)."""

    def action_choose_theme(self) -> None:
        """Pick a theme from a list; it applies at once, mid-game included."""
        from textmines.ui.screens.themes import ThemeScreen

        def chosen(name: str | None) -> None:
            if name is not None:
                self.action_theme(name)

        every = dict(self.themes.items())  # reads the themes not read yet
        self._tell_broken()
        self.push_screen(ThemeScreen(every, self.mines_theme.name), chosen)

    def action_change_theme(self) -> None:
        # Textual's "Theme" command opens our picker, which shows the board in each theme.
        self.action_choose_theme()

    def action_theme(self, name: str) -> None:
        """Switch to the theme called ``name`` (theme_applied remembers it)."""
        theme = self.themes.get(name)
        if theme is None:
            if not self._tell_broken():
                self.notify(f"There is no theme called {name!r}.", severity="warning", markup=False)
            return
        self.use_theme(theme)

    def _tell_broken(self) -> bool:
        """Tell the player of each bundled theme found broken since (a broken install, found
        as its file is first read); whether there was one."""
        news = {name: error for name, error in self.themes.broken.items() if name not in self._told}
        self._told.update(news)
        for error in news.values():
            self.notify(f"{error}; theme skipped", severity="warning", markup=False)
        return bool(news)

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        every = list(self.themes.items())  # reads the themes not read yet
        self._tell_broken()
        for name, theme in every:
            origin = "bundled" if theme.bundled else f"from {theme.source}"
            # The palette reads titles as markup; names and paths come from the player's files.
            yield SystemCommand(
                f"Theme: {escape_markup(name)}",
                escape_markup(f"Switch to the {origin} theme"),
                partial(self.action_theme, name),
            )
