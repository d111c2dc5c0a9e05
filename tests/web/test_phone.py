"""The page on a phone and on a laptop's screen, in a real headless Chromium (Playwright's
emulation of a touch screen and of a viewport): a touch screen tells the game, whose words
then speak of taps.

Built on ``test_browser.py``'s helpers (what the game draws is read from the websocket's
frames, ``Frames``); one server and one browser for the module, one xdist group.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.served import Served, served
from tests.web.test_browser import (
    CHROMIUM,
    CHROMIUM_ARGS,
    CLEARED,
    SEED,
    Frames,
    find_text,
    open_game,
    settle,
)

BROWSER_TEST = pytest.mark.xdist_group("phone")
pytestmark = [
    pytest.mark.skipif(
        CHROMIUM is None, reason="no chromium on this machine (.ci/run installs Debian's)"
    ),
    pytest.mark.slow,
]
#: A phone as Playwright emulates one (a device scale of 1: see test_browser.py).
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    with served(tmp_path_factory.mktemp("served"), "--beginner", "--seed", str(SEED)) as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield chromium
        finally:
            chromium.close()


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


@BROWSER_TEST
def test_a_touch_screen_tells_the_game_and_its_hints_speak_of_taps(
    browser: Any, server: Served
) -> None:
    # Issue 48.11: the status line said "Space open" on a phone.
    context, page, frames = open_phone(browser, server.url())
    try:
        assert "touch=1" in frames.url, "the page tells the server"
        assert frames.wait(page, lambda: on_screen(frames, "tap to open")), "the hints"
        assert not on_screen(frames, "Space open")
    finally:
        context.close()


@BROWSER_TEST
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
