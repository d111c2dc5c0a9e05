"""Fixtures for the UI tests; the shared helpers live in tests/helpers.py."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.helpers import Play


@pytest.fixture
async def play() -> AsyncIterator[Play]:
    """Runs apps for the test (``app, pilot = await play(size=..., **make_app options)``) and
    closes them after it: see ``tests.helpers.Play``."""
    running = Play()
    try:
        yield running
    finally:
        await running.close()
