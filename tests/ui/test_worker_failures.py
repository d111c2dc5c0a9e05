"""A background job that fails says so and the game plays on (issue 34 item 5).

Every worker the UI starts is made to fail here (what it calls is replaced by a function that
raises): the app keeps running, a message names the job and the error, and the crash log holds
the job's own traceback, the failing function included.
"""

from __future__ import annotations

from pathlib import Path
from typing import NoReturn

import pytest
from textual.widgets import Input, Static

import textmines.replays.review_report  # noqa: F401 (see below)
from tests.helpers import FakeClock, Play, wait_until, win_by_clicks
from textmines.ui.app import TextminesApp

# ``review_report`` binds ``board_zini`` when it is first imported: imported here, before any
# test replaces ``board_zini``, it keeps the real one (imported first while a test had it
# replaced, it kept the stand-in for good, and every later review in the process failed).


def no_toollib(*_: object, **__: object) -> NoReturn:
    """What a job calls, failing as it did for a player without ms-toollib."""
    raise ModuleNotFoundError("No module named 'ms_toollib'")


def said(app: TextminesApp) -> list[str]:
    """The messages the app shows from now on (its toasts' text)."""
    shown: list[str] = []
    notify = app.notify

    def recording(message: str, **options: object) -> None:
        shown.append(message)
        notify(message, **options)  # type: ignore[arg-type]

    app.notify = recording  # type: ignore[method-assign,assignment]
    return shown


def assert_logged(log: Path) -> None:
    """The crash log holds the job's own traceback, down to the function that raised."""
    text = log.read_text(encoding="utf-8")
    assert "Traceback (most recent call last)" in text
    assert "in no_toollib" in text
    assert "ModuleNotFoundError: No module named 'ms_toollib'" in text
    assert "WorkerFailed" not in text  # Textual's wrapper, which has no traceback


@pytest.mark.slow
async def test_details_whose_job_fails_say_so_and_the_game_plays_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, play: Play
) -> None:
    """Issue 34.5: Details on the end-of-game box, its ZiNi job failing, ended textmines with
    status 1 and a crash log of one line."""
    from textmines.ui.screens.game_over import GameOverScreen

    monkeypatch.setattr("textmines.replays.foreign.board_zini", no_toollib)
    log = tmp_path / "crash.log"
    app, pilot = await play(FakeClock(), crash_log=log, size=(100, 35))
    await win_by_clicks(pilot)
    await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen), "the box")
    messages = said(app)
    await pilot.press("d")
    await wait_until(pilot, lambda: messages, "a message")
    assert messages == [
        "Working out the board's ZiNi failed (ModuleNotFoundError: No module named "
        f"'ms_toollib'); the game plays on. Details: {log} (please attach it to a bug "
        "report)."
    ]
    assert app.is_running and isinstance(app.screen, GameOverScreen)
    await pilot.press("n")  # plays on: a new game
    await wait_until(pilot, lambda: app.game.status == "ready", "a new game")
    await play.close()
    assert app.return_code in (None, 0) and app.crash_report is None
    assert_logged(log)


async def test_a_replay_whose_figures_fail_plays_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, play: Play
) -> None:
    from textmines.ui.screens.replay import ReplayScreen

    monkeypatch.setattr("textmines.replays.foreign.board_zini", no_toollib)
    log = tmp_path / "crash.log"
    app, pilot = await play(FakeClock(), crash_log=log, size=(100, 35))
    await pilot.press("space")
    messages = said(app)
    await pilot.press("w")  # the game so far, in the replay viewer
    await wait_until(pilot, lambda: messages, "a message")
    assert messages[0].startswith("Working out the replay's ZiNi failed (ModuleNotFound")
    assert app.is_running and isinstance(app.screen, ReplayScreen)
    await play.close()
    assert app.crash_report is None
    assert_logged(log)


async def test_a_no_guess_deal_that_fails_leaves_the_board_ready(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, play: Play
) -> None:
    """The deal's worker failed in silence: its box stayed up for ever over a game that could
    not go on."""
    from textmines.engine import Game
    from textmines.ui.screens.dealing import DealingScreen

    monkeypatch.setattr(Game, "deal", no_toollib)
    log = tmp_path / "crash.log"
    app, pilot = await play(FakeClock(), crash_log=log, no_guess=True, size=(100, 35))
    messages = said(app)
    await pilot.press("space")
    await wait_until(pilot, lambda: messages, "a message")
    assert messages[0].startswith("Dealing the no-guess board failed (ModuleNotFoundError")
    await wait_until(pilot, lambda: not isinstance(app.screen, DealingScreen), "the box to go")
    assert len(messages) == 1, "nothing says the player cancelled it"
    assert app.is_running and app.game.status == "ready"
    await app.game_screen.run_action("toggle_no_guess")
    await pilot.press("n", "space")  # an ordinary board plays on
    assert app.game.status == "playing"
    await play.close()
    assert_logged(log)


async def test_a_replay_file_whose_reading_fails_is_said_in_the_box(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, play: Play
) -> None:
    from textmines.ui.screens.open_replay import OpenReplayScreen

    monkeypatch.setattr("textmines.ui.screens.open_replay.read_replay_file", no_toollib)
    log = tmp_path / "crash.log"
    app, pilot = await play(FakeClock(), crash_log=log, size=(100, 35))
    app.action_open_replay()
    await wait_until(
        pilot,
        lambda: isinstance(app.screen, OpenReplayScreen) and app.screen.query(Input),
        "the box",
    )
    box = app.screen
    messages = said(app)
    box.query_one(Input).value = str(tmp_path / "game.evf")
    await pilot.press("enter")
    await wait_until(pilot, lambda: messages, "a message")
    assert messages[0].startswith("Reading the replay file failed (ModuleNotFoundError")
    shown = str(box.query_one("#message", Static).render())
    assert shown == "The file could not be read: textmines failed on it."
    assert app.is_running and app.screen is box
    await play.close()
    assert_logged(log)
