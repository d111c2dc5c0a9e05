"""The statistics database: records, groups, streaks, records tables, reset, migrations."""

from __future__ import annotations

import itertools
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.factories import game_record, played_game
from tests.helpers import FakeClock
from textmines.engine import Board, Game, Status
from textmines.engine.metrics import game_metrics
from textmines.engine.presets import PRESETS
from textmines.records import record_for
from textmines.replays.recording import Recording
from textmines.store.stats import (
    MIGRATIONS,
    SCHEMA_VERSION,
    BestTime,
    GameRecord,
    Group,
    StatsError,
    StatsStore,
    Streak,
    open_stats,
    utc_text,
)

T0 = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)
BEGINNER = Group.for_board(*PRESETS["beginner"].size)
EXPERT = Group.for_board(*PRESETS["expert"].size)
_minutes = itertools.count()


def make(
    outcome: str = "won",
    *,
    time_ms: int = 10_000,
    assisted: bool = False,
    no_guess: bool = False,
    size: tuple[int, int, int] = (9, 9, 10),
    bbbv: int = 20,
    at: datetime | None = None,
) -> GameRecord:
    """A record ending one minute after the previous one made here (unless ``at`` is given)."""
    ended = at or T0 + timedelta(minutes=next(_minutes))
    return game_record(
        outcome,
        ended=ended,
        time_ms=time_ms,
        size=size,
        no_guess=no_guess,
        assisted=assisted,
        bbbv=bbbv,
    )


@pytest.fixture
def store(tmp_path: Path) -> Iterator[StatsStore]:
    opened, notices = open_stats(tmp_path / "stats.db")
    assert notices == []
    assert opened is not None
    with opened:
        yield opened


def add(store: StatsStore, *records: GameRecord) -> None:
    assert store.record_many(records) is None


# ---------------------------------------------------------------------------- record_for
def won_game(clock: FakeClock) -> Game:
    game = Game(9, 9, 10, seed=1, clock=clock)
    game.reveal(4, 4)
    board = game.board
    assert board is not None
    game.toggle_mark(*next((x, y) for y in range(9) for x in range(9) if board.is_mine(x, y)))
    clock.advance(12.5)
    for y in range(9):
        for x in range(9):
            if not board.is_mine(x, y):
                game.reveal(x, y)
    assert game.status == Status.WON
    return game


def test_record_for_a_won_game_takes_the_metrics_of_the_game() -> None:
    clock = FakeClock()
    game = won_game(clock)
    start, end = T0, T0 + timedelta(seconds=13)
    record = record_for(game, outcome="won", started_at=start, ended_at=end, assisted=False)
    metrics = game_metrics(game)
    assert record.preset == "beginner"
    assert (record.width, record.height, record.mines) == (9, 9, 10)
    assert (record.first_click, record.seed) == ("opening", 1)
    assert (record.started_at, record.ended_at) == (start, end)
    assert record.time_ms == 12_500 == game.elapsed_ms
    assert record.bbbv == metrics.bbbv == record.solved_bbbv
    assert (record.left_clicks, record.right_clicks, record.chord_clicks) == (
        metrics.left_clicks,
        metrics.right_clicks,
        metrics.chord_clicks,
    )
    assert record.right_clicks == 1
    assert record.efficiency == pytest.approx(metrics.efficiency)
    assert record.bbbv_per_s == pytest.approx(metrics.bbbv * 1000 / 12_500)
    assert (record.assisted, record.no_guess) == (False, False)
    assert record.group == BEGINNER
    assert (record.effective_clicks, record.flags_placed) == (metrics.effective_clicks, 1)
    assert record.rqp == pytest.approx(metrics.rqp) and record.stnb == pytest.approx(metrics.stnb)
    assert record.replay is not None
    assert Recording.decode(record.replay) == Recording.of(game)


def test_each_game_keeps_its_recording_to_replay_by_id_or_the_last(store: StatsStore) -> None:
    games = [played_game(9, 9, 10, seed) for seed in range(3)]
    for number, game in enumerate(games):
        end = T0 + timedelta(minutes=number)
        outcome = game.status.value
        add(store, record_for(game, outcome=outcome, started_at=end, ended_at=end, assisted=False))
    add(store, make(at=T0 + timedelta(hours=1)))  # an older version's row: no recording
    last = store.stored_replay()
    assert last is not None and last.game_id == 3
    assert Recording.decode(last.data) == Recording.of(games[2])
    first = store.stored_replay(1)
    assert first is not None and Recording.decode(first.data) == Recording.of(games[0])
    assert first.outcome == games[0].status.value and first.started_at == T0
    assert store.stored_replay(4) is None and store.stored_replay(99) is None
    best = store.group_stats(BEGINNER).best_times
    assert all(entry.game_id is not None for entry in best)


