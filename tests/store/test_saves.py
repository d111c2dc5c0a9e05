"""The saved game: atomic JSON, resuming, and what happens to a file that cannot be resumed."""

from __future__ import annotations

import json
import os
import time
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import FakeClock
from textmines.engine import Game, Status
from textmines.engine.saved_game import game_to_dict
from textmines.store.saves import (
    SAVE_FILE_FORMAT,
    SAVE_FILE_VERSION,
    LoadedGame,
    discard_save,
    load_game,
    save_game,
)

STARTED = datetime(2024, 5, 1, 9, 30, 15, 250000, tzinfo=UTC)


def game_in_progress(clock: FakeClock) -> Game:
    game = Game(16, 16, 40, seed=11, clock=clock)
    game.reveal(8, 8)
    clock.advance(12.3)
    game.toggle_mark(0, 0)
    game.toggle_mark(0, 0)
    return game


def saved(path: Path, clock: FakeClock, **extra: Any) -> Game:
    game = game_in_progress(clock)
    assert save_game(path, game, {"started_at": STARTED, "assisted": True, **extra}) is None
    return game


def load(path: Path, clock: FakeClock | None = None) -> LoadedGame:
    loaded, notice = load_game(path, clock or FakeClock(5000.0))
    assert notice is None
    assert loaded is not None
    return loaded


# ---------------------------------------------------------------------------- round trip
def test_a_saved_game_resumes_with_its_extra_data(tmp_path: Path) -> None:
    path = tmp_path / "saved-game.json"
    game = saved(path, FakeClock(), preset="intermediate", theme="dark")
    loaded = load(path)
    assert loaded.game.view_text() == game.view_text()
    assert loaded.game.actions == game.actions
    assert loaded.game.status == Status.PLAYING
    assert loaded.started_at == STARTED
    assert loaded.assisted is True
    assert loaded.preset == "intermediate"
    assert loaded.extra["theme"] == "dark"
    assert loaded.saved_at is not None and loaded.saved_at.tzinfo is not None


def test_the_timer_continues_from_where_it_stopped(tmp_path: Path) -> None:
    path = tmp_path / "saved-game.json"
    game = saved(path, FakeClock())
    assert game.elapsed_ms == 12_300
    later = FakeClock(99_999.0)
    loaded = load(path, later)
    assert loaded.game.elapsed_ms == 12_300
    later.advance(1.5)
    assert loaded.game.elapsed_ms == 13_800


def test_a_game_saved_before_its_first_reveal_resumes(tmp_path: Path) -> None:
    path = tmp_path / "saved-game.json"
    game = Game(9, 9, 10, seed=5, clock=FakeClock())
    assert save_game(path, game, {}) is None
    loaded = load(path)
    assert loaded.game.status == Status.READY
    assert (loaded.started_at, loaded.assisted, loaded.preset) == (None, False, None)


def test_times_in_other_zones_come_back_as_the_same_moment(tmp_path: Path) -> None:
    path = tmp_path / "saved-game.json"
    tokyo = STARTED.astimezone(timezone(timedelta(hours=9)))
    game = game_in_progress(FakeClock())
    assert save_game(path, game, {"started_at": tokyo}) is None
    assert load(path).started_at == STARTED


def test_the_file_is_plain_json_and_no_temporary_file_is_left(tmp_path: Path) -> None:
    path = tmp_path / "saved-game.json"
    saved(path, FakeClock())
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["format"] == SAVE_FILE_FORMAT
    assert document["version"] == SAVE_FILE_VERSION
    assert document["game"]["format"] == "textmines-game"
    assert document["extra"]["started_at"] == STARTED.isoformat()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["saved-game.json"]


def test_saving_again_replaces_the_previous_save(tmp_path: Path) -> None:
    path = tmp_path / "saved-game.json"
    clock = FakeClock()
    game = saved(path, clock)
    game.reveal(0, 15)
    assert save_game(path, game, {"assisted": False}) is None
    loaded = load(path)
    assert loaded.game.actions == game.actions
    assert loaded.assisted is False


def test_save_creates_the_directory(tmp_path: Path) -> None:
    path = tmp_path / "new" / "dir" / "saved-game.json"
    saved(path, FakeClock())
    assert load(path).started_at == STARTED


# ---------------------------------------------------------------------------- programming errors
def test_a_finished_game_is_not_saved(tmp_path: Path) -> None:
    game = Game(9, 9, 10, seed=1, clock=FakeClock())
    game.reveal(4, 4)
    board = game.board
    assert board is not None
    game.reveal(*next((x, y) for y in range(9) for x in range(9) if board.is_mine(x, y)))
    assert game.status == Status.LOST
    with pytest.raises(ValueError, match="over"):
        save_game(tmp_path / "saved-game.json", game, {})
    assert not (tmp_path / "saved-game.json").exists()


