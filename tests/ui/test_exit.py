"""The real program ends promptly when its terminal goes away or it is killed (issue 34 item 9).

These run ``python -m textmines`` as a player's terminal does: in a pseudo-terminal that is the
program's controlling terminal, so that closing our side hangs it up and the kernel sends
SIGHUP (and SIGCONT) itself. ``benchmarks/close_terminal.py`` makes the same close 50 times.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import select
import signal
import sqlite3
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import IO

import pytest

from tests.helpers import launch_in_pty, read_until
from textmines.store.saves import load_game

# Slow: each test runs the real program in a pseudo-terminal (the whole suite runs them all).
pytestmark = pytest.mark.slow


#: Closing the terminal ends textmines within this (seconds): what the tests catch is a
#: close that never ends (the bugs of issue 34.9), not its speed, which a test on a loaded
#: machine cannot measure (2.16 s once, under load). The promise of 2 s is measured by
#: benchmarks/close_terminal.py, fifty closes a scenario, which counts 10 s as stuck.
PROMPT = 10.0


@contextmanager
def in_terminal(
    home: Path, *args: str, size: tuple[int, int] = (120, 40)
) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    """``textmines ARGS`` in a new session whose controlling terminal is a new pty of
    ``size``; yields the process and our side of the terminal (-1 once the test closed it)."""
    process, main = launch_in_pty(home, *args, size=size, controlling=True)
    try:
        yield process, main
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        with contextlib.suppress(OSError):  # closed by the test
            os.close(main)


def seconds_to_end(process: subprocess.Popen[bytes], since: float) -> float:
    """How long after ``since`` the process ended (it is killed after 15 s)."""
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    return time.monotonic() - since


def status_once_ended(process: subprocess.Popen[bytes], main: int, seconds: float) -> int | None:
    """The exit status of a program that ends by itself within ``seconds`` (else None), what
    it draws read meanwhile: a terminal nobody reads holds 4 KiB, then stops the program's
    writes. After q the test waited 15 s for a program blocked on its last frames (in every
    run with -n 0, now and then with xdist)."""
    deadline = time.monotonic() + seconds
    while process.poll() is None and time.monotonic() < deadline:
        try:
            if select.select([main], [], [], 0.1)[0]:
                os.read(main, 65536)
        except OSError:  # EIO: no one holds the terminal's other side any more
            time.sleep(0.05)
    return process.poll()


def read_until_progress(main: int, drawn: bytes) -> bytes:
    """What the program drew until the count of safe cells left changed (a move)."""
    before = re.findall(rb"(\d+) safe left", drawn)[-1:]
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if select.select([main], [], [], 0.2)[0]:
            drawn = (drawn + os.read(main, 65536))[-100_000:]
            if re.findall(rb"(\d+) safe left", drawn)[-1:] not in ([], before):
                return drawn
    raise AssertionError("autoplay made no move in 20 s")


def recorded_games(home: Path) -> int:
    with closing(sqlite3.connect(home / "stats.db")) as db:
        return int(db.execute("SELECT count(*) FROM games").fetchone()[0])


@pytest.mark.slow
@pytest.mark.parametrize("scenario", ["right after start", "fast autoplay on 300x300"])
def test_closing_the_terminal_ends_textmines_promptly(tmp_path: Path, scenario: str) -> None:
    """Issue 34.9: closed in the middle of fast autoplay, 3 of 12 saved the game and never
    exited; right after a start, one stayed asleep. Three closes each here; the benchmark
    makes fifty and times them against 2 s."""
    for attempt in range(3):
        home = tmp_path / str(attempt)
        home.mkdir()
        autoplay = scenario.startswith("fast autoplay")
        # 14,000 mines keep autoplay busy for seconds (fewer: it wins in a fraction of one).
        args = ("--custom", "300x300x14000", "--autoplay") if autoplay else ("--expert",)
        with in_terminal(home, *args) as (process, main):
            drawn = read_until(main, b"cleared", 30)
            assert b"cleared" in drawn, "the game never drew its status line"
            if autoplay:
                os.write(main, b">" * 6)  # the fastest pace: 0.02 s
                drawn = read_until(main, b"Autoplay 0.02 s", 10, drawn)
                assert b"Autoplay 0.02 s" in drawn
                for _ in range(attempt + 1):  # closed after one, two, three moves
                    drawn = read_until_progress(main, drawn)
            closed = time.monotonic()
            os.close(main)  # the window closes: the kernel hangs the terminal up
            took = seconds_to_end(process, closed)
            assert took < PROMPT, f"close {attempt + 1} took {took:.1f} s"
            assert process.returncode == 128 + signal.SIGHUP
            if autoplay:  # in play, it was saved (or recorded, if autoplay had ended it)
                assert (home / "saved-game.json").exists() or recorded_games(home) == 1


def test_a_stray_sigcont_does_not_set_the_terminal_up_again(tmp_path: Path) -> None:
    """The kernel sends SIGCONT with the SIGHUP of a terminal that hangs up (and ``kill
    -CONT`` can come at any time): Textual took it for the end of a Ctrl+Z and set a second
    writer up on the terminal, the cause of the closes that never ended."""
    with in_terminal(tmp_path, "--beginner", "--seed", "1") as (process, main):
        drawn = read_until(main, b"safe left", 30)
        assert b"safe left" in drawn and drawn.count(b"\x1b[?1049h") == 1  # the alt screen
        process.send_signal(signal.SIGCONT)
        os.write(main, b" ")  # the first reveal: drawn after the SIGCONT was handled
        later = read_until(main, b"17 safe left", 20)
        assert b"17 safe left" in later, "the game stopped drawing"
        assert b"\x1b[?1049h" not in later, "application mode was started a second time"
        os.write(main, b"q")
        assert status_once_ended(process, main, 15) == 0, "q did not end textmines"


def test_sigterm_ends_textmines_without_a_terminal_whose_output_nobody_reads(
    tmp_path: Path,
) -> None:
    """Issue 34.9: ``textmines --custom 1000x1000x5 </dev/null | head`` ignored SIGTERM for
    12 minutes. No terminal at all here: output into pipes that nobody reads, so the first
    screen fills them and every write waits. Input from a pipe that stays open, not /dev/null:
    input that ends is a hang-up of its own now (tests/ui/test_terminal_eof.py)."""
    env = {
        **os.environ,
        "TEXTMINES_HOME": str(tmp_path),
        "TERM": "xterm-256color",
        "COLUMNS": "250",  # a first screen larger than a pipe holds
        "LINES": "80",
    }
    env.pop("TEXTUAL", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "textmines", "--custom", "1000x1000x5"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        start_new_session=True,
    )
    try:
        assert process.stderr is not None
        stderr = process.stderr
        wait_for(lambda: waiting_in(stderr), "the screen to fill the pipe", 30)
        sent = time.monotonic()
        process.send_signal(signal.SIGTERM)
        took = seconds_to_end(process, sent)
        assert took < PROMPT, f"SIGTERM took {took:.1f} s"
        assert process.returncode == 128 + signal.SIGTERM
        loaded, notice = load_game(tmp_path / "saved-game.json")
        assert loaded is None and notice is None, "nothing was played: nothing saved"
    finally:
        if process.poll() is None:
            process.kill()
        process.communicate()  # closes the input pipe too


def waiting_in(pipe: IO[bytes]) -> bool:
    """Whether a pipe is too full for another write of the program's (8 KiB at most, into
    Linux's 64 KiB): its writer waits."""
    count = struct.unpack("i", fcntl.ioctl(pipe.fileno(), termios.FIONREAD, b"\0\0\0\0"))[0]
    return bool(count > 65536 - 8192)


def wait_for(condition: Callable[[], bool], what: str, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"still waiting after {seconds:g} s for {what}"
        time.sleep(0.05)
