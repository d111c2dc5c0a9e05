"""``textmines --serve`` as a network service, through raw HTTP and websocket clients (no
browser): who gets a game, who gets nothing, what every page carries, and which player (the
profile cookies) a browser is.

A browser sends the page's ``Origin`` with its websocket, and only a page of this server holds
the secret; these clients play a page from another site (or another program) by sending what
such a page could send.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import resource
import signal
import socket
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from yarl import URL

from tests.web.served import (
    WEBSOCKET_URL,
    Served,
    fork_servers,
    process_ended,
    profile_folder,
    served,
    tab_processes,
)
from textmines.web.addresses import serving_text
from textmines.web.guard import REFUSAL_LOG_SECONDS
from textmines.web.profiles import Profiles

# Slow: the tests start a server and its tabs' processes (the whole suite runs them all). One
# xdist group, so one worker runs them all and starts the module's server once (spread over
# the workers, each started its own: up to five servers, a second of CPU each).
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("serve")]


@pytest.fixture(scope="module")
def running_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """One server for the module's tests (each starts with its one place free)."""
    home = tmp_path_factory.mktemp("served")
    with served(home, "--beginner", "--seed", "7", "--max-tabs", "1") as running:
        yield running


@pytest.fixture
def server(running_server: Served) -> Served:
    """The module's server once the tab a test before played has ended: its one place is
    free again (the page is served, not "it is being played")."""
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(running_server.url(), timeout=10) as response:
                if response.status == 200:
                    return running_server
        except urllib.error.HTTPError as busy:
            assert busy.code == 503, busy
        assert time.monotonic() < deadline, "the server's place never came back"
        time.sleep(0.05)


