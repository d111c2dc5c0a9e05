"""The store under stress: concurrent writers, damaged files, unusable directories, SIGKILL."""

from __future__ import annotations

import base64
import itertools
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.helpers import FakeClock
from textmines.store.saves import load_game
from textmines.store.stats import MIGRATIONS, SCHEMA_VERSION, open_stats
from textmines.store.stats.schema import COLUMNS

WORKER = Path(__file__).with_name("store_worker.py")


def _permissions_ignored() -> bool:
    """Whether this process can write into a read-only directory (root, CAP_DAC_OVERRIDE)."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return False
    with tempfile.TemporaryDirectory() as folder:
        locked = Path(folder) / "locked"
        locked.mkdir(mode=0o555)
        try:
            (locked / "probe").touch()
        except PermissionError:
            return False
        finally:
            locked.chmod(0o755)
    return True


PERMISSIONS_IGNORED = _permissions_ignored()


@contextmanager
def worker(*args: str) -> Iterator[subprocess.Popen[str]]:
    process = subprocess.Popen(
        [sys.executable, str(WORKER), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.communicate()


def stats_with_games(path: Path, games: int) -> None:
    store, notices = open_stats(path)
    assert store is not None and notices == []
    from tests.store.store_worker import worker_record

    with store:
        assert store.record_many(worker_record(n, "a") for n in range(games)) is None


# ---------------------------------------------------------------------------- concurrency
@pytest.mark.slow  # two processes
def test_two_processes_recording_at_once_lose_no_game(tmp_path: Path) -> None:
    db, go = tmp_path / "stats.db", tmp_path / "go"
    # Create the database first so both workers only ever add rows.
    store, _ = open_stats(db)
    assert store is not None
    store.close()
    with (
        worker("record", str(db), "200", "a", str(go)) as a,
        worker("record", str(db), "200", "b", str(go)) as b,
    ):
        time.sleep(0.3)  # let both open the database before either starts writing
        go.touch()
        out_a, err_a = a.communicate(timeout=60)
        out_b, err_b = b.communicate(timeout=60)
    assert (a.returncode, b.returncode) == (0, 0), (out_a, err_a, out_b, err_b)
    assert out_a.strip() == out_b.strip() == "failures 0"
    with sqlite3.connect(db) as connection:
        rows = connection.execute(
            "SELECT chord_clicks, count(*), count(DISTINCT seed) FROM games GROUP BY chord_clicks"
        ).fetchall()
        order = [row[0] for row in connection.execute("SELECT chord_clicks FROM games ORDER BY id")]
    connection.close()
    assert rows == [(10, 200, 200), (11, 200, 200)]
    # The writers really ran at the same time: their rows interleave (usually 100+ turns; a
    # starved machine may run one writer mostly before the other, so only overlap is required).
    turns = sum(1 for before, after in itertools.pairwise(order) if before != after)
    print(f"writers took {turns} turns")
    assert turns >= 2


# ---------------------------------------------------------------------------- damaged files
def assert_moved_aside(tmp_path: Path, notices: list[str], original: bytes, why: str) -> None:
    path, bad = tmp_path / "stats.db", tmp_path / "stats.db.bad"
    assert len(notices) == 1, notices
    notice = notices[0]
    assert notice.startswith(f"Statistics: {path} ")
    assert why in notice
    assert notice.endswith(f", so it was moved to {bad} and new statistics were started")
    assert bad.read_bytes() == original
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        assert connection.execute("SELECT count(*) FROM games").fetchone() == (0,)
    connection.close()


def open_and_record(path: Path) -> list[str]:
    from tests.store.store_worker import worker_record

    store, notices = open_stats(path)
    assert store is not None
    with store:
        assert store.record(worker_record(1, "a")) is None
        assert store.count() == 1
    # Reading the new database back leaves it as it is: the game is there.
    store, again = open_stats(path)
    assert store is not None and again == []
    with store:
        assert store.count() == 1
        store.reset()
    return notices


def test_a_garbage_stats_file_is_moved_aside(tmp_path: Path) -> None:
    path = tmp_path / "stats.db"
    garbage = bytes(random.Random(1).randrange(256) for _ in range(5000))
    path.write_bytes(garbage)
    notices = open_and_record(path)
    assert_moved_aside(tmp_path, notices, garbage, "not an SQLite database")


def test_a_text_file_is_moved_aside(tmp_path: Path) -> None:
    path = tmp_path / "stats.db"
    path.write_text("games won: 12\n")
    notices = open_and_record(path)
    assert_moved_aside(tmp_path, notices, b"games won: 12\n", "not an SQLite database")


@pytest.mark.parametrize("keep", [0.5, 0.97])
def test_a_truncated_stats_file_is_moved_aside(tmp_path: Path, keep: float) -> None:
    path = tmp_path / "stats.db"
    stats_with_games(path, 3000)
    data = path.read_bytes()
    assert not (tmp_path / "stats.db-wal").exists()
    truncated = data[: int(len(data) * keep)]
    path.write_bytes(truncated)
    notices = open_and_record(path)
    assert_moved_aside(tmp_path, notices, truncated, "damaged")


def test_a_stats_file_cut_inside_its_header_is_moved_aside(tmp_path: Path) -> None:
    path = tmp_path / "stats.db"
    stats_with_games(path, 10)
    header = path.read_bytes()[:60]
    path.write_bytes(header)
    notices = open_and_record(path)
    assert_moved_aside(tmp_path, notices, header, "truncated")


def test_a_stats_file_from_a_newer_version_is_moved_aside_untouched(tmp_path: Path) -> None:
    path = tmp_path / "stats.db"
    stats_with_games(path, 5)
    with sqlite3.connect(path) as connection:
        connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    connection.close()
    original = path.read_bytes()
    notices = open_and_record(path)
    assert_moved_aside(tmp_path, notices, original, "newer version of textmines")
    assert f"schema version {SCHEMA_VERSION + 1}" in notices[0]
    with sqlite3.connect(tmp_path / "stats.db.bad") as connection:
        assert connection.execute("SELECT count(*) FROM games").fetchone() == (5,)
    connection.close()


def test_the_wal_of_a_bad_file_goes_with_it(tmp_path: Path) -> None:
    path = tmp_path / "stats.db"
    path.write_bytes(b"\x00" * 4096)
    (tmp_path / "stats.db-wal").write_bytes(b"old wal")
    (tmp_path / "stats.db-shm").write_bytes(b"old shm")
    notices = open_and_record(path)
    assert_moved_aside(tmp_path, notices, b"\x00" * 4096, "not an SQLite database")
    assert (tmp_path / "stats.db.bad-wal").read_bytes() == b"old wal"
    assert (tmp_path / "stats.db.bad-shm").read_bytes() == b"old shm"


# ---------------------------------------------------------------------------- unusable directories
def test_a_data_directory_that_cannot_be_created_gives_no_store(tmp_path: Path) -> None:
    blocker = tmp_path / "data"
    blocker.write_text("a file, not a directory")
    store, notices = open_stats(blocker / "textmines" / "stats.db")
    assert store is None
    assert len(notices) == 1
    assert notices[0].startswith(f"Statistics not saved: cannot create {blocker / 'textmines'}: ")
    assert "file is in the way" in notices[0]
    assert blocker.read_text() == "a file, not a directory"


def test_a_directory_in_place_of_the_database_gives_no_store(tmp_path: Path) -> None:
    (tmp_path / "stats.db").mkdir()
    store, notices = open_stats(tmp_path / "stats.db")
    assert store is None
    assert notices == [f"Statistics not saved: {tmp_path / 'stats.db'}: a directory is in the way"]


@pytest.mark.skipif(PERMISSIONS_IGNORED, reason="root ignores directory permissions")
@pytest.mark.parametrize("existing", [False, True])
def test_a_read_only_data_directory_gives_no_store(tmp_path: Path, existing: bool) -> None:
    data = tmp_path / "data"
    data.mkdir()
    if existing:
        stats_with_games(data / "stats.db", 2)
    data.chmod(0o555)
    try:
        store, notices = open_stats(data / "stats.db")
        assert store is None
        assert len(notices) == 1
        assert notices[0].startswith("Statistics not saved: ")
    finally:
        data.chmod(0o755)
    if existing:
        assert not (data / "stats.db.bad").exists()


def test_a_directory_without_write_access_gives_no_store_even_for_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Root passes the permission tests above; pretend the directory refuses writes."""
    path = tmp_path / "stats.db"
    stats_with_games(path, 2)
    real_access = os.access

    def access(target: object, mode: int, **kwargs: object) -> bool:
        if Path(str(target)) == tmp_path and mode & os.W_OK:
            return False
        return real_access(target, mode, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "access", access)
    store, notices = open_stats(path)
    assert store is None
    assert notices == [f"Statistics not saved: {path}: permission denied"]
    monkeypatch.undo()
    store, notices = open_stats(path)
    assert store is not None and notices == []
    with store:
        assert store.count() == 2


