"""Reviewing recorded games in the background: the statistics show what the solver found
(guesses and avoidable risks a game, luck, forced losses), so every recorded game with a
recording is reviewed once, a few at a time off the UI thread, the latest first; older
games (recorded before reviews were kept) follow by themselves."""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, Final

from textual.worker import get_current_worker

if TYPE_CHECKING:
    from textual.app import App

    from textmines.store.stats import GameReview, StatsStore

#: Games reviewed per batch (each in a few milliseconds to a second), and the pause between
#: batches: about a tenth of one core while old games are being reviewed.
BATCH: Final = 8
PAUSE_SECONDS: Final = 5.0
PAUSE_STEPS: Final = 50
#: Boards larger than this are not reviewed (a 100x100 game is reviewed in seconds; a
#: 1000x1000 one would keep a core busy for a long time for a figure nobody compares).
MAX_CELLS: Final = 100 * 100


def review_of_stored(
    game_id: int, data: bytes, stop: Callable[[], bool] | None = None
) -> GameReview | str:
    """The review of recorded game ``game_id`` from its stored recording, or why it cannot
    be reviewed: its recording cannot be read, or takes more than a review's budget of work
    (a partial review would make the figures say what the game was not). ``stop`` ends the
    review early (``AnalysisStopped``) when it returns True."""
    from textmines.replays.recording import Recording, RecordingError
    from textmines.replays.review_report import review_of
    from textmines.store.stats import GameReview

    try:
        review = review_of(Recording.decode(data), stop)
    except (RecordingError, ValueError) as error:
        return f"its recording cannot be read: {error}"
    if not review.complete:
        return "it takes more than a review's budget of work"
    return GameReview(
        game_id, review.guesses, review.avoidable, review.blunders, review.luck, review.forced_loss
    )


class Reviewer:
    """Reviews recorded games in a worker thread of ``app``'s, a batch at a time with a pause
    between batches (a few thousand old games are reviewed over a while, at a small share of
    one core), and keeps the reviews in ``stats`` (thread-safe)."""

    def __init__(self, app: App[Any], stats: StatsStore) -> None:
        self.app = app
        self.stats = stats
        self.working = False

    def review_pending(self) -> None:
        """Review the games that have no review yet, unless that is under way already."""
        if not self.working:
            self.working = True
            self.app.run_worker(
                partial(self._review, self.stats),
                name="Reviewing recorded games",
                group="reviews",
                exclusive=True,
                thread=True,
            )

    def _review(self, stats: StatsStore) -> None:
        from textmines.engine.solver import AnalysisStopped
        from textmines.store.stats import StatsError

        worker = get_current_worker()
        try:
            while not worker.is_cancelled:
                todo = stats.games_to_review(BATCH, MAX_CELLS)
                if not todo:
                    return
                reviews, unreviewable = [], []
                for number, data in todo:
                    review = review_of_stored(number, data, lambda: worker.is_cancelled)
                    if isinstance(review, str):
                        unreviewable.append((number, review))  # kept: never tried again
                    else:
                        reviews.append(review)
                if stats.set_reviews(reviews) or stats.set_unreviewable(unreviewable):
                    return  # not written (busy, read-only): tried again after the next game
                for _ in range(PAUSE_STEPS):  # a pause, cut short when the app closes
                    if worker.is_cancelled:
                        return
                    time.sleep(PAUSE_SECONDS / PAUSE_STEPS)
        except StatsError:
            return  # the database is busy or damaged: the next game's end tries again
        except AnalysisStopped:
            return  # the app is closing: the game is reviewed at a later start
        finally:
            self.working = False
