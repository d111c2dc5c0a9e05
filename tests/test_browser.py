"""Play in a browser, end to end: ``textmines --serve`` driven by a real headless Chromium.

Two tabs play the same seeded board to a win with key presses in the page; both games are in
the statistics, and a replay exported in a tab downloads in the browser. Served on every
address, the page plays from another address than the one it was served on. Right click,
Ctrl+minus and a phone's long press go to the game, not to the browser. Needs Debian's
``chromium`` (``.ci/run`` installs it when missing) and Playwright (a test dependency).

What the game draws is read from the websocket's frames as Chromium receives them (the
terminal is a canvas: there is no text in the page to read).
"""

from __future__ import annotations

import re
import shutil
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len

from tests.helpers import winning_clicks
from tests.served import served
from textmines.engine import ActionKind, Game
from textmines.store.paths import default_paths
from textmines.store.stats.opening import open_stats

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no chromium on this machine (.ci/run installs Debian's)"
)
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
SEED = 7
FLAG = "⚑"  # a flag, as the board draws it at the phone's cell size


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


@dataclass
class Frames:
    """What a page's websocket carried: to the game (its JSON messages) and from it (JSON
    messages, and the game's output: what a terminal is given to draw)."""

    sent: list[str] = field(default_factory=list)
    received: list[str] = field(default_factory=list)
    output: list[bytes] = field(default_factory=list)

    def watch(self, page: Any) -> None:
        def on_socket(websocket: Any) -> None:
            websocket.on("framesent", lambda frame: self.sent.append(str(frame)))
            websocket.on("framereceived", self._received)

        page.on("websocket", on_socket)

    def _received(self, frame: str | bytes) -> None:
        if isinstance(frame, bytes):
            self.output.append(frame)
            frame = frame.decode("utf-8", "replace")
        self.received.append(frame)

    def wait(self, page: Any, done: Callable[[], bool]) -> bool:
        """Whether ``done()`` comes true within 10 s of play."""
        deadline = time.monotonic() + 10
        while not done():
            if time.monotonic() > deadline:
                return False
            page.wait_for_timeout(50)
        return True

    def wait_received(self, page: Any, text: str, since: int = 0) -> bool:
        """Whether the game sends ``text`` (from its message ``since`` on) within 10 s."""
        return self.wait(page, lambda: text in "".join(self.received[since:]))

    def screen(self) -> dict[tuple[int, int], str]:
        """The screen as the output so far leaves it: (row, column) -> character."""
        return screen_of(b"".join(self.output).decode("utf-8", "replace"))


# The game's output, as Textual writes it: cursor moves, styles and text.
_CONTROL = re.compile(
    r"\x1b\[(?P<params>[0-9;?<>=]*)[ -/]*(?P<final>[@-~])|\x1b\][^\x07]*\x07|\x1b."
)


def screen_of(output: str) -> dict[tuple[int, int], str]:
    """A terminal's screen after ``output``: enough of one to read what is drawn where
    (Textual places every run of text with a cursor move; a character takes the cells Rich
    says it does, as Textual laid it out)."""
    cells: dict[tuple[int, int], str] = {}
    row = column = 1
    position = 0
    for control in [*_CONTROL.finditer(output), None]:
        end = control.start() if control is not None else len(output)
        for char in output[position:end]:
            if char == "\n":
                row, column = row + 1, 1
            elif char >= " ":
                cells[row, column] = char
                column += max(cell_len(char), 1)
        if control is None:
            break
        position = control.end()
        if control["final"] == "H" and not control["params"].startswith("?"):
            numbers = [int(part or 1) for part in control["params"].split(";")] + [1, 1]
            row, column = numbers[0], numbers[1]
    return cells


