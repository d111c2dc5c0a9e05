"""The statistics' Leaderboard tab: the leaderboard of the host settings.toml names (``[host]
url``), read from its API with this terminal's token (its own row marked, its best said), a
board picked in a list, a row's replay watched; a host that cannot be reached said in a line;
no tab without a host."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer
from textual.widgets import DataTable, Select, Static, TabbedContent

from tests.helpers import FakeClock, Play, new_stats, wait_until, winning_clicks
from textmines.engine.daily import daily_day
from textmines.engine.game import Game
from textmines.leaderboard.boards import deal
from textmines.leaderboard.client import host_folder
from textmines.leaderboard.store import LeaderboardStore
from textmines.leaderboard.verify import Verified
from textmines.replays.evf import export_evf
from textmines.replays.recording import Recording
from textmines.store.settings import Settings
from textmines.ui.screens.leaderboard_view import LeaderboardView
from textmines.ui.screens.replay import ReplayScreen
from textmines.ui.screens.statistics import StatisticsScreen
from textmines.web.api import LeaderboardApi

NOW = 1_764_590_400_000  # 2025-12-01 12:00 UTC, in ms
#: The day before the terminal's today (its clock is the real one).
YESTERDAY = daily_day(datetime.now(UTC)) - timedelta(days=1)


class Host:
    """A leaderboard API on a loopback port: Ann, Bob and (with the terminal's token) Cy
    ranked on Expert, Cy's replay a real .evf of a won game; Dee on yesterday's daily."""

    def __init__(self, store: LeaderboardStore) -> None:
        self.store = store
        self.url = ""
        self.token = ""

    def rank(
        self, name: str, ms: int, replay: bytes = b"not a replay", *, daily: date | None = None
    ) -> str:
        player, token = self.store.new_player(name, now_ms=NOW - 10_000)
        dealt = deal("daily", daily) if daily else deal("expert", date(2025, 12, 1), seed=ms)
        challenge = self.store.issue(player, dealt, NOW - 5_000)
        self.store.submit(challenge, player, Verified(ms, 150, 150_000 / ms), replay, NOW - 1)
        return token


def won_evf() -> bytes:
    """The .evf of a won game, as a host keeps an entry's replay."""
    clock = FakeClock()
    game = Game(9, 9, 10, seed=3, clock=clock)
    game.reveal(4, 4)
    for x, y in winning_clicks(game.board):  # type: ignore[arg-type]
        if not game.is_revealed(x, y):
            clock.advance(1)
            game.reveal(x, y)
    return export_evf(Recording.of(game))


@pytest.fixture
async def host(tmp_path: Path) -> AsyncIterator[Host]:
    store = LeaderboardStore.open(tmp_path / "leaderboard.db")
    running = Host(store)
    running.rank("Ann", 60_000)
    running.rank("[b]Bob[/b]\x1b", 70_000)
    running.token = running.rank("Cy", 80_000, won_evf())
    running.rank("Dee", 75_000, daily=YESTERDAY)
    app = web.Application()
    app.add_routes(LeaderboardApi(store, clock=lambda: NOW).routes())
    async with TestServer(app, host="127.0.0.1") as server:
        running.url = f"http://127.0.0.1:{server.port}"
        yield running
    store.close()


def terminal(tmp_path: Path, url: str, token: str = "") -> dict[str, object]:
    """The app's options for a terminal whose settings name the host at ``url``, and which
    holds ``token`` for it."""
    data_dir = tmp_path / "data"
    if token:
        host_folder(data_dir, url).mkdir(parents=True)
        (host_folder(data_dir, url) / "token").write_text(token)
    return {"settings": Settings(host_url=url), "data_dir": data_dir, "stats": new_stats(tmp_path)}


async def leaderboard_tab(pilot: object, app: object) -> LeaderboardView:
    await pilot.press("f4")  # type: ignore[attr-defined]
    screen = app.screen  # type: ignore[attr-defined]
    assert isinstance(screen, StatisticsScreen)
    screen.query_one(TabbedContent).active = "tab-leaderboard"
    await pilot.pause()  # type: ignore[attr-defined]
    return screen.query_one(LeaderboardView)


def said(view: LeaderboardView) -> str:
    return str(view.query_one("#leaderboard-said", Static).render())


def rows(view: LeaderboardView) -> list[list[str]]:
    table = view.query_one(DataTable)
    return [[str(cell) for cell in table.get_row_at(n)] for n in range(table.row_count)]


@pytest.mark.slow  # a real HTTP server, a thread that asks it, a replay read by ms-toollib
async def test_the_hosts_leaderboard_with_the_players_own_row_and_a_replay_to_watch(
    host: Host, tmp_path: Path, play: Play
) -> None:
    app, pilot = await play(size=(110, 36), **terminal(tmp_path, host.url, host.token))
    view = await leaderboard_tab(pilot, app)
    # Today's daily board first: nobody on it. Then Expert, all time.
    await wait_until(pilot, lambda: said(view).startswith("No one"), "the daily board")
    assert said(view) == (
        "No one is on today's daily board yet: win one (textmines --challenge) to be first."
    )
    # Yesterday's daily board: its standings are final.
    view.query_one(Select).value = ("daily", "yesterday")
    await wait_until(pilot, lambda: "Dee" in str(rows(view)), "yesterday's board")
    assert said(view).startswith(f"The best of 1 player on the daily board of {YESTERDAY} ")
    view.query_one(Select).value = ("expert", "all")
    await wait_until(pilot, lambda: said(view).startswith("The best of 3"), "Expert's answer")
    assert said(view) == (
        "The best of 3 players on Expert (Enter on a row: its replay). Yours: #3 in 80.000 s."
    )
    table = rows(view)
    assert [row[:3] for row in table] == [
        [" 1", "Ann", "60.000"],
        [" 2", "[b]Bob[/b]", "70.000"],  # a name is text, never markup
        ["\u25b63", "Cy", "80.000"],
    ]
    assert table[2][4] == "1.875"
    # The player's own wins.
    view.query_one(Select).value = ("me", "all")
    await wait_until(pilot, lambda: said(view).startswith("Your 1 latest"), "the wins")
    assert said(view) == "Your 1 latest ranked win, as Cy (Enter: its replay)."
    assert rows(view) == [["Expert", "80.000", "150", "1.875", rows(view)[0][4]]]
    view.query_one(Select).value = ("expert", "all")
    await wait_until(pilot, lambda: said(view).startswith("The best"), "Expert again")
    # Enter on a row watches its replay, downloaded from the host.
    table_widget = view.query_one(DataTable)
    table_widget.focus()
    table_widget.move_cursor(row=2)
    await pilot.press("enter")
    await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the viewer", 20)
    assert isinstance(app.screen, ReplayScreen)
    await pilot.press("escape")
    # A replay the host holds is not one: said, and the tab stays.
    table_widget.move_cursor(row=0)
    await pilot.press("enter")
    await wait_until(
        pilot,
        lambda: any("No replay of #1 Ann" in n.message for n in app._notifications),
        "the toast",
        20,
    )
    assert isinstance(app.screen, StatisticsScreen)


async def test_a_host_that_cannot_be_reached_is_said_in_a_line(tmp_path: Path, play: Play) -> None:
    app, pilot = await play(size=(110, 36), **terminal(tmp_path, "http://127.0.0.1:9"))
    view = await leaderboard_tab(pilot, app)
    await wait_until(pilot, lambda: "cannot be reached" in said(view), "the answer")
    assert said(view).startswith("http://127.0.0.1:9 cannot be reached (")
    assert not view.query_one(DataTable).display
    view.query_one(Select).value = ("me", "all")  # a terminal that never played for it
    await wait_until(pilot, lambda: "not played for this host" in said(view), "the wins")
    assert said(view) == (
        "You have not played for this host yet: textmines --challenge deals you a board."
    )


async def test_no_leaderboard_tab_without_a_host(tmp_path: Path, play: Play) -> None:
    app, pilot = await play(size=(110, 36), data_dir=tmp_path, stats=new_stats(tmp_path))
    await pilot.press("f4")
    assert isinstance(app.screen, StatisticsScreen)
    assert not app.screen.query("#tab-leaderboard")
    await asyncio.sleep(0)
