"""StatsKeeper: the statistics database of a run, opened once the first frame is on screen.

Opening ``stats.db`` loads SQLite and the store and checks the file (10M instructions of a
start, ``benchmarks/startup.py --instructions``): a first frame needs none of it. So the
keeper opens the database right after that frame (``after_first_frame``), or earlier if
something asks for it first (``store``, ``notice``): a game that ends before then, today's
daily board, the statistics screen. What opening had to say (a damaged file moved aside, a
folder that cannot be written) is told as the start's other warnings are.

Once open, it writes every 30 s the games kept while another program held the database, and
starts the reviews of recorded games that have none, 5 s into the run.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Final, Protocol

if TYPE_CHECKING:
    from textual.notifications import SeverityLevel

    from textmines.store.stats import StatsStore

#: How often games kept while another program held the statistics are written (seconds).
PENDING_RETRY_SECONDS: Final = 30
#: When the recorded games that have no review yet begin to be reviewed (seconds).
REVIEWS_AFTER_SECONDS: Final = 5


class KeeperHost(Protocol):
    """What the keeper needs of the app."""

    def set_interval(self, interval: float, callback: Callable[[], object]) -> object: ...

    def set_timer(self, delay: float, callback: Callable[[], object]) -> object: ...

    def notify(
        self,
        message: str,
        *,
        severity: SeverityLevel = ...,
        markup: bool = ...,
        kind: str | None = ...,
    ) -> None: ...

    def warn(self, warnings: list[str]) -> None:
        """Tell the player ``warnings`` as the start's warnings are told."""


class StatsKeeper:
    """The run's statistics: ``store`` given open (``stats``), or opened from ``path`` when
    first needed; None with ``notice`` saying why games are not recorded."""

    def __init__(
        self,
        host: KeeperHost,
        *,
        stats: StatsStore | None,
        notice: str | None,
        path: Path | None,
        review: Callable[[], object],
    ) -> None:
        self._host = host
        self._store = stats
        self._notice = notice
        # To open when first needed: a path, unless a store or a notice came with the app.
        self._path = path if stats is None and notice is None else None
        self._opened_here = False
        self._review = review

    @property
    def store(self) -> StatsStore | None:
        """The open database, opened now if it is not yet; None: games are not recorded."""
        if self._path is not None:
            self._open(self._path)
        return self._store

    @property
    def notice(self) -> str | None:
        """Why there is no store (the statistics screen says it), opening it now if it is not
        yet: only then is it known."""
        if self.store is None:
            return self._notice
        return None

    def _open(self, path: Path) -> None:
        from textmines.store.stats import open_stats  # SQLite loads here: see the module doc

        self._path = None
        self._store, notices = open_stats(path)
        self._opened_here = self._store is not None
        if self._store is None and notices:
            self._notice = notices[0]
        if notices:
            self._host.warn(notices)

    def after_first_frame(self) -> None:
        """The first frame is on screen: open the database, and keep it written."""
        if self.store is None:
            return
        self._host.set_interval(PENDING_RETRY_SECONDS, self.retry_pending)
        # Games recorded before reviews were kept, once the game has started.
        self._host.set_timer(REVIEWS_AFTER_SECONDS, self._review)

    def retry_pending(self) -> None:
        """Write the games kept while another program held the statistics (only then does
        this touch the database: a wait of at most its busy timeout)."""
        store = self._store
        if store is not None and store.pending:
            notice = store.retry_pending()
            if notice is not None:
                self._host.notify(notice, severity="warning", markup=False, kind="stats-pending")

    def close(self) -> None:
        """Close the database if the keeper opened it (one the app was given is its giver's)."""
        if self._opened_here and self._store is not None:
            self._store.close()


__all__ = ["PENDING_RETRY_SECONDS", "REVIEWS_AFTER_SECONDS", "KeeperHost", "StatsKeeper"]
