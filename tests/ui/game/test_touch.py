"""On a touch screen (a browser tab started with ``--touch``) the status line's hints and the
toasts say what to tap, as the page's controls do it: a tap is a left click, a long press a
right click, the face a button, the pause box a button that resumes."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Static

from tests.helpers import FakeClock, Play, make_app, wait_until, win_by_clicks
from textmines.store.saves import load_game
from textmines.ui.app import TextminesApp
from textmines.ui.game.player_keys import TOUCH_MENU_ITEMS


async def touch_app(play: Play, clock: FakeClock | None = None) -> tuple[TextminesApp, Pilot[None]]:
    """An app whose player taps a touch screen, as ``textmines --tab --touch`` starts it."""
    app = make_app(clock, touch=True)
    return app, await play.run(app, size=(100, 35))


def toasts(app: TextminesApp) -> list[str]:
    return [toast.message for toast in app.toasts]


async def test_the_hints_and_toasts_speak_of_taps_on_a_touch_screen(play: Play) -> None:
    # Issue 48.11: a phone's player was told "Space open", "press p to resume".
    app, pilot = await play(FakeClock(), size=(100, 35))
    assert app.status_line.hints[:2] == ("Space open", "f flag"), "the terminal's keys"

    app, pilot = await touch_app(play)
    assert app.status_line.hints == ("tap to open", "long press to flag", "tap the face: new game")
    await app.game_screen.run_action("toggle_swap_mouse_buttons")
    await pilot.pause()
    assert app.status_line.hints[:2] == ("tap to flag", "long press to open")
    assert toasts(app)[-1] == "Swap mouse buttons on: a tap flags, a long press opens."
    await app.game_screen.run_action("toggle_swap_mouse_buttons")

    await pilot.press("space", "p")
    await wait_until(pilot, lambda: app.screen.query("#paused"), "the paused box")
    shown = str(app.screen.query_one("#paused", Static).render())
    assert shown == "Paused - tap the board to resume"
    await app.game_screen.run_action("hint")
    assert toasts(app)[-1] == "The game is paused: tap the board to play on first."
    await pilot.press("p")

    await app.game_screen.run_action("autoplay_pace(1)")
    assert toasts(app)[-1].endswith("when autoplay starts (Options > Autoplay).")


async def test_once_over_the_touch_hints_offer_the_face_and_the_menu(play: Play) -> None:
    app, pilot = await touch_app(play, FakeClock())
    await win_by_clicks(pilot)
    await pilot.press("escape")  # the game-over box
    assert app.status_line.hints == ("tap the face: new game", "Game menu: restart, replay")
    await app.game_screen.run_action("hint")
    assert toasts(app)[-1] == "The game is over: tap the face for a new one."


async def test_every_menu_item_a_touch_toast_names_is_in_the_menus(play: Play) -> None:
    app, _ = await play(size=(100, 35))
    items = {f"{title} > {item.label}" for title, item in app.menu_bar.all_items()}
    assert set(TOUCH_MENU_ITEMS.values()) <= items


async def test_a_game_back_on_a_touch_screen_says_to_tap_it(play: Play, tmp_path: Path) -> None:
    """The game left in play comes back paused: a phone's player was told to press p."""
    clock = FakeClock()
    first = make_app(clock, save_path=tmp_path / "saved-game.json")
    pilot = await play.run(first, size=(100, 35))
    await pilot.press("space", "q")
    await play.close()
    loaded, _ = load_game(tmp_path / "saved-game.json", clock)
    assert loaded is not None
    for touch, said in ((True, "Tap the board to play on."), (False, "Press p to play on.")):
        app = make_app(clock, touch=touch, resumed=loaded)
        await play.run(app, size=(100, 35))
        assert f"Your last game is back, paused. {said}" in toasts(app)
        await play.close()
