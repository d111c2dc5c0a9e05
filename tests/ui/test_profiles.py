"""A browser's tab (``--serve``): the page closing saves the game, and the player's name.

The tab's page and server are tested end to end in tests/web/test_browser.py; these are the app's
side of it, headless.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input

from tests.helpers import Play, new_stats, wait_until
from textmines.store.saves import load_game
from textmines.store.settings import load_settings
from textmines.ui.screens.player_name import PlayerNameScreen
from textmines.ui.screens.statistics import StatisticsScreen
from textmines.ui.web_tab import PageClosed


async def test_a_page_that_closes_saves_the_game_in_play(tmp_path: Path, play: Play) -> None:
    save_path = tmp_path / "saved-game.json"
    app, pilot = await play(width=9, height=9, mines=10, save_path=save_path, size=(80, 24))
    await pilot.press("space")
    await wait_until(pilot, lambda: app.session.can_be_saved, "the game in play")
    app.post_message(PageClosed())
    await wait_until(pilot, lambda: save_path.exists(), "the save")
    await play.close()
    loaded, notice = load_game(save_path)
    assert notice is None and loaded is not None
    assert loaded.game.view_text() == app.game.view_text()


async def test_a_page_that_closes_without_a_save_records_the_game_as_abandoned(
    tmp_path: Path,
    play: Play,
) -> None:
    stats = new_stats(tmp_path)
    app, pilot = await play(width=9, height=9, mines=10, stats=stats, size=(80, 24))
    await pilot.press("space")
    await wait_until(pilot, lambda: app.session.can_be_saved, "the game in play")
    app.post_message(PageClosed())
    await wait_until(pilot, lambda: stats.count() == 1, "the record")
    await play.close()
    assert app.exit_message == "The game was recorded as abandoned."
    stats.close()


@pytest.mark.slow
async def test_the_players_name_is_saved_and_shown_over_the_statistics(
    tmp_path: Path, play: Play
) -> None:
    settings_path = tmp_path / "settings.toml"
    app, pilot = await play(settings_path=settings_path, stats=new_stats(tmp_path), size=(100, 30))
    app.action_player_name()
    await wait_until(pilot, lambda: isinstance(app.screen, PlayerNameScreen), "the dialog")
    await pilot.press("space", *"Ada", "space", "space", *"Lovelace", "space")
    assert app.screen.query_one(Input).value == " Ada  Lovelace "
    await pilot.press("enter")
    await wait_until(pilot, lambda: app.settings.player_name == "Ada Lovelace", "the name")
    assert load_settings(settings_path)[0].player_name == "Ada Lovelace"
    app.action_statistics()
    await wait_until(
        pilot,
        lambda: isinstance(app.screen, StatisticsScreen) and app.screen.query("#frame"),
        "the statistics",
    )
    frame = app.screen.query_one("#frame")
    assert str(frame.border_title) == "Statistics: Ada Lovelace"
