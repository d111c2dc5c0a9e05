"""Rows edited by hand (issue 34.4): any value in any column of ``games`` is left out of the
figures that read it and counted, never an exception; the last recording passes over it and a
recording asked for by number says which value is wrong.

The damaged row is the one every figure meets: the fastest win of Beginner, the latest game
with a recording and the counted try of a daily board (see ``hand_edited``).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.store.hand_edited import BOARDS, VALUES, build, damage, damaged_row
from textmines.store.stats import Group, StatsError, StatsStore, open_stats
from textmines.store.stats.schema import COLUMNS

BEGINNER = BOARDS[0]
ROW = damaged_row(0)
#: Columns that say which group a game is in: damaged, the game is in none.
BOARD = {"preset", "width", "height", "mines", "no_guess"}
#: What every game of a group adds to the counts and streaks (practice is counted apart).
GAME = {"ended_at", "outcome", "assisted", "practice"}
#: What the best times, the average, the chart and the best figures read of a win.
WIN = {
    "time_ms",
    "bbbv",
    "solved_bbbv",
    "left_clicks",
    "right_clicks",
    "chord_clicks",
    "efficiency",
    "bbbv_per_s",
    "effective_clicks",
    "rqp",
    "stnb",
}
#: What the Daily tab reads of a game.
DAILY = {"daily", "practice", "outcome", "time_ms", "assisted"}
#: What a recording asked for by number reads of its row.
REPLAY = {"started_at", "ended_at", "outcome", "assisted", "replay", "practice"}
#: Columns where NULL is what textmines writes (older games, no daily board, no seed).
NULLABLE = {"seed", "effective_clicks", "flags_placed", "rqp", "stnb", "replay", "daily"}
#: Never read by a figure: damaged, they change nothing there.
UNREAD = set(COLUMNS) - BOARD - GAME - WIN - DAILY
GAMES = 4 * len(BOARDS)


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("template") / "stats.db"
    build(path)
    return path


def opened(template: Path, folder: Path) -> StatsStore:
    path = folder / "stats.db"
    shutil.copy(template, path)
    store, notices = open_stats(path)
    assert store is not None and not notices
    return store


def test_the_columns_are_all_sorted_out() -> None:
    assert {"first_click", "seed", "flags_placed", "started_at", "replay"} == UNREAD


def test_an_undamaged_database_counts_nothing(template: Path, tmp_path: Path) -> None:
    with opened(template, tmp_path) as store:
        groups, left_out = store.groups_and_left_out()
        figures = [store.group_stats(group) for group in groups]
        daily = store.daily_stats()
        last = store.stored_replay()
    assert left_out == 0 and groups == sorted(BOARDS, key=Group.sort_key)
    assert sum(stats.played for stats in figures) == GAMES
    assert all(stats.damaged == 0 for stats in figures) and daily.damaged == 0
    assert daily.days_played == 2 * len(BOARDS)
    assert last is not None and last.game_id == damaged_row(len(BOARDS) - 1)
    beginner = next(stats for stats in figures if stats.group == BEGINNER)
    assert beginner.best_times[0].game_id == ROW and beginner.best_times[0].time_ms == 9000


@pytest.mark.parametrize("value", list(VALUES.values()), ids=list(VALUES))
@pytest.mark.parametrize("column", COLUMNS)
def test_any_value_in_any_column_is_left_out_and_counted(
    template: Path, tmp_path: Path, column: str, value: str
) -> None:
    # Before: 'abc' or 'NaN' in time_ms or daily raised ValueError out of daily_stats (the
    # Daily tab) and put text into the best 3BV/s and the chart (F4 crashed).
    store = opened(template, tmp_path)
    damage(store.path, column, value, ROW)
    with store:
        groups, left_out = store.groups_and_left_out()
        figures = [store.group_stats(group) for group in groups]
        daily = store.daily_stats()
        best = store.best_time(BEGINNER)
        last = store.stored_replay()
        assert store.count() == GAMES
        try:
            mine = store.stored_replay(ROW)
            refused = None
        except StatsError as error:
            mine, refused = None, str(error)

    harmless = value == "NULL" and column in NULLABLE
    beginner = next((stats for stats in figures if stats.group == BEGINNER), None)
    # Every figure is one the screen can show.
    for stats in figures:
        assert stats.average_winning_ms is None or 0 <= stats.average_winning_ms < 1e12
        assert stats.best_bbbv_per_s is None or 0 <= stats.best_bbbv_per_s < 1e18
        assert all(isinstance(ms, int) and 0 <= ms < 1e12 for ms in stats.recent_winning_ms)
        assert all(0 <= value < 1e18 for _, value in stats.best_figures)
        assert all(0 <= entry.time_ms < 1e12 for entry in stats.best_times)
    assert all(isinstance(time_ms, int) for _, _, time_ms in daily.days)
    assert best is not None and best.time_ms in (9000, 25000)

    if column in BOARD and not harmless:
        assert left_out == 1 and BEGINNER in groups  # its other games are still there
    else:
        assert left_out == 0
    damaged = sum(stats.damaged for stats in figures)
    if (column in GAME or column in WIN) and not harmless:
        assert beginner is not None and damaged == 1 and beginner.damaged == 1
        assert beginner.played == 3 and ROW not in {b.game_id for b in beginner.best_times}
        assert best.game_id != ROW
    else:
        assert damaged == 0
    if column in DAILY and not harmless:
        assert daily.damaged == 1 and "2026-03-01" not in {day for day, _, _ in daily.days}
    else:
        assert daily.damaged == 0
    if column in UNREAD or harmless:
        assert beginner is not None and beginner.played == 4 and best.game_id == ROW

    # The last recording passes over a row whose recording or times cannot be read; one
    # asked for by number names what is wrong.
    assert last is not None
    if column in REPLAY and not (column == "replay" and value == "NULL"):
        assert refused is not None and f"Game {ROW} " in refused and f"its {column} is" in refused
        assert last.game_id != ROW
    elif column == "replay":
        assert mine is None and last.game_id != ROW  # NULL: a game without a recording
    else:
        assert mine is not None and mine.game_id == ROW


def test_a_board_column_damaged_everywhere_leaves_every_game_out(
    template: Path, tmp_path: Path
) -> None:
    store = opened(template, tmp_path)
    for row in range(1, GAMES + 1):
        damage(store.path, "width", "'abc'", row)
    with store:
        assert store.groups_and_left_out() == ([], GAMES)
