"""Input at its end (``/dev/null``, a used-up pipe): textmines leaves as when its terminal
hangs up, the game in play saved, exit status 129; it never spins on the empty input.

These run the real program (``python -m textmines``) with its standard input redirected.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

import pytest

from textmines.engine import Status
from textmines.store.saves import load_game

pytestmark = pytest.mark.slow  # each test runs the real program

#: Once its input has ended, textmines ends within this (seconds); before, it never did.
PROMPT = 5.0


def environment(home: Path) -> dict[str, str]:
    env = {**os.environ, "TEXTMINES_HOME": str(home), "TERM": "xterm-256color"}
    env.pop("TEXTUAL", None)
    return env


@contextmanager
def running(process: subprocess.Popen[bytes]) -> Iterator[subprocess.Popen[bytes]]:
    """The process, killed when the test ends however it ends."""
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def textmines_reading(
    stdin: IO[bytes], out: IO[bytes], home: Path
) -> contextlib.AbstractContextManager[subprocess.Popen[bytes]]:
    """``textmines --beginner`` with its input from ``stdin`` and what it draws in ``out``,
    killed when the test ends however it ends."""
    process = subprocess.Popen(
        [sys.executable, "-m", "textmines", "--beginner"],
        stdin=stdin,
        stdout=out,
        stderr=subprocess.STDOUT,
        env=environment(home),
    )
    return running(process)


def status_within(process: subprocess.Popen[bytes], seconds: float, main: int = -1) -> int | None:
    """The exit status once the process ended within ``seconds`` (else None), reading what it
    draws on ``main`` meanwhile (a terminal nobody reads stops the program's writes)."""
    deadline = time.monotonic() + seconds
    while process.poll() is None and time.monotonic() < deadline:
        if main < 0:
            time.sleep(0.05)
            continue
        try:
            if select.select([main], [], [], 0.05)[0]:
                os.read(main, 65536)
        except OSError:  # EIO: the program has closed its side
            time.sleep(0.05)
    return process.poll()


def read_until(main: int, pattern: bytes, drawn: bytes, seconds: float) -> bytes:
    """What the program drew until ``pattern`` (a regular expression) matches what it drew
    after ``drawn``, or ``seconds`` pass."""
    start = len(drawn)
    deadline = time.monotonic() + seconds
    while re.search(pattern, drawn[start:]) is None and time.monotonic() < deadline:
        if select.select([main], [], [], 0.1)[0]:
            drawn += os.read(main, 65536)
    return drawn


def test_input_from_dev_null_ends_textmines_as_a_hang_up(tmp_path: Path) -> None:
    """``textmines < /dev/null``: it ran at full CPU for ever, and never ended."""
    output = tmp_path / "output"
    with (
        open(os.devnull, "rb") as null,
        output.open("wb") as out,
        textmines_reading(null, out, tmp_path) as process,
    ):
        status = status_within(process, 20 + PROMPT)  # start-up, then the end of the input
    assert status == 128 + signal.SIGHUP
    said = output.read_bytes().decode("utf-8", "replace")
    assert "textmines: the input ended (end of file on standard input)" in said
    assert not (tmp_path / "saved-game.json").exists()  # no game was in play


def in_pty_reading(home: Path, *args: str) -> tuple[subprocess.Popen[bytes], int, IO[bytes]]:
    """``textmines ARGS`` drawing on a new 120x40 pseudo-terminal, its keys read from a pipe;
    returns the process, our side of the terminal and the pipe's end we write keys to."""
    main, child = pty.openpty()
    fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    os.set_blocking(main, False)
    process = subprocess.Popen(
        [sys.executable, "-m", "textmines", *args],
        stdin=subprocess.PIPE,
        stdout=child,
        stderr=child,
        env=environment(home),
        start_new_session=True,
    )
    os.close(child)
    assert process.stdin is not None
    return process, main, process.stdin


def test_a_game_in_play_is_saved_when_the_input_ends(tmp_path: Path) -> None:
    """Keys from a pipe, then its end: the game is saved as on a hang-up, exit status 129."""
    process, main, keys = in_pty_reading(tmp_path, "--expert", "--seed", "1")
    with running(process), contextlib.closing(keys):
        try:
            drawn = read_until(main, rb"cleared", b"", 30)
            assert b"cleared" in drawn, "the game never drew its status line"
            keys.write(b" ")  # the first click: an opening
            keys.flush()
            drawn = read_until(main, rb"[1-9]\d*% cleared", drawn, 10)
            assert re.search(rb"[1-9]\d*% cleared", drawn), "the first click opened nothing"
            keys.close()  # the input ends
            status = status_within(process, PROMPT, main)
        finally:
            os.close(main)
    assert status == 128 + signal.SIGHUP
    loaded, notice = load_game(tmp_path / "saved-game.json")
    assert notice is None and loaded is not None
    assert loaded.game.status == Status.PLAYING
    assert (loaded.game.width, loaded.game.height, loaded.game.mines) == (30, 16, 99)


def test_input_that_never_ends_still_lets_sigterm_save_and_end_textmines(tmp_path: Path) -> None:
    """``textmines < /dev/zero`` then SIGTERM (issue 46.20): the game in play is saved and the
    process ends as a signal ends it (the pacing itself: the next test)."""
    output = tmp_path / "output"
    with (
        open("/dev/zero", "rb") as zero,
        output.open("wb") as out,
        textmines_reading(zero, out, tmp_path) as process,
    ):
        deadline = time.monotonic() + 30
        while b"cleared" not in output.read_bytes() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert b"cleared" in output.read_bytes(), "the game never drew its status line"
        process.send_signal(signal.SIGTERM)
        status = status_within(process, PROMPT)
    assert status == 128 + signal.SIGTERM


class _Waiting:
    """An app as the input thread sees it: this many messages waiting, no screen yet."""

    def __init__(self, waiting: int) -> None:
        self.message_queue_size = waiting

    @property
    def screen(self) -> object:
        raise RuntimeError("no screen yet")


def _keys_taken(waiting: int, *, leaving: bool = False) -> int:
    """How many keys the terminal driver's input thread passes on, in a moment, from a pipe
    full of them, to an app with ``waiting`` messages waiting."""
    import threading

    from textmines.ui.terminal import TerminalDriver

    read_end, write_end = os.pipe()
    os.write(write_end, b"x" * 4096)
    driver = TerminalDriver.__new__(TerminalDriver)  # its input side only: no terminal
    taken: list[object] = []
    driver._app = _Waiting(waiting)  # type: ignore[assignment]
    driver._debug, driver.fileno, driver.exit_event = False, read_end, threading.Event()
    driver._leaving_since = 1.0 if leaving else None
    driver.process_message = taken.append  # type: ignore[method-assign,assignment]
    thread = threading.Thread(target=driver.run_input_thread, daemon=True)
    thread.start()
    thread.join(0.3)
    driver.exit_event.set()
    thread.join(1)
    os.close(read_end)
    os.close(write_end)
    return len(taken)


def test_the_input_waits_while_the_app_has_a_backlog_and_stops_once_it_leaves() -> None:
    """Issue 46.20: with stdin at /dev/zero the input thread queued keys as fast as it read
    them, and a quit signal's save waited behind millions of them."""
    assert _keys_taken(0) > 0
    assert _keys_taken(100_000) == 0, "it read on, the app buried under keys"
    assert _keys_taken(0, leaving=True) == 0, "it read on after a quit signal"
