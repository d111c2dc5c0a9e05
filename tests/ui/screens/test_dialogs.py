"""The dialogs over the game (the custom board, the help, the statistics) take keys at once,
fit small terminals and scroll."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual import events

from tests.helpers import Play, new_stats, read_together, wait_until


@pytest.mark.slow
async def test_the_custom_dialog_takes_typing_at_once(play: Play) -> None:
    app, pilot = await play(size=(100, 30))
    await pilot.press("c")
    await pilot.pause()
    await pilot.press("2", "0", "tab", "1", "2", "tab", "4", "0", "enter")
    await pilot.pause()
    assert (app.game.width, app.game.height, app.game.mines) == (20, 12, 40)


async def test_the_custom_dialog_takes_a_burst_of_keys_across_its_fields(play: Play) -> None:
    """Keys that arrive together (a fast typist, a paste, tmux send-keys) each go to the
    field that has the focus when they arrive: a Tab among them moves it at once."""
    from textual.widgets import Input

    app, pilot = await play(size=(100, 30))
    await pilot.press("c")
    await pilot.pause()
    dialog = app.screen
    burst = ["2", "0", "tab", "1", "2", "tab", "4", "0", "shift+tab", "1", "5"]
    for key in burst:
        app.post_message(events.Key(key, key if len(key) == 1 else None))
    await wait_until(pilot, lambda: dialog.query_one("#height", Input).value == "15", "15")
    assert [field.value for field in dialog.query(Input)] == ["20", "15", "40"]


@pytest.mark.parametrize(
    ("keys", "value"),
    [(["2", "5", "backspace", "7"], "27"), (["2", "5", "left", "7"], "275")],
)
async def test_editing_keys_in_a_burst_run_in_the_order_typed(
    keys: list[str], value: str, play: Play
) -> None:
    """Backspace or an arrow among characters typed fast edits where it was typed: it ran
    after the characters read with it (2 5 Backspace 7 gave 25)."""
    from textual.widgets import Input

    app, pilot = await play(size=(100, 30))
    await pilot.press("c")
    await pilot.pause()
    dialog = app.screen
    read_together(app, *keys, "tab")
    await wait_until(pilot, lambda: dialog.focused is dialog.query_one("#height"), "the Tab")
    assert dialog.query_one("#width", Input).value == value


@pytest.mark.slow
async def test_the_custom_dialog_fits_a_40x12_terminal(play: Play) -> None:
    from textual.widgets import Button

    app, pilot = await play(size=(40, 12))
    await pilot.press("c")
    await pilot.pause()
    dialog = app.screen.query_one("Vertical")
    assert app.screen.region.contains_region(dialog.region)
    for button in app.screen.query(Button):
        assert dialog.region.contains_region(button.region), button.id
    await pilot.press("1", "2", "tab", "1", "2", "tab", "2", "0")
    await pilot.click("#ok")
    await pilot.pause()
    assert (app.game.width, app.game.height, app.game.mines) == (12, 12, 20)


@pytest.mark.slow
@pytest.mark.parametrize("size", [(80, 24), (100, 30), (120, 40)])
async def test_help_scrolls_at_once_and_shows_its_close_button(
    size: tuple[int, int], play: Play
) -> None:
    from textual.containers import Vertical, VerticalScroll
    from textual.widgets import Button

    app, pilot = await play(size=size)
    await pilot.press("f1")
    await pilot.pause()
    close = app.screen.query_one("#close", Button)
    assert close.region.bottom <= size[1] and close.region.height >= 1
    assert app.screen.region.contains_region(close.region)
    dialog = app.screen.query_one(Vertical).region
    # Between the menu bar and the status line: neither is left in pieces around it.
    assert dialog.y >= 1 and dialog.bottom <= size[1] - 1
    scroll = app.screen.query_one(VerticalScroll)
    assert scroll.max_scroll_y > 0
    await pilot.press("down", "pagedown")
    await pilot.pause()
    assert scroll.scroll_y > 0


def test_help_names_keys_in_the_case_they_are_typed() -> None:
    from textmines.ui.keys.keymap import key_label

    assert key_label("k") == "k"
    assert key_label("K") == "K"
    assert key_label("f2") == "F2"
    assert key_label("shift+up") == "Shift+↑"
    assert key_label("ctrl+c") == "Ctrl+C"


@pytest.mark.slow
async def test_the_statistics_tabs_follow_left_and_right_at_once(
    tmp_path: Path, play: Play
) -> None:
    from textmines.ui.screens.statistics import StatisticsScreen

    stats = new_stats(tmp_path)
    app, pilot = await play(stats=stats, size=(100, 30))
    await pilot.press("f4")
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, StatisticsScreen)
    assert screen.active_tab == "beginner"
    await pilot.press("right")
    await pilot.pause()
    assert screen.active_tab == "intermediate"
    await pilot.press("left", "left")
    await pilot.pause()
    assert screen.active_tab == "daily", "round from the first tab to the last"


async def test_a_custom_dialog_field_selects_its_text_when_focused_and_on_ctrl_a(
    play: Play,
) -> None:
    """Issue 46.14: a click into a field put the cursor where it landed and Ctrl+A went to the
    start, so typing added to the old number (Ctrl+A then 50 on 16 gave 5016). Focusing a
    field (Tab, a click) selects its text and Ctrl+A selects it all: typing replaces it."""
    from textual.widgets import Input

    app, pilot = await play(size=(100, 30))
    await pilot.press("c")
    await pilot.pause()
    dialog = app.screen
    fields = {name: dialog.query_one(f"#{name}", Input) for name in ("width", "height", "mines")}
    await pilot.click(fields["height"], offset=(4, 1))
    await wait_until(pilot, lambda: dialog.focused is fields["height"], "the click's focus")
    await pilot.press("1", "6")
    assert fields["height"].value == "16", "a click selects the field's text"
    await pilot.press("ctrl+a", "5", "0")
    assert fields["height"].value == "50", "Ctrl+A selects it all"
    await pilot.press("tab", "7")
    assert fields["mines"].value == "7", "Tab selects the next field's text"
    await pilot.click(fields["mines"], offset=(3, 1))
    await pilot.press("5")
    assert fields["mines"].value == "57", "a click in the focused field places the cursor"