def test_extra_data_that_is_not_json_is_refused(tmp_path: Path) -> None:
    game = game_in_progress(FakeClock())
    with pytest.raises(ValueError, match="JSON"):
        save_game(tmp_path / "saved-game.json", game, {"where": tmp_path})


# ---------------------------------------------------------------------------- failures
def test_missing_file_is_no_game_and_no_notice(tmp_path: Path) -> None:
    assert load_game(tmp_path / "saved-game.json", FakeClock()) == (None, None)


def test_saving_where_a_file_blocks_the_directory_gives_a_notice(tmp_path: Path) -> None:
    blocker = tmp_path / "data"
    blocker.write_text("not a directory")
    notice = save_game(blocker / "saved-game.json", game_in_progress(FakeClock()), {})
    assert notice is not None
    assert notice.startswith("Game not saved: cannot create ")
    assert "file is in the way" in notice


def test_an_unreadable_save_is_reported_and_left_in_place(tmp_path: Path) -> None:
    path = tmp_path / "saved-game.json"
    path.mkdir()
    loaded, notice = load_game(path, FakeClock())
    assert loaded is None
    assert notice is not None and "could not be read" in notice
    assert path.is_dir()
    assert not (tmp_path / "saved-game.json.bad").exists()


def good_document(tmp_path: Path) -> dict[str, Any]:
    path = tmp_path / "good.json"
    saved(path, FakeClock())
    document: dict[str, Any] = json.loads(path.read_text())
    path.unlink()
    return document


def with_changes(document: dict[str, Any], **changes: Any) -> bytes:
    out = json.loads(json.dumps(document))
    for dotted, value in changes.items():
        target = out
        *parents, key = dotted.split("__")
        for parent in parents:
            target = target[parent]
        target[key] = value
    return json.dumps(out).encode()


BROKEN: list[tuple[str, Any, str]] = [
    ("not json", lambda d: b'{"format": "textmines-saved-game", "vers', "not valid JSON"),
    ("not utf-8", lambda d: b"\xff\xfe\x00junk", "not UTF-8"),
    ("a list", lambda d: b"[1, 2, 3]", "not a textmines saved game"),
    ("other format", lambda d: with_changes(d, format="chess"), "not a textmines saved game"),
    ("newer file", lambda d: with_changes(d, version=2), "version 2"),
    ("newer game", lambda d: with_changes(d, game__version=9), "unsupported version 9"),
    ("tampered view", lambda d: with_changes(d, game__view="#"), "not a valid saved game"),
    ("bad started_at", lambda d: with_changes(d, extra__started_at="noon"), "started_at"),
    ("bad assisted", lambda d: with_changes(d, extra__assisted="yes"), "assisted"),
    ("bad restarted", lambda d: with_changes(d, extra__restarted=1), "restarted"),
    ("bad daily", lambda d: with_changes(d, extra__daily="yesterday"), "'daily'"),
    ("bad extra", lambda d: with_changes(d, extra=[1]), "'extra'"),
    # Hostile files (issue 18): each stopped every launch, or crashed at the game's end.
    ("deep nesting", lambda d: b"[" * 100_000 + b"]" * 100_000, "not valid JSON"),
    ("huge number", lambda d: b'{"version": ' + b"9" * 5000 + b"}", "not valid JSON"),
    ("endless time", lambda d: with_changes(d, game__elapsed_ms=10**20), "'elapsed_ms'"),
    ("year 1", lambda d: with_changes(d, extra__started_at="0001-01-01T00:00:00+14:00"), "started"),
    (
        "year 9999",
        lambda d: with_changes(d, extra__started_at="9999-12-31T23:59:59-14:00"),
        "start",
    ),
    ("year 1500", lambda d: with_changes(d, extra__started_at="1500-01-01T00:00:00"), "2000"),
    (
        "saved in year 1",
        lambda d: with_changes(d, saved_at="0001-01-01T00:00:00+14:00"),
        "saved_at",
    ),
    # Issue 46.22: loaded, then a crash at the game's end (its recording refused the time),
    # the game not recorded and the save there again at every start.
    (
        "negative times",
        lambda d: with_changes(d, game__actions=shifted(d["game"]["actions"], -(10**6))),
        "action 1 has a negative time (-",
    ),
    (
        "times out of order",
        lambda d: with_changes(d, game__actions=shifted(d["game"]["actions"][::-1], 0)),
        "is earlier than the one before it",
    ),
]


def shifted(actions: list[list[Any]], by_ms: int) -> list[list[Any]]:
    """Saved ``actions`` (``[kind, x, y, t_ms]``) ``by_ms`` later."""
    return [[kind, x, y, t_ms + by_ms] for kind, x, y, t_ms in actions]


