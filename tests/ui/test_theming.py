"""What ThemedApp relies on in Textual's App, pinned: if Textual changes it, these fail."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.app import InvalidThemeError
from textual.color import Color
from textual.widgets import OptionList

from tests.helpers import FakeClock, Play
from textmines.config import GameConfig
from textmines.themes import find_bundled_dir, load_themes
from textmines.ui.app import TextminesApp, bundled_themes
from textmines.ui.screens.themes import ThemeScreen
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
    # Textual's own themes are gone; ours are registered as they are first shown.
    assert set(app.available_themes) == {"classic"}
    pilot = await play.run(app)
    with pytest.raises(InvalidThemeError):
        app.theme = "textual-dark"
    app.action_theme("dark")
    await pilot.pause()
    assert set(app.available_themes) == {"classic", "dark"}
    assert applied == ["dark"] and app.mines_theme is themes["dark"]
    assert app.theme_variables["mines-flag"] == themes["dark"].board["flag"]
    app.theme = "classic"  # as Textual's own "Theme" command would
    await pilot.pause()
    assert applied == ["dark", "classic"] and app.mines_theme is themes["classic"]


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
    app.action_theme("classic" if first == "ascii" else "ascii")
    await pilot.pause()
    converts = any(isinstance(f, ANSIToTruecolor) for f in app.get_line_filters())
    assert converts == (first == "ascii")


def bundled_copy(tmp_path: Path) -> Path:
    """A copy of the bundled themes' folder, to spoil."""
    folder = tmp_path / "bundled"
    folder.mkdir()
    for path in (find_bundled_dir() or Path("themes")).glob("*.toml"):
        (folder / path.name).write_text(path.read_text("utf-8"), "utf-8")
    return folder


async def test_a_start_registers_and_reads_only_its_theme_but_lists_every_one(
    tmp_path: Path, play: Play
) -> None:
    folder = bundled_copy(tmp_path)
    (folder / "broken.toml").write_text("[board\n")  # a broken install, found when listed
    themes, warnings = load_themes(None, bundled_dir=folder)
    app = TextminesApp(GameConfig(seed=1), clock=FakeClock(), themes=themes, theme=themes["dark"])
    assert set(app.available_themes) == {"dark"}
    pilot = await play.run(app, notifications=True)
    await pilot.pause()
    assert warnings == [] and app.theme == "dark"
    every = ["classic", "ascii", "colorblind", "dark", "high-contrast", "light"]
    titles = [command.title for command in app.get_system_commands(app.screen)]
    assert [title for title in titles if title.startswith("Theme: ")] == [
        f"Theme: {name}" for name in every
    ]
    await pilot.pause()
    problems = [str(toast.message) for toast in app.toasts]
    assert len(problems) == 1 and problems[0].startswith(f"{folder / 'broken.toml'}: ")
    app.action_choose_theme()
    await pilot.pause()
    assert isinstance(app.screen, ThemeScreen)
    options = app.screen.query_one(OptionList)
    assert [options.get_option_at_index(i).id for i in range(options.option_count)] == every
    assert len(app.toasts) == 1, "a broken theme is told of once"
    assert set(app.available_themes) == {"dark"}, "listed, not registered"


async def test_a_user_theme_on_a_bundled_theme_other_than_classic(
    tmp_path: Path, play: Play
) -> None:
    (tmp_path / "mine.toml").write_text('base = "high-contrast"\n[board]\nflag = "#00ff00"\n')
    themes, warnings = load_themes(tmp_path)
    app = ThemedApp(themes, None)
    pilot = await play.run(app)
    app.action_theme("mine")
    await pilot.pause()
    assert warnings == [] and app.theme == "mine"
    assert set(app.available_themes) == {"classic", "mine"}
    contrast = themes["high-contrast"]
    assert app.theme_variables["mines-flag"] == "#00FF00"
    assert app.theme_variables["mines-revealed"] == contrast.board["revealed"]
    assert app.mines_theme.glyphs == contrast.glyphs
