"""What ThemedApp relies on in Textual's App, pinned: if Textual changes it, these fail."""

from __future__ import annotations

import pytest
from textual.app import InvalidThemeError
from textual.color import Color

from tests.helpers import Play
from textmines.ui.app import bundled_themes
from textmines.ui.theming import ThemedApp


class Spy(ThemedApp):
    """Notes, at each call, whether our theme was installed yet."""

    def __init__(self, theme: str) -> None:
        self.calls: list[bool] = []
        themes = bundled_themes()
        super().__init__(themes, themes[theme])

    def get_css_variables(self) -> dict[str, str]:
        self.calls.append(self._theme_chosen)
        return super().get_css_variables()


def test_app_init_asks_for_css_variables_before_our_theme_is_in() -> None:
    # The skipped colour system (get_css_variables returns {} then) is App.__init__'s call.
    app = Spy("dark")
    assert app.calls[0] is False
    assert True in app.calls, "the installed theme's variables were read once it was in"


async def test_the_chosen_theme_is_active_from_the_first_frame(play: Play) -> None:
    theme = bundled_themes()["light"]
    app = Spy("light")
    assert app.theme == "light" and app.has_class("-light-mode")
    pilot = await play.run(app)
    await pilot.pause()
    variables = app.theme_variables
    assert variables["mines-flag"] == theme.board["flag"]
    assert app.screen.styles.background == Color.parse(variables["background"])


async def test_only_our_themes_can_be_set_and_any_setter_restyles_through_the_hook(
    play: Play,
) -> None:
    themes = bundled_themes()
    applied: list[str] = []
    app = Spy("classic")
    app.theme_applied = lambda theme: applied.append(theme.name)  # type: ignore[method-assign]
    assert set(app.available_themes) == set(themes), "Textual's own themes are gone"
    pilot = await play.run(app)
    with pytest.raises(InvalidThemeError):
        app.theme = "textual-dark"
    app.theme = "dark"  # as Textual's own "Theme" command would
    await pilot.pause()
    assert applied == ["dark"] and app.mines_theme is themes["dark"]
    assert app.theme_variables["mines-flag"] == themes["dark"].board["flag"]


async def test_applying_a_theme_switches_colours_and_ansi_mode(play: Play) -> None:
    themes = bundled_themes()
    app = Spy("classic")
    pilot = await play.run(app)
    app.use_theme(themes["ascii"])
    await pilot.pause()
    assert app.theme == "ascii" and app.ansi_color
    app.use_theme(themes["dark"])
    await pilot.pause()
    assert app.theme == "dark" and not app.ansi_color
    assert app.theme_variables["mines-flag"] == themes["dark"].board["flag"]


@pytest.mark.parametrize("first", ["ascii", "classic"])
async def test_an_ansi_theme_writes_the_terminals_own_colours_however_it_was_chosen(
    first: str,
    play: Play,
) -> None:
    """Textual turns 16-colour output into its own truecolour palette unless ``ansi_color``
    is set through its watcher: at start-up as after a switch, ascii must keep the terminal's."""
    from textual.filter import ANSIToTruecolor

    app = Spy(first)
    pilot = await play.run(app)
    await pilot.pause()
    converts = any(isinstance(f, ANSIToTruecolor) for f in app.get_line_filters())
    assert converts == (first != "ascii")
    app.theme = "classic" if first == "ascii" else "ascii"
    await pilot.pause()
    converts = any(isinstance(f, ANSIToTruecolor) for f in app.get_line_filters())
    assert converts == (first == "ascii")
