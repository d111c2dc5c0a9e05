"""A closed terminal's SIGHUP reaches the server and its tabs alike (one process group). A tab
that saves and ends on it says so in its "exit", and the server, even when it runs that end
before its own signal handler (a loaded machine), tells the page the server stopped (1001),
not that the game ended. The whole of it, with a real server: ``test_serve.py``
(``test_a_closed_terminal_stops_the_server_and_its_pages_say_so``); here, each part alone,
in the order a loaded machine may run them."""

from __future__ import annotations

import asyncio
import json
import signal

import pytest
from textual_serve.download_manager import DownloadManager

from textmines.ui.web_tab import TabDriver
from textmines.web.tabs import SIGNAL_GRACE, TabService, server_stopping


class EndedApp:
    """What the driver reads of the app as it ends: its return code."""

    return_code: int | None = 0


def exit_said(return_code: int | None) -> dict[str, object]:
    """The "exit" a tab's driver writes when its app ended with ``return_code`` (its input,
    the server's pipe, not read: this test has none)."""
    app = EndedApp()
    app.return_code = return_code
    driver = TabDriver(app, size=(80, 24))
    written: list[bytes] = []
    driver._write = written.append  # type: ignore[assignment]
    driver.write_meta({"type": "exit"})
    (packet,) = written
    assert packet[:1] == b"M" and int.from_bytes(packet[1:5], "big") == len(packet) - 5
    said: dict[str, object] = json.loads(packet[5:])
    return said


async def test_a_game_that_leaves_on_a_signal_says_which_in_its_exit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("textual.drivers.web_driver.InputReader", lambda: None)
    assert exit_said(128 + signal.SIGHUP) == {"type": "exit", "signal": signal.SIGHUP}
    assert exit_said(0) == exit_said(None) == exit_said(1) == {"type": "exit"}


async def test_the_server_hears_of_it_and_waits_for_its_own_signal_that_long_only() -> None:
    async def closed() -> None:
        pass

    service = TabService(
        "textmines --tab",
        argv=["--tab"],
        profile="a" * 64,
        forks=None,
        write_bytes=lambda data: asyncio.sleep(0),
        write_str=lambda text: asyncio.sleep(0),
        close=closed,
        download_manager=DownloadManager(),
    )
    await service.on_meta(json.dumps({"type": "exit", "signal": 1}).encode())
    assert service.ended_on_signal
    await service.on_meta(json.dumps({"type": "exit"}).encode())
    assert not service.ended_on_signal

    loop = asyncio.get_running_loop()
    # The server's handler runs after the game's end: still "server stopped".
    stopped = asyncio.Event()
    loop.call_later(SIGNAL_GRACE / 5, stopped.set)
    assert await server_stopping(stopped, ended_on_signal=True)
    # A game the player quit: the page is told at once that it ended.
    began = loop.time()
    assert not await server_stopping(asyncio.Event(), ended_on_signal=False)
    assert loop.time() - began < SIGNAL_GRACE / 5
    # A game signalled alone (the server was not): its page is told once the grace is over.
    assert not await server_stopping(asyncio.Event(), ended_on_signal=True)
    assert loop.time() - began >= SIGNAL_GRACE
