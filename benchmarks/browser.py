"""Playing in a browser as a player feels it: ``textmines --serve`` driven by headless Chromium.

    python benchmarks/browser.py                          # this checkout, 5 tabs, 10 at once
    python benchmarks/browser.py --tabs 3 --clicks 20 --burst 0
    python benchmarks/browser.py --source /tmp/old-checkout --source .   # before / after
    python benchmarks/browser.py --tabs 5 --burst 10 --idle 50,100       # how many one host holds

For each source tree (a checkout of textmines; the same Python and libraries run each), a
server starts on a free loopback port with a home of its own, serving Beginner with a fixed
seed, and Chromium (Debian's, at /usr/bin/chromium) opens tabs at 1100x800, each a browser of
its own (a new player: a new profile), one after another:

- load: from the start of the navigation to the board's first drawn frame. The page's clock
  (``performance.now()``, zero at navigation start) stamps the first websocket message that
  carries the game's panel (its top-left corner, ``▛``); the frame is drawn two animation
  frames later, when xterm.js has painted what it was given. Where the time goes is shown
  too (medians): the page until it opens the game's websocket (its own files), the
  websocket until the game's first byte (the server starting the tab's process, Python, the
  imports, the app up to its first output), and that byte until the board is drawn.
- at once: ``--burst N`` tabs (default 10; 0: none) opened together on a server of their own
  (``--max-tabs N``): each one's load as above, median and max, and the wall time from the
  first navigation until every board was drawn.
- click: right clicks on the middle of the screen (on the board: each one flags or unflags a
  cell, so each one changes the screen). The time from the page sending the button press to
  the next message from the game, by the page's clock; median and p95.
- cpu: the CPU time (user + system) each tab's process has used once its board is drawn and
  has settled (a second later): what starting a tab costs.
- memory: the resident set (VmRSS) and the proportional set (PSS: memory shared with other
  processes, such as the fork server's, counted in parts) of each tab's process, with every
  tab still open, and of the server itself; and every process the server started, counted
  and added up (a shell waiting in front of each tab's process, or the fork server, shows
  here).
- idle: ``--idle 50,100``: that many tabs opened as players who then do nothing (websockets
  from a script, each a new player, each waiting for its board), then the memory of every
  process the server started, the CPU they use in 10 s of idling, and a Chromium tab's click
  latency among them.

Wall times depend on the machine's load: compare sources in the same run.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.web.served import CHROMIUM, CHROMIUM_ARGS

VIEWPORT = {"width": 1100, "height": 800}

# Runs before the page's own scripts: every websocket the page opens reports when it was made,
# when it opened, the messages it gets and the button presses it sends, stamped with the
# page's clock. A subclass, so that whatever the page does with WebSocket (the served page
# wraps it too) still happens.
PROBE = r"""
window.__probe = {
  socketAt: null, openAt: null, firstAt: null, boardAt: null, drawnAt: null,
  received: [], presses: [],
};
(() => {
  const Native = window.WebSocket;
  const decoder = new TextDecoder();
  window.WebSocket = class extends Native {
    constructor(url, protocols) {
      super(url, protocols);
      window.__probe.socketAt = performance.now();
      this.addEventListener("open", () => { window.__probe.openAt = performance.now(); });
      this.addEventListener("message", (event) => {
        const now = performance.now();
        const probe = window.__probe;
        probe.received.push(now);
        if (typeof event.data === "string") return;
        if (probe.firstAt === null) probe.firstAt = now;
        if (probe.boardAt !== null) return;
        if (decoder.decode(event.data).includes("\u259b")) {
          probe.boardAt = now;
          requestAnimationFrame(() =>
            requestAnimationFrame(() => { probe.drawnAt = performance.now(); }));
        }
      });
    }
    send(data) {
      // An SGR mouse press ("ESC [ < button ; x ; y M") of the right button.
      if (typeof data === "string" && /\\u001b\[<2;\d+;\d+M/.test(data)) {
        window.__probe.presses.push(performance.now());
      }
      super.send(data);
    }
  };
})();
"""
#: The page's milestones, in the order they come (see PROBE).
MILESTONES = ("socketAt", "firstAt", "boardAt", "drawnAt")


@dataclass
class Load:
    """One tab's milestones, in ms from the start of its navigation."""

    socket: float  # the page opened the game's websocket
    first: float  # the game's first byte arrived
    board: float  # the message with the board arrived
    drawn: float  # the board was drawn


@dataclass
class Idle:
    """``tabs`` idle players' figures."""

    tabs: int
    alive: int  # tab processes found while idling
    pss_mb: float  # every process the server started, and the server
    cpu_percent: float  # of one core, all of them, over 10 s of idling
    clicks_ms: list[float]


@dataclass
class Figures:
    loads: list[Load]
    clicks_ms: list[float]
    tab_rss_mb: list[float]
    tab_pss_mb: list[float]
    tab_cpu_s: list[float]
    server_rss_mb: float
    #: Every process the server started (a shell in front of a tab included), in all.
    processes: int
    processes_rss_mb: float
    #: The tabs opened at once (``--burst``), and the wall time until all were drawn.
    burst: list[Load]
    burst_all_ms: float
    #: The same many players at once without a browser: ms until each had its board.
    raw_burst_ms: list[float]
    idle: list[Idle]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def served(source: Path, max_tabs: int = 8) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``textmines --serve`` from ``source`` on a free port, with a home of its own."""
    port = free_port()
    # Bytecode is cached as it is for an installed program (pip compiles it), whatever this
    # shell says: a tab compiling every module each time would be measured otherwise.
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(source / "textmines")], check=True
    )
    with tempfile.TemporaryDirectory(prefix="textmines-bench-") as home:
        env = {**os.environ, "TEXTMINES_HOME": home, "PYTHONPATH": str(source)}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        command = [sys.executable, "-m", "textmines", "--serve", "--port", str(port)]
        process = subprocess.Popen(
            [*command, "--beginner", "--seed", "7", "--max-tabs", str(max_tabs)],
            cwd=source,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # its tabs end with it (see the finally)
        )
        try:
            deadline = time.monotonic() + 30
            while True:
                with socket.socket() as sock:
                    if sock.connect_ex(("127.0.0.1", port)) == 0:
                        break
                if process.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"the server from {source} did not start")
                time.sleep(0.05)
            yield f"http://127.0.0.1:{port}/", process
        finally:
            process.terminate()
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def parents() -> dict[int, int]:
    """Every process's parent, by process id (from /proc)."""
    found: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            found[int(entry.name)] = int(fields[1])
    return found


def descendants(pid: int) -> list[int]:
    """The processes started by ``pid``, its children's children included."""
    parent_of = parents()
    found, frontier = [], [pid]
    while frontier:
        parent = frontier.pop()
        children = [child for child, of in parent_of.items() if of == parent]
        found += children
        frontier += children
    return found


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def pss_mb(pid: int) -> float:
    """``pid``'s proportional set: its own memory, and its part of what it shares, in memory
    or swapped out (the machine may swap idle processes out; 0: it has ended)."""
    try:
        lines = Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()
    except OSError:
        return 0.0
    kilobytes = sum(int(line.split()[1]) for line in lines if line.startswith(("Pss:", "SwapPss:")))
    return kilobytes / 1024


def cpu_s(pid: int) -> float:
    """The CPU time ``pid`` has used, user and system (0: it has ended)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def command_of(pid: int) -> list[bytes]:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return []


def tab_processes(server: int) -> list[int]:
    """The tabs' Python processes: forked by the fork server (a child of the server's, whose
    command line they share), or started as ``--tab`` (a shell between the server and a tab
    is not counted, nor the fork server)."""
    forks = [pid for pid in children(server) if b"textmines.fork_server" in command_of(pid)]
    tabs = [pid for fork in forks for pid in children(fork)]
    for pid in descendants(server):
        command = command_of(pid)
        if b"--tab" in command and Path(command[0].decode()).name.startswith("python"):
            tabs.append(pid)
    return tabs


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    return [child for child, parent in parents().items() if parent == pid]


def wait_for(page: Any, expression: str, timeout: float = 30.0) -> Any:
    deadline = time.monotonic() + timeout
    while (value := page.evaluate(expression)) is None:
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out waiting for {expression}")
        page.wait_for_timeout(20)
    return value


def load_of(page: Any) -> Load:
    """The page's milestones, once its board has been drawn."""
    wait_for(page, "window.__probe.drawnAt")
    stamps = page.evaluate(f"[{', '.join(f'window.__probe.{m}' for m in MILESTONES)}]")
    return Load(*stamps)


