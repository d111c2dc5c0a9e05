"""The statistics screen and the confirmation dialog, on a small seeded database.

Dates are shown in local time, so every test here runs with ``TZ=UTC``. Update the snapshot
after an intended visual change with
``pytest tests/ui/screens/test_statistics_screen.py --snapshot-update``.
"""

from __future__ import annotations

import os
import re
import sqlite3
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.app import App, ComposeResult
from textual.content import Content
from textual.pilot import Pilot
from textual.widgets import Button, Select, Static, TabbedContent

from tests.factories import game_record
from tests.helpers import Play, read_together, wait_until
from textmines.engine.presets import PRESETS
from textmines.store.stats import GameRecord, Group, StatsError, StatsStore, open_stats
from textmines.ui.screens.confirm import ConfirmScreen
from textmines.ui.screens.statistics import GroupSection, StatisticsScreen

BEGINNER = Group.for_board(*PRESETS["beginner"].size)
BEGINNER_NG = Group.for_board(*PRESETS["beginner"].size, no_guess=True)
EXPERT = Group.for_board(*PRESETS["expert"].size)
WIDE = Group.for_board(20, 10, 30)
SQUARE_NG = Group.for_board(12, 12, 20, no_guess=True)


def game(
    group: Group,
    ended: datetime,
    outcome: str,
    seconds: float,
    *,
    bbbv: int = 30,
    assisted: bool = False,
) -> GameRecord:
    return game_record(
        outcome,
        ended=ended,
        time_ms=int(seconds * 1000),
        size=(group.width, group.height, group.mines),
        no_guess=group.no_guess,
        assisted=assisted,
        bbbv=bbbv,
        clicks=(bbbv, 5, 3),
        seed=int(ended.timestamp()),
    )


def at(day: int, hour: int, minute: int) -> datetime:
    return datetime(2026, 11, day, hour, minute, 30, tzinfo=UTC)


# Beginner history, in end order: W L W W w W L Q (w: assisted). Unassisted wins take 10.0,
# 8.5, 9.1 and 12.4 s (average 10.0 s); the assisted 5.0 s win must not be a record.
SEED = [
    game(BEGINNER, at(1, 10, 0), "won", 10.0, bbbv=20),
    game(BEGINNER, at(1, 10, 5), "lost", 3.0),
    game(BEGINNER, at(2, 11, 0), "won", 8.5, bbbv=17),
    game(BEGINNER, at(2, 11, 10), "won", 9.1, bbbv=26),
    game(BEGINNER, at(3, 9, 30), "won", 5.0, assisted=True),
    game(BEGINNER, at(3, 9, 40), "won", 12.4, bbbv=31),
    game(BEGINNER, at(4, 20, 15), "lost", 2.0),
    game(BEGINNER, at(4, 20, 20), "abandoned", 4.0),
    game(BEGINNER_NG, at(5, 8, 0), "won", 15.0),
    game(BEGINNER_NG, at(5, 8, 5), "lost", 6.0),
    game(EXPERT, at(6, 22, 45), "lost", 80.0),
    game(WIDE, at(7, 14, 5), "won", 30.0, bbbv=60),
    game(SQUARE_NG, at(8, 16, 0), "lost", 20.0),
]


@pytest.fixture(autouse=True)
def utc() -> Iterator[None]:
    """Show dates in UTC whatever the machine's zone is."""
    saved = os.environ.get("TZ")
    os.environ["TZ"] = "UTC"
    time.tzset()
    yield
    if saved is None:
        del os.environ["TZ"]
    else:
        os.environ["TZ"] = saved
    time.tzset()


@pytest.fixture
def store(tmp_path: Path) -> Iterator[StatsStore]:
    opened, notices = open_stats(tmp_path / "stats.db")
    assert opened is not None and not notices
    assert opened.record_many(SEED) is None
    yield opened
    opened.close()


