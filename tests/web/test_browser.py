"""Play in a browser, end to end: ``textmines --serve`` driven by a real headless Chromium.

Two tabs play the same seeded board to a win with key presses in the page; both games are in
the statistics, and a replay exported in a tab downloads in the browser. Served on every
address, the page plays from another address than the one it was served on. Right click,
Ctrl+minus and a phone's long press go to the game, not to the browser. Every browser (a
Playwright context: its own cookies) is a player of its own: a game in play when its tab
closes or the server stops comes back in that browser alone, its statistics and name are its
own, and q keeps the game on the page. A win of the daily board in a tab is on the host's
leaderboard under the player's name, on its API and its page, and its Watch link plays the
replay in a tab. Needs Debian's ``chromium`` (``.ci/run`` installs it when missing) and
Playwright (a test dependency).

What the game draws is read from the websocket's frames as Chromium receives them (the
terminal is a canvas: there is no text in the page to read).
"""

from __future__ import annotations

import json
import os
import re
import signal
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len

from tests.helpers import winning_clicks
from tests.web.served import CHROMIUM, SEED, Served, served
from tests.web.served import profile_folder as served_profile_folder
from textmines.engine import ActionKind, Game
from textmines.engine.daily import daily_board, daily_day
from textmines.store.stats.opening import open_stats

# Slow: the tests drive a browser, a server and its tabs (the whole suite runs them all).
pytestmark = [
    pytest.mark.skipif(
        CHROMIUM is None, reason="no chromium on this machine (.ci/run installs Debian's)"
    ),
    pytest.mark.slow,
]
# The tests take ~80 s of wall time one after the other, mostly waiting for tabs to start. Two
# groups of about 40 s, each run on one xdist worker (one browser and one server each): with
# --dist loadgroup (pyproject.toml) the groups are the run's largest units and start first,
# instead of one worker meeting all ten late in the run.
FIRST = pytest.mark.xdist_group("browser-1")
SECOND = pytest.mark.xdist_group("browser-2")
FLAG = "⚑"  # a flag, as the board draws it at the phone's cell size


@dataclass
class Frames:
    """What a page's websocket carried: to the game (its JSON messages) and from it (JSON
    messages, and the game's output: what a terminal is given to draw)."""

    sent: list[str] = field(default_factory=list)
    received: list[str] = field(default_factory=list)
    output: list[bytes] = field(default_factory=list)

    #: The game's websocket address (it carries the terminal's first size).
    url: str = ""

    def watch(self, page: Any) -> None:
        def on_socket(websocket: Any) -> None:
            self.url = websocket.url
            websocket.on("framesent", lambda frame: self.sent.append(str(frame)))
            websocket.on("framereceived", self._received)

        page.on("websocket", on_socket)

    def _received(self, frame: str | bytes) -> None:
        if isinstance(frame, bytes):
            self.output.append(frame)
            frame = frame.decode("utf-8", "replace")
        self.received.append(frame)

    def wait(self, page: Any, done: Callable[[], bool]) -> bool:
        """Whether ``done()`` comes true within 30 s of play (a tab on a loaded machine can
        take a while; nothing waits here for what should not happen)."""
        deadline = time.monotonic() + 30
        while not done():
            if time.monotonic() > deadline:
                return False
            page.wait_for_timeout(50)
        return True

    def wait_received(self, page: Any, text: str, since: int = 0) -> bool:
        """Whether the game sends ``text`` (from its message ``since`` on) within 30 s."""
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


