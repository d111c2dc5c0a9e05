"""Fixtures for the engine tests; the shared helpers live in tests/helpers.py."""

from __future__ import annotations

import pytest

from tests.helpers import FakeClock


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def unhurried(monkeypatch: pytest.MonkeyPatch) -> None:
    """The solver's and the dealer's time boxes never run out: their answers then depend on
    the position alone, not on how busy the machine is (they stop on their work bounds)."""
    import time

    monkeypatch.setattr(time, "perf_counter", lambda: 0.0)