async def eventually(condition: Callable[[], object], what: str, seconds: float = 15) -> None:
    """Wait until ``condition()`` holds; fails naming ``what`` after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"still waiting after {seconds:g} s for {what}"
        await asyncio.sleep(0.05)


async def websocket_answer(url: str, origin: str | None) -> int | bytes:
    """The HTTP status a websocket request gets, or the first thing its game sends."""
    headers = {"Origin": origin} if origin is not None else {}
    async with aiohttp.ClientSession() as session:
        try:
            async with session.ws_connect(url, headers=headers) as websocket:
                while True:
                    message = await websocket.receive(timeout=30)
                    if message.type == aiohttp.WSMsgType.BINARY:
                        return bytes(message.data)
                    assert message.type == aiohttp.WSMsgType.TEXT, message
        except aiohttp.WSServerHandshakeError as refused:
            return refused.status


async def test_only_this_servers_page_gets_a_game_and_no_more_than_max_tabs(
    server: Served,
) -> None:
    origin = f"http://127.0.0.1:{server.port}"
    printed = len(server.output())
    async with aiohttp.ClientSession() as session, session.get(server.url()) as response:
        page = await response.text()
    found = WEBSOCKET_URL.search(page)
    assert found is not None, page
    url, secret = found["url"], found["secret"]
    assert url == f"ws://127.0.0.1:{server.port}/ws/{secret}"
    assert len(secret) >= 40

    # Another site's page: its Origin is its own; a program that is not a page sends none.
    assert await websocket_answer(url, "http://evil.example") == 403
    assert await websocket_answer(url, f"http://127.0.0.1:{server.port + 1}") == 403
    assert await websocket_answer(url, None) == 403
    # Without the secret: a page that has not read this server's page cannot know it.
    assert await websocket_answer(url.replace(secret, "x" * len(secret)), origin) == 403
    assert await websocket_answer(f"ws://127.0.0.1:{server.port}/ws", origin) == 404
    assert "refused a game" in server.output()[printed:]

    # The page's own websocket gets the game; with it in play, the one tab allowed is taken.
    async with (
        aiohttp.ClientSession() as session,
        session.ws_connect(url, headers={"Origin": origin}) as playing,
    ):
        first = await playing.receive(timeout=30)
        assert first.type in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT)
        assert await websocket_answer(url, origin) == 503
        async with session.get(server.url()) as response:
            assert response.status == 503
            assert "it is being played" in await response.text()
    # Closed, its place comes back (once its process has ended).
    async with aiohttp.ClientSession() as session:
        for _ in range(150):
            async with session.get(server.url()) as response:
                if response.status == 200:
                    break
            await asyncio.sleep(0.1)
        assert response.status == 200
    assert isinstance(await websocket_answer(url, origin), bytes)


async def test_a_request_naming_another_site_gets_nothing(server: Served) -> None:
    """A site renamed to this machine's address (DNS rebinding) is same-origin with its own
    page: its requests name the site, so they get neither the page nor its secret."""
    async with aiohttp.ClientSession() as session:
        for host in ("evil.example", f"evil.example:{server.port}", "127.0.0.1.evil.example"):
            async with session.get(server.url(), headers={"Host": host}) as response:
                assert response.status == 421
                assert "/ws/" not in await response.text()
        for host in (
            f"localhost:{server.port}",
            f"127.0.0.2:{server.port}",
            f"[::1]:{server.port}",
        ):
            async with session.get(server.url(), headers={"Host": host}) as response:
                assert response.status == 200, host
                assert f'"ws://{host}/ws/' in await response.text()


def test_malformed_requests_are_refused_in_a_line_not_a_traceback_each(tmp_path: Path) -> None:
    """No Host, an 8 KB URL, 500 headers, a 100 KB header: 200 of them print a line or two."""
    with served(tmp_path) as server:  # its own: no refusal said in the last seconds
        printed = len(server.output().splitlines())
        started = time.monotonic()
        send_malformed_requests(server)
        took = time.monotonic() - started
        new = server.output().splitlines()[printed:]
    assert any("refused a malformed request from 127.0.0.1" in line for line in new), new
    # A line every REFUSAL_LOG_SECONDS at most: three when the 200 are sent within 10 s, a
    # few more on a machine so loaded that sending them takes longer (one run took 4).
    most = max(3, 2 + int(took // REFUSAL_LOG_SECONDS))
    assert len(new) <= most and "Traceback" not in "\n".join(new), (took, new)


def send_malformed_requests(server: Served) -> None:
    """200 requests the server cannot parse, each refused (400); then a good one is served."""
    host = b"Host: 127.0.0.1\r\n"
    requests = [
        b"GET / HTTP/1.1\r\n\r\n",
        b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\n" + host + b"\r\n",
        b"GET / HTTP/1.1\r\n" + host + b"".join(b"X-%d: 1\r\n" % i for i in range(500)) + b"\r\n",
        b"GET / HTTP/1.1\r\n" + host + b"X-Big: " + b"a" * 100_000 + b"\r\n\r\n",
    ]
    for request in requests * 50:
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as client:
            client.sendall(request)
            assert client.recv(12).startswith(b"HTTP/1.")  # refused: 400
    with urllib.request.urlopen(server.url(), timeout=10) as response:
        assert response.status == 200  # and the host goes on


def test_a_flood_of_idle_connections_does_not_keep_players_waiting(tmp_path: Path) -> None:
    """1,100 requests begun and never finished, from one address (127.0.0.2 standing for
    another machine), on a server with the usual 1,024 open files: each player's page still
    comes at once, and the log sums the flood up."""
    wanted = 1300
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))
    with served(tmp_path, open_files=1024) as server:
        flood = []
        try:
            # From ports below the range the system picks from: the other tests' servers
            # listen on every address at ports it picked (--host 0.0.0.0).
            for port in range(20_000, 21_100):
                client = socket.socket()
                client.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                client.bind(("127.0.0.2", port))
                client.connect(("127.0.0.1", server.port))
                client.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and no more
                flood.append(client)
            for _ in range(3):
                with urllib.request.urlopen(server.url(), timeout=10) as response:
                    assert response.status == 200
        finally:
            for client in flood:
                client.close()
        said = server.output()
    assert "refused a connection from 127.0.0.2: 64 already open from there" in said
    assert "Too many open files" not in said and len(said.splitlines()) < 10, said


async def test_pages_forbid_framing_and_sniffing_and_list_no_folder(server: Served) -> None:
    async with aiohttp.ClientSession() as session:
        async with session.get(server.url()) as response:
            assert response.status == 200
            policy = response.headers["Content-Security-Policy"]
            assert "frame-ancestors 'none'" in policy and "script-src 'self'" in policy
            assert response.headers["X-Content-Type-Options"] == "nosniff"
            assert response.headers["Cache-Control"] == "no-store"
            page = await response.text()
        # Every file the page asks for is there (they ship inside the package).
        wanted = re.findall(r'(?:src|href)="/(static/[^"]+)"', page)
        assert len(wanted) >= 5
        for name in wanted:
            async with session.get(server.url() + name) as response:
                assert response.status == 200, name
        for folder in ("static", "static/", "static/js/", "static/..%2f"):
            async with session.get(server.url() + folder) as response:
                assert response.status == 404, folder
        async with session.get(server.url() + "static/textual.js") as response:
            assert response.status == 200
            assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_serving_to_the_network_says_where_and_warns() -> None:
    everywhere = serving_text("0.0.0.0", 8000, 8)
    assert "http://127.0.0.1:8000/" in everywhere
    assert "0.0.0.0" not in everywhere, "no browser can open http://0.0.0.0"
    assert "WARNING: anyone who can reach this machine at port 8000 can play" in everywhere
    here = serving_text("127.0.0.1", 8000, 3)
    assert "http://127.0.0.1:8000/ (this machine only)" in here
    assert "WARNING" not in here and "At most 3 games at once" in here
    assert "At most 1 game at once" in serving_text("127.0.0.1", 8000, 1)


def profiles(home: Path) -> Profiles:
    """The profiles of a server made in the test (its key made up)."""
    return Profiles(home, b"k" * 32)


async def test_a_game_that_will_not_end_is_killed_and_its_place_comes_back(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A hung tab must not hold one of the places for ever (nor its memory)."""
    from aiohttp.test_utils import TestServer

    from textmines.web import server as serve
    from textmines.web import tabs
    from textmines.web.tabs import shell_command

    monkeypatch.setattr(tabs, "STOP_SECONDS", 0.5)  # then it is killed
    # A "game" that says it has started (textual-serve waits for that line), then ignores
    # everything, the request to quit included.
    ignoring = "print('__GANGLION__', flush=True); import time; time.sleep(60)"
    hung = shell_command([sys.executable, "-c", ignoring])
    server = serve.GameServer(hung, host="127.0.0.1", max_tabs=1, profiles=profiles(tmp_path))
    async with TestServer(server.application(), host="127.0.0.1") as running:
        host = f"127.0.0.1:{running.port}"
        url = f"ws://{host}/ws/{server.secret}"
        async with (
            aiohttp.ClientSession() as session,
            session.ws_connect(url, headers={"Origin": f"http://{host}"}),
        ):
            for _ in range(50):
                if server.tabs == 1:
                    break
                await asyncio.sleep(0.05)
            assert server.tabs == 1
            assert await websocket_answer(url, f"http://{host}") == 503
        for _ in range(100):
            if server.tabs == 0:
                break
            await asyncio.sleep(0.05)
        assert server.tabs == 0, "killed, the hung game gave its place back"


