"""Statistics and save/resume as the player meets them in the app."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest
from textual.widgets import Static

from tests.helpers import (
    FakeClock,
    Play,
    clear_all_but_one,
    click_cell,
    launch_in_pty,
    make_app,
    new_stats,
    read_together,
    read_until,
    refuse_statistics_writes,
    wait_until,
    win_by_clicks,
)
from textmines.config import GameConfig
from textmines.engine.presets import PRESETS
from textmines.store.saves import load_game
from textmines.store.stats import Group, StatsStore, open_stats
from textmines.ui.app import TextminesApp
from textmines.ui.screens.confirm import ConfirmScreen
from textmines.ui.screens.statistics import StatisticsScreen
from textmines.ui.widgets.status import StatusLine


def open_store(tmp_path: Path) -> StatsStore:
    return new_stats(tmp_path)


def app_with_files(tmp_path: Path, clock: FakeClock, **kwargs: object) -> TextminesApp:
    return TextminesApp(
        GameConfig(seed=1),
        clock=clock,
        stats=open_store(tmp_path),
        save_path=tmp_path / "saved-game.json",
        **kwargs,  # type: ignore[arg-type]
    )


@pytest.mark.slow
async def test_a_resumed_game_takes_no_board_keys_until_the_player_resumes_it(
    tmp_path: Path, play: Play
) -> None:
    clock = FakeClock()
    app = app_with_files(tmp_path, clock)
    pilot = await play.run(app)
    await pilot.press("space", "q")
    await play.close()
    loaded, _ = load_game(tmp_path / "saved-game.json", clock)
    assert loaded is not None
    again = app_with_files(tmp_path, clock, resumed=loaded)
    pilot = await play.run(again)
    view, cursor = again.game.view_text(), again.board.cursor
    read_together(again, "j", "j", "space", "f")  # typed as the game comes back, paused
    await wait_until(pilot, lambda: again.screen.has_class("-paused"), "the paused box")
    await pilot.pause()
    assert (again.game.view_text(), again.board.cursor) == (view, cursor)
    read_together(again, "p", "j")  # the key read with the resume key is the board's
    await wait_until(pilot, lambda: again.board.cursor != cursor, "the move after resuming")
    assert again.board.cursor == (cursor[0], cursor[1] + 1)


@pytest.mark.slow
async def test_quit_saves_and_the_next_start_resumes_paused(tmp_path: Path, play: Play) -> None:
    clock = FakeClock()
    app = app_with_files(tmp_path, clock)
    pilot = await play.run(app)
    await pilot.press("space")
    clock.advance(4.2)
    await pilot.press("left", "left", "left", "f")
    view = app.game.view_text()
    await pilot.press("q")
    await play.close()
    loaded, notice = load_game(tmp_path / "saved-game.json", clock)
    assert loaded is not None and notice is None

    again = app_with_files(tmp_path, clock, resumed=loaded)
    pilot = await play.run(again)
    assert again.game.view_text() == view and again.game.clock.paused
    await wait_until(pilot, lambda: again.screen.has_class("-paused"), "the paused box")
    clock.advance(100)  # paused: the clock waits
    await pilot.press("p")
    clock.advance(1)
    assert again.game.elapsed_ms == 5200
    await click_cell(pilot, *clear_all_but_one(again))
    assert again.game.status == "won"
    await play.close()
    assert not (tmp_path / "saved-game.json").exists()
    stats = open_store(tmp_path).group_stats(Group.for_board(*PRESETS["beginner"].size))
    assert (stats.played, stats.won) == (1, 1)  # one game, one record


async def test_a_resumed_game_is_paused_behind_a_box_the_size_of_its_board(
    tmp_path: Path,
    play: Play,
) -> None:
    # Issue 34.18: the box that stands for the board of a resumed game was 34 columns wide,
    # the panel and its counters squashed around it; pausing in play gives the board's size.
    clock = FakeClock()
    app = TextminesApp(
        GameConfig(30, 16, 99, seed=2),
        clock=clock,
        stats=open_store(tmp_path),
        save_path=tmp_path / "saved-game.json",
    )
    pilot = await play.run(app, size=(100, 35))
    await pilot.press("space")
    board = app.board.outer_size
    await pilot.press("p")
    await pilot.pause()
    paused = app.screen.query_one("#paused").outer_size
    assert paused == board
    await pilot.press("q")
    await play.close()
    loaded, _ = load_game(tmp_path / "saved-game.json", clock)
    again = app_with_files(tmp_path, clock, resumed=loaded)
    pilot = await play.run(again, size=(100, 35))
    await wait_until(pilot, lambda: bool(again.screen.query("#paused")), "the paused box")
    await pilot.pause()
    assert again.screen.query_one("#paused").outer_size == paused


async def test_a_new_game_mid_play_records_the_old_one_as_abandoned(
    tmp_path: Path, play: Play
) -> None:
    app = app_with_files(tmp_path, FakeClock())
    pilot = await play.run(app)
    await pilot.press("n")  # nothing revealed: not a game yet
    await pilot.press("space", "n", "space", "3")
    await play.close()
    store = open_store(tmp_path)
    assert store.group_stats(Group.for_board(*PRESETS["beginner"].size)).abandoned == 2
    assert store.count() == 2


@pytest.mark.slow
async def test_a_new_best_time_is_celebrated_with_the_previous_best(
    tmp_path: Path, play: Play
) -> None:
    clock = FakeClock()
    app = app_with_files(tmp_path, clock)
    pilot = await play.run(app)
    for seconds in (20.0, 30.0, 12.5):
        await pilot.press("space")
        clock.advance(seconds)
        await click_cell(pilot, *clear_all_but_one(app))
        assert app.game.status == "won"
        message = app.query_one(StatusLine).text
        if seconds == 20.0:
            assert message.endswith("new best time!")
        elif seconds == 30.0:
            assert "best" not in message
        else:
            assert message.endswith("new best time! (was 20.0 s)")
        await pilot.press("n")  # a restarted board would set no record


@pytest.mark.slow
async def test_a_save_that_cannot_be_written_is_said_before_quitting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, play: Play
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    app = TextminesApp(
        GameConfig(seed=1),
        clock=FakeClock(),
        save_path=blocker / "save.json",
        warnings=["Settings not saved: the folder is read-only."],
    )
    pilot = await play.run(app)
    assert app.toasts, "the start-up warning shows"
    await pilot.press("space", "q")
    assert isinstance(app.screen, ConfirmScreen), "the player is told, the app stays"
    assert not app.toasts, "no toast covers the dialog's buttons"
    assert "Game not saved" in app.screen.message
    assert "cannot be played on from here" in app.screen.message
    await pilot.press("enter")  # "Keep playing" has the focus
    assert app.is_running and app.game.status == "playing"
    await pilot.press("q")
    await pilot.press("left", "enter")  # "Quit anyway"
    await pilot.pause()
    await play.close()
    assert app.return_code == 1
    (kept,) = (tmp_path / "tmp").glob("textmines-saved-game-*.json")
    assert app.exit_message == (
        f"Game not saved: cannot create {blocker}: a file is in the way. The game was kept in "
        f"{kept}: move it to {blocker / 'save.json'} to play it on."
    )
    loaded, notice = load_game(kept)
    assert loaded is not None and notice is None
    assert loaded.game.view_text() == app.game.view_text()


async def test_quit_anyway_with_an_unwritable_data_folder_says_what_became_of_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, play: Play
) -> None:
    """Issue 34.10: with the data folder unwritable, Quit anyway said "The game was recorded
    as abandoned" while nothing had been written."""
    blocker = tmp_path / "data"
    blocker.write_text("a file where the data folder should be")
    stats = open_store(tmp_path)
    refuse_statistics_writes(monkeypatch)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    app = TextminesApp(
        GameConfig(seed=1), clock=FakeClock(), stats=stats, save_path=blocker / "save.json"
    )
    pilot = await play.run(app)
    await pilot.press("space", "q")
    assert isinstance(app.screen, ConfirmScreen)
    assert "cannot be played on from here" in app.screen.message
    await pilot.press("left", "enter")  # "Quit anyway"
    await pilot.pause()
    await play.close()
    assert app.return_code == 1
    message = app.exit_message or ""
    assert "recorded as abandoned" not in message
    assert f"Statistics not saved: {stats.path}: unable to open database file." in message
    (kept,) = (tmp_path / "tmp").glob("textmines-saved-game-*.json")
    assert message.endswith(
        f"The game was kept in {kept}: move it to {blocker / 'save.json'} to play it on."
    )
    assert stats.count() == 0


