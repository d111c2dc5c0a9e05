"""Play in a browser: ``textmines --serve`` runs a textual-serve web server, and every browser
tab that opens it starts its own ``textmines --tab`` process: its own game, with the same
settings, statistics, themes and replays as the terminal.

A tab never resumes or writes the saved game (the terminal's stays where it is, and two tabs
cannot overwrite each other's); a game left in play when its tab closes is recorded as
abandoned, as it would be in a terminal that cannot save.
"""

from __future__ import annotations

import shlex
import socket
import sys
from collections.abc import Sequence

#: Options of ``--serve`` itself, which the tabs do not get (each with whether it takes a value).
SERVE_OPTIONS = {"--serve": False, "--host": True, "--port": True}


def tab_arguments(argv: Sequence[str]) -> list[str]:
    """The command line of one tab: ``argv`` without the server's own options, plus ``--tab``
    (board, seed, theme and the other options apply to every tab)."""
    kept, skip = ["--tab"], False
    for arg in argv:
        if skip:
            skip = False
            continue
        name, has_value, _ = arg.partition("=")
        if name in SERVE_OPTIONS:
            skip = SERVE_OPTIONS[name] and not has_value
            continue
        kept.append(arg)
    return kept


def tab_command(argv: Sequence[str]) -> str:
    """The shell command textual-serve runs for each tab (this Python, this textmines)."""
    return shlex.join([sys.executable, "-m", "textmines", *tab_arguments(argv)])


def serve(argv: Sequence[str], host: str, port: int) -> None:
    """Serve the game at http://host:port until Ctrl+C. Raises ``OSError`` when the address
    cannot be used (the port is taken, the host is not this machine's)."""
    from textual_serve.server import Server

    check_address(host, port)  # before the server announces itself: it would say "Serving"
    Server(tab_command(argv), host=host, port=port, title="textmines").serve()


def check_address(host: str, port: int) -> None:
    """Raise ``OSError`` when a server cannot listen at ``host:port``: the host names no
    address of this machine, or the port is taken."""
    family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server does
        probe.bind(address)
