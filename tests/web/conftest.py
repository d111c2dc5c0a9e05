"""The browser tests' server and browser (``test_browser.py``, ``test_phone.py``): one of each
per module. ``test_serve.py`` has a server of its own."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.served import CHROMIUM, CHROMIUM_ARGS, SEED, Served, served


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """One server for the module's tests that need no other: every browser (a Playwright
    context, its own cookies) is a player of its own, with its own folder in the server's
    home, so the tests do not meet (starting a server for each cost a second of wall time)."""
    with served(tmp_path_factory.mktemp("served"), "--beginner", "--seed", str(SEED)) as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """The system's Chromium, headless, through Playwright."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield chromium
        finally:
            chromium.close()


class Said(logging.Handler):
    """What a logger said: its records, kept."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    @property
    def lines(self) -> list[str]:
        return [record.getMessage() for record in self.records]


@pytest.fixture
def serve_log() -> Iterator[Said]:
    """What the host's log (``textmines.serve``) says during the test, whatever the tests
    before did to logging (a server sets it not to propagate; a logging.config call disables
    the loggers that exist)."""
    logger = logging.getLogger("textmines.serve")
    kept = logger.level, logger.disabled
    said = Said()
    logger.addHandler(said)
    logger.setLevel(logging.DEBUG)
    logger.disabled = False
    yield said
    logger.removeHandler(said)
    logger.level, logger.disabled = kept