async def test_a_kill_with_an_unwritable_data_folder_says_where_the_game_went(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, play: Play
) -> None:
    """No one to ask: the game is kept where it can be, the message says where, and so does
    the crash log, the terminal being perhaps gone with the message."""
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signal handlers are installed from the main thread only")
    blocker = tmp_path / "data"
    blocker.write_text("a file where the data folder should be")
    stats = open_store(tmp_path)
    refuse_statistics_writes(monkeypatch)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    log = tmp_path / "logs" / "crash.log"
    app = TextminesApp(
        GameConfig(seed=1),
        clock=FakeClock(),
        stats=stats,
        save_path=blocker / "save.json",
        crash_log=log,
    )
    before = signal.getsignal(signal.SIGTERM)
    pilot = await play.run(app)
    await pilot.press("space")
    assert signal.getsignal(signal.SIGTERM) not in (before, signal.SIG_DFL, signal.SIG_IGN)
    os.kill(os.getpid(), signal.SIGTERM)  # the app's handler: this process goes on
    await wait_until(pilot, lambda: app.return_code is not None, "the app to leave")
    await play.close()
    assert app.return_code == 128 + signal.SIGTERM
    (kept,) = (tmp_path / "tmp").glob("textmines-saved-game-*.json")
    said = app.exit_message or ""
    assert said.startswith(f"Game not saved: cannot create {blocker}: a file is in the way. ")
    assert "recorded" not in said
    assert said.endswith(
        f"The game was kept in {kept}: move it to {blocker / 'save.json'} to play it on."
    )
    assert f"textmines ended on SIGTERM: {said}" in log.read_text(encoding="utf-8")
    assert signal.getsignal(signal.SIGTERM) == before, "the handler from before is back"