def measure(
    browser: Any, source: Path, tabs: int, clicks: int, burst: int, idle: list[int]
) -> Figures:
    loads = []
    with served(source) as (url, server):
        pages = []
        for _ in range(tabs):
            page = browser.new_page(viewport=VIEWPORT)
            page.add_init_script(PROBE)
            page.goto(url)
            loads.append(load_of(page))
            pages.append(page)
        pages[0].wait_for_timeout(1000)  # the game settles (its first layouts, the zoom message)
        processes = tab_processes(server.pid)
        if len(processes) != tabs:
            raise SystemExit(f"expected {tabs} tab processes, found {len(processes)}")
        tab_cpu = [cpu_s(pid) for pid in processes]
        latencies = click_latencies(pages[0], clicks)
        started = descendants(server.pid)
        tab_rss = [rss_mb(pid) for pid in processes]
        tab_pss = [pss_mb(pid) for pid in processes]
        server_rss = rss_mb(server.pid)
        processes_rss = sum(rss_mb(pid) for pid in started)
        for page in pages:
            page.close()
    burst_loads, burst_all = measure_burst(browser, source, burst) if burst else ([], 0.0)
    raw_burst = measure_raw_burst(source, burst) if burst else []
    idle_figures = [measure_idle(browser, source, count, clicks) for count in idle]
    return Figures(
        loads,
        latencies,
        tab_rss,
        tab_pss,
        tab_cpu,
        server_rss,
        len(started),
        processes_rss,
        burst_loads,
        burst_all,
        raw_burst,
        idle_figures,
    )


