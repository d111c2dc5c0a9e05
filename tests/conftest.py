"""Suite-wide settings; the shared helpers live in tests/helpers.py."""

from __future__ import annotations

import os

import pytest


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: two workers per core. A UI test spends about half its time waiting for
    Textual's event loop to go idle, so one worker per core leaves the cores half used."""
    return 2 * (
        len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    )
