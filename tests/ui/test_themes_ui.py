"""Themes in the running game: every bundled theme renders, switching is live and kept."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.command import CommandList
from textual.pilot import Pilot
from textual.widgets import OptionList

from tests.helpers import FakeClock, Play, make_app, wait_until
from textmines.config import GameConfig
from textmines.store.settings import load_settings
from textmines.ui.app import TextminesApp, bundled_themes
from textmines.ui.board.board_view import BoardView
from textmines.ui.screens.themes import ThemeScreen
from textmines.ui.widgets.header import GameHeader


@pytest.mark.parametrize("name", list(bundled_themes()))
def test_every_bundled_theme_renders(snap_compare: Any, name: str) -> None:
    clock = FakeClock()
    app = make_app(clock, theme=name)

    async def play(pilot: Pilot[None]) -> None:
        await pilot.press("space")  # opens most of the board: every kind of cell shows
        clock.advance(7)
        await pilot.press("left", "left", "left", "f", "up", "up", "up", "f", "f")
        await wait_until(pilot, lambda: app.header.seconds == 8, "the timer to tick")

    assert snap_compare(app, terminal_size=(60, 20), run_before=play)


async def test_switching_theme_mid_game_keeps_the_game_and_is_saved(
    tmp_path: Path, play: Play
) -> None:
    settings_file = tmp_path / "settings.toml"
    app = TextminesApp(GameConfig(seed=1), clock=FakeClock(), settings_path=settings_file)
    pilot = await play.run(app)
    await pilot.press("space", "left", "f")
    game, view = app.game, app.game.view_text()
    await pilot.press("t")
    assert isinstance(app.screen, ThemeScreen)
    names = list(app.themes)
    # Move the highlight from classic (first) to ascii and take it.
    await pilot.press(*["down"] * names.index("ascii"), "enter")
    await pilot.pause()
    assert app.mines_theme.name == "ascii" and app.theme == "ascii"
    assert app.game is game and app.game.view_text() == view
    board = app.query_one(BoardView)
    row = board.render_line(board.cursor[1] - int(board.scroll_offset.y)).text
    assert "[]" in row and "■" not in row
    assert app.query_one(GameHeader).face_text == ":)"
    await play.close()
    assert load_settings(settings_file)[0].theme == "ascii"


async def test_switching_to_a_wider_cell_keeps_the_cursor_under_the_mouse(play: Play) -> None:
    app, pilot = await play()
    wide = bundled_themes()["classic"]

    app.themes["wide"] = wide._replace(name="wide", glyphs=wide.glyphs._replace(cell_width=3))
    app.action_theme("wide")
    await pilot.pause()
    board = app.query_one(BoardView)
    assert board.virtual_size.width == 9 * 3
    assert board.content_region.width == 27


async def test_textuals_theme_command_opens_our_picker_and_any_switch_is_whole(
    tmp_path: Path,
    play: Play,
) -> None:
    settings_file = tmp_path / "settings.toml"
    app = TextminesApp(GameConfig(seed=1), clock=FakeClock(), settings_path=settings_file)
    pilot = await play.run(app)
    app.action_change_theme()  # Textual's "Theme" command in the palette
    await pilot.pause()
    assert isinstance(app.screen, ThemeScreen)
    await pilot.press("escape")
    app.action_theme("ascii")  # registers ascii with Textual, as it is first shown
    app.action_theme("classic")
    await pilot.pause()
    app.theme = "ascii"  # whoever sets the name gets the glyphs and faces too
    await pilot.pause()
    assert app.mines_theme.name == "ascii"
    assert app.query_one(GameHeader).face_text == ":)"
    board = app.query_one(BoardView)
    assert "[]" in board.render_line(0).text
    await play.close()
    assert load_settings(settings_file)[0].theme == "ascii"


async def test_every_theme_is_in_the_command_palette(play: Play) -> None:
    app = make_app()
    await play.run(app)
    titles = {command.title for command in app.get_system_commands(app.screen)}
    for name in bundled_themes():
        assert f"Theme: {name}" in titles


async def test_unknown_theme_name_is_refused_with_a_message(play: Play) -> None:
    app, pilot = await play()
    app.action_theme("no-such-theme")
    await pilot.pause()
    assert app.mines_theme.name == "classic"
    assert any("no-such-theme" in str(n.message) for n in app.toasts)


@pytest.mark.slow
async def test_theme_names_from_files_are_never_read_as_markup(play: Play) -> None:

    themes = dict(bundled_themes())
    odd = themes["dark"]._replace(name="[bold red]odd[/]")
    themes[odd.name] = odd
    app = TextminesApp(GameConfig(seed=1), clock=FakeClock(), themes=themes)
    pilot = await play.run(app, size=(100, 30))
    await pilot.press("ctrl+p", *"odd")
    hits = app.screen.query_one(CommandList)
    await wait_until(pilot, lambda: hits.option_count > 0, "the palette's matches")
    prompts = [str(hits.get_option_at_index(i).prompt) for i in range(hits.option_count)]
    assert any("Theme: [bold red]odd[/]" in prompt for prompt in prompts), prompts
    await pilot.press("escape", "t")
    await pilot.pause()
    assert isinstance(app.screen, ThemeScreen)
    options = app.screen.query_one(OptionList)
    names = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
    assert any("[bold red]odd[/]" in name for name in names)


async def test_wide_and_combining_glyphs_keep_the_grid(play: Play) -> None:
    # An emoji flag (two columns) and "e" + a combining accent (one column) padded by code
    # points misaligned every row (issue 18). A plain covered cell shows its shadow, not the
    # theme's glyph: the accent goes on the question mark.

    from textmines.ui.board.board_view import BoardView

    themes = dict(bundled_themes())
    glyphs = themes["dark"].glyphs._replace(flag="💣", question="e\u0301")
    themes["dark"] = themes["dark"]._replace(glyphs=glyphs)
    app = TextminesApp(GameConfig(seed=1), clock=FakeClock(), themes=themes, theme=themes["dark"])
    pilot = await play.run(app, size=(60, 20))
    await pilot.press("f", "right", "f", "f")
    await pilot.pause()
    board = app.query_one(BoardView)
    widths = {board.render_line(y).cell_length for y in range(board.size.height)}
    assert widths == {board.size.width}
    text = "".join(s.text for y in range(board.size.height) for s in board.render_line(y))
    assert "💣" in text and "e\u0301" in text