def winning_keys() -> list[str]:
    """The key presses that win the served board: Space on the centre cell (the first click
    opens an area there), then to each cell still to reveal by arrows and Space."""
    game = Game(9, 9, 10, seed=SEED)
    x, y = 4, 4
    game.act(ActionKind.REVEAL, x, y)
    assert game.board is not None
    keys = ["Space"]
    for cx, cy in winning_clicks(game.board):
        if game.cell(cx, cy) not in "#?":
            continue
        keys += ["ArrowRight" if cx > x else "ArrowLeft"] * abs(cx - x)
        keys += ["ArrowDown" if cy > y else "ArrowUp"] * abs(cy - y)
        keys.append("Space")
        game.act(ActionKind.REVEAL, cx, cy)
        x, y = cx, cy
    assert game.status.name == "WON"
    return keys


def open_game(page: Any, url: str) -> Any:
    """Open the game at ``url`` and wait for the board (the panel's corner) to be drawn."""
    page.goto(url, wait_until="domcontentloaded")
    page.wait_for_selector("body.-first-byte", timeout=30_000)
    page.wait_for_timeout(1500)  # the game settles: its layouts, the zoom that fits
    return page


def open_tab(browser: Any, url: str) -> Any:
    page = browser.new_page(accept_downloads=True, viewport={"width": 1100, "height": 800})
    open_game(page, url)
    page.focus(".xterm-helper-textarea")
    return page


def press_all(page: Any, keys: list[str]) -> None:
    for key in keys:
        page.keyboard.press(key)
        page.wait_for_timeout(15)


def stats_of(home: Path) -> Path:
    return default_paths({"TEXTMINES_HOME": str(home)}).stats_db


def wait_for_games(stats_db: Path, count: int) -> int:
    deadline = time.monotonic() + 20
    while True:
        stats, _ = open_stats(stats_db)
        assert stats is not None
        with stats:
            found = stats.count()
        if found >= count or time.monotonic() > deadline:
            return found
        time.sleep(0.2)


