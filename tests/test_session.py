"""GameSession: each game recorded exactly once, saved on quit, resumed with its record."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tests.helpers import FakeClock, refuse_statistics_writes
from textmines.engine import ActionKind, Board, Game
from textmines.session import EndResult, GameSession, percent_cleared_text, settle_saved_game
from textmines.store.saves import (
    IN_USE_NOTICE,
    LoadedGame,
    load_game,
    release_save,
    save_game,
)
from textmines.store.stats import Group, StatsError, StatsStore, Written, open_stats

LAYOUT = "*....\n.....\n.....\n.....\n....*"  # 5x5, two mines; (2, 2) opens everything else


class Moments:
    """A wall clock for start and end times that the test moves."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


REVEAL, FLAG = ActionKind.REVEAL, ActionKind.FLAG


@pytest.fixture
def stats(tmp_path: Path) -> StatsStore:
    store, notices = open_stats(tmp_path / "stats.db")
    assert store is not None and notices == []
    return store


def game(clock: FakeClock) -> Game:
    return Game.from_board(Board.from_text(LAYOUT), clock=clock)


def test_a_won_game_is_recorded_once_with_its_start_time(stats: StatsStore) -> None:
    clock, moments = FakeClock(), Moments()
    session = GameSession(game(clock), stats=stats, now=moments)
    flagged = session.play(FLAG, 0, 0)
    assert flagged.change and not flagged.started and session.started_at is None
    first = session.play(REVEAL, 1, 1)  # a 1: the game starts
    started = moments.now
    assert first.started and first.finish is None and list(first.change.cells()) == [(1, 1)]
    clock.advance(3.5)
    moments.now += timedelta(seconds=3.5)
    finish = session.play(REVEAL, 2, 2).finish  # the opening: every safe cell, a win
    assert finish is not None and finish.new_best and finish.previous_best is None
    after = session.play(REVEAL, 3, 3)
    assert not after.change and after.finish is None  # over, and already recorded
    assert session.abandon() is None
    group = Group.for_game(session.game)
    result = stats.group_stats(group)
    assert (result.played, result.won) == (1, 1)
    assert session.started_at == started
    assert result.best_times[0].time_ms == 3500


def test_statistics_given_as_what_opens_them_open_when_the_game_is_recorded(
    stats: StatsStore,
) -> None:
    # The app hands its sessions what opens the statistics (they open after its first frame):
    # a game that ends first opens them then, and is recorded all the same.
    opened: list[StatsStore] = []

    def open_now() -> StatsStore:
        opened.append(stats)
        return stats

    session = GameSession(game(FakeClock()), stats=open_now)
    session.play(FLAG, 0, 0)
    session.play(REVEAL, 1, 1)
    assert opened == [], "nothing asked for the statistics yet"
    finish = session.play(REVEAL, 2, 2).finish
    assert finish is not None and finish.notice is None
    assert opened == [stats], "opened once, when the game was recorded"
    assert stats.group_stats(Group.for_game(session.game)).won == 1
    assert session.stats is stats and opened == [stats]


def test_new_best_only_when_faster_and_unassisted(stats: StatsStore) -> None:
    # A fresh game each time, won `seconds` after its first click.
    store = stats
    results = []
    for seconds, assisted in ((5.0, False), (6.0, False), (4.0, True), (4.5, False)):
        clock = FakeClock()
        session = GameSession(game(clock), stats=store, assisted=assisted)
        session.play(REVEAL, 1, 1)  # the clock runs from here
        clock.advance(seconds)
        finish = session.play(REVEAL, 2, 2).finish
        assert finish is not None
        results.append((finish.new_best, finish.previous_best and finish.previous_best.time_ms))
    assert results == [(True, None), (False, 5000), (False, 5000), (True, 5000)]