async def test_the_statistics_open_after_the_first_frame_and_record_the_games(
    tmp_path: Path, play: Play
) -> None:
    # As the command line starts it: the database opens once the first frame is on screen.
    path = tmp_path / "stats.db"
    app = TextminesApp(GameConfig(seed=1), clock=FakeClock(), stats_db=path)
    pilot = await play.run(app)
    await wait_until(pilot, path.exists, "the statistics database")
    try:
        await win_by_clicks(pilot)
        assert app.game.status.is_over
    finally:
        app.stats_keeper.close()
    store, notices = open_stats(path)
    assert store is not None and notices == []
    with store:
        assert store.group_stats(Group.for_game(app.game)).won == 1


async def test_a_damaged_database_is_told_after_the_first_frame(tmp_path: Path, play: Play) -> None:
    path = tmp_path / "stats.db"
    path.write_bytes(b"not a database, and long enough to say so" * 4)
    app = TextminesApp(GameConfig(seed=1), clock=FakeClock(), stats_db=path)
    pilot = await play.run(app)
    try:
        await wait_until(
            pilot,
            lambda: any("moved to" in str(toast.message) for toast in app.toasts),
            "the toast about the damaged statistics",
        )
        told = next(str(toast.message) for toast in app.toasts if "moved to" in str(toast.message))
        assert told.startswith(f"Statistics: {path} ") and "new statistics were started" in told
        assert app.stats is not None, "a new database took its place"
    finally:
        app.stats_keeper.close()


async def test_f4_shows_statistics_and_explains_when_they_are_not_kept(
    tmp_path: Path, play: Play
) -> None:
    notice = "Statistics not saved: x"
    app = TextminesApp(GameConfig(seed=1), clock=FakeClock(), stats_notice=notice)
    pilot = await play.run(app)
    await pilot.press("f4")
    assert isinstance(app.screen, StatisticsScreen)
    shown = " ".join(str(text.render()) for text in app.screen.query(Static))
    assert notice in shown, "the screen says why there are no statistics"
    await pilot.press("escape")
    assert not isinstance(app.screen, StatisticsScreen)


@pytest.mark.slow
@pytest.mark.parametrize("stop", [signal.SIGHUP, signal.SIGTERM, signal.SIGINT])
def test_closing_the_terminal_or_a_kill_saves_the_game(tmp_path: Path, stop: int) -> None:
    """The real program in a pseudo-terminal, stopped with SIGHUP (the terminal closed),
    SIGTERM or SIGINT (kill, kill -INT) after the first reveal: saved, exit 128 + n."""
    process, main = launch_in_pty(tmp_path, "--beginner", "--seed", "1")
    try:
        drained = read_until(main, b"safe left", 20)
        assert b"safe left" in drained, "the game never drew its status line"
        os.write(main, b" ")
        save = tmp_path / "saved-game.json"
        read_until(main, b"17 safe left", 10, drained)
        process.send_signal(stop)
        assert process.wait(timeout=15) == 128 + stop
        assert save.exists()
        loaded, notice = load_game(save)
        assert loaded is not None and notice is None
        assert loaded.game.safe_left == 17
    finally:
        if process.poll() is None:
            process.kill()
        os.close(main)


async def test_games_kept_while_the_database_was_busy_are_written_before_f4(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, play: Play
) -> None:
    retried: list[bool] = []
    monkeypatch.setattr(StatsStore, "pending", property(lambda self: 0 if retried else 1))
    monkeypatch.setattr(StatsStore, "retry_pending", lambda self: retried.append(True))
    app = app_with_files(tmp_path, FakeClock())
    pilot = await play.run(app)
    await pilot.press("f4")
    assert retried == [True] and isinstance(app.screen, StatisticsScreen)