class Host(App[None]):
    """Shows the statistics screen over an empty screen, as the game would."""

    def __init__(self, screen: StatisticsScreen) -> None:
        super().__init__()
        self.statistics = screen
        self.results: list[bool] = []

    def compose(self) -> ComposeResult:
        yield Static("the game")

    def on_mount(self) -> None:
        self.push_screen(self.statistics, self.results.append)


def sections(screen: StatisticsScreen) -> list[GroupSection]:
    """The sections of the tab shown."""
    return list(screen.query_one(f"#body-{screen.active_tab}").query(GroupSection))


def figures(section: GroupSection) -> str:
    content = section.query_one(".figures", Static).content
    assert isinstance(content, Content)
    return content.plain


def lines_of(section: GroupSection) -> list[str]:
    return [" ".join(line.split()) for line in figures(section).splitlines()]


def messages(screen: StatisticsScreen) -> list[str]:
    body = screen.query_one(f"#body-{screen.active_tab}")
    return [str(static.content) for static in body.query(".message").results(Static)]


async def show_tab(pilot: Pilot[None], screen: StatisticsScreen, key: str) -> None:
    screen.query_one(TabbedContent).active = f"tab-{key}"
    await pilot.pause()


# ---------------------------------------------------------------------------- showing
async def test_tabs_and_first_tab(store: StatsStore, play: Play) -> None:
    screen = StatisticsScreen(store)
    pilot = await play.run(Host(screen), size=(100, 32))
    await pilot.pause()
    tabs = screen.query_one(TabbedContent)
    titles = [str(tabs.get_tab(pane).label) for pane in tabs.query("TabPane")]
    assert titles == ["Beginner", "Intermediate", "Expert", "Custom", "Daily"]
    assert screen.active_tab == "beginner"


@pytest.mark.slow
async def test_the_keys_at_the_foot_show_whole_or_give_the_buttons_their_room(
    store: StatsStore,
    play: Play,
) -> None:
    # Found by a player: at 40x12 the keys were cut to "E" beside the buttons.
    screen = StatisticsScreen(store)
    pilot = await play.run(Host(screen), size=(100, 32))
    await pilot.pause()
    hint = screen.query_one("#hint", Static)
    assert hint.display and str(hint.content).startswith("Esc close")
    await pilot.resize_terminal(40, 12)
    await pilot.pause()
    assert not hint.display
    close = screen.query_one("#close", Button).region
    assert close.width > 0 and close.right <= 40


async def test_figures_of_a_group(store: StatsStore, play: Play) -> None:
    screen = StatisticsScreen(store)
    pilot = await play.run(Host(screen), size=(100, 32))
    await pilot.pause()
    beginner = sections(screen)[0]
    assert beginner.group == BEGINNER
    text = lines_of(beginner)
    summary = [line for line in text if line]
    # Left column: label and value; right column (best times) follows on the same line.
    # Issue 46.9: each best time names its game, the number --review and --export-replay
    # take (SEED's rows are games 1 to 13), where a rank told nothing the order did not.
    assert summary[0].startswith("Played 8 Best times")
    assert summary[1].startswith("Won 5 Game Time Date 3BV 3BV/s")
    assert summary[2].startswith("Win rate 62.5% 3 8.5 s 2026-11-02 11:00 17 2.00")
    assert summary[3].startswith("Lost 2 4 9.1 s 2026-11-02 11:10 26 2.86")
    assert summary[4].startswith("Abandoned 1 1 10.0 s 2026-11-01 10:00 20 2.00")
    assert summary[5].startswith("Assisted (no records) 1 6 12.4 s 2026-11-03 09:40 31 2.50")
    assert summary[6].endswith("Review a game: textmines --review GAME")
    assert "Current streak 2 lost or abandoned" in summary[6]
    assert "Longest winning streak 2" in summary[7]
    # Issue 34.22: "Longest losing streak 2" beside "Lost 0" said not what it counts.
    assert "Longest losing streak 2 (lost or abandoned)" in summary[8]
    assert "Average winning time 10.0 s" in summary[9]
    assert "Best 3BV/s 2.86" in summary[10]
    # Issue 46.16c: the streaks' numbers line up with the other figures, whatever follows them.
    raw = figures(beginner).splitlines()
    ends = {
        label: re.search(rf"{label} +[0-9]+", line).end()  # type: ignore[union-attr]
        for line in raw
        for label in ("Played", "Current streak", "Longest winning streak", "Longest losing streak")
        if line.startswith(label)
    }
    assert len(set(ends.values())) == 1, ends
    caption = beginner.query_one(".caption", Static).content
    assert isinstance(caption, Content)
    assert caption.plain.startswith("Last 4 wins, oldest to newest")