def test_a_lost_game_and_an_abandoned_one(stats: StatsStore) -> None:
    # Distinct start times: one record per (start, board, seed), so that a game resumed after
    # a crash is never counted twice.
    lost = GameSession(game(FakeClock()), stats=stats, now=lambda: datetime(2026, 1, 1, tzinfo=UTC))
    lost.play(REVEAL, 1, 1)
    finish = lost.play(REVEAL, 0, 0).finish  # the mine
    assert finish is not None and not finish.new_best
    left = GameSession(game(FakeClock()), stats=stats, now=lambda: datetime(2026, 1, 2, tzinfo=UTC))
    left.play(REVEAL, 1, 1)
    assert left.abandon() is None
    assert left.abandon() is None  # once only
    untouched = GameSession(game(FakeClock()), stats=stats)
    assert untouched.abandon() is None  # never started: not a game
    result = stats.group_stats(Group.for_game(lost.game))
    assert (result.played, result.lost, result.abandoned) == (2, 1, 1)


def test_quit_saves_and_the_resumed_game_keeps_its_single_record(
    tmp_path: Path, stats: StatsStore
) -> None:
    save_path = tmp_path / "saved-game.json"
    clock, moments = FakeClock(), Moments()
    session = GameSession(game(clock), stats=stats, save_path=save_path, now=moments)
    session.play(REVEAL, 1, 1)
    session.mark_assisted()
    clock.advance(2)
    started = session.started_at
    assert session.save() is None and save_path.exists()

    loaded, notice = load_game(save_path, clock)
    assert loaded is not None and notice is None
    moments.now += timedelta(hours=1)
    resumed = GameSession.resume(loaded, stats=stats, save_path=save_path, now=moments)
    assert resumed.started_at == started and resumed.assisted
    assert resumed.game.elapsed_ms == 2000
    finish = resumed.play(REVEAL, 2, 2).finish  # the opening: a win
    assert finish is not None and not finish.new_best  # assisted: never a record
    assert not save_path.exists()  # over: it must not come back
    result = stats.group_stats(Group.for_game(resumed.game))
    assert (result.played, result.won, result.assisted) == (1, 1, 1)


