"""StatsKeeper: the statistics opened once the first frame is on screen, or when first asked."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from textmines.store.stats import StatsError
from textmines.ui.stats_keeper import StatsKeeper


class Host:
    """The app as the keeper sees it: what it was told, what it scheduled."""

    def __init__(self) -> None:
        self.told: list[str] = []
        self.scheduled: list[float] = []

    def set_interval(self, interval: float, callback: Callable[[], object]) -> object:
        self.scheduled.append(interval)
        return None

    def set_timer(self, delay: float, callback: Callable[[], object]) -> object:
        self.scheduled.append(delay)
        return None

    def notify(self, message: str, **_: object) -> None:
        self.told.append(message)

    def warn(self, warnings: list[str]) -> None:
        self.told.extend(warnings)


def keeper_for(path: Path, host: Host) -> StatsKeeper:
    return StatsKeeper(host, stats=None, notice=None, path=path, review=lambda: None)


def test_why_there_are_no_statistics_is_known_when_first_asked(tmp_path: Path) -> None:
    # F4 typed before the first frame asks for the reason before anything opened the
    # database: the reason is found then, not "not recorded in this session".
    path = tmp_path / "stats.db"
    path.mkdir()
    host = Host()
    keeper = keeper_for(path, host)
    notice = keeper.notice
    assert notice == f"Statistics not saved: {path}: a directory is in the way"
    assert host.told == [notice], "told once, as the start's warnings are"
    assert keeper.store is None and keeper.notice == notice and host.told == [notice]


def test_open_after_the_first_frame_and_kept_written(tmp_path: Path) -> None:
    host = Host()
    keeper = keeper_for(tmp_path / "stats.db", host)
    assert not (tmp_path / "stats.db").exists(), "nothing opens before it is asked"
    keeper.after_first_frame()
    store = keeper.store
    assert store is not None and keeper.notice is None and host.told == []
    assert host.scheduled == [30, 5], "the retry of kept games, and the reviews"
    keeper.close()
    with pytest.raises(StatsError, match="closed"):
        store.count()  # the keeper opened it: the keeper closed it


def test_a_store_given_open_is_its_givers_to_close(tmp_path: Path) -> None:
    from textmines.store.stats import open_stats

    given, _ = open_stats(tmp_path / "stats.db")
    assert given is not None
    keeper = StatsKeeper(Host(), stats=given, notice=None, path=tmp_path / "x.db", review=print)
    assert keeper.store is given
    keeper.close()
    assert given.count() == 0, "not closed by the keeper"
    given.close()
    assert not (tmp_path / "x.db").exists(), "the path is not opened when a store is given"