async def test_settings_that_cannot_be_written_are_said_once(tmp_path: Path, play: Play) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    app = TextminesApp(GameConfig(seed=1), clock=FakeClock(), settings_path=blocker / "s.toml")
    said: list[str] = []
    pilot = await play.run(app)
    notify = app.notify
    app.notify = lambda message, **kw: (said.append(message), notify(message, **kw))  # type: ignore[assignment,method-assign,func-returns-value]
    await app.game_screen.run_action("toggle_question_marks")
    await app.game_screen.run_action("toggle_question_marks")
    await pilot.pause()
    assert len([m for m in said if "Settings not saved" in m]) == 1
    assert app.config.question_marks, "the choice still applies to this run"


@pytest.mark.slow
def test_closing_the_terminal_during_autoplay_on_a_big_board_exits(tmp_path: Path) -> None:
    """Issue 18 item 12: the terminal goes away (its side of the pseudo-terminal closed, then
    SIGHUP) while autoplay works on a big board: the game is saved and the process
    exits, never stuck writing to the gone terminal or waiting on a worker (400x400 here:
    the same work as 1000x1000 in less time)."""
    process, main = launch_in_pty(tmp_path, "--custom", "400x400x3200", "--seed", "2", "--autoplay")
    try:
        # The first move floods nearly all of the board: then autoplay works on the rest.
        drained = read_until(main, b"99% cleared", 30)
        assert b"99% cleared" in drained, "autoplay never made its first move"
        time.sleep(1.0)  # let it play a few moves more
        os.close(main)  # the terminal is gone: writes to it fail or block from now on
        main = -1
        process.send_signal(signal.SIGHUP)
        assert process.wait(timeout=30) == 128 + signal.SIGHUP
        assert (tmp_path / "saved-game.json").exists()
    finally:
        if process.poll() is None:
            process.kill()
        if main != -1:
            os.close(main)


async def test_two_games_at_once_keep_each_others_settings(tmp_path: Path, play: Play) -> None:
    """A terminal and a browser tab (or two tabs) on one settings file: each writes only what
    it changed."""
    import tomllib

    path = tmp_path / "settings.toml"
    first, _ = await play(settings_path=path)
    second, _ = await play(settings_path=path)
    await first.game_screen.run_action("toggle_question_marks")
    await second.game_screen.run_action("toggle_swap_mouse_buttons")
    # A second save keeps the first's change.
    await second.game_screen.run_action("toggle_left_click_chords")
    await play.close()
    saved = tomllib.loads(path.read_text(encoding="utf-8"))
    assert saved["question_marks"] is False
    assert saved["swap_mouse_buttons"] is True
    assert saved["left_click_chords"] is False


class Boom(RuntimeError):
    """An error nobody expected."""


async def test_an_unexpected_error_saves_the_game_and_says_where_the_details_are(
    tmp_path: Path,
) -> None:
    save, log = tmp_path / "saved-game.json", tmp_path / "crash.log"
    app = make_app(FakeClock(), save_path=save, crash_log=log)

    def broken() -> None:
        raise Boom("the help screen fell over")

    with pytest.raises(Boom):  # run_test hands the app's exception to the test
        async with app.run_test() as pilot:
            await pilot.press("space")
            app.action_help = broken  # type: ignore[method-assign]
            await pilot.press("f1")
            await pilot.pause()
    assert app.return_code == 1
    resumed, notice = load_game(save)
    assert notice is None and resumed is not None
    assert resumed.game.view_text() == app.game.view_text()
    assert "Boom: the help screen fell over" in log.read_text()
    assert "Traceback" in log.read_text()
    report = app.crash_report or ""
    assert "Your game was saved" in report and str(log) in report
    assert "\n" not in report


#: A process whose app has caught SIGHUP and ended, and then gets SIGHUP again.
_SIGHUP_TWICE = """
import asyncio, os, signal
from textmines.ui.quit_signals import QuitSignals

async def main():
    quits = []
    signals = QuitSignals(lambda n: (quits.append(n), signals.kept()), lambda: False, None)
    signals.install(None)
    os.kill(os.getpid(), signal.SIGHUP)  # the terminal closes: the app leaves on it
    await asyncio.sleep(0.05)
    signals.restore()  # the app has ended
    os.kill(os.getpid(), signal.SIGHUP)  # and the signal comes again
    print("still ending the usual way", quits, flush=True)

asyncio.run(main())
"""


def test_a_quit_signal_again_while_textmines_ends_does_not_end_it_another_way() -> None:
    # A closing terminal sends SIGHUP, and whoever closed it may send one too: the second
    # one came after the app had put the handlers from before back, and ended the process
    # by the signal's default (status -1, not 129: seen once in CI, closing the terminal
    # during autoplay).
    result = subprocess.run(
        [sys.executable, "-c", _SIGHUP_TWICE], capture_output=True, text=True, timeout=30
    )
    assert result.returncode == 0, (result.returncode, result.stderr)
    assert result.stdout.strip() == f"still ending the usual way [{int(signal.SIGHUP)}]"
