"""The connections of the ``--serve`` host: idle ones cannot take it offline (a limit per
address and in all; a request's head must come in time)."""

from __future__ import annotations

import asyncio
from typing import Any

from textmines.web.connections import ConnectionGuard, connection_limits
from textmines.web.guard import RefusalLog


class Transport(asyncio.Transport):
    def __init__(self, address: str) -> None:
        super().__init__()
        self.address = address
        self.closed = self.aborted = False

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return (self.address, 40000) if name == "peername" else default

    def close(self) -> None:
        self.closed = True

    def abort(self) -> None:
        self.aborted = True


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def guard(clock: Clock | None = None) -> ConnectionGuard:
    return ConnectionGuard(
        RefusalLog(), per_address=3, most=5, head_seconds=10, clock=clock or Clock()
    )


def test_past_its_limit_per_address_or_in_all_a_connection_is_closed_at_once() -> None:
    connections = guard()
    attacker = [Transport("127.0.0.2") for _ in range(10)]
    admitted = [connections.admit(t) for t in attacker]
    assert sum(c is not None for c in admitted) == 3
    assert all(t.aborted for t in attacker[3:]) and not any(t.aborted for t in attacker[:3])
    # Others still get in, up to the limit in all.
    players = [Transport(f"10.0.0.{n}") for n in range(3)]
    assert [connections.admit(t) is not None for t in players] == [True, True, False]
    # A connection that ends makes room for its address again.
    first = admitted[0]
    assert first is not None
    connections.release(first)
    assert connections.admit(Transport("127.0.0.2")) is not None
    assert connections.count == 5


async def test_a_connection_that_sends_no_request_in_time_is_closed_unless_answering() -> None:
    clock = Clock()
    connections = guard(clock)
    idle, playing = Transport("127.0.0.2"), Transport("127.0.0.1")
    connections.admit(idle)
    connections.admit(playing)
    finished = asyncio.Event()

    class Request:
        transport = playing

    async def handler(_: Any) -> Any:
        await finished.wait()  # a game's websocket: answered for as long as it plays
        return "answered"

    answering = asyncio.ensure_future(connections.middleware(Request(), handler))  # type: ignore[arg-type]
    await asyncio.sleep(0)
    clock.now += 10.5
    connections.sweep()
    assert idle.closed and not playing.closed
    finished.set()
    assert await answering == "answered"
    clock.now += 5
    connections.sweep()
    assert not playing.closed, "idle for 5 s only, since its answer"
    clock.now += 6
    connections.sweep()
    assert playing.closed


def test_the_limits_leave_room_for_the_tabs_files() -> None:
    assert connection_limits(8, 1024) == (64, 1024 - 64 - 32)
    assert connection_limits(100, 65536) == (800, 65536 - 64 - 400)
    assert connection_limits(8, 80) == (64, 64)