def click_latencies(page: Any, clicks: int) -> list[float]:
    """Right clicks on the middle of ``page`` (each flags or unflags a cell): the ms from each
    press leaving the page to the game's next message, by the page's clock."""
    latencies = []
    middle = (VIEWPORT["width"] / 2, VIEWPORT["height"] / 2)
    page.mouse.move(*middle)
    for _ in range(clicks):
        page.wait_for_timeout(150)  # what the last click and the hover drew has come
        before = page.evaluate("window.__probe.received.length")
        page.mouse.down(button="right")
        page.mouse.up(button="right")
        press = wait_for(page, "window.__probe.presses.at(-1) ?? null")
        answered = wait_for(
            page, f"window.__probe.received.slice({before}).find(t => t >= {press}) ?? null"
        )
        latencies.append(answered - press)
    return latencies


def measure_idle(browser: Any, source: Path, count: int, clicks: int) -> Idle:
    """``count`` idle players, then a Chromium tab's clicks among them."""
    import threading

    with served(source, max_tabs=count + 1) as (url, server):
        ready, stop = threading.Event(), threading.Event()
        failed: list[BaseException] = []
        players = threading.Thread(
            target=idle_players, args=(url, count, ready, stop, failed), daemon=True
        )
        players.start()
        if not ready.wait(600) or failed:
            raise SystemExit(f"{count} idle players did not all get a board: {failed}")
        time.sleep(2)  # the last ones settle
        everyone = [server.pid, *descendants(server.pid)]
        alive = len(tab_processes(server.pid))
        memory = sum(pss_mb(pid) for pid in everyone)
        before = sum(cpu_s(pid) for pid in everyone)
        time.sleep(10)
        cpu = (sum(cpu_s(pid) for pid in everyone) - before) / 10 * 100
        page = browser.new_page(viewport=VIEWPORT)
        page.add_init_script(PROBE)
        page.goto(url)
        load_of(page)
        page.wait_for_timeout(1000)
        latencies = click_latencies(page, clicks)
        page.close()
        stop.set()
        players.join(60)
    return Idle(count, alive, memory, cpu, latencies)