def test_record_for_reads_no_guess_from_the_game_and_names_custom_boards() -> None:
    clock = FakeClock()
    game = Game(12, 7, 15, seed=3, clock=clock)
    game.no_guess = True  # type: ignore[attr-defined]
    game.reveal(5, 3)
    clock.advance(2)
    record = record_for(game, outcome="abandoned", started_at=T0, ended_at=T0, assisted=True)
    assert record.preset == "custom"
    assert record.no_guess and record.assisted
    assert record.time_ms == 2000
    assert record.group == Group("custom", 12, 7, 15, True)
    assert record.group.label == "Custom 12x7/15, no-guess"


def test_record_for_a_lost_game() -> None:
    game = Game.from_board(Board.from_text("*.*\n...\n*.."), clock=FakeClock())
    game.reveal(1, 1)
    game.reveal(0, 0)
    record = record_for(game, outcome="lost", started_at=T0, ended_at=T0, assisted=False)
    assert record.outcome == "lost"
    assert record.seed is None
    assert (record.solved_bbbv, record.bbbv) == (0, 3)  # the opening was not opened


@pytest.mark.parametrize(
    ("play", "outcome", "message"),
    [
        (False, "abandoned", "ready"),
        (True, "won", "cannot be recorded as won"),
        (True, "lost", "cannot be recorded as lost"),
        (True, "quit", "outcome must be one of"),
    ],
)
def test_record_for_rejects_an_outcome_the_game_does_not_have(
    play: bool, outcome: str, message: str
) -> None:
    game = Game(9, 9, 10, seed=1, clock=FakeClock())
    if play:
        game.reveal(4, 4)
    with pytest.raises(ValueError, match=message):
        record_for(game, outcome=outcome, started_at=T0, ended_at=T0, assisted=False)


def test_a_record_with_an_unknown_outcome_is_refused() -> None:
    with pytest.raises(ValueError, match="outcome"):
        make("draw")


# ---------------------------------------------------------------------------- groups
def test_group_labels_and_keys() -> None:
    assert Group("beginner", 9, 9, 10, False) == BEGINNER
    assert BEGINNER.label == "Beginner"
    assert Group.for_board(30, 16, 99, no_guess=True).label == "Expert, no-guess"
    assert Group.for_board(16, 16, 40) == Group("intermediate", 16, 16, 40)
    assert Group.for_board(30, 20, 100).label == "Custom 30x20/100"


def test_groups_lists_presets_in_order_then_custom_boards_no_guess_apart(
    store: StatsStore,
) -> None:
    assert store.groups() == []
    add(
        store,
        make(size=(40, 40, 300)),
        make(size=(30, 16, 99), no_guess=True),
        make(size=(10, 10, 20)),
        make(size=(30, 16, 99)),
        make(size=(9, 9, 10)),
        make(size=(10, 10, 20)),
        make(size=(10, 10, 25)),
    )
    assert [group.label for group in store.groups()] == [
        "Beginner",
        "Expert",
        "Expert, no-guess",
        "Custom 10x10/20",
        "Custom 10x10/25",
        "Custom 40x40/300",
    ]


def test_custom_boards_are_grouped_by_width_height_and_mines(store: StatsStore) -> None:
    add(
        store,
        make(size=(10, 10, 20), time_ms=5000),
        make(size=(10, 10, 20), time_ms=6000),
        make(size=(10, 10, 25), time_ms=7000),
        make(size=(20, 5, 20), time_ms=8000),
    )
    assert store.group_stats(Group.for_board(10, 10, 20)).played == 2
    assert store.group_stats(Group.for_board(10, 10, 25)).played == 1
    assert store.group_stats(Group.for_board(20, 5, 20)).best_times[0].time_ms == 8000


