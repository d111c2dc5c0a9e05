"""The statistics screen on a database edited by hand (issue 34.4): whatever a column holds,
every tab opens, the damaged games are left out and the screen says how many.

One database per column, the counted row of each board damaged with another value of
``hand_edited.VALUES`` (so every tab meets one); the store tests check the figures value by
value, for every column. The screen is opened for the columns the report named and one of
each kind the screen reads differently (a board's, a game's, a win's, a day's, one no
figure reads): each costs two seconds of the suite, and the others would only repeat them.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.app import App, ComposeResult
from textual.widgets import Static

from tests.helpers import wait_until
from tests.store.hand_edited import VALUES, build, damage, damaged_row
from tests.store.test_damaged_rows import BOARD, DAILY, GAME, NULLABLE, WIN
from textmines.store.stats import open_stats
from textmines.store.stats.schema import COLUMNS
from textmines.ui.screens.statistics import TABS, StatisticsScreen


class Host(App[None]):
    """The statistics screen over the game, as F4 shows it."""

    def __init__(self, screen: StatisticsScreen) -> None:
        super().__init__()
        self.statistics = screen

    def compose(self) -> ComposeResult:
        yield Static("the game")

    def on_mount(self) -> None:
        self.push_screen(self.statistics)


def shown_text(screen: StatisticsScreen) -> str:
    """Every text the shown tab and the notice above the tabs hold."""
    return "\n".join(str(static.content) for static in screen.query(Static))


def shown(screen: StatisticsScreen, key: str) -> Callable[[], bool]:
    """Whether tab ``key`` is shown, its figures (or why there are none) read."""
    return lambda: screen.active_tab == key and bool(screen.query_one(f"#body-{key}").children)


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("template") / "stats.db"
    build(path)
    return path


#: The columns of issue 34.4 (time_ms, bbbv_per_s, daily) and one of each other kind.
SCREEN_COLUMNS = ("time_ms", "bbbv_per_s", "daily", "width", "outcome", "assisted", "seed")


def test_the_screen_columns_cover_every_kind_the_screen_reads() -> None:
    kinds = (BOARD, GAME, WIN, DAILY, set(COLUMNS) - BOARD - GAME - WIN - DAILY)
    assert all(kind & set(SCREEN_COLUMNS) for kind in kinds)


@pytest.mark.slow  # ~0.7 s of CPU (2 s of wall) a column; -m "not slow" has the store's tests
@pytest.mark.parametrize("column", SCREEN_COLUMNS)
async def test_every_tab_opens_whatever_a_column_holds(
    template: Path, tmp_path: Path, column: str
) -> None:
    # Before: 'abc' in time_ms or 'NaN' in bbbv_per_s crashed F4 (the game in play with it),
    # 'garbage' in daily crashed the Daily tab, 'abc' in width emptied every tab.
    path = tmp_path / "stats.db"
    shutil.copy(template, path)
    for index, value in enumerate(VALUES.values()):
        damage(path, column, value, damaged_row(index))
    bad = sum(1 for value in VALUES.values() if not (value == "NULL" and column in NULLABLE))
    store, notices = open_stats(path)
    assert store is not None and not notices
    screen = StatisticsScreen(store)
    app = Host(screen)
    with store:
        async with app.run_test(size=(100, 40)) as pilot:
            await wait_until(pilot, lambda: app.screen is screen, "the statistics")
            seen = {}
            for number, (key, _) in enumerate(TABS):
                if number:
                    await pilot.press("right")
                await wait_until(pilot, shown(screen, key), f"tab {key} with its figures")
                seen[key] = shown_text(screen)
            assert app.screen is screen
    everything = "\n".join(seen.values())
    if column in BOARD:
        games = f"{bad} games" if bad > 1 else "1 game"
        assert f"{games} in the statistics could not be read and " in everything
        assert str(path) in everything
    if column in GAME or column in WIN:
        assert "damaged record left out" in everything
    if column in DAILY and bad:
        assert re.search(r"\d damaged records? left out", seen["daily"])
    if not bad or column not in BOARD | GAME | WIN | DAILY:
        assert "damaged" not in everything and "could not be read" not in everything
