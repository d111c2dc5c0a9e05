"""The browser tests' server and browser (``test_browser.py``, ``test_phone.py``): one of each
per module. ``test_serve.py`` has a server of its own."""

from __future__ import annotations

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