@pytest.mark.slow  # two tabs play a game each, ~15 s
def test_two_tabs_play_to_a_win_and_a_replay_downloads(
    browser: Any, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    keys = winning_keys()
    shots = tmp_path_factory.mktemp("shots")
    with served(tmp_path, "--beginner", "--seed", str(SEED)) as server:
        url = server.url()
        first, second = open_tab(browser, url), open_tab(browser, url)
        try:
            press_all(first, keys)
            press_all(second, keys)
            assert wait_for_games(stats_of(tmp_path), 2) == 2, "both tabs' games are recorded"
            first.wait_for_timeout(1000)
            first.screenshot(path=str(shots / "won.png"))
            # The game-over box offers the replay (w); the viewer exports it (e).
            first.keyboard.press("w")
            first.wait_for_timeout(1000)
            with first.expect_download(timeout=20_000) as download_info:
                first.keyboard.press("e")
            download = download_info.value
            assert download.suggested_filename.endswith(".evf")
            data = Path(download.path()).read_bytes()
            second.keyboard.press("Escape")  # the game-over box
            second.keyboard.press("F4")
            second.wait_for_timeout(1000)
            second.screenshot(path=str(shots / "statistics.png"))
        finally:
            first.close()
            second.close()
    exported = list((tmp_path / "replays").glob("*.evf"))
    assert len(exported) == 1 and exported[0].read_bytes() == data
    stats, _ = open_stats(stats_of(tmp_path))
    assert stats is not None
    with stats:
        (beginner,) = [stats.group_stats(group) for group in stats.groups()]
    assert (beginner.played, beginner.won) == (2, 2)
    assert not (tmp_path / "saved-game.json").exists(), "a tab never writes the saved game"


def test_served_on_every_address_it_plays_from_another_address(
    browser: Any, tmp_path: Path
) -> None:
    """``--host 0.0.0.0``: the page opened as another machine would open it (127.0.0.2
    stands for this machine's network address) loads its scripts and its game from there."""
    with served(tmp_path, "--beginner", "--seed", str(SEED), host="0.0.0.0") as server:
        url = server.url("127.0.0.2")
        page = browser.new_page(viewport={"width": 1100, "height": 800})
        asked: list[str] = []
        page.on("request", lambda request: asked.append(request.url))
        page.on("websocket", lambda websocket: asked.append(websocket.url))
        try:
            open_game(page, url)
            html = page.content()
            page.focus(".xterm-helper-textarea")
            press_all(page, winning_keys())
            assert wait_for_games(stats_of(tmp_path), 1) == 1, "the game is played and recorded"
        finally:
            page.close()
        printed = server.output()
    for text in (html, *asked):
        assert "0.0.0.0" not in text and "127.0.0.1" not in text, text
    assert any(address.startswith(f"ws://127.0.0.2:{server.port}/ws/") for address in asked)
    assert f"on this machine:     http://127.0.0.1:{server.port}/" in printed
    assert "WARNING: anyone who can reach this machine" in printed


def test_right_click_and_ctrl_minus_go_to_the_game_not_the_browser(
    browser: Any, tmp_path: Path
) -> None:
    with served(tmp_path, "--beginner", "--seed", str(SEED)) as server:
        page = browser.new_page(viewport={"width": 1100, "height": 800})
        frames = Frames()
        frames.watch(page)
        # Registered before the page's own scripts, read once the event has been handled.
        page.add_init_script(
            """
            window.seen = {};
            for (const kind of ["contextmenu", "keydown"]) {
              window.addEventListener(kind, (event) => {
                if (kind === "keydown" && event.key !== "-") return;
                setTimeout(() => { window.seen[kind] = event.defaultPrevented; });
              }, { capture: true });
            }
            """
        )
        try:
            open_game(page, server.url())
            ratio = page.evaluate("window.devicePixelRatio")
            page.mouse.click(550, 400, button="right")
            page.wait_for_function("window.seen.contextmenu !== undefined")
            assert page.evaluate("window.seen.contextmenu") is True, "no browser menu"
            assert any("\\u001b[<2;" in message for message in frames.sent), "the game got it"

            page.focus(".xterm-helper-textarea")
            since = len(frames.received)
            page.keyboard.press("Control+Minus")
            page.wait_for_function("window.seen.keydown !== undefined")
            assert page.evaluate("window.seen.keydown") is True, "the browser does not zoom"
            assert page.evaluate("window.devicePixelRatio") == ratio
            assert frames.wait_received(page, "Zoom: cells", since), "the board zooms out"
        finally:
            page.close()


def test_on_a_phone_a_long_press_or_a_tap_in_flag_mode_flags(browser: Any, tmp_path: Path) -> None:
    # A device scale of 1: Chromium's emulation of a denser screen misleads xterm.js's canvas
    # about its size (it draws three times too large), which a real phone does not.
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    with served(tmp_path, "--beginner", "--seed", str(SEED)) as server:
        page = context.new_page()
        frames = Frames()
        frames.watch(page)
        try:
            open_game(page, server.url())
            assert page.evaluate("window.innerWidth") == 390, "laid out at the phone's width"
            assert page.is_visible("#flag-mode")
            screen = page.locator(".xterm-screen").bounding_box()
            x, y = screen["x"] + screen["width"] / 2, screen["y"] + screen["height"] * 0.45

            def flags() -> int:
                return sum(char == FLAG for char in frames.screen().values())

            def right_click_sent(since: int) -> bool:
                return any("\\u001b[<2;" in message for message in frames.sent[since:])

            assert flags() == 0
            touch = context.new_cdp_session(page)
            sent = len(frames.sent)
            touch.send(
                "Input.dispatchTouchEvent",
                {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]},
            )
            page.wait_for_timeout(800)
            touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
            assert frames.wait(page, lambda: flags() == 1), "held, the cell is flagged"
            assert right_click_sent(sent)
            assert not any("\\u001b[<0;" in message for message in frames.sent[sent:]), (
                "no left click"
            )

            page.tap("#flag-mode")
            assert page.get_attribute("#flag-mode", "aria-pressed") == "true"
            sent = len(frames.sent)
            page.touchscreen.tap(x + screen["width"] / 5, y + screen["height"] / 10)
            assert frames.wait(page, lambda: flags() == 2), "in flag mode, a tap flags"
            assert right_click_sent(sent)
            assert not any("\\u001b[<0;" in message for message in frames.sent[sent:])
        finally:
            context.close()
