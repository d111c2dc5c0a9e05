"""Suite-wide settings; the shared helpers live in tests/helpers.py."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: two workers per core. A UI test spends about half its time waiting for
    Textual's event loop to go idle, so one worker per core leaves the cores half used."""
    return 2 * (
        len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    )


# Property tests: 100 examples each by default; HYPOTHESIS_PROFILE=thorough runs ten times
# as many (before a release, or after touching the engine or the solver).
settings.register_profile(
    "default", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("thorough", settings.get_profile("default"), max_examples=1000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
