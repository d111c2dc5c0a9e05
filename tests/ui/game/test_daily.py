"""The daily board where a player meets it: d and --daily, its day, the overlay left behind,
a second try as practice, a restart that keeps the day (its engine, store and command-line
parts are in tests/engine/test_daily.py, tests/store/test_stats.py and tests/cli/test_cli.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.widgets import Static

from tests.helpers import Play, click_cell, make_app, new_stats, wait_until
from textmines.engine.board_id import board_id_of


async def test_d_plays_todays_daily_board_and_says_so(play: Play) -> None:
    from datetime import UTC, datetime

    from textmines.engine.daily import daily_board, daily_day

    app, pilot = await play(size=(120, 40))
    await pilot.press("d")
    today = daily_day(datetime.now(UTC))
    assert app.game.board == daily_board(today).board
    assert f"Daily {today.isoformat()}" in app.status_line.modes
    assert app.game.elapsed_ms == 0 and app.game.is_revealed(15, 8)


async def test_the_overlay_does_not_come_along_to_the_daily_board(play: Play) -> None:
    # Found by a player: with the overlay on from an earlier game, d started the day's
    # counted try already [Assisted].
    app, pilot = await play(size=(120, 40))
    await pilot.press("space", "o")
    await pilot.pause()
    assert app.assist.overlay_on
    await pilot.press("d")
    await pilot.pause()
    assert not app.assist.overlay_on and not app.session.assisted
    said = [n.message for n in app.toasts]
    assert any(m.startswith("Probability overlay off for the daily board") for m in said)


async def test_an_app_started_on_the_daily_board_knows_its_day(play: Play) -> None:
    from datetime import UTC, datetime

    from textmines.engine.daily import daily_board, daily_day

    app = make_app(daily=True)
    await play.run(app, size=(120, 40))
    today = daily_day(datetime.now(UTC))
    assert app.session.daily == today and app.game.board == daily_board(today).board


@pytest.mark.slow
async def test_a_second_try_of_the_daily_board_is_practice(tmp_path: Path, play: Play) -> None:
    from datetime import UTC, datetime

    from tests.helpers import clear_all_but_one
    from textmines.engine.daily import daily_day
    from textmines.ui.screens.statistics import StatisticsScreen

    stats = new_stats(tmp_path)
    app, pilot = await play(stats=stats, size=(120, 40))
    await pilot.press("d")
    today = daily_day(datetime.now(UTC)).isoformat()
    assert f"Daily {today}" in app.status_line.modes
    await click_cell(pilot, *clear_all_but_one(app))
    await pilot.press("escape", "d")
    assert f"Daily {today}, practice" in app.status_line.modes
    await pilot.press("f4")
    screen = app.screen
    assert isinstance(screen, StatisticsScreen)
    await screen._load("daily")
    await pilot.pause()
    text = " ".join(str(w.render()) for w in screen.query(".daily"))
    # The day's try named by its game number, what --review takes (issue 46.9).
    assert re.search(rf"{today}\s+1\s+won", text) and "Days played 1" in text
    assert "textmines --review GAME" in text


@pytest.mark.slow
async def test_restarting_the_daily_board_keeps_its_day_rules_and_id(
    tmp_path: Path, play: Play
) -> None:
    from datetime import UTC, datetime

    from textmines.engine.daily import daily_day

    stats = new_stats(tmp_path)
    app, pilot = await play(stats=stats, size=(120, 40))
    await pilot.press("d")
    shared = board_id_of(app.game)
    board = app.game.board
    assert board is not None
    mine = next((x, y) for y in range(16) for x in range(30) if board.is_mine(x, y))
    await click_cell(pilot, *mine)
    today = daily_day(datetime.now(UTC)).isoformat()
    title = str(app.screen.query_one("#title", Static).render())
    assert title == f"Boom! Daily {today} lost"
    await pilot.press("escape", "r")
    assert board_id_of(app.game) == shared and app.game.no_guess
    assert app.game.first_click == "opening" and app.game.is_revealed(15, 8)
    assert app.status_line.modes == ("No-guess", "Restarted", f"Daily {today}, practice")


async def test_the_overlay_turned_off_for_the_daily_board_names_its_key(play: Play) -> None:
    # The notice said "(  turns it on again...)": it asked for the key of an action by its
    # binding's id.
    app, pilot = await play(size=(120, 40))
    await pilot.press("space", "o")
    await wait_until(pilot, lambda: app.assist.overlay_on, "the overlay")
    await pilot.press("d")

    def said() -> bool:
        return any("(o turns it on again" in n.message for n in app.toasts)

    await wait_until(pilot, said, "the overlay notice")
