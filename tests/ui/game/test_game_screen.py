"""The game's screen owns the game's keys: under a dialog they stop, and the menus and the
command palette reach the same actions."""

from __future__ import annotations

import pytest

from tests.helpers import Play, wait_until


@pytest.mark.slow
async def test_the_games_keys_do_nothing_under_a_dialog(play: Play) -> None:
    app, pilot = await play(size=(80, 24))
    await pilot.press("space")
    game = app.game
    await pilot.press("f1")  # the help, over the game
    await wait_until(pilot, lambda: app.screen is not app.screen_stack[0], "the help")
    # New game, Expert, pause, hint, autoplay: none reaches the game under the help.
    await pilot.press("n", "3", "p", "i", "a")
    assert app.game is game and not app.session.assisted and not app.assist.autoplaying
    await pilot.press("escape")
    await wait_until(pilot, lambda: app.screen is app.screen_stack[0], "the game again")
    await pilot.press("n")
    assert app.game is not game, "on top again, the keys work"


async def test_a_menu_item_runs_the_game_screens_action(play: Play) -> None:
    app, pilot = await play(size=(100, 30))
    await pilot.press("alt+g")  # the Game menu
    await wait_until(pilot, lambda: app.screen is not app.screen_stack[0], "the menu")
    await pilot.press("down", "down", "down", "down", "down", "enter")  # Expert
    await wait_until(pilot, lambda: app.game.width == 30, "an Expert board")
    assert (app.game.width, app.game.height, app.game.mines) == (30, 16, 99)


async def test_the_app_tells_finished_of_each_game_that_ends(play: Play) -> None:
    """``textmines --challenge`` learns of the game it submits so."""
    from tests.helpers import FakeClock, win_by_clicks
    from textmines.engine.game import Status
    from textmines.session import GameSession

    ended: list[GameSession] = []

    def finished(session: GameSession) -> str:
        ended.append(session)
        return "Leaderboard: #1 of 1"  # what a browser tab's leaderboard says, as a toast

    clock = FakeClock()
    app, pilot = await play(clock, finished=finished, size=(100, 35))
    await win_by_clicks(pilot, clock)
    await pilot.pause()
    assert [session.game.status for session in ended] == [Status.WON]
    assert ended[0] is app.session and ended[0].recorded
    assert "Leaderboard: #1 of 1" in [toast.message for toast in app.toasts]
