"""The leaderboard's store: players known by a token, challenges used once, the daily
board's first try counted and the rest practice, ranks by each player's best, and two
submissions at once never sharing a rank."""

from __future__ import annotations

import itertools
import os
import threading
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest

from tests.leaderboard.postgres import new_database
from textmines.leaderboard.boards import deal
from textmines.leaderboard.store import Challenge, LeaderboardStore, Player
from textmines.leaderboard.verify import Refused, Verified

DAY = date(2026, 12, 1)


#: Each test runs on SQLite and on a real PostgreSQL server (one per test process).
ON_POSTGRES = [pytest.mark.slow, pytest.mark.xdist_group("postgres")]
BACKENDS = ["sqlite", pytest.param("postgres", marks=ON_POSTGRES)]


@pytest.fixture(params=BACKENDS)
def where(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a new, empty leaderboard is: a SQLite file, or a PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "leaderboard.db")
    server = request.getfixturevalue("postgres_server")
    return new_database(server, f"test_{next(NUMBERS)}")


NUMBERS = itertools.count(os.getpid() * 1000)


@pytest.fixture
def store(where: str) -> Iterator[LeaderboardStore]:
    opened = LeaderboardStore.open(where)
    yield opened
    opened.close()


def win(ms: int) -> Verified:
    return Verified(ms, 120, 120_000 / ms)


def test_a_player_is_their_token_and_a_name_is_plain_text(store: LeaderboardStore) -> None:
    player, token = store.new_player("  Ann\x1b[31m  <b>Lee</b>\n", now_ms=1)
    assert len(token) >= 40 and store.player(token) == player
    assert player.name == "Ann [31m <b>Lee</b>", "no control character; markup kept as text"
    assert store.player("not a token") is None
    assert store.new_player("", now_ms=2)[0].name == "Anonymous"
    renamed = store.rename(player, "Ann")
    assert renamed == Player(player.id, "Ann") and store.player(token) == renamed


def test_the_daily_boards_first_try_counts_and_the_next_are_practice(
    store: LeaderboardStore,
) -> None:
    player, _ = store.new_player("Ann", now_ms=1)
    first = store.issue(player, deal("daily", DAY), now_ms=10)
    again = store.issue(player, deal("daily", DAY), now_ms=20)
    tomorrow = store.issue(player, deal("daily", date(2026, 12, 2)), now_ms=30)
    expert = [store.issue(player, deal("expert", DAY), now_ms=40) for _ in range(2)]
    assert (first.counted, again.counted, tomorrow.counted) == (True, False, True)
    assert all(challenge.counted for challenge in expert)
    assert store.challenge(first.id) == first and store.challenge("nope") is None
    assert store.submit(again, player, win(90_000), b"r", now_ms=50).rank is None


def test_a_challenge_is_the_players_and_is_submitted_once(store: LeaderboardStore) -> None:
    ann, _ = store.new_player("Ann", now_ms=1)
    bob, _ = store.new_player("Bob", now_ms=1)
    challenge = store.issue(ann, deal("expert", DAY, seed=1), now_ms=10)
    with pytest.raises(Refused) as theirs:
        store.submit(challenge, bob, win(90_000), b"r", now_ms=20)
    assert theirs.value.status == 403
    assert store.submit(challenge, ann, win(90_000), b"r", now_ms=20).rank == 1
    with pytest.raises(Refused) as again:
        store.submit(challenge, ann, win(80_000), b"r", now_ms=30)
    assert again.value.status == 409