def test_no_guess_games_are_counted_apart(store: StatsStore) -> None:
    add(store, make(time_ms=9000), make(no_guess=True, time_ms=4000), make("lost", no_guess=True))
    plain = store.group_stats(BEGINNER)
    no_guess = store.group_stats(Group.for_board(*PRESETS["beginner"].size, no_guess=True))
    assert (plain.played, plain.won) == (1, 1)
    assert (no_guess.played, no_guess.won, no_guess.lost) == (2, 1, 1)
    assert store.best_time(BEGINNER) == plain.best_times[0]
    assert plain.best_times[0].time_ms == 9000


# ---------------------------------------------------------------------------- counts and streaks
def test_an_empty_group_has_zeros(store: StatsStore) -> None:
    stats = store.group_stats(EXPERT)
    assert (stats.played, stats.won, stats.win_percent) == (0, 0, 0.0)
    assert stats.current_streak == Streak(None, 0)
    assert str(stats.current_streak) == "none"
    assert stats.best_times == ()
    assert stats.average_winning_ms is None
    assert stats.best_bbbv_per_s is None
    assert stats.recent_winning_ms == ()
    assert store.best_time(EXPERT) is None


def test_counts_and_win_percent_include_every_game(store: StatsStore) -> None:
    add(
        store,
        make("won"),
        make("won", assisted=True),
        make("lost"),
        make("lost", assisted=True),
        make("abandoned"),
    )
    stats = store.group_stats(BEGINNER)
    assert (stats.played, stats.won, stats.lost, stats.abandoned, stats.assisted) == (
        5,
        2,
        2,
        1,
        2,
    )
    assert stats.win_percent == pytest.approx(40.0)


CODES = {
    "W": ("won", False),
    "w": ("won", True),
    "L": ("lost", False),
    "l": ("lost", True),
    "Q": ("abandoned", False),
    "q": ("abandoned", True),
}


def add_history(store: StatsStore, history: str, group: Group = BEGINNER) -> None:
    size = (group.width, group.height, group.mines)
    records = [
        make(CODES[c][0], assisted=CODES[c][1], size=size, no_guess=group.no_guess) for c in history
    ]
    add(store, *records)


@pytest.mark.parametrize(
    ("history", "current", "longest_win", "longest_loss"),
    [
        ("W", "1 win", 1, 0),
        ("L", "1 loss", 0, 1),
        ("WWWLLWW", "2 wins", 3, 2),
        ("WWLLL", "3 losses", 2, 3),
        # Abandoned games are losses for streaks.
        ("WWQWW", "2 wins", 2, 1),
        ("LQLQ", "4 lost or abandoned", 0, 4),
        ("QQQ", "3 abandoned", 0, 3),
        # An assisted win ends both kinds of streak.
        ("WWwWW", "2 wins", 2, 0),
        ("WWWw", "none (an assisted win ends a streak)", 3, 0),
        ("LLwL", "1 loss", 0, 2),
        # Assisted losses and abandons count as losses.
        ("WWlW", "1 win", 2, 1),
        ("WqL", "2 lost or abandoned", 1, 2),
    ],
)
def test_streaks(
    store: StatsStore, history: str, current: str, longest_win: int, longest_loss: int
) -> None:
    add_history(store, history)
    stats = store.group_stats(BEGINNER)
    assert str(stats.current_streak) == current
    assert (stats.longest_winning_streak, stats.longest_losing_streak) == (
        longest_win,
        longest_loss,
    )


def test_streaks_follow_end_time_not_insertion_order(store: StatsStore) -> None:
    add(
        store,
        make("won", at=T0 + timedelta(hours=3)),
        make("lost", at=T0 + timedelta(hours=1)),
        make("won", at=T0 + timedelta(hours=2)),
    )
    stats = store.group_stats(BEGINNER)
    assert str(stats.current_streak) == "2 wins"


def signed(streak: Streak) -> int:
    """A streak as ``naive_streaks`` counts it: wins positive, losses negative, 0 for none."""
    return -streak.length if streak.outcome == "lost" else streak.length


def naive_streaks(history: str) -> tuple[int, int, int]:
    """Signed current streak, longest win and loss streak, the slow obvious way."""
    current = longest_win = longest_loss = 0
    for code in history:
        if code == "W":
            current = current + 1 if current > 0 else 1
        elif code == "w":
            current = 0
        else:
            current = current - 1 if current < 0 else -1
        longest_win = max(longest_win, current)
        longest_loss = max(longest_loss, -current)
    return current, longest_win, longest_loss