class WaitingGames:
    """ "Games" that note their start, say they are Textual apps, and draw (a data packet) only
    once the test says so (``go``); they never end by themselves."""

    def __init__(self, folder: Path) -> None:
        self.started, self.go = folder / "started.txt", folder / "go"
        game = (
            "import pathlib, sys, time\n"
            f"with open({str(self.started)!r}, 'a') as file: file.write('started\\n')\n"
            "print('__GANGLION__', flush=True)\n"
            f"while not pathlib.Path({str(self.go)!r}).exists(): time.sleep(0.02)\n"
            "sys.stdout.buffer.write(b'D' + (5).to_bytes(4, 'big') + b'board')\n"
            "sys.stdout.flush()\n"
            "time.sleep(60)\n"
        )
        from textmines.web.tabs import shell_command

        self.command = shell_command([sys.executable, "-c", game])

    def starts(self) -> int:
        return len(self.started.read_text().splitlines()) if self.started.exists() else 0


async def until(condition: Callable[[], object]) -> None:
    for _ in range(300):
        if condition():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("timed out")


async def test_tabs_opened_together_start_their_games_in_turns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With one process starting at a time, a second tab's game starts once the first one's
    draws: tabs opened together do not all share the CPU and draw their boards last."""
    from aiohttp.test_utils import TestServer

    from textmines.web import server as serve
    from textmines.web import tabs

    # Killed at once when the test is over (not after the ten seconds a real game gets).
    monkeypatch.setattr(tabs, "STOP_SECONDS", 0.5)
    games = WaitingGames(tmp_path)
    server = serve.GameServer(
        games.command, host="127.0.0.1", max_tabs=2, start_slots=1, profiles=profiles(tmp_path)
    )
    starts, go = games.starts, games.go

    async with TestServer(server.application(), host="127.0.0.1") as running:
        host = f"127.0.0.1:{running.port}"
        url = f"ws://{host}/ws/{server.secret}"
        async with (
            aiohttp.ClientSession() as session,
            session.ws_connect(url, headers={"Origin": f"http://{host}"}) as first,
            session.ws_connect(url, headers={"Origin": f"http://{host}"}) as second,
        ):
            await until(lambda: server.tabs == 2 and starts() == 1)
            # The first game has not drawn: the second waits its turn.
            for _ in range(10):
                await asyncio.sleep(0.05)
                assert starts() == 1
            go.touch()
            assert (await first.receive(timeout=30)).data == b"board"
            await until(lambda: starts() == 2)
            assert (await second.receive(timeout=30)).data == b"board"


async def test_a_page_gone_before_its_turn_starts_no_process_and_makes_no_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from aiohttp.test_utils import TestServer

    from textmines.web import server as serve
    from textmines.web import tabs

    monkeypatch.setattr(tabs, "STOP_SECONDS", 0.5)
    games = WaitingGames(tmp_path)
    host_profiles = profiles(tmp_path)
    opened: list[str] = []
    open_profile = host_profiles.open
    monkeypatch.setattr(host_profiles, "open", lambda p: (opened.append(p), open_profile(p)))
    server = serve.GameServer(
        games.command, host="127.0.0.1", max_tabs=3, start_slots=1, profiles=host_profiles
    )
    async with TestServer(server.application(), host="127.0.0.1") as running:
        host = f"127.0.0.1:{running.port}"
        url = f"ws://{host}/ws/{server.secret}"
        headers = {"Origin": f"http://{host}"}
        async with aiohttp.ClientSession() as session, session.ws_connect(url, headers=headers):
            await until(lambda: games.starts() == 1)
            async with aiohttp.ClientSession() as other:
                await other.ws_connect(url, headers=headers)  # waits its turn, then goes
            # A page that says it goes (a close frame) but whose connection stays open.
            closing = await asyncio.to_thread(close_frame_only, running.port, server.secret)
            await until(lambda: server.tabs == 2)
            games.go.touch()  # the first draws: the turn passes on
            await asyncio.sleep(1)
            closing.close()
        await until(lambda: server.tabs == 0)
    assert len(opened) == 1, "the pages gone before their turn got no folder"
    assert games.starts() == 1, "nor a process"


def close_frame_only(port: int, secret: str) -> socket.socket:
    """A websocket to the server's game that sends a close frame at once and leaves its
    connection open: the open socket."""
    client = socket.create_connection(("127.0.0.1", port), timeout=10)
    host = f"127.0.0.1:{port}"
    client.sendall(
        f"GET /ws/{secret} HTTP/1.1\r\nHost: {host}\r\nOrigin: http://{host}\r\n"
        "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n".encode()
    )
    assert client.recv(12) == b"HTTP/1.1 101"
    mask = b"\x01\x02\x03\x04"
    code = (1001).to_bytes(2, "big")
    client.sendall(b"\x88\x82" + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(code)))
    return client


# ---------------------------------------------------------------------------- profiles
PROFILE = "0123456789abcdef0123456789abcdef"


async def page_cookies(server: Served, cookie: str | None) -> dict[str, Any]:
    """The cookies the page sets when asked with the ``Cookie`` header ``cookie``."""
    headers = {"Cookie": cookie} if cookie is not None else {}
    async with (
        aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) as session,
        session.get(server.url(), headers=headers) as response,
    ):
        assert response.status == 200
        return dict(response.cookies)


async def test_the_page_gives_a_new_browser_a_profile_and_keeps_a_known_ones(
    server: Served,
) -> None:
    given = await page_cookies(server, None)
    profile = given["textmines-profile"]
    assert re.fullmatch(r"[0-9a-f]{64}", profile.value)
    assert profile["httponly"] and profile["samesite"] == "Strict" and profile["path"] == "/"
    assert int(profile["max-age"]) >= 300 * 24 * 3600
    assert given["textmines-known"].value == "1"
    assert (await page_cookies(server, None))["textmines-profile"].value != profile.value

    # A known browser's profile is renewed, never replaced.
    renewed = await page_cookies(server, f"textmines-profile={profile.value}")
    assert renewed["textmines-profile"].value == profile.value
    # Without its profile but known (it came by a link from another site, which withholds
    # a Strict cookie from that request alone): nothing that would replace it.
    assert "textmines-profile" not in await page_cookies(server, "textmines-known=1")
    # A cookie that is not an id this server issued is no profile, and names no folder: an
    # id's shape is not enough (an older release's ids count only where they have a folder).
    forged = profile.value[:32] + "0" * 32
    for bad in ("../../etc", PROFILE, forged, PROFILE.upper(), PROFILE + "0", "%2e%2e"):
        fresh = await page_cookies(server, f"textmines-profile={bad}")
        assert re.fullmatch(r"[0-9a-f]{64}", fresh["textmines-profile"].value)


async def test_a_websocket_without_a_profile_is_given_one_and_plays_in_its_folder(
    server: Served,
) -> None:
    origin = f"http://127.0.0.1:{server.port}"
    profiles = server.home / "profiles"
    before = set(profiles.iterdir()) if profiles.exists() else set()
    async with (
        aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) as session,
        session.get(server.url()) as response,
    ):
        found = WEBSOCKET_URL.search(await response.text())
    assert found is not None
    # A jar that keeps what the websocket's answer sets (unsafe: it is for an address).
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
        headers = {"Origin": origin, "Cookie": "textmines-profile=../../etc; textmines-known=1"}
        async with session.ws_connect(found["url"], headers=headers) as playing:
            await playing.receive(timeout=30)
            given = session.cookie_jar.filter_cookies(URL(server.url()))["textmines-profile"].value
            # The tab's statistics open once its first frame is on screen.
            stats_db = profile_folder(server.home, given) / "stats.db"
            await eventually(stats_db.exists, "the tab's statistics in its profile's folder")
    # One new folder, the given profile's (the module's other tests played as others).
    assert set(profiles.iterdir()) - before == {profile_folder(server.home, given)}


# ---------------------------------------------------------------------------- the server's end


async def playing_tab(server: Served) -> tuple[aiohttp.ClientSession, Any, Path]:
    """A tab of a new browser on ``server``, with a game in play (its first cell opened): its
    session, its websocket and its profile's folder."""
    session = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
    async with session.get(server.url()) as response:
        found = WEBSOCKET_URL.search(await response.text())
    assert found is not None
    origin = f"http://127.0.0.1:{server.port}"
    websocket = await session.ws_connect(found["url"], headers={"Origin": origin})
    given = session.cookie_jar.filter_cookies(URL(server.url()))["textmines-profile"].value
    folder = profile_folder(server.home, given)
    # Its statistics open once its first frame is on screen: it reads its keys from then.
    await eventually((folder / "stats.db").exists, "the tab's first frame")
    await websocket.send_json(["stdin", " "])  # the centre cell: the game is in play
    await asyncio.sleep(1)
    return session, websocket, folder