def idle_players(
    url: str,
    count: int,
    ready: Any,
    stop: Any,
    failed: list[BaseException],
) -> None:
    """``count`` players (each a new browser: its own cookies) who open the game, wait for
    their board, and do nothing until ``stop``; ``ready`` once all have their boards."""
    import asyncio

    asyncio.run(idle_for(url, count, ready, stop, failed))


async def idle_for(
    url: str, count: int, ready: Any, stop: Any, failed: list[BaseException]
) -> None:
    import asyncio

    import aiohttp

    sessions = [
        aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) for _ in range(count)
    ]
    try:
        sockets = await asyncio.gather(*(idle_player(session, url) for session in sessions))
    except BaseException as error:
        failed.append(error)
        ready.set()
        return
    ready.set()
    # Read on (and drop) what the games send: a websocket not read answers no ping, and the
    # server closes it as gone.
    reading = [asyncio.ensure_future(drain(websocket)) for websocket in sockets]
    while not stop.is_set():
        await asyncio.sleep(0.2)
    for task in reading:
        task.cancel()
    for websocket in sockets:
        await websocket.close()
    for session in sessions:
        await session.close()


async def idle_player(session: Any, url: str) -> Any:
    """A player's websocket on the game at ``url``, once its board has come."""
    import re

    import aiohttp

    async with session.get(url) as response:
        match = re.search(r'data-session-websocket-url="([^"]+)"', await response.text())
    assert match is not None
    websocket = await session.ws_connect(
        match[1].replace("&amp;", "&"), headers={"Origin": url.rstrip("/")}
    )
    while True:  # until the board has come
        message = await websocket.receive(timeout=300)
        if message.type == aiohttp.WSMsgType.BINARY and "\u259b".encode() in message.data:
            return websocket
        if message.type not in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT):
            raise RuntimeError(f"the game ended: {message}")


async def drain(websocket: Any) -> None:
    async for _ in websocket:
        pass


def measure_burst(browser: Any, source: Path, tabs: int) -> tuple[list[Load], float]:
    """``tabs`` tabs opened at once: each one's load, and the wall ms until all were drawn."""
    with served(source, max_tabs=tabs) as (url, _):
        pages = [browser.new_page(viewport=VIEWPORT) for _ in range(tabs)]
        for page in pages:
            page.add_init_script(PROBE)
        started = time.monotonic()
        for page in pages:
            # Only until the page's answer begins: the tabs load side by side from there.
            page.goto(url, wait_until="commit")
        loads = [load_of(page) for page in pages]
        # Each page's clock starts at its own navigation: the last drawn, by the wall clock.
        all_drawn = (time.monotonic() - started) * 1e3
        for page in pages:
            page.close()
    return loads, all_drawn


def measure_raw_burst(source: Path, count: int) -> list[float]:
    """``count`` players opening the game at once from a script (no browser: the server's part
    alone): the ms until each had its board."""
    import asyncio

    async def burst(url: str) -> list[float]:
        import aiohttp

        sessions = [
            aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) for _ in range(count)
        ]
        started = time.monotonic()

        async def board(session: Any) -> tuple[float, Any]:
            websocket = await idle_player(session, url)
            return (time.monotonic() - started) * 1e3, websocket

        try:
            boards = await asyncio.gather(*(board(session) for session in sessions))
            for _, websocket in boards:
                await websocket.close()
        finally:
            for session in sessions:
                await session.close()
        return [ms for ms, _ in boards]

    from concurrent.futures import ThreadPoolExecutor

    with served(source, max_tabs=count) as (url, _), ThreadPoolExecutor(1) as thread:
        time.sleep(1.5)  # the server settles (its fork server loads)
        # In a thread of its own: Playwright's loop runs in this one.
        return thread.submit(asyncio.run, burst(url)).result()


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def where_the_time_goes(loads: list[Load]) -> str:
    median = statistics.median
    return (
        f"page to websocket {median(load.socket for load in loads):.0f}, "
        f"to the game's first byte {median(load.first - load.socket for load in loads):.0f}, "
        f"to the board {median(load.board - load.first for load in loads):.0f}, "
        f"drawn {median(load.drawn - load.board for load in loads):.0f} ms"
    )