def daily_keys() -> str:
    """The keys that win today's daily board from its first click (made by the host in the
    middle, where the cursor starts), as the characters typed: to each cell still to reveal
    by the vi keys (h j k l, H J K L five at a time) and Space."""
    board = daily_board(daily_day(datetime.now(UTC)))
    game = board.game()
    (x, y), keys = board.first, []
    for cx, cy in winning_clicks(board.board):
        if game.is_revealed(cx, cy):
            continue
        for step, (back, on) in ((cx - x, "hl"), (cy - y, "kj")):
            key = on if step > 0 else back
            keys.append(key.upper() * (abs(step) // 5) + key * (abs(step) % 5))
        keys.append(" ")
        game.reveal(cx, cy)
        x, y = cx, cy
    assert game.status.name == "WON"
    return "".join(keys)


def open_game(page: Any, url: str, frames: Frames) -> Any:
    """Open the game at ``url`` (its frames watched by ``frames``) and wait until it has
    drawn and settled: its layouts, the zoom that fits (a quiet spell after the first
    byte; it used to be a fixed 1.5 s)."""
    page.goto(url, wait_until="domcontentloaded")
    page.wait_for_selector("body.-first-byte", timeout=30_000)
    assert frames.wait(page, lambda: bool(frames.output)), "the game drew nothing"
    settle(page, frames, quiet=0.5)
    return page


def press_all(page: Any, keys: list[str]) -> None:
    for key in keys:
        page.keyboard.press(key)
        page.wait_for_timeout(15)


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


def open_in(context: Any, url: str) -> tuple[Any, Frames]:
    """A new tab of the browser ``context`` (its cookies are that browser's) on the game, its
    frames watched, its keys going to the game."""
    page = context.new_page()
    frames = Frames()
    frames.watch(page)
    open_game(page, url, frames)
    page.focus(".xterm-helper-textarea")
    return page, frames


def new_browser(browser: Any) -> Any:
    """A browser of its own: its own cookies, so its own profile."""
    return browser.new_context(accept_downloads=True, viewport={"width": 1100, "height": 800})


def profile_folder(home: Path, context: Any) -> Path:
    """The folder of the profile the browser ``context`` was given."""
    (cookie,) = [c for c in context.cookies() if c["name"] == "textmines-profile"]
    return served_profile_folder(home, cookie["value"])


def eventually(done: Callable[[], bool], seconds: float = 20) -> bool:
    """Whether ``done()`` comes true within ``seconds`` (a tab's process ends in its own time)."""
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


CLEARED = re.compile(r"[1-9][0-9]*% cleared")


def start_a_game(page: Any, frames: Frames) -> None:
    """The first click, on the centre cell: it opens an area, and the game is in play."""
    since = len(frames.received)
    page.keyboard.press("Space")
    opened = frames.wait(page, lambda: CLEARED.search("".join(frames.received[since:])) is not None)
    assert opened, "the status line counts the cells opened"


def resumed(url: str, context: Any) -> bool:
    """Whether a new tab of ``context`` says the game left in play is back (it says so as
    it starts, before the board has settled)."""
    page, frames = open_in(context, url)
    try:
        return "Your last game is back" in "".join(frames.received)
    finally:
        page.close()


def losing_keys() -> list[str]:
    """The key presses that lose the served board: Space on the centre cell, then to a mine
    by arrows and Space."""
    game = Game(9, 9, 10, seed=SEED)
    game.act(ActionKind.REVEAL, 4, 4)
    assert game.board is not None
    mx, my = next((x, y) for y in range(9) for x in range(9) if game.board.is_mine(x, y))
    keys = ["Space"]
    keys += ["ArrowRight" if mx > 4 else "ArrowLeft"] * abs(mx - 4)
    keys += ["ArrowDown" if my > 4 else "ArrowUp"] * abs(my - 4)
    return [*keys, "Space"]


def terminal_size(frames: Frames) -> tuple[int, int]:
    """The terminal's columns and rows: its last resize, else the size it started at."""
    for message in reversed(frames.sent):
        found = re.search(r'"resize",\{"width":(\d+),"height":(\d+)\}', message)
        if found is not None:
            return int(found[1]), int(found[2])
    started = re.search(r"width=(\d+)&height=(\d+)", frames.url)
    assert started is not None, frames.url
    return int(started[1]), int(started[2])


def settle(page: Any, frames: Frames, quiet: float = 0.3) -> None:
    """Wait until the game has drawn nothing new for ``quiet`` seconds: a screen's first
    frame may come before its last layout (a menu is drawn full width, then at its own)."""
    count, quiet_since = len(frames.output), time.monotonic()
    deadline = quiet_since + 10
    while time.monotonic() - quiet_since < quiet and time.monotonic() < deadline:
        page.wait_for_timeout(50)
        if len(frames.output) != count:
            count, quiet_since = len(frames.output), time.monotonic()


def click_text(page: Any, frames: Frames, text: str, shows: str) -> None:
    """Click the middle of ``text`` where the game draws it, once the screen has settled
    with it shown once (a toast may hide it for a few seconds), until the game sends
    ``shows``: a toast that comes over it as it is clicked takes the click (it closes)."""
    for _ in range(3):
        since = len(frames.received)
        click_text_once(page, frames, text)
        if frames.wait_received(page, shows, since):
            return
    raise AssertionError(f"three clicks on {text!r} never showed {shows!r}")


def click_text_once(page: Any, frames: Frames, text: str) -> None:
    found: list[tuple[int, int]] = []

    def shown_once() -> bool:
        # The same place twice, a quiet spell apart: under load a layout can come late.
        before = list(found)
        settle(page, frames)
        found[:] = find_text(frames.screen(), text)
        return len(found) == 1 and found == before

    if not frames.wait(page, shown_once):
        # Raised, not asserted: pytest shortens an assert's message, and the screen is the clue.
        raise AssertionError(f"{text!r} shown at {found}, on:\n{screen_text(frames.screen())}")
    (row, column), (columns, lines) = found[0], terminal_size(frames)
    box = page.locator(".xterm-screen").bounding_box()
    page.mouse.click(
        box["x"] + (column - 0.5) * box["width"] / columns,
        box["y"] + (row - 0.5) * box["height"] / lines,
    )


def close_game_over_box(page: Any, frames: Frames) -> None:
    """Escape on the game-over box, once it is drawn, and wait until it is gone from the
    screen: a quiet spell alone let the next key come before the box had closed on a loaded
    machine (the menu F10 then opened was not there to click)."""
    box_shown = frames.wait(page, lambda: bool(find_text(frames.screen(), "Play again")))
    assert box_shown, "the game-over box"
    page.keyboard.press("Escape")
    box_gone = frames.wait(page, lambda: not find_text(frames.screen(), "Play again"))
    assert box_gone, "Escape closes the game-over box"
    settle(page, frames)


def arrow_then_enter(page: Any) -> None:
    """Left arrow to a dialog's other button and Enter straight after it, as a player types
    them: the two keys often reach the game in one read of its terminal, and Enter must press
    the button the arrow chose (it pressed the one the arrow left when the dialog moved its
    focus a message later: 1 full run in 3 to 6 failed so under load)."""
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Enter")


def screen_text(cells: dict[tuple[int, int], str]) -> str:
    """The screen as lines of text (for a failure's message)."""
    rows = max((row for row, _ in cells), default=0)
    columns = max((column for _, column in cells), default=0)
    return "\n".join(
        "".join(cells.get((row, column), " ") for column in range(1, columns + 1)).rstrip()
        for row in range(1, rows + 1)
    )


def find_text(cells: dict[tuple[int, int], str], text: str) -> list[tuple[int, int]]:
    """Where ``text`` is drawn on the screen: the (row, column) of its middle, each time."""
    rows: dict[int, dict[int, str]] = {}
    for (row, column), char in cells.items():
        rows.setdefault(row, {})[column] = char
    found = []
    for row, line in rows.items():
        drawn = "".join(line.get(column, " ") for column in range(1, max(line) + 1))
        start = drawn.find(text)
        if start >= 0:
            found.append((row, start + 1 + len(text) // 2))
    return found


def games_in(stats_db: Path) -> int:
    stats, _ = open_stats(stats_db)
    assert stats is not None
    with stats:
        return stats.count()


@FIRST
@pytest.mark.slow  # two tabs play a game each, ~15 s
def test_two_tabs_play_to_a_win_and_a_replay_downloads(
    browser: Any, server: Served, tmp_path_factory: pytest.TempPathFactory
) -> None:
    keys = winning_keys()
    shots = tmp_path_factory.mktemp("shots")
    url = server.url()
    context = new_browser(browser)  # one browser, two tabs: one player
    (first, first_frames), (second, second_frames) = open_in(context, url), open_in(context, url)
    folder = profile_folder(server.home, context)
    try:
        press_all(first, keys)
        press_all(second, keys)
        stats_db = folder / "stats.db"
        assert wait_for_games(stats_db, 2) == 2, "both tabs' games are recorded"
        settle(first, first_frames)
        first.screenshot(path=str(shots / "won.png"))
        # The game-over box offers the replay (w); the viewer exports it (e).
        first.keyboard.press("w")
        settle(first, first_frames)
        with first.expect_download(timeout=20_000) as download_info:
            first.keyboard.press("e")
        download = download_info.value
        assert download.suggested_filename.endswith(".evf")
        data = Path(download.path()).read_bytes()
        close_game_over_box(second, second_frames)
        since = len(second_frames.received)
        second.keyboard.press("F4")
        # For the screenshot only (as the fixed 1 s wait it replaces, it asserts nothing).
        second_frames.wait_received(second, "Statistics", since)
        settle(second, second_frames)
        second.screenshot(path=str(shots / "statistics.png"))
    finally:
        context.close()
    exported = list((folder / "replays").glob("*.evf"))
    assert len(exported) == 1 and exported[0].read_bytes() == data
    stats, _ = open_stats(stats_db)
    assert stats is not None
    with stats:
        (beginner,) = [stats.group_stats(group) for group in stats.groups()]
    assert (beginner.played, beginner.won) == (2, 2)
    assert not (folder / "saved-game.json").exists(), "a game over is not saved"
    assert not (server.home / "stats.db").exists(), "nor are the terminal's statistics touched"


@SECOND
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
        frames = Frames()
        frames.watch(page)
        try:
            open_game(page, url, frames)
            html = page.content()
            page.focus(".xterm-helper-textarea")
            press_all(page, winning_keys())
            stats_db = profile_folder(tmp_path, page.context) / "stats.db"
            assert wait_for_games(stats_db, 1) == 1, "the game is played and recorded"
        finally:
            page.close()
        printed = server.output()
    for text in (html, *asked):
        assert "0.0.0.0" not in text and "127.0.0.1" not in text, text
    assert any(address.startswith(f"ws://127.0.0.2:{server.port}/ws/") for address in asked)
    assert f"on this machine:     http://127.0.0.1:{server.port}/" in printed
    assert "WARNING: anyone who can reach this machine" in printed


@FIRST
def test_right_click_and_ctrl_minus_go_to_the_game_not_the_browser(
    browser: Any, server: Served
) -> None:
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
        open_game(page, server.url(), frames)
        ratio = page.evaluate("window.devicePixelRatio")
        page.mouse.click(550, 400, button="right")
        # Polled from here: wait_for_function's own polling evaluates a string in the page,
        # which the page's Content-Security-Policy forbids (it failed whenever the event
        # had not been handled at the first look).
        assert frames.wait(page, lambda: page.evaluate("window.seen.contextmenu !== undefined"))
        assert page.evaluate("window.seen.contextmenu") is True, "no browser menu"
        # The page sends the click as it handles it: wait for it, not just look once.
        got = frames.wait(page, lambda: any("\\u001b[<2;" in m for m in frames.sent))
        assert got, "the game got it"

        page.focus(".xterm-helper-textarea")
        since = len(frames.received)
        page.keyboard.press("Control+Minus")
        assert frames.wait(page, lambda: page.evaluate("window.seen.keydown !== undefined"))
        assert page.evaluate("window.seen.keydown") is True, "the browser does not zoom"
        assert page.evaluate("window.devicePixelRatio") == ratio
        assert frames.wait_received(page, "Zoom: cells", since), "the board zooms out"
    finally:
        page.close()


@SECOND
def test_on_a_phone_a_long_press_or_a_tap_in_flag_mode_flags(browser: Any, server: Served) -> None:
    # A device scale of 1: Chromium's emulation of a denser screen misleads xterm.js's canvas
    # about its size (it draws three times too large), which a real phone does not.
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    frames = Frames()
    frames.watch(page)
    try:
        open_game(page, server.url(), frames)
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
        assert not any("\\u001b[<0;" in message for message in frames.sent[sent:]), "no left click"

        page.tap("#flag-mode")
        assert page.get_attribute("#flag-mode", "aria-pressed") == "true"
        sent = len(frames.sent)
        page.touchscreen.tap(x + screen["width"] / 5, y + screen["height"] / 10)
        assert frames.wait(page, lambda: flags() == 2), "in flag mode, a tap flags"
        assert right_click_sent(sent)
        assert not any("\\u001b[<0;" in message for message in frames.sent[sent:])
    finally:
        context.close()


# ---------------------------------------------------------------------------- each browser a player
@SECOND
@pytest.mark.slow  # three tabs, ~15 s
def test_a_closed_tab_keeps_its_game_for_that_browser_alone(browser: Any, server: Served) -> None:
    url = server.url()
    mine, theirs = new_browser(browser), new_browser(browser)
    try:
        page, frames = open_in(mine, url)
        cookies = {cookie["name"]: cookie for cookie in mine.cookies()}
        profile = cookies["textmines-profile"]
        assert (profile["httpOnly"], profile["sameSite"]) == (True, "Strict")
        start_a_game(page, frames)
        page.close()
        saved = profile_folder(server.home, mine) / "saved-game.json"
        assert eventually(saved.exists), "the closed tab's game is saved in its profile"
        assert not (server.home / "saved-game.json").exists(), "not the terminal's"
        assert not resumed(url, theirs), "another browser does not get it"
        assert resumed(url, mine), "this browser does"
    finally:
        mine.close()
        theirs.close()


@SECOND
@pytest.mark.slow  # two servers, ~15 s each
@pytest.mark.parametrize("signalled", ["server", "terminal"])
def test_ctrl_c_on_the_server_keeps_the_game_for_when_it_runs_again(
    browser: Any, tmp_path: Path, signalled: str
) -> None:
    """Ctrl+C in the server's terminal reaches the server and its tabs' processes alike (one
    process group); SIGINT to the server alone (kill -INT) closes the tabs itself."""
    mine = new_browser(browser)
    try:
        with served(tmp_path, "--beginner", "--seed", str(SEED)) as server:
            page, frames = open_in(mine, server.url())
            start_a_game(page, frames)
            if signalled == "server":
                server.process.send_signal(signal.SIGINT)
            else:
                os.killpg(server.process.pid, signal.SIGINT)
            assert server.process.wait(20) == 0, server.output()
            page.wait_for_selector("#ended", state="visible")
            said = page.inner_text("#ended-text")
            assert "The server has stopped. A game in play is saved for this browser" in said
            page.close()
        assert (profile_folder(tmp_path, mine) / "saved-game.json").exists()
        with served(tmp_path, "--beginner", "--seed", str(SEED)) as server:
            assert resumed(server.url(), mine), "the same browser gets it back"
    finally:
        mine.close()


@FIRST
@pytest.mark.slow  # two browsers, ~20 s
def test_two_browsers_have_their_own_statistics_and_name_and_reset_one_only(
    browser: Any, server: Served
) -> None:
    url = server.url()
    mine, theirs = new_browser(browser), new_browser(browser)
    try:
        pages = [open_in(mine, url), open_in(theirs, url)]
        for page, frames in pages:
            since = len(frames.received)
            press_all(page, losing_keys())
            assert frames.wait_received(page, "Boom! Beginner lost", since)
        mine_db = profile_folder(server.home, mine) / "stats.db"
        theirs_db = profile_folder(server.home, theirs) / "stats.db"
        assert mine_db != theirs_db
        assert eventually(lambda: games_in(mine_db) == 1 and games_in(theirs_db) == 1)
        assert not (server.home / "stats.db").exists(), "the terminal's are not touched"

        # A name for this browser: Game > Player name..., shown over its statistics.
        page, frames = pages[0]
        close_game_over_box(page, frames)
        page.keyboard.press("F10")
        assert frames.wait_received(page, "Player name...")
        click_text(page, frames, "Player name...", shows="is a player of its own")
        settle(page, frames)
        page.keyboard.type("Ada")
        page.keyboard.press("Enter")
        assert frames.wait_received(page, "Player name: Ada.")
        settle(page, frames)
        since = len(frames.received)
        page.keyboard.press("F4")
        assert frames.wait_received(page, "Statistics: Ada", since)
        click_text(page, frames, "Reset all...", shows="Reset all statistics")
        settle(page, frames)
        arrow_then_enter(page)  # from Cancel to Reset, which it presses
        assert frames.wait_received(page, "All statistics reset.")
        assert games_in(mine_db) == 0
        assert games_in(theirs_db) == 1, "the other browser's statistics are theirs"

        page, frames = pages[1]
        close_game_over_box(page, frames)
        since = len(frames.received)
        page.keyboard.press("F4")
        assert frames.wait_received(page, "Statistics", since)
        assert "Ada" not in "".join(frames.received)
    finally:
        mine.close()
        theirs.close()


@FIRST
@pytest.mark.slow  # one tab, ~10 s
def test_q_in_a_tab_keeps_the_game_and_offers_to_play_on_or_start_anew(
    browser: Any, server: Served
) -> None:
    mine = new_browser(browser)
    try:
        page, frames = open_in(mine, server.url())
        start_a_game(page, frames)
        page.keyboard.press("q")
        assert frames.wait_received(page, "Your game is saved")
        assert "Play on" in "".join(frames.received)
        folder = profile_folder(server.home, mine)
        assert (folder / "saved-game.json").exists()
        settle(page, frames)
        page.keyboard.press("Enter")  # Play on: the game goes on in the page
        settle(page, frames)
        since = len(frames.received)
        page.keyboard.press("Control+c")  # the terminal's quit key, likewise
        assert frames.wait_received(page, "Your game is saved", since)
        assert not page.is_visible("#ended"), "the page never says the game has ended"

        settle(page, frames)
        arrow_then_enter(page)  # from Play on to New game, which it presses
        # The game left for a new one counts as abandoned, as n would record it.
        assert eventually(lambda: games_in(folder / "stats.db") == 1)
        # Its save goes once it is recorded (just after: it was once looked at in between).
        assert eventually(lambda: not (folder / "saved-game.json").exists())
        assert not page.is_visible("#ended")
    finally:
        mine.close()


@SECOND
def test_a_browser_that_follows_a_link_from_another_site_stays_the_same_player(
    browser: Any, server: Served
) -> None:
    """A SameSite=Strict cookie is not sent with a navigation from another site: the page
    must not take that for a new browser and replace its profile."""
    mine = new_browser(browser)
    try:
        page, _ = open_in(mine, server.url())
        page.close()
        known = profile_folder(server.home, mine)
        # The server's players so far (the module's other tests played as others).
        players = sorted(folder.name for folder in (server.home / "profiles").iterdir())
        assert known.name in players
        page = mine.new_page()
        page.route(
            "http://other.example/",
            lambda route: route.fulfill(
                content_type="text/html", body=f'<a id="go" href="{server.url()}">play</a>'
            ),
        )
        page.goto("http://other.example/")
        with page.expect_request(server.url()) as asked:
            page.click("#go")
        assert "textmines-profile" not in (asked.value.header_value("cookie") or "")
        page.wait_for_selector("body.-first-byte", timeout=30_000)
        assert profile_folder(server.home, mine) == known
        assert sorted(folder.name for folder in (server.home / "profiles").iterdir()) == players, (
            "no new player"
        )
    finally:
        mine.close()


# ---------------------------------------------------------------------------- the leaderboard
@FIRST
def test_a_daily_win_in_a_tab_is_on_the_hosts_leaderboard_under_the_players_name(
    browser: Any, server: Served
) -> None:
    context = new_browser(browser)
    page, frames = open_in(context, server.url())
    # The player's name, as Game > Player name... keeps it in the profile's settings.
    (profile_folder(server.home, context) / "settings.toml").write_text('player_name = "Ann"\n')
    try:
        page.keyboard.press("d")  # today's daily board, its first click made by the host
        settle(page, frames)
        # Typed as text, not pressed: one message to the game for ~640 keys, read in order.
        page.keyboard.insert_text(daily_keys())
        assert frames.wait(page, lambda: bool(find_text(frames.screen(), "Leaderboard: #1 of 1")))
        # The page, in the player's own browser (its profile's cookie): their row and best.
        board = context.new_page()
        board.goto(server.url() + "leaderboard")
        assert board.locator("tr.you td").nth(1).inner_text() == "Ann"
        assert board.locator("p", has_text="Ann: #1 in ").count() == 1
        # Its Watch link: a tab of the game, the replay in its viewer first.
        watched = Frames()
        watched.watch(board)  # the page becomes a game's as the link is followed
        board.locator("tr.you a", has_text="Watch").click()
        board.wait_for_selector("body.-first-byte", timeout=30_000)
        assert "watch=" in watched.url
        assert watched.wait(board, lambda: bool(find_text(watched.screen(), "Leaderboard: Ann")))
    finally:
        context.close()
    with urllib.request.urlopen(server.url() + "api/leaderboard?board=daily") as answer:
        (entry,) = json.loads(answer.read())["entries"]
    assert (entry["rank"], entry["name"]) == (1, "Ann") and entry["bbbv"] > 0
    with urllib.request.urlopen(server.url() + "leaderboard") as answer:
        page_text = answer.read().decode()
    assert ">Ann<" in page_text and entry["replay"] in page_text
