"""The game clock runs only while the player can see and play the board: a dialog, a menu,
the command palette or a terminal too small for the board stops it, and a dialog over a paused
game leaves it paused."""

from __future__ import annotations

import pytest

from tests.helpers import FakeClock, Play


@pytest.mark.parametrize(
    ("keys", "closing"),
    [
        (["f1"], ["escape"]),  # help
        (["f4"], ["escape"]),  # statistics
        (["c"], ["escape"]),  # the custom dialog
        (["t"], ["escape"]),  # the theme picker
        (["ctrl+p"], ["escape"]),  # the command palette
        (["f10"], ["escape"]),  # a menu
    ],
)
async def test_the_clock_stops_while_anything_covers_the_board(
    keys: list[str], closing: list[str], play: Play
) -> None:
    clock = FakeClock()
    app, pilot = await play(clock, size=(100, 30))
    await pilot.press("space")
    clock.advance(2)
    await pilot.press(*keys)
    await pilot.pause()
    assert app.screen is not app.screen_stack[0]
    clock.advance(60)  # a minute reading the dialog is not game time
    assert app.game.elapsed_ms == pytest.approx(2000)
    await pilot.press(*closing)
    await pilot.pause()
    assert app.screen is app.screen_stack[0]
    clock.advance(1)
    assert app.game.elapsed_ms == pytest.approx(3000)
    assert not app.query("#paused")  # the board was never hidden


async def test_the_clock_stops_while_the_terminal_is_too_small(play: Play) -> None:
    clock = FakeClock()
    app, pilot = await play(clock, size=(100, 30))
    await pilot.press("space")
    clock.advance(2)
    await pilot.resize_terminal(20, 6)
    await pilot.pause()
    clock.advance(60)
    assert app.game.elapsed_ms == pytest.approx(2000)
    await pilot.resize_terminal(100, 30)
    await pilot.pause()
    clock.advance(1)
    assert app.game.elapsed_ms == pytest.approx(3000)


@pytest.mark.slow
async def test_a_dialog_over_a_paused_game_keeps_it_paused(play: Play) -> None:
    clock = FakeClock()
    app, pilot = await play(clock, size=(100, 30))
    await pilot.press("space")
    clock.advance(2)
    await pilot.press("p", "f1", "escape")
    await pilot.pause()
    clock.advance(10)
    assert app.game.elapsed_ms == pytest.approx(2000)
    assert app.query("#paused")  # still hidden: only P brings it back
    await pilot.press("p")
    clock.advance(1)
    assert app.game.elapsed_ms == pytest.approx(3000)


async def test_a_click_on_the_paused_box_resumes(play: Play) -> None:
    # Issue 48.8: on a phone a lost focus paused the game behind "press p to resume", and a
    # phone has no P; a tap on the box is a click.
    from textual.events import AppBlur

    clock = FakeClock()
    app, pilot = await play(clock, size=(100, 30))
    await pilot.press("space")
    clock.advance(2)
    app.post_message(AppBlur())
    await pilot.pause()
    assert app.query("#paused") and app.game.clock.paused
    clock.advance(60)
    await pilot.click("#paused")
    await pilot.pause()
    assert not app.query("#paused") and not app.game.clock.paused
    clock.advance(1)
    assert app.game.elapsed_ms == pytest.approx(3000)
    assert app.focused is app.board, "the board has the keys again"
