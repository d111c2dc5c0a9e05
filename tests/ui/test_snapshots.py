"""SVG snapshots of the main screens (fake clock, fixed seed).

Update after an intended visual change with ``pytest tests/ui/test_snapshots.py
--snapshot-update`` and look at the report before committing.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from tests.helpers import FakeClock, clear_all_but_one, click_cell, make_app, wait_until
from textmines.engine import PRESETS


@pytest.mark.parametrize("preset", list(PRESETS))
def test_preset_at_start(snap_compare: Any, preset: str) -> None:
    p = PRESETS[preset]
    app = make_app(width=p.width, height=p.height, mines=p.mines)
    assert snap_compare(app, terminal_size=(80, 24))


def test_mid_game(snap_compare: Any) -> None:
    clock = FakeClock()
    app = make_app(clock)

    async def play(pilot: Pilot[None]) -> None:
        await pilot.press("space")
        clock.advance(42.7)
        await pilot.press("left", "left", "left", "f", "up", "up", "up", "f", "f")
        await wait_until(pilot, lambda: app.header.seconds == 43, "the timer to tick")

    assert snap_compare(app, terminal_size=(80, 24), run_before=play)


async def review_shown(pilot: Pilot[None]) -> None:
    """Until the game-over box shows the solver's review of the game (it comes a moment
    after the box), then the box placed again around it."""
    from textual.widgets import Static

    def shown() -> bool:
        lines = pilot.app.screen.query("#review")
        return bool(lines) and lines.first(Static).display

    await wait_until(pilot, shown, "the review line")
    await pilot.pause()


@pytest.mark.slow
def test_won(snap_compare: Any) -> None:
    clock = FakeClock()
    app = make_app(clock)

    async def win(pilot: Pilot[None]) -> None:
        await pilot.press("space")
        clock.advance(12.3)
        await click_cell(pilot, *clear_all_but_one(app))
        assert app.game.status == "won"
        await review_shown(pilot)

    assert snap_compare(app, terminal_size=(80, 24), run_before=win)


@pytest.mark.slow
def test_lost(snap_compare: Any) -> None:
    app = make_app()

    async def lose(pilot: Pilot[None]) -> None:
        await pilot.press("space", "left", "left", "left", "f", "up", "up", "up", "up", "f")
        await click_cell(pilot, 2, 0)
        await pilot.press("down")
        assert app.game.status == "lost"
        await review_shown(pilot)

    assert snap_compare(app, terminal_size=(80, 24), run_before=lose)


@pytest.mark.slow
def test_menu_open(snap_compare: Any) -> None:
    assert snap_compare(make_app(), press=["f10", "right"], terminal_size=(80, 24))


def test_custom_dialog(snap_compare: Any) -> None:
    from textual.widgets import Input

    async def still_cursor(pilot: Pilot[None]) -> None:
        # The text cursor blinks on a timer: under load the capture caught it either way
        # (issue 34.22). Held still, the picture is the same on every run.
        await pilot.press("c")
        await pilot.pause()
        for field in pilot.app.screen.query(Input):
            field.cursor_blink = False
        await pilot.pause()

    assert snap_compare(make_app(), run_before=still_cursor, terminal_size=(80, 24))


@pytest.mark.slow
def test_help(snap_compare: Any) -> None:
    assert snap_compare(make_app(), press=["f1"], terminal_size=(100, 40))


def test_paused(snap_compare: Any) -> None:
    assert snap_compare(make_app(), press=["space", "p"], terminal_size=(80, 24))


def test_large_board_scrolled(snap_compare: Any) -> None:
    app = make_app(width=200, height=200, mines=4000)

    async def scroll(pilot: Pilot[None]) -> None:
        await pilot.press("space")
        for _ in range(8):
            await pilot.press("shift+right", "shift+down")
        await pilot.press("f")

    assert snap_compare(app, terminal_size=(80, 24), run_before=scroll)


def test_small_terminal(snap_compare: Any) -> None:
    assert snap_compare(make_app(), press=["space"], terminal_size=(40, 12))


@pytest.mark.slow
def test_keys_screen(snap_compare: Any) -> None:
    assert snap_compare(make_app(), press=["alt+o", "end", "enter"], terminal_size=(80, 24))