@pytest.mark.skipif(PERMISSIONS_IGNORED, reason="root ignores directory permissions")
def test_a_data_directory_that_may_not_be_created_gives_no_store(tmp_path: Path) -> None:
    parent = tmp_path / "locked"
    parent.mkdir()
    parent.chmod(0o555)
    try:
        store, notices = open_stats(parent / "data" / "stats.db")
    finally:
        parent.chmod(0o755)
    assert store is None
    assert notices == [f"Statistics not saved: cannot create {parent / 'data'}: permission denied"]


# ---------------------------------------------------------------------------- SIGKILL
def read_lines(process: subprocess.Popen[str], count: int, timeout: float = 20) -> list[str]:
    """Wait for ``count`` lines from the worker (it has done that much work)."""
    assert process.stdout is not None
    lines = []
    deadline = time.monotonic() + timeout
    while len(lines) < count:
        assert time.monotonic() < deadline, "the worker is too slow"
        line = process.stdout.readline()
        assert line, process.stderr.read() if process.stderr else "worker ended"
        lines.append(line.strip())
    return lines


def kill(process: subprocess.Popen[str]) -> list[str]:
    """SIGKILL the worker and return the whole lines it printed before dying.

    A line cut by the kill is dropped: the work it reported may or may not be done, which the
    callers allow for as "the next step". The rest is read through ``process.stdout`` itself,
    not ``communicate``, which reads the raw pipe: lines that ``read_lines``'s ``readline``
    had already buffered would be lost (seen once in a loaded run: two saves missing).
    """
    assert process.stdout is not None
    process.send_signal(signal.SIGKILL)
    assert process.wait(timeout=10) == -signal.SIGKILL
    out = process.stdout.read()
    lines = out.splitlines()
    if out and not out.endswith("\n"):
        lines.pop()
    return lines


