"""Reviewing recorded games in the background: the statistics show what the solver found
(guesses and avoidable risks a game, luck, forced losses), so every recorded game with a
recording is reviewed once, a few at a time off the UI thread, the latest first; older
games (recorded before reviews were kept) follow by themselves."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from textual import work
from textual.message import Message
from textual.widget import Widget

if TYPE_CHECKING:
    from textmines.store.stats import GameReview, StatsStore

#: Games reviewed per pass (each in a few milliseconds to a second).
BATCH: Final = 8
#: Boards larger than this are not reviewed (a 100x100 game is reviewed in seconds; a
#: 1000x1000 one would keep a core busy for a long time for a figure nobody compares).
MAX_CELLS: Final = 100 * 100


def review_of_stored(game_id: int, data: bytes) -> GameReview | None:
    """The review of recorded game ``game_id`` from its stored recording; None for a
    recording that cannot be read (a damaged row is left for the statistics to count)."""
    from textmines.engine.game import Status
    from textmines.engine.review import DecisionKind
    from textmines.replays.recording import Recording, RecordingError
    from textmines.replays.review_report import review_of
    from textmines.store.stats import GameReview

    try:
        recording = Recording.decode(data)
        review = review_of(recording)
        lost = recording.game().status == Status.LOST
    except (RecordingError, ValueError):
        return None
    last = review.decisions[-1] if review.decisions else None
    forced = lost and last is not None and last.kind is DecisionKind.GUESS
    return GameReview(
        game_id, review.guesses, review.avoidable, review.blunders, review.luck, forced
    )


class Reviewer(Widget):
    """Invisible: runs the reviews as a worker of its own, and keeps them in ``stats``.
    ``kept`` is called after each batch is written (the statistics screen refreshes)."""

    DEFAULT_CSS = "Reviewer { display: none; }"

    class Reviewed(Message):
        """A batch reviewed: the reviews, and the games whose recording could not be read."""

        def __init__(self, reviews: list[GameReview], unreadable: list[int]) -> None:
            super().__init__()
            self.reviews = reviews
            self.unreadable = unreadable

    def __init__(self, stats: StatsStore | None, kept: Callable[[], None] = lambda: None) -> None:
        super().__init__()
        self.stats = stats
        self.kept = kept
        self.working = False
        #: Games whose recording cannot be read: not asked for again in this run.
        self.unreadable: set[int] = set()

    def review_pending(self) -> None:
        """Review the next games that have no review yet (nothing if none is left)."""
        from textmines.store.stats import StatsError

        if self.stats is None or self.working:
            return
        try:
            found = self.stats.games_to_review(BATCH + len(self.unreadable), MAX_CELLS)
        except StatsError:
            return  # the database is busy or damaged: the next game's end tries again
        todo = [(game_id, data) for game_id, data in found if game_id not in self.unreadable]
        if todo:
            self.working = True
            self._review(todo[:BATCH])

    @work(thread=True, exclusive=True, group="reviews", name="Reviewing recorded games")
    def _review(self, todo: list[tuple[int, bytes]]) -> None:
        reviews, unreadable = [], []
        for game_id, data in todo:
            review = review_of_stored(game_id, data)
            if review is None:
                unreadable.append(game_id)
            else:
                reviews.append(review)
        self.post_message(self.Reviewed(reviews, unreadable))

    def on_reviewer_reviewed(self, message: Reviewed) -> None:
        self.working = False
        self.unreadable.update(message.unreadable)
        if self.stats is None or self.stats.set_reviews(message.reviews) is not None:
            return  # not written: tried again after the next game
        if message.reviews:
            self.kept()
        self.call_later(self.review_pending)  # the next batch, if any
