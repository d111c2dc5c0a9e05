"""Reviewing recorded games in the background: the statistics show what the solver found
(guesses and avoidable risks a game, luck, forced losses), so every recorded game with a
recording is reviewed once, a few at a time off the UI thread, the latest first; older
games (recorded before reviews were kept) follow by themselves."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from textual import work
from textual.message import Message
from textual.widget import Widget
from textual.worker import get_current_worker

if TYPE_CHECKING:
    from textmines.store.stats import GameReview, StatsStore

#: Games reviewed per batch (each in a few milliseconds to a second), and the pause between
#: batches: about a tenth of one core while old games are being reviewed.
BATCH: Final = 8
PAUSE_SECONDS: Final = 5.0
PAUSE_STEPS: Final = 50
#: Boards larger than this are not reviewed (a 100x100 game is reviewed in seconds; a
#: 1000x1000 one would keep a core busy for a long time for a figure nobody compares).
MAX_CELLS: Final = 100 * 100


def review_of_stored(game_id: int, data: bytes) -> GameReview | None:
    """The review of recorded game ``game_id`` from its stored recording; None for a
    recording that cannot be read (a damaged row is left for the statistics to count)."""
    from textmines.replays.recording import Recording, RecordingError
    from textmines.replays.review_report import review_of
    from textmines.store.stats import GameReview

    try:
        review = review_of(Recording.decode(data))
    except (RecordingError, ValueError):
        return None
    return GameReview(
        game_id, review.guesses, review.avoidable, review.blunders, review.luck, review.forced_loss
    )


class Reviewer(Widget):
    """Invisible: reviews recorded games in a worker thread of its own, a batch at a time
    with a pause between batches (a few thousand old games are reviewed over a while, at a
    small share of one core), and keeps the reviews in ``stats`` (thread-safe). ``kept`` is
    called on the UI thread after each batch is written."""

    DEFAULT_CSS = "Reviewer { display: none; }"

    class Kept(Message):
        """A batch of reviews was written."""

    def __init__(self, stats: StatsStore | None, kept: Callable[[], None] = lambda: None) -> None:
        super().__init__()
        self.stats = stats
        self.kept = kept
        self.working = False

    def review_pending(self) -> None:
        """Review the games that have no review yet, unless that is under way already."""
        if self.stats is not None and not self.working:
            self.working = True
            self._review(self.stats)

    @work(thread=True, exclusive=True, group="reviews", name="Reviewing recorded games")
    def _review(self, stats: StatsStore) -> None:
        from textmines.store.stats import StatsError

        worker = get_current_worker()
        unreadable: set[int] = set()
        try:
            while not worker.is_cancelled:
                found = stats.games_to_review(BATCH + len(unreadable), MAX_CELLS)
                todo = [(number, data) for number, data in found if number not in unreadable]
                if not todo:
                    return
                reviews = []
                for number, data in todo[:BATCH]:
                    review = review_of_stored(number, data)
                    if review is None:
                        unreadable.add(number)  # not asked for again in this run
                    else:
                        reviews.append(review)
                if stats.set_reviews(reviews) is not None:
                    return  # not written (busy, read-only): tried again after the next game
                self.post_message(self.Kept())
                for _ in range(PAUSE_STEPS):  # a pause, cut short when the app closes
                    if worker.is_cancelled:
                        return
                    time.sleep(PAUSE_SECONDS / PAUSE_STEPS)
        except StatsError:
            return  # the database is busy or damaged: the next game's end tries again
        finally:
            self.working = False

    def on_reviewer_kept(self, _: Kept) -> None:
        self.kept()