@pytest.mark.slow  # processes killed again and again: ~1.3 s of CPU
def test_killing_a_process_during_saves_never_leaves_a_broken_save(tmp_path: Path) -> None:
    path = tmp_path / "saved-game.json"
    rng = random.Random(2024)
    for round_number in range(12):
        with worker("save", str(path), str(round_number)) as process:
            lines = read_lines(process, rng.randrange(1, 30))
            time.sleep(rng.random() * 0.02)
            lines += kill(process)
        last_seed, last_moves = (int(value) for value in lines[-1].split())
        loaded, notice = load_game(path, FakeClock())
        assert notice is None
        assert loaded is not None
        state = (loaded.game.seed, len(loaded.game.actions))
        # The last save reported, or the next one if the worker died before reporting it.
        assert state in {(last_seed, last_moves), (last_seed, last_moves + 1)} or (
            state[0] == last_seed + 1
        ), (state, last_seed, last_moves)
        assert loaded.preset == "x"
    assert not list(tmp_path.glob("*.bad*"))


@pytest.mark.slow  # a process killed
def test_killing_a_process_while_it_records_keeps_every_committed_game(tmp_path: Path) -> None:
    db = tmp_path / "stats.db"
    rng = random.Random(7)
    committed = 0
    for _ in range(5):
        with worker("record-forever", str(db)) as process:
            printed = read_lines(process, rng.randrange(1, 40))
            time.sleep(rng.random() * 0.05)
            printed += kill(process)
        committed = int(printed[-1])
        store, notices = open_stats(db)
        assert notices == []
        assert store is not None
        with store:
            count = store.count()
            assert committed <= count <= committed + 1
            assert store.group_stats(store.groups()[0]).played == count
        with sqlite3.connect(db) as connection:
            assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        connection.close()
    assert not list(tmp_path.glob("*.bad*"))


