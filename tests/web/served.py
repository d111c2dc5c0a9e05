"""``textmines --serve`` as a program of its own, for the tests that play through it."""

from __future__ import annotations

import os
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from textmines.store.paths import profile_folder_name

#: The system's Chromium, which the browser tests drive (Playwright downloads none here).
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
#: The seed of the board the browser tests' servers deal.
SEED = 7

#: The served page holds the websocket's address, which holds the server's secret.
WEBSOCKET_URL = re.compile(r'data-session-websocket-url="(?P<url>[^"]+/ws/(?P<secret>[^"/]+))"')


@dataclass
class Served:
    port: int
    home: Path
    process: subprocess.Popen[bytes]

    def url(self, host: str = "127.0.0.1") -> str:
        return f"http://{host}:{self.port}/"

    @property
    def log(self) -> Path:
        return self.home / "server-output.txt"

    def output(self) -> str:
        """What the server has printed so far."""
        return self.log.read_text(encoding="utf-8", errors="replace")


def profile_folder(home: Path, profile: str) -> Path:
    """The folder of the browser profile ``profile`` of the server whose home is ``home``."""
    return home / "profiles" / profile_folder_name(profile)


def _processes() -> dict[int, tuple[int, bytes]]:
    """Every process: its parent and its command line, by process id."""
    found = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            found[int(stat.parent.name)] = (parent, (stat.parent / "cmdline").read_bytes())
        except (OSError, IndexError):  # gone meanwhile
            continue
    return found


def fork_servers(server: int) -> set[int]:
    """The fork server of the server whose process is ``server`` (a child of its whose
    command line names it)."""
    return {
        pid
        for pid, (parent, command) in _processes().items()
        if parent == server and b"textmines.fork_server" in command
    }


def tab_processes(server: int) -> list[int]:
    """The tab processes of the server whose process is ``server``: forked by its fork server
    (``textmines.fork_server``), or started as ``textmines --tab``."""
    forks = fork_servers(server)
    return [
        pid
        for pid, (parent, command) in _processes().items()
        if parent in forks or (parent == server and b"--tab" in command)
    ]


def process_ended(pid: int) -> bool:
    """Whether the process ``pid`` has ended (gone, or a zombie nobody has waited for)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state == "Z"


def _limit_files(most: int) -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (most, most))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def served(
    home: Path, *arguments: str, host: str = "127.0.0.1", open_files: int | None = None
) -> Iterator[Served]:
    """A server on a free port of ``host``, with ``home`` as TEXTMINES_HOME, until the end of
    the ``with``; then it stops as on Ctrl+C, its tabs with it. ``open_files``: its limit of
    open files, which it cannot raise."""
    port = free_port()
    env = {**os.environ, "TEXTMINES_HOME": str(home)}
    command = [sys.executable, "-m", "textmines", "--serve", "--host", host, "--port", str(port)]
    # To a file, not a pipe: nobody reads a pipe while the test runs, and a full one would
    # stop the server.
    with (home / "server-output.txt").open("wb") as log:
        process = subprocess.Popen(
            [*command, *arguments],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # so that a server that will not stop goes with its tabs
            preexec_fn=None if open_files is None else partial(_limit_files, open_files),
        )
    server = Served(port, home, process)
    try:
        deadline = time.monotonic() + 30
        while True:
            with socket.socket() as sock:
                if sock.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert process.poll() is None, server.output()
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)
        yield server
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