async def test_assisted_games_are_never_best_times(store: StatsStore, play: Play) -> None:
    screen = StatisticsScreen(store)
    pilot = await play.run(Host(screen), size=(100, 32))
    await pilot.pause()
    text = figures(sections(screen)[0])
    assert "5.0 s" not in text
    assert "2026-11-03 09:30" not in text
    assert "Assisted (no records)" in text


async def test_no_guess_games_are_a_section_of_their_own(store: StatsStore, play: Play) -> None:
    screen = StatisticsScreen(store)
    pilot = await play.run(Host(screen), size=(100, 32))
    await pilot.pause()
    plain, no_guess = sections(screen)
    assert (plain.group, no_guess.group) == (BEGINNER, BEGINNER_NG)
    title = no_guess.query_one(".title", Static).content
    assert isinstance(title, Content) and title.plain == "Beginner, no-guess"
    assert lines_of(no_guess)[0].startswith("Played 2 ")
    assert "15.0 s" in figures(no_guess) and "15.0 s" not in figures(plain)


@pytest.mark.slow
async def test_empty_tab_and_group_without_wins(store: StatsStore, play: Play) -> None:
    screen = StatisticsScreen(store)
    pilot = await play.run(Host(screen), size=(100, 32))
    await show_tab(pilot, screen, "intermediate")
    assert sections(screen) == []
    assert messages(screen) == ["No games yet on Intermediate. Finished games show up here."]
    await show_tab(pilot, screen, "expert")
    (expert,) = sections(screen)
    assert "No unassisted win yet." in figures(expert)
    assert not expert.query(".caption")


@pytest.mark.slow
async def test_custom_boards_are_listed_and_picked(store: StatsStore, play: Play) -> None:
    screen = StatisticsScreen(store)
    pilot = await play.run(Host(screen), size=(100, 32))
    await show_tab(pilot, screen, "custom")
    picker = screen.query_one("#custom-board", Select)
    labels = [str(prompt) for prompt, _ in picker._options]
    assert labels == ["Custom 12x12/20, no-guess", "Custom 20x10/30"]
    assert [section.group for section in sections(screen)] == [SQUARE_NG]
    picker.value = WIDE
    await pilot.pause()
    (wide,) = sections(screen)
    assert wide.group == WIDE
    assert "30.0 s" in figures(wide)


@pytest.mark.slow
async def test_tabs_are_read_only_when_shown(store: StatsStore, play: Play) -> None:
    asked: list[Group] = []
    original = store.group_stats

    def counting(group: Group) -> Any:
        asked.append(group)
        return original(group)

    store.group_stats = counting  # type: ignore[method-assign]
    screen = StatisticsScreen(store)
    pilot = await play.run(Host(screen), size=(100, 32))
    await pilot.pause()
    assert asked == [BEGINNER, BEGINNER_NG]
    await show_tab(pilot, screen, "expert")
    await show_tab(pilot, screen, "beginner")
    assert asked == [BEGINNER, BEGINNER_NG, EXPERT]


