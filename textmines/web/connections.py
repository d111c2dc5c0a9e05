"""The connections of the ``--serve`` host, bounded so that idle ones cannot take it offline.

Anyone who can reach the host can open connections and send nothing, or a request's head a
byte at a time. Each holds a file descriptor; at the usual limit of 1,024 they ran out, every
player's request waited, and the log filled with "Too many open files". So:

- a connection must send a whole request's head within ``HEAD_SECONDS`` of opening (or of
  its last answer, when kept alive), or it is closed; one whose request is being answered
  (a game's websocket, a download) is never closed for time;
- at most ``per_address`` connections at once from one address (64, or 8 a tab past 8 tabs:
  a browser holds up to six, and a websocket a tab), and ``most`` in all (under
  the limit of open files, which the server raises to its ceiling): past either, a new one is
  closed at once, so the host keeps answering everyone else.

Each refusal is a line in the server's output, a flood of them summed up (``RefusalLog``).
"""

from __future__ import annotations

import asyncio
import contextlib
import resource
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from textmines.web.guard import RefusalLog

#: Seconds a connection has to send a whole request's head (once opened, or once answered).
HEAD_SECONDS = 10.0
#: How often idle connections are looked for (seconds).
SWEEP_SECONDS = 1.0
#: Files the server keeps for itself besides connections: its own, and three pipes a tab.
_RESERVED_FILES = 64
_FILES_PER_TAB = 4


def open_files_limit() -> int:
    """Raise this process's limit of open files to its ceiling (at most 65,536); the limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = min(hard if hard != resource.RLIM_INFINITY else 65_536, 65_536)
    if wanted > soft:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
    return soft


def connection_limits(max_tabs: int, files: int) -> tuple[int, int]:
    """How many connections at once from one address, and in all, for a host of ``max_tabs``
    games that may hold ``files`` open files."""
    # A browser holds up to 6 connections to a host and a websocket a tab; ten pages opened
    # at once from one Chromium held 70.
    per_address = max(64, 8 * max_tabs)
    most = max(per_address, files - _RESERVED_FILES - _FILES_PER_TAB * max_tabs)
    return per_address, most


class Connection:
    """One client connection: where from, since when idle, how many requests it is serving."""

    __slots__ = ("address", "busy", "idle_since", "transport")

    def __init__(self, transport: asyncio.BaseTransport, address: str, now: float) -> None:
        self.transport = transport
        self.address = address
        self.idle_since = now
        self.busy = 0


class ConnectionGuard:
    """Admits connections within the limits, and closes the ones that sit idle (see the
    module's docstring)."""

    def __init__(
        self,
        refusals: RefusalLog,
        *,
        per_address: int,
        most: int,
        head_seconds: float = HEAD_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._refusals = refusals
        self.per_address = per_address
        self.most = most
        self.head_seconds = head_seconds
        self._clock = clock
        self._open: dict[asyncio.BaseTransport, Connection] = {}
        self._by_address: Counter[str] = Counter()

    def protocol(self, make: Callable[[], asyncio.Protocol]) -> Callable[[], asyncio.Protocol]:
        """A protocol factory for ``loop.create_server``: ``make``'s protocols, guarded."""
        return lambda: GuardedProtocol(self, make())

    def admit(self, transport: asyncio.BaseTransport) -> Connection | None:
        """The new connection on ``transport``, or None (then closed) past a limit."""
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else "an unknown address"
        if self._by_address[address] >= self.per_address:
            why = f"{self.per_address} already open from there"
        elif len(self._open) >= self.most:
            why = f"{self.most} open already, its most"
        else:
            connection = Connection(transport, address, self._clock())
            self._open[transport] = connection
            self._by_address[address] += 1
            return connection
        self._refusals.note(f"refused a connection from {address}: {why}")
        if isinstance(transport, asyncio.Transport):
            transport.abort()  # at once: nothing to say to it, nothing to flush
        else:
            transport.close()
        return None

    def release(self, connection: Connection) -> None:
        if self._open.pop(connection.transport, None) is None:
            return
        self._by_address[connection.address] -= 1
        if self._by_address[connection.address] <= 0:
            del self._by_address[connection.address]

    @property
    def count(self) -> int:
        """Connections open now."""
        return len(self._open)

    @web.middleware
    async def middleware(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        """A request's head has arrived: its connection is busy until it is answered."""
        connection = self._open.get(request.transport) if request.transport else None
        if connection is None:
            return await handler(request)
        connection.busy += 1
        try:
            return await handler(request)
        finally:
            connection.busy -= 1
            connection.idle_since = self._clock()

    def sweep(self) -> None:
        """Close every connection idle for longer than ``head_seconds``."""
        now = self._clock()
        late = [
            c for c in self._open.values() if not c.busy and now - c.idle_since > self.head_seconds
        ]
        for connection in late:
            self._refusals.note(
                f"closed a connection from {connection.address} that sent no request "
                f"within {self.head_seconds:g} s"
            )
            connection.transport.close()

    async def keep_sweeping(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            self.sweep()


class GuardedProtocol(asyncio.Protocol):
    """``inner`` (aiohttp's protocol for one connection) behind the guard's admission."""

    def __init__(self, guard: ConnectionGuard, inner: asyncio.Protocol) -> None:
        self._guard = guard
        self._inner = inner
        self._connection: Connection | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._connection = self._guard.admit(transport)
        if self._connection is not None:
            self._inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if self._connection is not None:
            self._inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self._inner.eof_received() if self._connection is not None else None

    def connection_lost(self, exc: Exception | None) -> None:
        if self._connection is not None:
            self._guard.release(self._connection)
            self._inner.connection_lost(exc)

    def pause_writing(self) -> None:
        if self._connection is not None:
            self._inner.pause_writing()

    def resume_writing(self) -> None:
        if self._connection is not None:
            self._inner.resume_writing()


async def run_guarded(
    app: web.Application,
    host: str,
    port: int,
    guard: ConnectionGuard,
    stopped: Callable[[], Awaitable[Any]],
) -> None:
    """Serve ``app`` at ``host:port`` through ``guard`` until ``stopped()`` returns; then the
    app shuts down as aiohttp's ``run_app`` does it (its on_shutdown, then its connections)."""
    runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=15)
    await runner.setup()
    try:
        server = runner.server
        assert server is not None  # set up
        listening = await asyncio.get_running_loop().create_server(
            guard.protocol(server), host, port, reuse_address=True, backlog=128
        )
        sweeping = asyncio.ensure_future(guard.keep_sweeping())
        try:
            await stopped()
        finally:
            sweeping.cancel()
            listening.close()
    finally:
        await runner.cleanup()
