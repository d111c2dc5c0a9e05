"""The fork server of ``textmines --serve``: one process that has already imported textmines
and Textual, and forks each browser tab's game from itself.

A tab started as a program of its own spent most of its CPU importing (0.3-0.45 s on two
cores), and ten tabs opened together took their turns at it. Forked from this process, a tab
starts with every module loaded and shares their memory with its siblings (copy on write:
the imported objects are frozen out of the garbage collector, which would otherwise touch
them all). The server (``textmines.web.forks``) asks over a socket of its own: a message with
the tab's arguments and environment, and the three ends of the pipes that are its standard
input, output and error; the answer is the new process's id. The fork server reaps the
tabs that end, and ends when the server's end of the socket closes (the server stopped, or
died: each tab then sees its input end, saves its game and ends).

Run as ``python -m textmines.fork_server FD``; Linux (and other systems with fork and
``os.pidfd_open``) only: elsewhere the server starts each tab as a program.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import json
import os
import random
import select
import signal
import socket
import sys
import traceback
from typing import Any, NoReturn

#: The largest request: a tab's arguments and environment, as JSON.
MAX_REQUEST = 256 * 1024


#: What a tab imports in its first seconds (its first frame, then its statistics): each of
#: these brings the modules under it. Imported here, no tab imports them again.
PRELOAD = (
    "textmines.launch",
    "textmines.cli.start",
    "textmines.ui.app",
    "textmines.ui.game.game_screen",
    "textmines.ui.web_tab",
    "textmines.ui.stats_keeper",
    "textmines.store.stats.opening",
    "textmines.themes.load",
    "textmines.leaderboard.seat",
    "textual.drivers.web_driver",
    "textual.layouts.factory",
    "textual.layouts.horizontal",
    "textual.layouts.stream",
    "textual.scrollbar",
    "textual.pilot",
    "hashlib",
    "rich._unicode_data.unicode17-0-0",  # the table of character widths Rich reads
)


def preload() -> None:
    """Import ``PRELOAD`` (what another release of a library lacks, its tabs import)."""
    for name in PRELOAD:
        with contextlib.suppress(ImportError):
            importlib.import_module(name)


def serve(control: socket.socket) -> None:
    """Fork a tab for each request on ``control`` until the server closes it."""
    wake_read, wake_write = socket.socketpair()
    wake_write.setblocking(False)
    signal.set_wakeup_fd(wake_write.fileno())
    signal.signal(signal.SIGCHLD, lambda *_: None)  # wakes the select below
    while True:
        ready, _, _ = select.select([control, wake_read], [], [])
        if wake_read in ready:
            with contextlib.suppress(BlockingIOError):
                wake_read.recv(4096)
            _reap()
        if control not in ready:
            continue
        try:
            message, fds, _, _ = socket.recv_fds(control, MAX_REQUEST, 3)
        except OSError:
            return
        if not message:
            return  # the server has gone
        pid = _fork(json.loads(message), fds, (control, wake_read, wake_write))
        for fd in fds:
            os.close(fd)
        with contextlib.suppress(OSError):
            control.send(json.dumps({"pid": pid}).encode())


def _reap() -> None:
    """Wait for every tab that has ended (no zombie is left behind)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _fork(request: dict[str, Any], fds: list[int], closing: tuple[socket.socket, ...]) -> int:
    """Fork the tab ``request`` asks for, its standard streams ``fds``; its process id (0 when
    the fork failed)."""
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        pid = os.fork()
    except OSError as error:
        print(f"textmines: the fork server could not start a tab: {error}", file=sys.stderr)
        return 0
    if pid == 0:
        _tab(request, fds, closing)
    return pid


def _tab(request: dict[str, Any], fds: list[int], closing: tuple[socket.socket, ...]) -> NoReturn:
    """In the new process: become the tab (its streams, environment and arguments, the
    signals as a new Python has them) and run it; never returns."""
    status = 1
    try:
        signal.set_wakeup_fd(-1)
        for number in (signal.SIGCHLD, signal.SIGHUP, signal.SIGTERM):
            signal.signal(number, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        for own in closing:
            own.close()
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
        for fd in fds:
            if fd > 2:
                os.close(fd)
        os.environ.clear()
        os.environ.update(request["env"])
        random.seed()  # not the fork server's sequence, shared by every tab
        sys.argv = ["textmines", *request["argv"]]
        from textmines.launch import main

        status = main()
    except SystemExit as leaving:
        status = leaving.code if isinstance(leaving.code, int) else 1
    except BaseException:
        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        os._exit(status)


def main(argv: list[str] | None = None) -> int:
    """``python -m textmines.fork_server FD``: FD is this end of the server's socket."""
    args = sys.argv[1:] if argv is None else argv
    control = socket.socket(fileno=int(args[0]))
    # The server handles Ctrl+C and a closed terminal; the fork server ends with it.
    for number in (signal.SIGINT, signal.SIGHUP):
        signal.signal(number, signal.SIG_IGN)
    preload()
    gc.freeze()  # what is loaded now is shared by every tab: never touched by a collection
    with control:
        serve(control)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