def test_players_rank_by_their_best_and_equal_times_by_who_came_first(
    store: LeaderboardStore,
) -> None:
    players = [store.new_player(name, now_ms=1)[0] for name in ("Ann", "Bob", "Cy")]
    ranks = []
    for n, (player, ms) in enumerate(
        [
            (players[0], 90_000),
            (players[1], 80_000),
            (players[0], 70_000),
            (players[2], 80_000),
            (players[1], 100_000),
        ]
    ):
        challenge = store.issue(player, deal("expert", DAY, seed=n), now_ms=n)
        ranked = store.submit(challenge, player, win(ms), f"replay {n}".encode(), now_ms=100 + n)
        ranks.append((ranked.rank, ranked.of))
    assert ranks == [(1, 1), (1, 2), (1, 2), (3, 3), (2, 3)]
    board = store.leaderboard("expert")
    assert [(e.rank, e.name, e.time_ms) for e in board] == [
        (1, "Ann", 70_000),
        (2, "Bob", 80_000),
        (3, "Cy", 80_000),
    ]
    assert store.replay(board[0].entry_id) == b"replay 2"
    assert [e.name for e in store.leaderboard("expert", since_ms=103)] == ["Cy", "Bob"]
    assert store.leaderboard("beginner") == []
    # A player's own best, with its rank however far down the list is cut.
    assert store.leaderboard("expert", limit=1)[0].name == "Ann"
    cy = store.best_of(players[2], "expert")
    assert cy is not None and (cy.rank, cy.name, cy.time_ms) == (3, "Cy", 80_000)
    recent = store.best_of(players[1], "expert", since_ms=103)
    assert recent is not None and (recent.rank, recent.time_ms) == (2, 100_000)
    assert store.best_of(players[0], "expert", since_ms=103) is None
    assert store.best_of(players[0], "beginner") is None
    # A player's own wins, every one of them, the latest first.
    assert [(w.kind, w.time_ms, w.played_ms) for w in store.wins_of(players[0])] == [
        ("expert", 70_000, 102),
        ("expert", 90_000, 100),
    ]
    assert [w.time_ms for w in store.wins_of(players[1], limit=1)] == [100_000]


def test_a_leaderboard_of_an_older_schema_is_brought_up_to_date_and_keeps_its_entries(
    where: str,
) -> None:
    from textmines.leaderboard import store as store_module

    first_only = store_module.MIGRATIONS[:1]
    old = store_module.MIGRATIONS
    store_module.MIGRATIONS = first_only  # type: ignore[misc]
    try:
        opened = LeaderboardStore.open(where)
        player, _ = opened.new_player("Ann", now_ms=1)
        challenge = opened.issue(player, deal("expert", DAY, seed=1), now_ms=2)
        opened.submit(challenge, player, win(90_000), b"r", now_ms=3)
        opened.close()
    finally:
        store_module.MIGRATIONS = old  # type: ignore[misc]
    upgraded = LeaderboardStore.open(where)
    try:
        assert [w.time_ms for w in upgraded.wins_of(player)] == [90_000]
        version = upgraded._db.execute("SELECT version FROM schema_version").fetchone()
        assert int(version[0]) == len(old) == 2
    finally:
        upgraded.close()


def test_two_submissions_at_once_never_share_a_rank_nor_lose_one(where: str) -> None:
    setup = LeaderboardStore.open(where)
    entries: list[tuple[Player, Challenge]] = []
    for n in range(20):
        player, _ = setup.new_player(f"P{n}", now_ms=1)
        entries.append((player, setup.issue(player, deal("daily", DAY), now_ms=2)))
    setup.close()
    ranks: list[int] = []

    def submit_half(half: list[tuple[Player, Challenge]]) -> None:
        store = LeaderboardStore.open(where)  # a connection of its own, as another host's
        try:
            for player, challenge in half:
                rank = store.submit(challenge, player, win(60_000), b"r", now_ms=3).rank
                assert rank is not None
                ranks.append(rank)
        finally:
            store.close()

    threads = [threading.Thread(target=submit_half, args=(entries[i::2],)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(ranks) == list(range(1, 21))
    final = LeaderboardStore.open(where)
    assert [e.rank for e in final.leaderboard("daily", day=DAY)] == list(range(1, 21))
    final.close()
