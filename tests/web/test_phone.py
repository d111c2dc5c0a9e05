"""The page on a phone and on a laptop's screen, in a real headless Chromium (Playwright's
emulation of a touch screen and of a viewport): a touch screen tells the game, whose words
then speak of taps; the flag-mode switch leaves the game its focus, and a tap resumes a paused
game; the font's size is chosen from the viewport so that the board has raised tiles.

Built on ``test_browser.py``'s helpers (what the game draws is read from the websocket's
frames, ``Frames``); one server and one browser for the module, one xdist group.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest
from textual.geometry import Size

from tests.helpers import make_app
from tests.web.served import CHROMIUM, SEED, Served, served
from tests.web.test_browser import (
    CLEARED,
    Frames,
    find_text,
    open_game,
    settle,
    terminal_size,
)
from textmines.web.pages import STATIC_FILES

Test = TypeVar("Test", bound=Callable[..., None])


def browser_test(test: Test) -> Test:
    """A test in Chromium: skipped without it, slow, and in the module's xdist group (the
    tests share a browser and a server)."""
    marks = (
        pytest.mark.skipif(
            CHROMIUM is None, reason="no chromium on this machine (.ci/run installs Debian's)"
        ),
        pytest.mark.slow,
        pytest.mark.xdist_group("phone"),
    )
    for mark in marks:
        test = mark(test)
    return test


#: A phone as Playwright emulates one (a device scale of 1: see test_browser.py).
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
}


def on_screen(frames: Frames, text: str) -> bool:
    return bool(find_text(frames.screen(), text))


def open_phone(browser: Any, url: str) -> tuple[Any, Any, Frames]:
    """A phone's browser (a context of its own: its own player) on the game: the context,
    the page and its frames."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    frames = Frames()
    frames.watch(page)
    open_game(page, url, frames)
    return context, page, frames


@browser_test
def test_a_touch_screen_tells_the_game_and_its_hints_speak_of_taps(
    browser: Any, server: Served
) -> None:
    # Issue 48.11: the status line said "Space open" on a phone.
    context, page, frames = open_phone(browser, server.url())
    try:
        assert "touch=1" in frames.url, "the page tells the server"
        # Expert's raised tiles would need a font too small to read; Beginner's have room.
        assert page.get_attribute("#terminal", "data-font-size") == "16"
        assert frames.wait(page, lambda: on_screen(frames, "tap to open")), "the hints"
        assert not on_screen(frames, "Space open")
    finally:
        context.close()


@browser_test
def test_on_a_phone_flag_mode_keeps_the_game_in_play_and_a_tap_resumes_a_paused_one(
    browser: Any, server: Served
) -> None:
    # Issue 48.8: tapping the flag-mode switch took the focus from the game, which paused
    # behind "press p to resume" (a phone has no p).
    context, page, frames = open_phone(browser, server.url())
    try:
        screen = page.locator(".xterm-screen").bounding_box()
        middle = (screen["x"] + screen["width"] / 2, screen["y"] + screen["height"] * 0.45)
        since = len(frames.received)
        page.touchscreen.tap(*middle)  # the first click: the game is in play
        assert frames.wait(page, lambda: bool(CLEARED.search("".join(frames.received[since:]))))
        sent = len(frames.sent)
        page.tap("#flag-mode")
        assert page.get_attribute("#flag-mode", "aria-pressed") == "true"
        settle(page, frames)
        assert not any('"blur"' in message for message in frames.sent[sent:]), "focus kept"
        assert not on_screen(frames, "Paused")
        page.tap("#flag-mode")
        # The focus lost all the same (the phone showed another app): a tap on the box resumes.
        page.evaluate("document.activeElement.blur()")
        assert frames.wait(page, lambda: on_screen(frames, "Paused - tap the board to resume"))
        page.touchscreen.tap(*middle)
        assert frames.wait(page, lambda: not on_screen(frames, "Paused")), "resumed"
    finally:
        context.close()


# ---------------------------------------------------------------------------- the font's size
#: A board's raised tiles, as page.js reckons what they need: [columns, rows], // Name
RAISED_BOARD = re.compile(r"\[(\d+), (\d+)\], // (\w+), (\d+)x(\d+)")


def test_the_pages_raised_boards_are_what_the_games_zoom_needs() -> None:
    """page.js chooses the font's size for the terminal that Expert's (or Beginner's) board
    needs in raised tiles: exactly that, as the game's zoom reckons it."""
    script = Path(STATIC_FILES["page.js"]).read_text(encoding="utf-8")
    boards = RAISED_BOARD.findall(script)
    assert [name for *_, name, _, _ in boards] == ["Expert", "Beginner"]
    for columns, rows, _, width, height in boards:
        app = make_app(width=int(width), height=int(height), mines=10)
        cell = app.mines_theme.glyphs.cell_width

        def tile_rows(size: tuple[int, int], app: Any = app, cell: int = cell) -> int:
            return int(app.zoom.tile_for(cell, Size(*size))[0].rows)

        room = (int(columns), int(rows))
        assert tile_rows(room) == 2, "raised tiles"
        assert tile_rows((room[0] - 1, room[1])) == 1, "and not a column less"
        assert tile_rows((room[0], room[1] - 1)) == 1, "nor a row less"


def raised_corners(frames: Frames) -> int:
    """The raised tiles drawn: each has one top-left corner."""
    return sum(char == "▛" for char in frames.screen().values())


@browser_test
def test_expert_on_a_1366x768_laptop_gets_the_largest_font_with_raised_tiles(
    browser: Any, tmp_path: Path
) -> None:
    # Issue 48.9: at the page's usual 16 px, Expert was drawn in flat 3x1 cells using 60% of
    # the screen's height.
    with served(tmp_path, "--expert", "--seed", str(SEED)) as expert:
        context = browser.new_context(viewport={"width": 1366, "height": 768})
        try:
            page = context.new_page()
            frames = Frames()
            frames.watch(page)
            open_game(page, expert.url(), frames)
            assert "touch=1" not in frames.url, "a mouse's words"
            assert raised_corners(frames) >= 30 * 16, "every tile raised"
            font = int(page.get_attribute("#terminal", "data-font-size"))
            columns, rows = terminal_size(frames)
            assert rows >= 16 * 2 + 7 and columns >= 30 * 3 + 4
            # One pixel larger, as ?fontsize= asks (which the page keeps): flat tiles.
            larger = context.new_page()
            frames = Frames()
            frames.watch(larger)
            open_game(larger, f"{expert.url()}?fontsize={font + 1}", frames)
            assert larger.get_attribute("#terminal", "data-font-size") == str(font + 1)
            assert raised_corners(frames) < 30 * 16
        finally:
            context.close()
