"""What ThemedApp relies on in Textual's App, pinned: if Textual changes it, these fail."""

from __future__ import annotations

from textual.color import Color

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


async def test_the_chosen_theme_is_active_from_the_first_frame() -> None:
    theme = bundled_themes()["light"]
    app = Spy("light")
    assert app.theme == "light" and app.has_class("-light-mode")
    async with app.run_test() as pilot:
        await pilot.pause()
        variables = app.theme_variables
        assert variables["mines-flag"] == theme.board["flag"]
        assert app.screen.styles.background == Color.parse(variables["background"])


async def test_a_textual_theme_keeps_the_board_colours_of_ours() -> None:
    theme = bundled_themes()["classic"]
    app = Spy("classic")
    async with app.run_test() as pilot:
        app.theme = "textual-dark"  # Textual's own picker can do this
        await pilot.pause()
        assert app.theme_variables["mines-flag"] == theme.board["flag"]


async def test_applying_a_theme_switches_colours_and_ansi_mode() -> None:
    themes = bundled_themes()
    app = Spy("classic")
    async with app.run_test() as pilot:
        app.apply_mines_theme(themes["ascii"])
        await pilot.pause()
        assert app.theme == "ascii" and app.ansi_color
        app.apply_mines_theme(themes["dark"])
        await pilot.pause()
        assert app.theme == "dark" and not app.ansi_color
        assert app.theme_variables["mines-flag"] == themes["dark"].board["flag"]