@pytest.mark.parametrize(("name", "content", "problem"), BROKEN, ids=[b[0] for b in BROKEN])
def test_a_save_that_cannot_be_resumed_is_moved_aside_with_a_notice(
    tmp_path: Path, name: str, content: Any, problem: str
) -> None:
    path = tmp_path / "saved-game.json"
    data = content(good_document(tmp_path))
    path.write_bytes(data)
    loaded, notice = load_game(path, FakeClock())
    assert loaded is None
    assert notice is not None
    assert notice.startswith(f"Saved game {path} could not be resumed (")
    assert problem in notice
    bad = tmp_path / "saved-game.json.bad"
    assert notice.endswith(f"; it was moved to {bad}")
    assert bad.read_bytes() == data
    assert not path.exists()
    # The next start is quiet.
    assert load_game(path, FakeClock()) == (None, None)


def test_a_finished_game_in_the_file_is_moved_aside(tmp_path: Path) -> None:
    clock = FakeClock()
    game = Game(9, 9, 10, seed=1, clock=clock)
    game.reveal(4, 4)
    board = game.board
    assert board is not None
    game.reveal(*next((x, y) for y in range(9) for x in range(9) if board.is_mine(x, y)))
    path = tmp_path / "saved-game.json"
    document = {"format": SAVE_FILE_FORMAT, "version": 1, "game": game_to_dict(game), "extra": {}}
    path.write_text(json.dumps(document))
    loaded, notice = load_game(path, clock)
    assert loaded is None
    assert notice is not None and "already over" in notice


def test_older_bad_files_are_never_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "saved-game.json"
    for number, suffix in enumerate(("", "-2", "-3"), 1):
        path.write_text(f"broken {number}")
        loaded, notice = load_game(path, FakeClock())
        assert loaded is None
        assert notice is not None
        assert notice.endswith(f"moved to {path}.bad{suffix}")
    assert (tmp_path / "saved-game.json.bad").read_text() == "broken 1"
    assert (tmp_path / "saved-game.json.bad-2").read_text() == "broken 2"
    assert (tmp_path / "saved-game.json.bad-3").read_text() == "broken 3"


# ---------------------------------------------------------------------------- discarding
def test_discard_removes_the_save_and_accepts_a_missing_one(tmp_path: Path) -> None:
    path = tmp_path / "saved-game.json"
    saved(path, FakeClock())
    assert discard_save(path) is None
    assert not path.exists()
    assert discard_save(path) is None
    assert load_game(path, FakeClock()) == (None, None)


def test_discard_reports_a_failure(tmp_path: Path) -> None:
    path = tmp_path / "saved-game.json"
    path.mkdir()
    notice = discard_save(path)
    assert notice is not None and "could not be removed" in notice


def test_temporary_files_left_by_a_killed_save_are_cleaned_once_old(tmp_path: Path) -> None:
    path = tmp_path / "saved-game.json"
    saved(path, FakeClock())
    old = tmp_path / ".saved-game.json.abc123.tmp"
    fresh = tmp_path / ".saved-game.json.def456.tmp"
    old.write_text("{")
    fresh.write_text("{")
    two_hours_ago = time.time() - 7200
    os.utime(old, (two_hours_ago, two_hours_ago))
    load(path)
    assert not old.exists()
    assert fresh.exists()


def test_a_practice_game_from_a_replay_stays_practice_when_resumed(tmp_path: Path) -> None:
    # Found by a player: practice from a replay's moment (no daily board), saved on quit,
    # came back without its Practice mark and was then recorded as a game of its own.
    game = Game(9, 9, 10, seed=1, clock=FakeClock())
    game.reveal(4, 4)
    path = tmp_path / "save.json"
    assert save_game(path, game, {"practice": True, "assisted": True}) is None
    loaded, notice = load_game(path)
    assert notice is None and loaded is not None
    assert loaded.practice and loaded.daily is None


def test_why_a_game_was_saved_beside_the_save_file_is_told_truly(tmp_path: Path) -> None:
    # Issue 46.24: a folder named saved-game.json gave "Another textmines saved its game first".
    from textmines.store.saves import beside_notice, save_own_game

    path = tmp_path / "saved-game.json"
    path.mkdir()
    target, notice = save_own_game(path, game_in_progress(FakeClock()), {}, "mine")
    assert notice is None and target != path and target.is_file()  # the game is kept
    said = beside_notice(path)
    assert said.startswith(f"{path} is a directory, not a saved game: this game was saved ")
    assert "Another textmines" not in said
    path.rmdir()
    saved(path, FakeClock())  # another game's save: another textmines saved first
    assert beside_notice(path).startswith("Another textmines saved its game first")
