"""What a client sends wrong costs the host one summed-up line, never a game or a traceback:
the relay drops any message it cannot decode, the log sums malformed requests up."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from aiohttp import WSMsgType
from aiohttp.http_exceptions import BadHttpMessage, LineTooLong

from tests.web.conftest import Said
from textmines.web.guard import FloodGuard, RefusalLog
from textmines.web.tabs import relay


class Message:
    def __init__(self, data: str) -> None:
        self.type, self.data = WSMsgType.TEXT, data


class Page:
    """A websocket that sends ``messages`` and keeps what it is sent."""

    def __init__(self, *messages: str) -> None:
        self.messages = messages
        self.sent: list[Any] = []

    async def __aiter__(self) -> AsyncIterator[Message]:
        for message in self.messages:
            yield Message(message)

    async def send_json(self, data: Any) -> None:
        self.sent.append(data)


class Game:
    def __init__(self) -> None:
        self.keys: list[bytes] = []

    async def send_bytes(self, data: bytes) -> None:
        self.keys.append(data)


async def test_a_message_that_does_not_decode_is_dropped_whatever_the_error() -> None:
    nested = "[" * 100_000  # a RecursionError in the decoder, not a ValueError
    page = Page(nested, '["stdin", "a"]', "{", "\ud800", '["ping", "1"]', "1e999999" * 10)
    game = Game()
    await relay(page, page, game)  # type: ignore[arg-type]
    assert game.keys == [b"a"] and page.sent == [["pong", "1"]]


@pytest.fixture
def aiohttp_log() -> Iterator[logging.Logger]:
    """A logger as aiohttp's, through a FloodGuard with a clock that stands still; what
    gets through is kept."""
    logger = logging.getLogger("tests.aiohttp.server")
    logger.propagate = False
    guard = FloodGuard(RefusalLog(clock=lambda: 100.0), clock=lambda: 100.0)
    logger.addFilter(guard)
    through = Said()
    logger.addHandler(through)
    yield logger
    logger.removeFilter(guard)
    logger.removeHandler(through)


def test_a_flood_of_malformed_requests_is_one_line_not_a_traceback_each(
    aiohttp_log: logging.Logger, serve_log: Said
) -> None:
    for error in [BadHttpMessage("Missing 'Host' header in request."), LineTooLong("x" * 9000)]:
        for _ in range(100):
            aiohttp_log.error("Error handling request from %s", "127.0.0.2", exc_info=error)
    assert serve_log.lines == [
        "textmines: refused a malformed request from 127.0.0.2: Missing 'Host' header in request."
    ]
    assert not any(record.exc_info for record in serve_log.records)
    assert through(aiohttp_log).records == [], "none of them as aiohttp's error"


def test_other_errors_keep_their_traceback_but_not_a_flood_of_them(
    aiohttp_log: logging.Logger,
) -> None:
    for _ in range(50):
        aiohttp_log.error("Error handling request", exc_info=KeyError("a bug"))
    (kept,) = through(aiohttp_log).records
    assert kept.exc_info is not None


def through(logger: logging.Logger) -> Said:
    """What got through ``logger``'s filter (``aiohttp_log``)."""
    (said,) = [handler for handler in logger.handlers if isinstance(handler, Said)]
    return said