@pytest.mark.slow  # ~0.3 s of CPU
@settings(max_examples=40, deadline=None)
@given(
    histories=st.lists(st.text(alphabet="WwLlQq", max_size=40), min_size=1, max_size=3),
    ng=st.booleans(),
)
def test_streaks_match_a_naive_count(histories: list[str], ng: bool) -> None:
    groups = [
        BEGINNER,
        Group.for_board(*PRESETS["beginner"].size, no_guess=ng),
        Group.for_board(8, 8, 8),
    ]
    with tempfile.TemporaryDirectory() as folder:
        store, _ = open_stats(Path(folder) / "stats.db")
        assert store is not None
        with store:
            # Interleave the groups in time: each group's streaks must only see its own games.
            for history, group in zip(histories, groups, strict=False):
                add_history(store, history, group)
            combined: dict[Group, str] = {}
            for history, group in zip(histories, groups, strict=False):
                combined[group] = combined.get(group, "") + history
            for group, history in combined.items():
                stats = store.group_stats(group)
                assert (
                    signed(stats.current_streak),
                    stats.longest_winning_streak,
                    stats.longest_losing_streak,
                ) == naive_streaks(history)
                assert stats.played == len(history)
                assert stats.won == history.count("W") + history.count("w")


# ---------------------------------------------------------------------------- records tables
def test_best_times_are_the_ten_fastest_unassisted_wins(store: StatsStore) -> None:
    times = [31_000, 12_000, 45_000, 9_000, 27_000, 18_000, 22_000, 15_000, 40_000, 11_000]
    times += [50_000, 60_000]
    add(store, *(make(time_ms=t) for t in times))
    add(store, make(time_ms=1000, assisted=True), make("lost", time_ms=500))
    add(store, make("abandoned", time_ms=700))
    stats = store.group_stats(BEGINNER)
    assert [entry.time_ms for entry in stats.best_times] == sorted(times)[:10]
    first = stats.best_times[0]
    assert isinstance(first, BestTime)
    assert first.bbbv == 20
    assert first.bbbv_per_s == pytest.approx(20 / 9)
    assert first.ended_at.tzinfo is not None
    assert store.best_time(BEGINNER) == first


def test_equal_times_rank_the_earlier_game_first(store: StatsStore) -> None:
    late = make(time_ms=8000, bbbv=30, at=T0 + timedelta(days=2))
    early = make(time_ms=8000, bbbv=25, at=T0 + timedelta(days=1))
    add(store, late, early)
    best = store.group_stats(BEGINNER).best_times
    assert [entry.bbbv for entry in best] == [25, 30]
    assert best[0].ended_at == T0 + timedelta(days=1)


def test_assisted_wins_never_enter_records(store: StatsStore) -> None:
    add(store, make(time_ms=20_000, bbbv=20), make(time_ms=10_000, bbbv=20))
    add(store, make(time_ms=1_000, bbbv=60, assisted=True))
    stats = store.group_stats(BEGINNER)
    assert [entry.time_ms for entry in stats.best_times] == [10_000, 20_000]
    assert stats.best_bbbv_per_s == pytest.approx(2.0)
    assert stats.average_winning_ms == pytest.approx(15_000)
    assert stats.recent_winning_ms == (20_000, 10_000)
    assert stats.won == 3


def test_best_3bv_per_second_comes_from_unassisted_wins_only(store: StatsStore) -> None:
    add(
        store,
        make(time_ms=10_000, bbbv=30),  # 3.0
        make(time_ms=20_000, bbbv=70),  # 3.5, the best, though not the fastest
        make("lost", time_ms=1000, bbbv=40),
    )
    assert store.group_stats(BEGINNER).best_bbbv_per_s == pytest.approx(3.5)


def test_recent_winning_times_are_the_last_fifty_oldest_first(store: StatsStore) -> None:
    add(store, *(make(time_ms=1000 + i) for i in range(70)))
    add(store, make("lost"), make(time_ms=5, assisted=True))
    recent = store.group_stats(BEGINNER).recent_winning_ms
    assert recent == tuple(1000 + i for i in range(20, 70))


def test_a_new_best_can_be_told_from_the_previous_one(store: StatsStore) -> None:
    add(store, make(time_ms=30_000))
    previous = store.best_time(BEGINNER)
    new = make(time_ms=25_000)
    add(store, new)
    best = store.best_time(BEGINNER)
    assert previous is not None and best is not None
    assert (previous.time_ms, best.time_ms) == (30_000, 25_000)


