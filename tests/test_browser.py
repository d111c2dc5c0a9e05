"""Play in a browser, end to end: ``textmines --serve`` driven by a real headless Chromium.

Two tabs play the same seeded board to a win with key presses in the page; both games are in
the statistics, and a replay exported in a tab downloads in the browser. Needs Debian's
``chromium`` (``.ci/run`` installs it when missing) and Playwright (a test dependency).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import winning_clicks
from textmines.engine import ActionKind, Game
from textmines.store.paths import default_paths
from textmines.store.stats.opening import open_stats

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no chromium on this machine (.ci/run installs Debian's)"
)
SEED = 7


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A served textmines on a free port with its own home; (URL, home)."""
    port = free_port()
    env = {**os.environ, "TEXTMINES_HOME": str(tmp_path)}
    command = [sys.executable, "-m", "textmines", "--serve", "--port", str(port)]
    process = subprocess.Popen(
        [*command, "--beginner", "--seed", str(SEED)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            with socket.socket() as sock:
                if sock.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert process.poll() is None, process.stderr.read() if process.stderr else ""
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/", tmp_path
    finally:
        process.terminate()
        process.wait(10)


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


def open_tab(browser: Any, url: str) -> Any:
    page = browser.new_page(accept_downloads=True, viewport={"width": 1100, "height": 800})
    page.goto(url, wait_until="domcontentloaded")
    page.wait_for_selector("body.-first-byte", timeout=30_000)
    page.wait_for_timeout(1500)  # the game draws its first frame
    page.focus(".xterm-helper-textarea")
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


def test_two_tabs_play_to_a_win_and_a_replay_downloads(
    server: tuple[str, Path], tmp_path_factory: pytest.TempPathFactory
) -> None:
    from playwright.sync_api import sync_playwright

    url, home = server
    keys = winning_keys()
    stats_db = default_paths({"TEXTMINES_HOME": str(home)}).stats_db
    shots = tmp_path_factory.mktemp("shots")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
        try:
            first, second = open_tab(browser, url), open_tab(browser, url)
            press_all(first, keys)
            press_all(second, keys)
            assert wait_for_games(stats_db, 2) == 2, "both tabs' games are in the statistics"
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
            browser.close()
    exported = list((home / "replays").glob("*.evf"))
    assert len(exported) == 1 and exported[0].read_bytes() == data
    stats, _ = open_stats(stats_db)
    assert stats is not None
    with stats:
        (beginner,) = stats.all_group_stats()
    assert (beginner.played, beginner.won) == (2, 2)
    assert not (home / "saved-game.json").exists(), "a tab never writes the saved game"