@pytest.mark.slow
async def test_initial_group_picks_tab_board_and_marks_it(store: StatsStore, play: Play) -> None:
    screen = StatisticsScreen(store, initial_group=WIDE)
    pilot = await play.run(Host(screen), size=(100, 32))
    await pilot.pause()
    assert screen.active_tab == "custom"
    assert screen.query_one("#custom-board", Select).value == WIDE
    (wide,) = sections(screen)
    assert wide.group == WIDE and wide.has_class("-current")


@pytest.mark.slow
async def test_without_games_every_tab_says_so(tmp_path: Path, play: Play) -> None:
    empty, _ = open_stats(tmp_path / "empty.db")
    assert empty is not None
    screen = StatisticsScreen(empty)
    pilot = await play.run(Host(screen), size=(100, 32))
    await pilot.pause()
    assert screen.active_tab == "beginner"
    assert messages(screen) == ["No games yet on Beginner. Finished games show up here."]
    await show_tab(pilot, screen, "custom")
    assert messages(screen) == ["No games yet on custom boards. Finished games show up here."]
    assert screen.query_one("#reset-all", Button).disabled
    await play.close()
    empty.close()


# ---------------------------------------------------------------------------- resetting
@pytest.mark.slow
async def test_reset_one_group_asks_first(store: StatsStore, play: Play) -> None:
    screen = StatisticsScreen(store)
    host = Host(screen)
    pilot = await play.run(host, size=(100, 32))
    await pilot.pause()
    no_guess = sections(screen)[1]
    await pilot.click(no_guess.query_one(".reset", Button))
    assert isinstance(host.screen, ConfirmScreen)
    assert "Beginner, no-guess" in host.screen.message
    await pilot.press("escape")
    assert host.screen is screen
    assert BEGINNER_NG in store.groups()

    await pilot.click(sections(screen)[1].query_one(".reset", Button))
    await pilot.click("#confirm")
    await pilot.pause()
    assert host.screen is screen
    assert store.groups() == [BEGINNER, EXPERT, SQUARE_NG, WIDE]
    assert [section.group for section in sections(screen)] == [BEGINNER]
    assert lines_of(sections(screen)[0])[0].startswith("Played 8 ")
    await pilot.press("escape")
    await play.close()
    assert host.results == [True]


@pytest.mark.slow
async def test_reset_all(store: StatsStore, play: Play) -> None:
    screen = StatisticsScreen(store)
    host = Host(screen)
    pilot = await play.run(host, size=(100, 32))
    await pilot.pause()
    await pilot.click("#reset-all")
    assert isinstance(host.screen, ConfirmScreen)
    await pilot.click("#confirm")
    await pilot.pause()
    assert store.count() == 0
    assert sections(screen) == []
    assert messages(screen) == ["No games yet on Beginner. Finished games show up here."]
    await show_tab(pilot, screen, "custom")
    assert messages(screen) == ["No games yet on custom boards. Finished games show up here."]
    assert screen.query_one("#reset-all", Button).disabled


@pytest.mark.slow
async def test_a_failed_reset_is_reported_and_keeps_the_figures(
    store: StatsStore, play: Play
) -> None:
    store.reset = lambda group=None: "Statistics not reset: x: the disk is full"  # type: ignore[method-assign]
    screen = StatisticsScreen(store)
    host = Host(screen)
    pilot = await play.run(host, size=(100, 32))
    await pilot.pause()
    await pilot.click("#reset-all")
    await pilot.click("#confirm")
    await pilot.pause()
    assert [n.message for n in host._notifications] == ["Statistics not reset: x: the disk is full"]
    assert len(sections(screen)) == 2
    await pilot.press("escape")
    await play.close()
    assert host.results == [False]