# ---------------------------------------------------------------------------- times
def test_times_are_stored_as_fixed_width_utc_text(store: StatsStore) -> None:
    paris = timezone(timedelta(hours=2))
    moment = datetime(2024, 6, 1, 14, 30, 5, 123456, tzinfo=paris)
    assert utc_text(moment) == "2024-06-01T12:30:05.123Z"
    add(store, make(at=moment))
    assert store.best_time(BEGINNER) == BestTime(
        datetime(2024, 6, 1, 12, 30, 5, 123000, tzinfo=UTC), 10_000, 20, pytest.approx(2.0)
    )
    with sqlite3.connect(store.path) as connection:
        row = connection.execute("SELECT started_at, ended_at FROM games").fetchone()
    assert row == ("2024-06-01T12:29:55.123Z", "2024-06-01T12:30:05.123Z")


def test_seeds_beyond_64_bits_are_kept_exactly(store: StatsStore) -> None:
    big = 2**80 + 1
    record = make()
    add(store, GameRecord(**{**_fields(record), "seed": big}))
    with sqlite3.connect(store.path) as connection:
        assert connection.execute("SELECT seed FROM games").fetchone() == (str(big),)


def _fields(record: GameRecord) -> dict[str, object]:
    return {name: getattr(record, name) for name in GameRecord.__dataclass_fields__}


# ---------------------------------------------------------------------------- reset
def test_reset_one_group_keeps_the_others(store: StatsStore) -> None:
    add(store, make(), make(size=(30, 16, 99)), make(no_guess=True))
    assert store.reset(BEGINNER) is None
    assert store.groups() == [Group.for_board(*PRESETS["beginner"].size, no_guess=True), EXPERT]
    assert store.group_stats(BEGINNER).played == 0


def test_reset_all(store: StatsStore) -> None:
    add(store, make(), make(size=(30, 16, 99)), make(size=(5, 5, 3)))
    assert store.reset() is None
    assert store.groups() == []
    assert store.count() == 0