def report(source: Path, figures: Figures) -> None:
    loads = [load.drawn for load in figures.loads]
    clicks, rss = figures.clicks_ms, figures.tab_rss_mb
    print(f"{source}:")
    print(
        f"  load to board drawn: median {statistics.median(loads):.0f} ms, "
        f"max {max(loads):.0f} ms ({len(loads)} tabs one after another; first {loads[0]:.0f} ms)"
    )
    print(f"    medians: {where_the_time_goes(figures.loads)}")
    if figures.burst:
        burst = [load.drawn for load in figures.burst]
        print(
            f"  {len(burst)} tabs at once:     median {statistics.median(burst):.0f} ms, "
            f"max {max(burst):.0f} ms; all drawn {figures.burst_all_ms:.0f} ms after the first "
            "navigation"
        )
        print(f"    medians: {where_the_time_goes(figures.burst)}")
        raw = figures.raw_burst_ms
        print(
            f"  {len(raw)} players at once, no browser: median {statistics.median(raw):.0f} ms, "
            f"all {max(raw):.0f} ms (the server's part alone)"
        )
    print(
        f"  click to answer:     median {statistics.median(clicks):.1f} ms, "
        f"p95 {p95(clicks):.1f} ms ({len(clicks)} right clicks)"
    )
    print(
        f"  cpu per tab:         median {statistics.median(figures.tab_cpu_s):.2f} s "
        f"(max {max(figures.tab_cpu_s):.2f}), to its board drawn and settled"
    )
    print(
        f"  memory per tab:      median {statistics.median(rss):.1f} MB RSS, "
        f"{statistics.median(figures.tab_pss_mb):.1f} MB PSS "
        f"(RSS min {min(rss):.1f}, max {max(rss):.1f}); server {figures.server_rss_mb:.1f} MB"
    )
    print(
        f"  processes:           {figures.processes / len(rss):g} per tab, "
        f"{figures.processes_rss_mb / len(rss):.1f} MB RSS per tab in all"
    )
    for idle in figures.idle:
        print(
            f"  {idle.tabs} idle tabs ({idle.alive} processes): {idle.pss_mb:.0f} MB PSS in all "
            f"({idle.pss_mb / idle.tabs:.1f} per tab, server included), "
            f"{idle.cpu_percent:.1f}% of a core idling; a click among them: median "
            f"{statistics.median(idle.clicks_ms):.1f} ms, p95 {p95(idle.clicks_ms):.1f} ms"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", action="append", type=Path, help="a textmines checkout")
    parser.add_argument("--tabs", type=int, default=5)
    parser.add_argument("--clicks", type=int, default=40)
    parser.add_argument(
        "--burst", type=int, default=10, metavar="N", help="tabs opened at once (0: none)"
    )
    parser.add_argument(
        "--idle",
        type=lambda text: [int(n) for n in text.split(",") if n],
        default=[],
        metavar="N,M",
        help="idle players to measure among (e.g. 50,100)",
    )
    args = parser.parse_args()
    if CHROMIUM is None:
        raise SystemExit("no chromium on this machine (Debian: apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    sources = args.source or [Path(__file__).resolve().parent.parent]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        try:
            for source in sources:
                figures = measure(
                    browser, source.resolve(), args.tabs, args.clicks, args.burst, args.idle
                )
                report(source, figures)
        finally:
            browser.close()


if __name__ == "__main__":
    main()