# ---------------------------------------------------------------------------- failures
async def test_no_store_shows_the_notice_as_plain_text(play: Play) -> None:
    notice = "Statistics not saved: /tmp/[bold]x[/bold]/stats.db: permission denied"
    screen = StatisticsScreen(None, notice)
    host = Host(screen)
    pilot = await play.run(host, size=(80, 24))
    await pilot.pause()
    assert str(screen.query_one("#notice", Static).content) == notice
    assert not screen.query(TabbedContent) and not screen.query("#reset-all")
    await pilot.press("down", "pagedown")
    await pilot.click("#close")
    await play.close()
    assert host.results == [False]


@pytest.mark.slow
async def test_unreadable_group_list_is_shown(store: StatsStore, play: Play) -> None:
    store.close()  # every query now raises StatsError
    screen = StatisticsScreen(store)
    pilot = await play.run(Host(screen), size=(100, 32))
    await pilot.pause()
    (message,) = messages(screen)
    assert message.startswith("Statistics could not be read: ")
    assert message.endswith("the statistics store is closed")
    await show_tab(pilot, screen, "expert")
    assert messages(screen) == [message]


async def test_unreadable_group_is_shown(store: StatsStore, play: Play) -> None:
    def failing(group: Group) -> Any:
        raise StatsError("Statistics could not be read: [x]: the database is damaged")

    store.group_stats = failing  # type: ignore[method-assign]
    screen = StatisticsScreen(store)
    pilot = await play.run(Host(screen), size=(100, 32))
    await pilot.pause()
    assert messages(screen) == ["Statistics could not be read: [x]: the database is damaged"]


# ---------------------------------------------------------------------------- keys, sizes
@pytest.mark.slow
@pytest.mark.parametrize("key", ["escape", "q", "f4"])
async def test_keys_close(store: StatsStore, key: str, play: Play) -> None:
    screen = StatisticsScreen(store)
    host = Host(screen)
    pilot = await play.run(host, size=(100, 32))
    await pilot.pause()
    await pilot.press(key)
    assert host.screen is not screen
    await play.close()
    assert host.results == [False]


@pytest.mark.slow
async def test_close_button(store: StatsStore, play: Play) -> None:
    screen = StatisticsScreen(store)
    host = Host(screen)
    pilot = await play.run(host, size=(100, 32))
    await pilot.pause()
    await pilot.click("#close")
    assert host.screen is not screen


@pytest.mark.slow
async def test_keys_switch_tabs_and_scroll(store: StatsStore, play: Play) -> None:
    screen = StatisticsScreen(store)
    pilot = await play.run(Host(screen), size=(80, 24))
    await pilot.pause()
    body = screen.query_one("#body-beginner")
    await pilot.press("pagedown")
    assert body.scroll_y > 0
    await pilot.press("right", "right")
    await pilot.pause()
    assert screen.active_tab == "expert"


@pytest.mark.slow
async def test_small_terminal(store: StatsStore, play: Play) -> None:
    screen = StatisticsScreen(store)
    pilot = await play.run(Host(screen), size=(100, 32))
    await pilot.pause()
    assert not sections(screen)[0].has_class("-stacked")
    await pilot.resize_terminal(40, 12)
    await pilot.pause()
    assert sections(screen)[0].has_class("-stacked")
    await show_tab(pilot, screen, "custom")
    await pilot.resize_terminal(100, 32)
    await pilot.pause()
    assert not sections(screen)[0].has_class("-stacked")


@pytest.mark.slow
def test_snapshot(snap_compare: Any, store: StatsStore) -> None:
    assert snap_compare(Host(StatisticsScreen(store)), terminal_size=(100, 32))


# ---------------------------------------------------------------------------- confirm
class ConfirmHost(App[None]):
    def __init__(self, message: str) -> None:
        super().__init__()
        self.message = message
        self.results: list[bool] = []

    def on_mount(self) -> None:
        self.push_screen(ConfirmScreen(self.message, title="Reset"), self.results.append)