async def test_a_server_killed_hard_leaves_no_tab_running_and_every_game_saved(
    tmp_path: Path,
) -> None:
    """kill -9 (a crash, the OOM killer): its tab sees its input end, saves its game with the
    time played, and ends; the same browser gets the game back from the next server."""
    with served(tmp_path, "--beginner", "--seed", "7") as server:
        session, websocket, folder = await playing_tab(server)
        try:
            (tab,) = tab_processes(server.process.pid)
            server.process.kill()
            killed = time.monotonic()
            await eventually(lambda: process_ended(tab), "the tab to end", 5)
            saved = folder / "saved-game.json"
            assert saved.exists(), "its game in play is saved in its profile"
            played_ms = json.loads(saved.read_text())["game"]["elapsed_ms"]
            assert 500 <= played_ms <= 1000 * (1 + time.monotonic() - killed + 1.5), played_ms
        finally:
            await websocket.close()
            await session.close()


async def test_a_closed_terminal_stops_the_server_and_its_pages_say_so(tmp_path: Path) -> None:
    """SIGHUP to the server's process group (its terminal closed): the server stops as on
    Ctrl+C, and its pages are told that it stopped (1001), not that their games ended."""
    with served(tmp_path, "--beginner", "--seed", "7") as server:
        session, websocket, folder = await playing_tab(server)
        try:
            os.killpg(server.process.pid, signal.SIGHUP)
            while (message := await websocket.receive(timeout=20)).type not in (
                aiohttp.WSMsgType.CLOSE,
                aiohttp.WSMsgType.CLOSED,
            ):
                pass
            assert websocket.close_code == 1001, (message, server.output())
            assert server.process.wait(20) == 0, server.output()
            assert (folder / "saved-game.json").exists()
        finally:
            await websocket.close()
            await session.close()


