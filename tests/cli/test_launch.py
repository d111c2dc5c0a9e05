"""The program's entry point: garbage is collected rarely while textmines starts, as usual
after its first frame (``textmines.launch``, ``textmines.collector``)."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from tests.helpers import make_app, wait_until
from textmines import cli, collector, launch


@pytest.fixture
def thresholds() -> Iterator[tuple[int, int, int]]:
    """The collector's thresholds before the test, put back after it."""
    before = gc.get_threshold()
    yield before
    gc.set_threshold(*before)


async def test_after_its_first_frame_the_app_collects_garbage_as_usual(
    thresholds: tuple[int, int, int],
) -> None:
    collector.starting()
    assert gc.get_threshold() == collector.STARTING
    async with make_app().run_test() as pilot:
        await wait_until(pilot, lambda: gc.get_threshold() == thresholds, "the usual thresholds")


async def test_an_app_started_otherwise_leaves_the_collector_alone(
    thresholds: tuple[int, int, int],
) -> None:
    async with make_app().run_test() as pilot:
        await pilot.pause()
        assert gc.get_threshold() == thresholds


def test_the_program_starts_its_command_with_rare_collections(
    thresholds: tuple[int, int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[int, int, int]] = []
    monkeypatch.setattr(cli, "main", lambda: seen.append(gc.get_threshold()) or 0)
    assert launch.main() == 0
    assert seen == [collector.STARTING]