@pytest.mark.parametrize(
    ("keys", "expected"), [(["escape"], False), (["enter"], False), (["left", "enter"], True)]
)
async def test_confirm_keys(keys: list[str], expected: bool, play: Play) -> None:
    host = ConfirmHost("Forget [b]everything[/b]?")
    pilot = await play.run(host)
    await pilot.pause()
    assert str(host.screen.query_one("#message", Static).content) == "Forget [b]everything[/b]?"
    await pilot.press(*keys)
    await pilot.pause()
    await play.close()
    assert host.results == [expected]


async def test_confirm_keys_read_together_press_the_button_the_arrow_chose(play: Play) -> None:
    # A terminal delivers keys typed fast (or pasted) in one read: the arrow's move must be
    # done before the Enter after it is handled, or Enter presses the button the arrow left.
    host = ConfirmHost("Forget everything?")
    pilot = await play.run(host)
    await pilot.pause()
    host.post_message(events.Key("left", None))
    host.post_message(events.Key("enter", "\r"))
    await pilot.pause()
    await play.close()
    assert host.results == [True]


@pytest.mark.parametrize(
    ("keys", "expected"), [(["tab", "enter"], True), (["enter", "left"], False)]
)
async def test_confirm_keys_read_together_run_in_order(
    keys: list[str], expected: bool, play: Play
) -> None:
    # Tab then Enter presses the button Tab went to; Enter then Left the one Enter was on.
    host = ConfirmHost("Forget everything?")
    pilot = await play.run(host)
    await pilot.pause()
    read_together(host, *keys)
    await wait_until(pilot, lambda: host.results, "the answer")
    await play.close()
    assert host.results == [expected]


async def test_keys_read_with_reset_all_reach_its_question_or_nothing(
    store: StatsStore, play: Play
) -> None:
    # Enter on "Reset all...", then Tab and Enter typed fast: they reached the statistics
    # screen under the question, whose Close then closed the question as it opened (a crash).
    screen = StatisticsScreen(store)
    host = Host(screen)
    pilot = await play.run(host, size=(100, 32))
    await pilot.pause()
    screen.set_focus(screen.query_one("#reset-all", Button))
    groups = store.groups()
    read_together(host, "enter", "tab", "enter")
    await wait_until(pilot, lambda: isinstance(host.screen, ConfirmScreen), "the question")
    await pilot.pause()
    await play.close()  # raises whatever failed in the app
    assert store.groups() == groups


@pytest.mark.slow
async def test_reset_one_custom_board_while_another_remains(store: StatsStore, play: Play) -> None:
    # The Custom tab rebuilds its board picker after a reset: the old one must be gone first
    # (this crashed with DuplicateIds and lost the game in play).
    screen = StatisticsScreen(store, initial_group=WIDE)
    host = Host(screen)
    pilot = await play.run(host, size=(100, 32))
    await pilot.pause()
    assert screen.active_tab == "custom"
    assert [section.group for section in sections(screen)] == [WIDE]
    await pilot.click(sections(screen)[0].query_one(".reset", Button))
    await pilot.click("#confirm")
    await pilot.pause()
    assert host.screen is screen
    assert WIDE not in store.groups()
    assert [section.group for section in sections(screen)] == [SQUARE_NG]
    assert len(screen.query("#custom-picker")) == 1
    assert screen.query_one("#custom-board", Select).value == SQUARE_NG


async def test_a_damaged_row_is_left_out_and_said(store: StatsStore, play: Play) -> None:
    # A row edited by hand (issue 18): F4 raised ValueError and the game in play was lost.
    with sqlite3.connect(store.path) as connection:
        connection.execute(
            "UPDATE games SET ended_at = 'garbage' WHERE id = "
            "(SELECT min(id) FROM games WHERE outcome = 'won' AND assisted = 0)"
        )
    app = Host(StatisticsScreen(store))
    pilot = await play.run(app, size=(100, 32))
    await pilot.pause()
    section = sections(app.screen)[0]
    assert "1 damaged record left out" in figures(section)
    assert len(store.group_stats(section.group).best_times) == 3  # the others stay