def test_a_game_that_cannot_be_saved_is_recorded_as_abandoned(
    tmp_path: Path, stats: StatsStore
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    # Distinct start times: the store keeps one record per (start, board, seed).
    session = GameSession(
        game(FakeClock()),
        stats=stats,
        save_path=blocker / "save.json",
        now=lambda: datetime(2026, 1, 1, tzinfo=UTC),
    )
    session.play(REVEAL, 1, 1)
    notice = session.save()
    assert notice is not None and notice.startswith("Game not saved")
    # ...but recorded instead, so the game is not lost from the statistics.
    assert stats.group_stats(Group.for_game(session.game)).abandoned == 1
    no_path = GameSession(
        game(FakeClock()), stats=stats, now=lambda: datetime(2026, 1, 2, tzinfo=UTC)
    )
    no_path.play(REVEAL, 1, 1)
    assert no_path.save() is None
    assert stats.group_stats(Group.for_game(session.game)).abandoned == 2


def test_only_a_game_in_play_is_saved(tmp_path: Path) -> None:
    save_path = tmp_path / "saved-game.json"
    session = GameSession(game(FakeClock()), save_path=save_path)
    assert session.save() is None and not save_path.exists()  # not started
    session.play(REVEAL, 0, 0)  # lost
    assert session.save() is None and not save_path.exists()


# ---------------------------------------------------------------------------- a save in the way
def saved(tmp_path: Path, clock: FakeClock, moments: Moments) -> Path:
    """A 5x5 game in play, saved by a textmines that has since ended; returns the save's
    path."""
    path = tmp_path / "saved-game.json"
    session = GameSession(game(clock), save_path=path, now=moments)
    session.play(REVEAL, 1, 1)
    assert session.save() is None
    release_save(path)  # as the end of its process does: the game is free to resume
    return path


def test_asking_for_the_saved_board_resumes_it(tmp_path: Path, stats: StatsStore) -> None:
    path = saved(tmp_path, FakeClock(), Moments())
    loaded, _ = load_game(path)
    assert loaded is not None
    choice = settle_saved_game(loaded, (5, 5, 2), stats=stats, save_path=path)
    assert choice.resumed is loaded and choice.save_path == path and choice.notice is None


def test_asking_for_another_board_records_the_saved_game_as_abandoned(
    tmp_path: Path, stats: StatsStore
) -> None:
    moments = Moments()
    path = saved(tmp_path, FakeClock(), moments)
    loaded, _ = load_game(path)
    assert loaded is not None
    choice = settle_saved_game(loaded, (9, 9, 10), stats=stats, save_path=path, now=moments)
    assert choice.resumed is None and choice.save_path == path
    assert choice.notice is not None
    assert "Custom 5x5/2 game (4% cleared) was recorded as abandoned" in choice.notice
    # Not a way back to the game just abandoned: advice for next time.
    assert "Next time, start textmines without a board option" in choice.notice
    group = Group.for_board(5, 5, 2)
    assert stats.group_stats(group).abandoned == 1
    assert not path.exists()


def test_a_seeded_deal_is_named_as_what_was_asked_for(tmp_path: Path, stats: StatsStore) -> None:
    """The same size with a seed is a deal of its own: never resumed, and the notice names
    the seed, not "another board"."""
    moments = Moments()
    path = saved(tmp_path, FakeClock(), moments)
    loaded, _ = load_game(path)
    assert loaded is not None
    choice = settle_saved_game(
        loaded,
        None,
        stats=stats,
        save_path=path,
        now=moments,
        asked="seed 5",
        options="a board option or --seed",
    )
    assert choice.resumed is None and choice.notice is not None
    assert choice.notice == (
        "Your saved Custom 5x5/2 game (4% cleared) was recorded as abandoned, as you asked for "
        "seed 5. (Next time, start textmines without a board option or --seed to play a saved "
        "game on.)"
    )
    assert stats.group_stats(Group.for_board(5, 5, 2)).abandoned == 1


def test_a_kept_save_says_which_options_to_leave_out(tmp_path: Path) -> None:
    path = saved(tmp_path, FakeClock(), Moments())
    loaded, _ = load_game(path)
    assert loaded is not None
    choice = settle_saved_game(
        loaded, None, stats=None, save_path=path, options="a board option or --seed"
    )
    assert choice.notice is not None
    assert "start textmines without a board option or --seed to play on" in choice.notice
    assert path.exists()


def test_without_statistics_another_board_keeps_the_save(tmp_path: Path) -> None:
    path = saved(tmp_path, FakeClock(), Moments())
    loaded, _ = load_game(path)
    assert loaded is not None
    choice = settle_saved_game(loaded, (9, 9, 10), stats=None, save_path=path)
    assert choice.resumed is None and choice.save_path is None  # this run will not save over it
    assert choice.notice is not None and "is kept" in choice.notice
    assert path.exists()


def test_an_abandoned_game_that_cannot_be_recorded_keeps_its_save(
    tmp_path: Path, stats: StatsStore
) -> None:
    path = saved(tmp_path, FakeClock(), Moments())
    loaded, _ = load_game(path)
    assert loaded is not None
    full = Written("Statistics not saved: the disk is full")
    stats.record_game = lambda record: full  # type: ignore[method-assign]
    choice = settle_saved_game(loaded, (9, 9, 10), stats=stats, save_path=path)
    assert choice.save_path is None and choice.notice is not None
    assert "the disk is full" in choice.notice
    assert path.exists()


def test_another_board_while_the_statistics_are_busy_says_the_record_comes_later(
    tmp_path: Path,
) -> None:
    """The store keeps the record to write once the database is free, and the save goes (the
    game must not come back and be recorded twice): the notice said the save was kept."""
    stats, _ = open_stats(tmp_path / "stats.db", busy_timeout=0.05)
    assert stats is not None
    path = saved(tmp_path, FakeClock(), Moments())
    loaded, _ = load_game(path)
    assert loaded is not None
    blocker = sqlite3.connect(tmp_path / "stats.db", isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    try:
        choice = settle_saved_game(loaded, (9, 9, 10), stats=stats, save_path=path)
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    assert choice.notice is not None
    assert choice.notice.startswith(
        "Your saved Custom 5x5/2 game (4% cleared) will be recorded as abandoned, as you asked "
        "for another board (Statistics: "
    )
    assert "to play on" not in choice.notice, "its save is gone: it does not come back"
    assert not path.exists() and choice.save_path == path
    assert stats.retry_pending() is None
    assert stats.group_stats(Group.for_board(5, 5, 2)).abandoned == 1
    stats.close()


@pytest.mark.parametrize(
    ("safe_left", "text"), [(5, "99%"), (0, "100%"), (9000, "0%"), (90, "99%")]
)
def test_progress_is_rounded_down(safe_left: int, text: str) -> None:
    class Stub:
        width, height, mines = 100, 100, 1000

    stub = Stub()
    stub.safe_left = safe_left  # type: ignore[attr-defined]
    assert percent_cleared_text(stub) == text  # type: ignore[arg-type]


# ---------------------------------------------------------------------------- two textmines at once
# Issue 18 item 10: two instances both quit with a game in play; the second save replaced
# the first, so the first game was gone and never recorded.
def test_two_games_saved_at_once_are_both_kept(tmp_path: Path, stats: StatsStore) -> None:
    path = tmp_path / "saved-game.json"
    first = GameSession(
        game(FakeClock()), stats=stats, save_path=path, now=lambda: datetime(2026, 1, 1, tzinfo=UTC)
    )
    second = GameSession(
        game(FakeClock()), stats=stats, save_path=path, now=lambda: datetime(2026, 1, 2, tzinfo=UTC)
    )
    first.play(REVEAL, 1, 1)
    second.play(REVEAL, 1, 1)
    second.play(FLAG, 0, 0)  # tells the two games apart
    assert first.save() is None and first.saved_beside is None
    assert second.save() is None
    assert second.saved_beside is not None and "Another textmines" in second.saved_beside
    assert first.save() is None and first.saved_beside is None  # saving again: same file

    loaded, notice = load_game(path)
    assert loaded is not None and loaded.game.view_text() == first.game.view_text()
    assert notice is not None and "1 more saved game" in notice
    resumed = GameSession.resume(loaded, stats=stats, save_path=path)
    assert resumed.play(REVEAL, 2, 2).finish is not None  # won and recorded: its save goes
    waiting, notice = load_game(path)  # ...and the game that waited beside it comes back
    assert waiting is not None and notice is None
    assert waiting.game.view_text() == second.game.view_text()
    assert sorted(p.name for p in tmp_path.glob("saved-game*")) == ["saved-game.json"]


def test_a_save_from_before_game_ids_is_saved_over_by_its_own_game(tmp_path: Path) -> None:
    path = tmp_path / "saved-game.json"
    old = game(FakeClock())
    old.reveal(1, 1)
    assert save_game(path, old, {"started_at": datetime(2026, 1, 1, tzinfo=UTC)}) is None
    loaded, _ = load_game(path)
    assert loaded is not None
    resumed = GameSession.resume(loaded, save_path=path)
    resumed.play(FLAG, 0, 0)
    assert resumed.save() is None and resumed.saved_beside is None
    again, _ = load_game(path)
    assert again is not None and again.game.view_text() == resumed.game.view_text()
    assert [p.name for p in tmp_path.glob("saved-game*")] == ["saved-game.json"]


CLAIMER = """
import sys
from pathlib import Path
from textmines.store.saves import load_game
loaded, notice = load_game(Path(sys.argv[1]))
print("resumed" if loaded is not None else f"not resumed: {notice}", flush=True)
sys.stdin.readline()  # plays until the test says stop
"""


def test_a_saved_game_that_another_textmines_plays_is_not_resumed_twice(tmp_path: Path) -> None:
    path = saved(tmp_path, FakeClock(), Moments())
    other = subprocess.Popen(
        [sys.executable, "-c", CLAIMER, str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[1],
    )
    try:
        assert other.stdout is not None and other.stdout.readline().strip() == "resumed"
        loaded, notice = load_game(path)
        assert loaded is None and notice == IN_USE_NOTICE
        assert path.exists()  # left for the textmines that plays it
    finally:
        other.communicate("\n", timeout=10)
    loaded, notice = load_game(path)  # that textmines has ended: the game is free again
    assert loaded is not None and notice is None


def another_textmines_loads(path: Path) -> str:
    """What a second textmines starting now makes of the save at ``path``."""
    other = subprocess.run(
        [sys.executable, "-c", CLAIMER, str(path)],
        input="\n",
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parents[1],
        timeout=30,
        check=True,
    )
    return other.stdout.strip()


def test_a_game_saved_and_played_on_is_not_resumed_by_another_textmines(tmp_path: Path) -> None:
    """A browser's tab saves its game when the player presses q and plays on: another tab of
    that browser must not resume the same game meanwhile (both would save it, and record
    it). Saved beside another game, it does not take that one's place either."""
    path = tmp_path / "saved-game.json"
    first = GameSession(game(FakeClock()), save_path=path)
    first.play(REVEAL, 1, 1)
    assert first.save() is None
    assert another_textmines_loads(path) == f"not resumed: {IN_USE_NOTICE}"

    second = GameSession(game(FakeClock()), save_path=path)
    second.play(REVEAL, 1, 1)
    assert second.save() is None
    assert second.saved_to is not None and second.saved_to != path  # beside the first
    first.abandon()  # the first game ends: its save goes, and the second plays on
    assert not path.exists()
    assert another_textmines_loads(path) == "not resumed: None"
    release_save(second.saved_to)  # its textmines ends
    assert another_textmines_loads(path) == "resumed"


# ---------------------------------------------------------------------------- a busy database
def test_a_game_that_ends_while_the_database_is_held_is_recorded_later(tmp_path: Path) -> None:
    stats, _ = open_stats(tmp_path / "stats.db", busy_timeout=0.05)
    assert stats is not None
    session = GameSession(game(FakeClock()), stats=stats, save_path=tmp_path / "save.json")
    session.play(REVEAL, 1, 1)
    assert session.save() is None  # as if resumed from a save
    blocker = sqlite3.connect(tmp_path / "stats.db", isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    try:
        assert session.abandon() is not None  # the notice says it is kept for later...
        assert stats.pending == 1
        # ...so the save goes: the game is recorded later, not resumed and recorded twice.
        assert not (tmp_path / "save.json").exists()
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    assert stats.retry_pending() is None
    assert stats.group_stats(Group.for_game(session.game)).abandoned == 1
    stats.close()


def test_a_game_is_recorded_even_when_its_best_time_cannot_be_read(stats: StatsStore) -> None:
    def unreadable(group: Group) -> None:
        raise StatsError("Statistics could not be read: stats.db: the database is damaged")

    stats.best_time = unreadable  # type: ignore[assignment]
    session = GameSession(game(FakeClock()), stats=stats)
    session.play(REVEAL, 1, 1)
    finish = session.play(REVEAL, 2, 2).finish
    assert finish is not None and finish.notice is not None and "damaged" in finish.notice
    assert stats.count() == 1  # was: not recorded at all


def shared_game(clock: FakeClock) -> Game:
    """LAYOUT as a shared board: its first click (a 1 at (1, 1)) made for the player."""
    from textmines.engine.board_id import BoardId

    return BoardId(Board.from_text(LAYOUT), (1, 1), "safe").game(clock=clock)


def test_a_shared_board_left_before_any_move_is_not_recorded(stats: StatsStore) -> None:
    session = GameSession(shared_game(FakeClock()), stats=stats)
    assert session.game.status == "playing" and not session.touched
    assert session.abandon() is None
    assert stats.group_stats(Group.for_board(5, 5, 2)).played == 0
    session.play(FLAG, 0, 0)  # the player's first move: now it is a game
    assert session.touched and session.abandon() is None
    assert stats.group_stats(Group.for_board(5, 5, 2)).abandoned == 1


def test_a_restarted_board_is_practice(stats: StatsStore) -> None:
    # Issue 46.6: a restart of a board whose mines were seen counted in the win rate and
    # streaks (as an assisted game); it is practice, kept apart.
    clock = FakeClock()
    session = GameSession(shared_game(clock), stats=stats, restarted=True)
    assert not session.sets_records and session.practice
    clock.advance(1)
    finish = session.play(REVEAL, 2, 2).finish
    assert finish is not None and not finish.new_best
    result = stats.group_stats(Group.for_board(5, 5, 2))
    assert (result.played, result.practice, result.best_times) == (0, 1, ())


def won_in(stats: StatsStore, seconds: float, **options: object) -> tuple[GameSession, EndResult]:
    """A game of LAYOUT won ``seconds`` after its first click, recorded in ``stats``;
    ``options`` are the session's attributes (practice, daily...)."""
    clock = FakeClock()
    session = GameSession(game(clock), stats=stats, now=lambda: datetime.now(UTC))
    for name, value in options.items():
        setattr(session, name, value)
    session.play(REVEAL, 1, 1)
    clock.advance(seconds)
    finish = session.play(REVEAL, 2, 2).finish
    assert finish is not None and session.game.status == "won"
    return session, finish


def test_a_practice_win_is_kept_apart_and_is_never_a_new_best(stats: StatsStore) -> None:
    # Issue 46.7: a game played on from a replay (no daily board) was recorded as the
    # player's own game: its win counted, and entered the best times.
    won_in(stats, 5.0)
    practice, finish = won_in(stats, 2.0, practice=True)
    assert not finish.new_best and not practice.sets_records
    result = stats.group_stats(Group.for_board(5, 5, 2))
    assert (result.played, result.won, result.practice) == (1, 1, 1)
    assert [entry.time_ms for entry in result.best_times] == [5000]
    assert practice.game_number == 2, "its number in the statistics, for the player"


def test_a_daily_try_started_before_the_first_was_recorded_is_practice(
    stats: StatsStore,
) -> None:
    # Issue 46.6: a second textmines started the day's daily board before the first try was
    # recorded; its faster win then entered the best times with "new best!".
    from datetime import date

    day = date(2026, 11, 24)
    first, first_finish = won_in(stats, 5.0, daily=day)
    second, second_finish = won_in(stats, 2.0, daily=day)
    assert not first.practice and first_finish.new_best
    assert second.practice and not second_finish.new_best
    result = stats.group_stats(Group.for_board(5, 5, 2))
    assert (result.played, result.practice) == (1, 1)
    assert [entry.time_ms for entry in result.best_times] == [5000]


def test_a_saved_daily_restarted_game_comes_back_as_it_was(tmp_path: Path) -> None:
    from datetime import date

    path = tmp_path / "saved-game.json"
    session = GameSession(shared_game(FakeClock()), save_path=path, restarted=True)
    session.daily, session.practice = date(2026, 11, 24), True
    session.play(FLAG, 0, 0)
    assert session.save() is None
    loaded, notice = load_game(path)
    assert loaded is not None and notice is None
    resumed = GameSession.resume(loaded, save_path=path)
    assert (resumed.daily, resumed.practice, resumed.restarted) == (date(2026, 11, 24), True, True)
    assert not resumed.dealt_at_random


def test_a_game_dealt_at_random_is_still_one_when_it_comes_back(tmp_path: Path) -> None:
    path = tmp_path / "saved-game.json"
    session = GameSession(shared_game(FakeClock()), save_path=path)
    session.dealt_at_random = True  # a browser tab ranks its win: a reload must not lose that
    session.play(FLAG, 0, 0)
    assert session.save() is None
    loaded, _ = load_game(path)
    assert loaded is not None and GameSession.resume(loaded, save_path=path).dealt_at_random


def saved_untouched_shared_board(path: Path) -> LoadedGame:
    """A shared board saved at ``path`` before the player's first move, loaded again."""
    assert GameSession(shared_game(FakeClock()), save_path=path).save() is None
    loaded, _ = load_game(path)
    assert loaded is not None
    return loaded


def test_a_saved_shared_board_without_a_move_gives_way_quietly(
    tmp_path: Path, stats: StatsStore
) -> None:
    path = tmp_path / "saved-game.json"
    loaded = saved_untouched_shared_board(path)
    choice = settle_saved_game(loaded, (9, 9, 10), stats=stats, save_path=path)
    assert (choice.resumed, choice.save_path, choice.notice) == (None, path, None)
    assert stats.group_stats(Group.for_board(5, 5, 2)).played == 0
    assert not path.exists()


def test_a_resumed_shared_board_left_untouched_gives_its_save_to_the_next_game(
    tmp_path: Path, stats: StatsStore
) -> None:
    # Found by a player: quit a Daily before a move, start textmines again (the Daily comes
    # back), start a Beginner game and quit. The Daily's save stayed, the Beginner game was
    # parked beside it ("Another textmines saved its game first"), and the Daily came back.
    path = tmp_path / "saved-game.json"
    loaded = saved_untouched_shared_board(path)
    resumed = GameSession.resume(loaded, stats=stats, save_path=path)
    assert resumed.abandon() is None  # left for a new game, untouched: nothing to record
    assert not path.exists()
    beginner = GameSession(game(FakeClock()), stats=stats, save_path=path)
    beginner.play(REVEAL, 1, 1)
    assert beginner.save() is None and beginner.saved_beside is None
    assert [p.name for p in tmp_path.glob("saved-game*")] == ["saved-game.json"]
    back, _ = load_game(path)
    assert back is not None and back.game_id == beginner.game_id
    assert stats.group_stats(Group.for_board(5, 5, 2)).played == 0


# ---------------------------------------------------------------------------- leaving for good
def test_a_game_that_can_be_neither_saved_nor_recorded_is_kept_elsewhere_and_said(
    tmp_path: Path, stats: StatsStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 34.10: with the data folder unwritable, quitting said the game was recorded as
    abandoned while nothing had been written."""
    blocker = tmp_path / "data"
    blocker.write_text("a file where the data folder should be")
    save_path = blocker / "saved-game.json"
    refuse_statistics_writes(monkeypatch)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    session = GameSession(game(FakeClock()), stats=stats, save_path=save_path)
    session.play(REVEAL, 1, 1)
    left = session.leave()
    assert left.in_play and not left.saved
    (kept,) = (tmp_path / "tmp").glob("textmines-saved-game-*.json")
    assert left.said == (
        f"Game not saved: cannot create {blocker}: a file is in the way. "
        f"Statistics not saved: {stats.path}: unable to open database file. "
        f"The game was kept in {kept}: move it to {save_path} to play it on."
    )
    loaded, notice = load_game(kept)
    assert loaded is not None and notice is None
    assert loaded.game.view_text() == session.game.view_text()
    assert loaded.game_id == session.game_id
    assert stats.count() == 0


def test_a_game_that_cannot_be_saved_but_can_be_recorded_is_recorded_and_said(
    tmp_path: Path, stats: StatsStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "data"
    blocker.write_text("a file where the data folder should be")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    session = GameSession(game(FakeClock()), stats=stats, save_path=blocker / "saved-game.json")
    session.play(REVEAL, 1, 1)
    left = session.leave()
    assert left.said.endswith(": a file is in the way. The game was recorded as abandoned.")
    assert stats.group_stats(Group.for_game(session.game)).abandoned == 1
    assert not (tmp_path / "tmp").exists(), "recorded: no second copy to count it again"


def test_a_game_kept_nowhere_says_so_and_its_last_save_stays(
    tmp_path: Path, stats: StatsStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    from textmines.store import saves

    path = tmp_path / "saved-game.json"
    session = GameSession(game(FakeClock()), stats=stats, save_path=path)
    session.play(REVEAL, 1, 1)
    assert session.save() is None
    earlier = session.game.view_text()
    session.play(FLAG, 0, 0)

    def refused(target: Path, data: bytes) -> None:
        raise PermissionError(13, "Permission denied", str(target))

    monkeypatch.setattr(saves, "write_atomic", refused)  # every folder refuses the save
    refuse_statistics_writes(monkeypatch)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    left = session.leave()
    assert left.said.startswith(f"Game not saved: {path}: permission denied. Statistics not saved:")
    assert left.said.endswith(
        ": permission denied). Its last save is kept: it comes back next time as it was then."
    )
    assert "It could not be kept elsewhere either (Game not saved: " in left.said
    monkeypatch.undo()
    loaded, notice = load_game(path)
    assert loaded is not None and notice is None and loaded.game.view_text() == earlier


def test_a_game_saved_beside_a_folder_in_the_way_says_so(tmp_path: Path) -> None:
    # Issue 46.24: a folder named saved-game.json gave "Another textmines saved its game
    # first" on quitting.
    path = tmp_path / "saved-game.json"
    path.mkdir()
    session = GameSession(game(FakeClock()), save_path=path)
    session.play(REVEAL, 1, 1)
    assert session.save() is None
    said = session.saved_beside
    assert said is not None and said.startswith(f"{path} is a directory, not a saved game")