# ---------------------------------------------------------------- issue 18, the smaller items
@contextmanager
def held_by_another_program(path: Path) -> Iterator[None]:
    """Another program holds the write lock of ``path`` (the sqlite3 shell in a transaction)."""
    blocker = sqlite3.connect(path, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()


def test_a_locked_database_delays_a_game_briefly_and_loses_nothing(tmp_path: Path) -> None:
    from tests.store.store_worker import worker_record

    path = tmp_path / "stats.db"
    store, _ = open_stats(path)  # the default busy timeout: what the game uses
    assert store is not None
    with held_by_another_program(path):
        start = time.perf_counter()
        notice = store.record(worker_record(1, "a"))
        waited = time.perf_counter() - start
        assert notice is not None and "kept" in notice and store.pending == 1
    assert waited < 1.0  # the game froze 5 s here
    assert store.retry_pending() is None and store.count() == 1
    store.close()


def test_games_kept_for_later_survive_the_end_of_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.store.store_worker import worker_record
    from textmines.store.stats import store as store_module

    monkeypatch.setattr(store_module, "CLOSING_WAIT_MS", 50)
    path = tmp_path / "stats.db"
    store, _ = open_stats(path)
    assert store is not None
    with held_by_another_program(path):
        assert store.record(worker_record(1, "a")) is not None
        assert store.record(worker_record(2, "a")) is not None
        store.close()  # still held: the two games wait in a file beside the database
        kept = tmp_path / "stats.db-pending.json"
        assert kept.exists()
    again, notices = open_stats(path)
    assert again is not None and notices == []
    with again:
        assert again.count() == 2 and again.pending == 0
    assert not kept.exists()
    third, _ = open_stats(path)  # written once, never twice
    assert third is not None
    with third:
        assert third.count() == 2


def test_a_pending_file_keeps_recordings_and_takes_an_older_versions_rows(
    tmp_path: Path,
) -> None:
    from tests.store.store_worker import worker_record

    path = tmp_path / "stats.db"
    kept = tmp_path / "stats.db-pending.json"
    store, _ = open_stats(path)
    assert store is not None
    with store:
        assert store.record(worker_record(1, "a")) is None
        row = store._connection.execute("SELECT * FROM games").fetchone()[1:]
        store.reset()
    recording = b"\x01\x00binary\xff"
    newer = list(row)
    newer[COLUMNS.index("replay")] = base64.b64encode(recording).decode()
    older = list(row[:19])  # written by a build of schema version 2
    older_v3 = list(row[:24])  # and one of version 3 (no daily columns)
    older_v3[0] = "2026-01-02T00:00:00.000Z"
    older[0] = "2026-01-01T00:00:00.000Z"
    kept.write_text(json.dumps([newer, older, older_v3]))
    again, notices = open_stats(path)
    assert again is not None and notices == []
    with again:
        assert again.count() == 3
        stored = again.stored_replay()
        assert stored is not None and stored.data == recording


def test_a_full_disk_is_called_a_full_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from textmines.store.stats import reasons

    error = sqlite3.OperationalError("disk I/O error")
    error.sqlite_errorcode = sqlite3.SQLITE_IOERR_WRITE  # type: ignore[attr-defined]
    path = tmp_path / "stats.db"
    assert reasons.describe_sqlite_error(error, path) == "disk input/output error"
    monkeypatch.setattr(reasons.shutil, "disk_usage", lambda _: shutil_usage(free=4096))
    assert reasons.describe_sqlite_error(error, path) == "the disk is full"


def shutil_usage(free: int) -> object:
    import shutil

    return shutil._ntuple_diskusage(10**9, 10**9 - free, free)  # type: ignore[attr-defined]


def test_a_foreign_database_is_moved_aside_byte_for_byte(tmp_path: Path) -> None:
    path = tmp_path / "stats.db"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE notes (text TEXT)")
    connection.close()
    original = path.read_bytes()
    store, notices = open_stats(path)  # switching it to WAL rewrote its header first
    assert store is not None
    store.close()
    assert "is not a textmines statistics database" in notices[0]
    assert (tmp_path / "stats.db.bad").read_bytes() == original


def test_a_version_1_database_missing_columns_is_moved_aside_once(tmp_path: Path) -> None:
    path = tmp_path / "stats.db"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, started_at TEXT)")
        connection.execute("PRAGMA user_version = 1")
    connection.close()
    original = path.read_bytes()
    store, notices = open_stats(path)  # was: "Statistics not saved", every session
    assert store is not None and len(notices) == 1
    assert "moved to" in notices[0] and "no column ended_at" in notices[0]
    store.close()
    assert (tmp_path / "stats.db.bad").read_bytes() == original
    store, notices = open_stats(path)
    assert store is not None and notices == []
    store.close()


def test_a_migration_that_fails_moves_the_database_aside_unchanged(tmp_path: Path) -> None:
    # Every column of version 1, but not its index: the step that drops it fails.
    path = tmp_path / "stats.db"
    with sqlite3.connect(path) as connection:
        connection.execute(MIGRATIONS[0][0])
        connection.execute("PRAGMA user_version = 1")
    connection.close()
    original = path.read_bytes()
    store, notices = open_stats(path)
    assert store is not None and "cannot be brought up to date" in notices[0]
    store.close()
    assert (tmp_path / "stats.db.bad").read_bytes() == original


def test_a_folder_that_cannot_be_searched_keeps_no_statistics_and_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A data folder without search permission (mode 600, an ordinary user): asking whether
    # stats.db is a directory fails. open_stats never raises: the player is told.
    path = tmp_path / "stats.db"
    real_is_dir = Path.is_dir

    def is_dir(self: Path) -> bool:
        if self == path:
            raise PermissionError(13, "Permission denied", str(self))
        return real_is_dir(self)

    monkeypatch.setattr(Path, "is_dir", is_dir)
    assert open_stats(path) == (None, [f"Statistics not saved: {path}: permission denied"])