# ---------------------------------------------------------------------------- persistence
def test_open_creates_a_wal_database_at_the_current_version(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "er" / "stats.db"
    store, notices = open_stats(path)
    assert store is not None and notices == []
    store.close()
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        assert connection.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_games_survive_closing_and_reopening(tmp_path: Path) -> None:
    path = tmp_path / "stats.db"
    store, _ = open_stats(path)
    assert store is not None
    assert store.record(make(time_ms=4321)) is None
    store.close()
    again, notices = open_stats(path)
    assert again is not None and notices == []
    with again:
        assert again.best_time(BEGINNER) is not None
        assert again.count() == 1


# ---------------------------------------------------------------------------- migrations
V1_INSERT = (
    "INSERT INTO games (started_at, ended_at, preset, width, height, mines, first_click, seed,"
    " outcome, time_ms, bbbv, solved_bbbv, left_clicks, right_clicks, chord_clicks, efficiency,"
    " bbbv_per_s) VALUES (?, ?, 'expert', 30, 16, 99, 'opening', '5', ?, ?, 100, 100, 120, 90,"
    " 10, 0.45, ?)"
)


def build_at_version(path: Path, version: int) -> int:
    """A database of ``version`` made with the historical steps; returns the rows it holds."""
    connection = sqlite3.connect(path, isolation_level=None)
    for step in MIGRATIONS[:version]:
        for statement in step:
            connection.execute(statement)
    connection.execute(f"PRAGMA user_version = {version}")
    rows = 0
    if version >= 1:
        for i, (outcome, ms) in enumerate([("won", 90_000), ("lost", 30_000), ("won", 80_000)]):
            end = utc_text(T0 + timedelta(minutes=i))
            connection.execute(V1_INSERT, (end, end, outcome, ms, 100_000 / ms))
            rows += 1
    connection.close()
    return rows


@pytest.mark.parametrize("version", range(SCHEMA_VERSION))
def test_every_earlier_version_is_migrated_keeping_its_games(tmp_path: Path, version: int) -> None:
    path = tmp_path / "stats.db"
    rows = build_at_version(path, version)
    store, notices = open_stats(path)
    assert notices == []
    assert store is not None
    with store:
        assert store.count() == rows
        later = T0 + timedelta(hours=1)  # after the games already there, whatever ran before
        assert (
            store.record(make(size=(30, 16, 99), time_ms=70_000, assisted=True, at=later)) is None
        )
        stats = store.group_stats(EXPERT)
    assert stats.played == rows + 1
    if rows:
        assert [entry.time_ms for entry in stats.best_times] == [80_000, 90_000]
        assert str(stats.current_streak).startswith("none")  # the last win was assisted
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        flags = connection.execute("SELECT assisted, no_guess FROM games ORDER BY id").fetchall()
    assert flags == [(0, 0)] * rows + [(1, 0)]


def test_migrations_are_a_list_of_steps_ending_at_the_current_version() -> None:
    assert len(MIGRATIONS) == SCHEMA_VERSION >= 2
    assert all(step and all(isinstance(s, str) for s in step) for step in MIGRATIONS)


# ---------------------------------------------------------------------------- failures
def test_a_foreign_sqlite_database_is_moved_aside(tmp_path: Path) -> None:
    path = tmp_path / "stats.db"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE recipes (name TEXT)")
    connection.close()
    store, notices = open_stats(path)
    assert store is not None
    store.close()
    assert len(notices) == 1
    assert "not a textmines statistics database" in notices[0]
    assert str(tmp_path / "stats.db.bad") in notices[0]
    with sqlite3.connect(tmp_path / "stats.db.bad") as connection:
        assert connection.execute("SELECT name FROM sqlite_master").fetchall() == [("recipes",)]
    connection.close()


def test_an_older_bad_file_is_never_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "stats.db"
    (tmp_path / "stats.db.bad").write_bytes(b"first")
    (tmp_path / "stats.db.bad-2-wal").write_bytes(b"stray")
    path.write_bytes(b"second" * 100)
    (tmp_path / "stats.db-wal").write_bytes(b"its wal")
    store, notices = open_stats(path)
    assert store is not None
    store.close()
    assert (tmp_path / "stats.db.bad").read_bytes() == b"first"
    assert (tmp_path / "stats.db.bad-2-wal").read_bytes() == b"stray"
    assert (tmp_path / "stats.db.bad-3").read_bytes() == b"second" * 100
    assert (tmp_path / "stats.db.bad-3-wal").read_bytes() == b"its wal"
    assert str(tmp_path / "stats.db.bad-3") in notices[0]


def test_recording_while_another_process_holds_the_lock_keeps_the_game_for_later(
    tmp_path: Path,
) -> None:
    path = tmp_path / "stats.db"
    store, _ = open_stats(path, busy_timeout=0.05)
    assert store is not None
    blocker = sqlite3.connect(path, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    try:
        notice = store.record(make())
        assert notice is not None
        assert notice.startswith(f"Statistics: {path} is held by another program; 1 game is kept")
        assert store.pending == 1
        assert store.retry_pending() is not None and store.pending == 1  # still held
        assert store.reset() is not None
        # Reading still works while another process writes (WAL).
        assert store.count() == 0
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    assert store.record(make(time_ms=7000)) is None  # the game kept for later goes first
    assert store.count() == 2 and store.pending == 0
    assert store.retry_pending() is None
    store.close()


def test_a_closed_store_reports_instead_of_raising(tmp_path: Path) -> None:
    store, _ = open_stats(tmp_path / "stats.db")
    assert store is not None
    store.close()
    notice = store.record(make())
    assert notice is not None and "closed" in notice
    with pytest.raises(StatsError, match="Statistics could not be read"):
        store.groups()


def test_store_modules_import_no_textual_or_rich() -> None:
    code = (
        "import sys, textmines.store.stats, textmines.store.saves;"
        "print(sorted({'textual', 'rich'} & {m.split('.')[0] for m in sys.modules}))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


# ---------------------------------------------------------------------------- recorded once
def test_the_same_game_is_recorded_only_once(store: StatsStore) -> None:
    """A game resumed after a crash that followed its recording keeps its start: no double."""
    first = make("won", time_ms=30_000)
    again = GameRecord(
        **{**_fields(first), "outcome": "abandoned", "ended_at": T0 + timedelta(days=9)}
    )
    assert store.record(first) is None
    assert store.record(again) is None
    stats = store.group_stats(BEGINNER)
    assert (stats.played, stats.won) == (1, 1)


def test_games_started_at_the_same_moment_with_other_seeds_or_boards_all_count(
    store: StatsStore,
) -> None:
    first = make()
    fields = _fields(first)
    add(
        store,
        first,
        GameRecord(**{**fields, "seed": 8}),
        GameRecord(**{**fields, "seed": None}),
        GameRecord(**{**fields, "mines": 11, "preset": "custom"}),
    )
    assert store.count() == 4


def test_a_record_out_of_range_is_a_notice_not_a_crash(store: StatsStore) -> None:
    # From a damaged save that got through (issue 18): the game must still end normally.
    from dataclasses import replace

    huge = replace(make(), time_ms=10**20)
    notice = store.record(huge)
    assert notice is not None and notice.startswith("Statistics not saved")
    assert store.record(make()) is None  # the store works on


def test_the_best_competitive_figures_come_from_unassisted_wins(store: StatsStore) -> None:
    from dataclasses import replace

    def win(ce: int, stnb: float, rqp: float, *, assisted: bool = False) -> GameRecord:
        # 30 3BV solved, clicks (30, 5, 3): Cl 38. Intermediate: a board STNB is measured on.
        record = make(bbbv=30, assisted=assisted, size=(16, 16, 40))
        clicks = {"left_clicks": 30, "right_clicks": 5, "chord_clicks": 3}
        return replace(record, effective_clicks=ce, stnb=stnb, rqp=rqp, solved_bbbv=30, **clicks)

    add(store, win(34, 20.0, 9.0), win(30, 25.0, 12.0), win(38, 99.0, 1.0, assisted=True))
    add(store, make(bbbv=30, size=(16, 16, 40)))  # an older version's win: no figures
    figures = dict(store.group_stats(Group.for_board(*PRESETS["intermediate"].size)).best_figures)
    assert list(figures) == ["IOE", "Correctness", "Throughput", "STNB", "RQP"]
    assert figures["Correctness"] == pytest.approx(34 / 38)
    assert figures["Throughput"] == pytest.approx(30 / 30)
    assert (figures["STNB"], figures["RQP"]) == (25.0, 9.0)
    assert store.group_stats(EXPERT).best_figures == ()


def test_a_9x9_stnb_stored_by_an_older_version_is_no_best_figure(store: StatsStore) -> None:
    # ms-toollib measures no STNB on 9x9/10; textmines measured one before it followed it.
    from dataclasses import replace

    old = replace(make(bbbv=30), effective_clicks=30, stnb=25.0, rqp=9.0, solved_bbbv=30)
    add(store, old)
    figures = dict(store.group_stats(BEGINNER).best_figures)
    assert "STNB" not in figures and figures["RQP"] == 9.0


def test_daily_figures_count_the_first_try_of_each_day_and_streaks_of_days() -> None:
    from textmines.store.stats.figures import daily_figures

    days = {
        "2026-11-01": ("won", 90_000),
        "2026-11-02": ("won", 80_000),
        "2026-11-03": ("lost", 20_000),
        "2026-11-05": ("won", 70_000),
        "2026-11-06": ("won", 60_000),
        "2026-11-07": ("won", 75_000),
        "2026-11-09": ("won", 65_000),  # the 8th was missed: a new streak
    }
    stats = daily_figures(days)
    assert (stats.days_played, stats.days_won) == (7, 6)
    assert (stats.current_streak, stats.longest_streak) == (1, 3)
    assert stats.days[0] == ("2026-11-09", "won", 65_000)


def test_only_the_first_try_of_a_day_counts(store: StatsStore) -> None:
    from dataclasses import replace

    def daily(day: str, outcome: str, minutes: int, *, practice: bool = False) -> GameRecord:
        record = make(outcome, size=(30, 16, 99), at=T0 + timedelta(minutes=minutes))
        return replace(record, daily=day, practice=practice)

    assert not store.daily_counted("2026-11-23")
    add(store, daily("2026-11-23", "lost", 1))
    assert store.daily_counted("2026-11-23")
    add(store, daily("2026-11-23", "won", 2, practice=True))  # a later try: practice
    add(store, daily("2026-11-24", "won", 3))
    stats = store.daily_stats()
    assert (stats.days_played, stats.days_won, stats.current_streak) == (2, 1, 1)
    assert [day for day, _, _ in stats.days] == ["2026-11-24", "2026-11-23"]
    # Each day's game number, what --review takes: the try that counted (issue 46.9).
    assert stats.game_numbers == {"2026-11-23": 1, "2026-11-24": 3}


def test_an_assisted_daily_win_is_no_win_of_the_day_and_ends_the_streak(store: StatsStore) -> None:
    # Issue 34.22: the Daily tab showed an autoplay-assisted win as a plain win and counted it
    # in the streak of days won.
    from dataclasses import replace

    def daily(day: str, minutes: int, *, assisted: bool = False) -> GameRecord:
        record = make("won", size=(30, 16, 99), at=T0 + timedelta(minutes=minutes))
        return replace(record, daily=day, assisted=assisted)

    add(store, daily("2026-11-22", 1), daily("2026-11-23", 2, assisted=True))
    add(store, daily("2026-11-24", 3))
    stats = store.daily_stats()
    assert (stats.days_played, stats.days_won) == (3, 2)
    assert (stats.current_streak, stats.longest_streak) == (1, 1)
    assert stats.days[1][:2] == ("2026-11-23", "assisted")


# ---------------------------------------------------------------------------- practice
def test_practice_games_are_left_out_of_every_figure_of_the_players_own_play(
    store: StatsStore,
) -> None:
    # Issue 46.7: a game on a board the player had seen (a played-on replay, a restart, a
    # later daily try) counted in the win rate and the streaks, and a practice win from just
    # before a fatal click entered the best times. They are kept, and counted apart.
    from dataclasses import replace

    add(store, make("won", time_ms=30_000), make("lost"))
    fast = replace(make("won", time_ms=5_000, bbbv=40), effective_clicks=40, stnb=99.0, rqp=0.1)
    later_try = replace(make("won", time_ms=4_000), daily="2026-11-23")
    add(store, *(replace(record, practice=True) for record in (fast, later_try, make("lost"))))
    stats = store.group_stats(BEGINNER)
    assert (stats.played, stats.won, stats.lost, stats.abandoned) == (2, 1, 1, 0)
    assert stats.practice == 3 and stats.win_percent == 50.0
    assert stats.current_streak == Streak("lost", 1) and stats.longest_winning_streak == 1
    assert [entry.time_ms for entry in stats.best_times] == [30_000]
    assert stats.average_winning_ms == 30_000 and stats.recent_winning_ms == (30_000,)
    assert stats.best_bbbv_per_s == pytest.approx(20 / 30)
    assert ("STNB", 99.0) not in stats.best_figures and ("RQP", 0.1) not in stats.best_figures
    best = store.best_time(BEGINNER)
    assert best is not None and best.time_ms == 30_000
    assert store.daily_stats().days_played == 0


def test_a_daily_try_recorded_after_one_that_counts_is_practice(store: StatsStore) -> None:
    # Issue 46.6: two textmines started the day's daily board before either try was
    # recorded; each thought its try was the one that counts, and the second win entered
    # the best times. Whether a day has its counted try is decided as the try is written.
    from dataclasses import replace

    def daily(minutes: int, seconds: int) -> GameRecord:
        at = T0 + timedelta(minutes=minutes)
        record = make("won", size=(30, 16, 99), time_ms=seconds * 1000, at=at)
        return replace(record, daily="2026-11-23")

    first = store.record_game(daily(1, 90))
    second = store.record_game(daily(2, 60))
    assert first.notice is None and not first.practice and first.game_id == 1
    assert second.notice is None and second.practice and second.game_id == 2
    stats = store.group_stats(EXPERT)
    assert (stats.played, stats.practice) == (1, 1)
    assert [entry.time_ms for entry in stats.best_times] == [90_000]
    assert store.daily_stats().days == (("2026-11-23", "won", 90_000),)
    again = store.record_game(daily(2, 60))  # the same game once more: recorded once
    assert (again.notice, again.game_id, again.practice) == (None, 2, True)
    assert store.count() == 2


def test_a_stored_games_replay_title_gives_its_number_and_says_practice(
    store: StatsStore,
) -> None:
    # Issue 46.8 and 46.9: --review N and --export-replay N ask for a game's number, which
    # no title gave; a practice game's replay did not say practice.
    from dataclasses import replace

    from textmines.records import stored_title

    game = played_game(9, 9, 10, 2)
    end = T0 + timedelta(minutes=1)
    record = record_for(
        game, outcome=game.status.value, started_at=T0, ended_at=end, assisted=False
    )
    add(store, record, replace(record, started_at=end, ended_at=end, practice=True))
    own, practice = store.stored_replay(1), store.stored_replay(2)
    assert own is not None and practice is not None and practice.practice
    recording = Recording.decode(own.data)
    assert stored_title(own, recording) == f"Game #1: Beginner, {game.status.value}"
    assert stored_title(practice, recording) == f"Game #2: Beginner, {game.status.value} (practice)"
