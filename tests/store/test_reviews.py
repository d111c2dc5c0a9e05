"""The solver's reviews of recorded games in the statistics (issue 37): kept one per game,
added up per group, forgotten with their games."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tests.factories import played_game
from tests.helpers import new_stats
from textmines.records import record_for
from textmines.store.stats import GameReview, Group, StatsStore

START = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)


def recorded(store: StatsStore, seeds: range, size: tuple[int, int, int] = (9, 9, 10)) -> None:
    for number, seed in enumerate(seeds):
        game = played_game(*size, seed)
        moment = START + timedelta(minutes=number)
        record = record_for(
            game, outcome=game.status.value, started_at=moment, ended_at=moment, assisted=False
        )
        assert store.record(record) is None


def test_games_without_a_review_are_listed_latest_first_until_reviewed(tmp_path: Path) -> None:
    store = new_stats(tmp_path)
    recorded(store, range(4))
    todo = store.games_to_review(10, 10_000)
    assert [game_id for game_id, _ in todo] == [4, 3, 2, 1]
    assert all(isinstance(data, bytes) for _, data in todo)
    assert store.set_reviews([GameReview(4, 1, 0, 0, 0.5, False)]) is None
    assert [game_id for game_id, _ in store.games_to_review(10, 10_000)] == [3, 2, 1]
    assert store.games_to_review(10, 80) == [], "a 9x9 board is over 80 cells"
    assert len(store.games_to_review(2, 10_000)) == 2


def test_a_groups_reviews_add_up(tmp_path: Path) -> None:
    store = new_stats(tmp_path)
    recorded(store, range(4))
    assert store.group_stats(Group.for_board(9, 9, 10)).review is None
    reviews = [
        GameReview(1, 2, 1, 0, 0.25, False),
        GameReview(2, 0, 0, 0, 1.0, False),
        GameReview(3, 1, 0, 1, 0.5, True),
    ]
    assert store.set_reviews(reviews) is None
    stats = store.group_stats(Group.for_board(9, 9, 10))
    review = stats.review
    assert review is not None and review.reviewed == 3
    assert review.guesses_per_game == pytest.approx(1.0)
    # Avoidable risks and blunders each a count of their own, as --review gives them (the
    # statistics added blunders to the avoidable risks: issue 46.3).
    assert review.avoidable_per_game == pytest.approx(1 / 3)
    assert review.blunders_per_game == pytest.approx(1 / 3)
    assert review.average_luck == pytest.approx(1.75 / 3)
    assert review.forced_losses == 1


def test_reviews_go_with_their_games_and_never_name_a_game_not_there(tmp_path: Path) -> None:
    store = new_stats(tmp_path)
    recorded(store, range(2))
    assert store.set_reviews([GameReview(99, 1, 0, 0, 0.5, False)]) is None  # no game 99
    assert store.set_reviews([GameReview(1, 1, 0, 0, 0.5, False)]) is None
    assert store.reset(Group.for_board(9, 9, 10)) is None
    recorded(store, range(5, 6))
    stats = store.group_stats(Group.for_board(9, 9, 10))
    assert stats.played == 1 and stats.review is None


def test_practice_games_are_not_reviewed_for_the_figures_nor_added_up(tmp_path: Path) -> None:
    # Issue 46.7: the review of a game played on from another player's replay (their first
    # click in it) was added to the player's own review figures.
    from dataclasses import replace

    store = new_stats(tmp_path)
    recorded(store, range(2))
    game = played_game(9, 9, 10, 5)
    moment = START + timedelta(hours=1)
    record = record_for(
        game, outcome=game.status.value, started_at=moment, ended_at=moment, assisted=False
    )
    assert store.record(replace(record, practice=True)) is None
    assert [game_id for game_id, _ in store.games_to_review(10, 10_000)] == [2, 1]
    reviews = [GameReview(1, 2, 0, 0, 0.5, False), GameReview(3, 9, 9, 9, 0.0, True)]
    assert store.set_reviews(reviews) is None  # reviewed on demand (--review 3), say
    review = store.group_stats(Group.for_board(9, 9, 10)).review
    assert review is not None and review.reviewed == 1 and review.guesses_per_game == 2.0
    assert review.forced_losses == 0


def loose_reviews(store: StatsStore) -> None:
    """The reviews table recreated without its constraints, as a database browser may."""
    import sqlite3

    with sqlite3.connect(store.path) as connection:
        rows = connection.execute("SELECT * FROM reviews").fetchall()
        connection.execute("DROP TABLE reviews")
        connection.execute(
            "CREATE TABLE reviews (game_id INTEGER PRIMARY KEY, guesses, avoidable, blunders,"
            " luck, forced_loss)"
        )
        connection.executemany("INSERT INTO reviews VALUES (?, ?, ?, ?, ?, ?)", rows)
    connection.close()


@pytest.mark.parametrize(
    "value", ["NULL", "'abc'", "9e999", "-9e999", "9223372036854775807", "-5", "2.5"]
)
@pytest.mark.parametrize("column", ["guesses", "avoidable", "blunders", "luck", "forced_loss"])
def test_a_review_edited_by_hand_is_left_out_and_counted(
    tmp_path: Path, column: str, value: str
) -> None:
    # Issue 46.23: with the table's constraints dropped, a NULL crashed F4, infinity showed
    # "inf%" and a huge integer blanked the Beginner tab ("integer overflow").
    import math
    import sqlite3

    store = new_stats(tmp_path)
    recorded(store, range(3))
    reviews = [GameReview(number, 2, 1, 1, 0.5, number == 1) for number in (1, 2, 3)]
    assert store.set_reviews(reviews) is None
    loose_reviews(store)
    with sqlite3.connect(store.path) as connection:
        connection.execute(f"UPDATE reviews SET {column} = {value} WHERE game_id = 2")
    connection.close()
    stats = store.group_stats(Group.for_board(9, 9, 10))
    review = stats.review
    harmless = value == "2.5" and column in ("guesses", "avoidable", "blunders")
    assert review is not None
    assert stats.damaged_reviews == (0 if harmless else 1)
    assert review.reviewed == (3 if harmless else 2)
    figures = (review.guesses_per_game, review.avoidable_per_game, review.average_luck)
    assert all(isinstance(figure, float) and math.isfinite(figure) for figure in figures)
    assert 0 <= review.average_luck <= 1 and review.forced_losses in (0, 1)


def test_a_game_that_cannot_be_reviewed_is_kept_so_and_not_tried_again(tmp_path: Path) -> None:
    # Issue 46.19: a recording that could not be reviewed was tried again at every start
    # (1.4 GB and 25 s of CPU each time).
    store = new_stats(tmp_path)
    recorded(store, range(3))
    assert store.set_unreviewable([(2, "its recording cannot be read"), (99, "no game")]) is None
    assert [game_id for game_id, _ in store.games_to_review(10, 10_000)] == [3, 1]
    assert store.reset() is None  # forgotten with the games
    recorded(store, range(3, 5))
    assert [game_id for game_id, _ in store.games_to_review(10, 10_000)] == [2, 1]


def test_reviews_by_older_rules_are_done_again(tmp_path: Path) -> None:
    # Issue 46.1, 46.5: a review kept by a version that called a forced guess avoidable, or
    # counted a blunder in luck, is dropped when the statistics open, to be done again.
    import sqlite3

    store = new_stats(tmp_path)
    recorded(store, range(2))
    assert store.set_reviews([GameReview(1, 1, 1, 0, 0.5, False)]) is None
    path = store.path
    store.close()
    with sqlite3.connect(path) as connection:
        connection.execute("DROP TABLE unreviewable")
        connection.execute("PRAGMA user_version = 6")
    connection.close()
    again = new_stats(tmp_path)
    assert again.path == path
    assert [game_id for game_id, _ in again.games_to_review(10, 10_000)] == [2, 1]
    again.close()


def test_the_background_review_says_why_a_game_cannot_be_reviewed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from textmines.engine import review
    from textmines.replays.recording import Recording
    from textmines.ui.game.reviewer import review_of_stored

    data = Recording.of(played_game(9, 9, 10, 3)).encode()
    assert isinstance(review_of_stored(1, data), GameReview)
    assert "cannot be read" in str(review_of_stored(1, b"\x00garbage"))
    monkeypatch.setattr(review, "REVIEW_WORK", 10)  # a review past its budget: not partial
    assert review_of_stored(1, data) == "it takes more than a review's budget of work"