async def test_past_its_most_players_a_new_browser_is_told_there_is_no_room(
    tmp_path: Path,
) -> None:
    kept = tmp_path / "profiles" / ("a" * 32)
    kept.mkdir(parents=True)
    (kept / "settings.toml").write_text("theme = 'dark'\n")  # a player the host keeps
    with served(tmp_path, "--max-players", "1") as server:
        async with aiohttp.ClientSession() as session, session.get(server.url()) as response:
            assert response.status == 503
            said = await response.text()
        assert "No room for new players" in said and "keeps the games of 1 player, its most" in said
        assert "refused a new player" in server.output()


def command_lines() -> list[bytes]:
    """Every process's command line, as any user of the machine reads them (``ps``)."""
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        with contextlib.suppress(OSError):
            found.append(cmdline.read_bytes())
    return found


async def test_a_tab_is_forked_and_its_profile_id_is_on_no_command_line(
    tmp_path: Path,
) -> None:
    """The id is a browser's credential: it was on its tab's command line, there for every
    user of the machine. A tab is forked from the fork server, which has loaded the game."""
    with served(tmp_path, "--beginner", "--seed", "7") as server:
        session, websocket, _ = await playing_tab(server)
        try:
            profile = session.cookie_jar.filter_cookies(URL(server.url()))["textmines-profile"]
            assert not any(profile.value.encode() in line for line in command_lines())
            (tab,) = tab_processes(server.process.pid)
            parent = Path(f"/proc/{tab}/stat").read_text().rsplit(")", 1)[1].split()[1]
            assert b"textmines.fork_server" in Path(f"/proc/{parent}/cmdline").read_bytes()
        finally:
            await websocket.close()
            await session.close()


async def test_without_its_fork_server_the_host_starts_tabs_as_programs(tmp_path: Path) -> None:
    with served(tmp_path, "--beginner", "--seed", "7") as server:
        await eventually(lambda: fork_servers(server.process.pid), "the fork server")
        (fork,) = fork_servers(server.process.pid)
        os.kill(fork, signal.SIGKILL)
        session, websocket, _ = await playing_tab(server)  # its board came
        try:
            (tab,) = tab_processes(server.process.pid)
            assert b"--tab" in Path(f"/proc/{tab}/cmdline").read_bytes()
            assert "the fork server failed" in server.output()
        finally:
            await websocket.close()
            await session.close()
