"""Files that are not files (issue 34.7): a FIFO where settings.toml, the saved game, stats.db
or a file beside them belongs blocked the start; settings.toml or the saved game linked to
/dev/zero was read without end (4 GB in 10 s). Each is refused before a byte is read, with a
message that says what it is and what becomes of it, and the game starts.

Every read runs under a guard: if it blocks, the guard opens the FIFO's other end so that
the read ends, and the test fails instead of hanging.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest

from tests.helpers import launch_in_pty, read_until
from textmines.engine.game import Game
from textmines.store.paths import FileTooLarge, NotRegularFile, read_regular_file
from textmines.store.saves import MAX_SAVE_BYTES, load_game, save_own_game, waiting_path
from textmines.store.settings import (
    MAX_SETTINGS_BYTES,
    Settings,
    load_settings,
    save_changes,
)
from textmines.store.stats import open_stats

T = TypeVar("T")
#: Far longer than any of these reads takes; a read still going then is blocked.
GUARD_SECONDS = 10.0
FIFO = "it is a named pipe (FIFO), not a regular file"
DEVICE = "it is a device, not a regular file"


def unblocked(call: Callable[[], T], *fifos: Path) -> T:
    """``call()``, failing the test if it is still running after ``GUARD_SECONDS``. A reader
    blocked on one of ``fifos`` is then let go by opening the FIFO for writing."""
    result: list[T] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            result.append(call())
        except BaseException as error:  # re-raised in the test's thread
            errors.append(error)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(GUARD_SECONDS)
    if worker.is_alive():
        for fifo in fifos:
            with contextlib.suppress(OSError):
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        worker.join(GUARD_SECONDS)
        pytest.fail(f"still blocked after {GUARD_SECONDS:g} s")
    if errors:
        raise errors[0]
    return result[0]


def fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def endless(path: Path) -> Path:
    """``path`` as a link to /dev/zero: reading it never ends."""
    path.symlink_to("/dev/zero")
    return path


def sparse(path: Path, size: int) -> Path:
    """A file of ``size`` bytes that takes no room on the disk."""
    with path.open("wb") as file:
        file.truncate(size)
    return path


@pytest.fixture(autouse=True)
def _posix() -> Iterator[None]:
    if not hasattr(os, "mkfifo") or not Path("/dev/zero").exists():
        pytest.skip("needs FIFOs and /dev/zero")
    yield


# ---------------------------------------------------------------------------- the helper
def test_read_regular_file_refuses_what_is_no_file(tmp_path: Path) -> None:
    with pytest.raises(NotRegularFile, match=r"named pipe \(FIFO\)"):
        unblocked(lambda: read_regular_file(fifo(tmp_path / "f"), 10), tmp_path / "f")
    with pytest.raises(NotRegularFile, match="device"):
        unblocked(lambda: read_regular_file(endless(tmp_path / "z"), 10))
    with pytest.raises(NotRegularFile, match="directory"):
        read_regular_file(tmp_path, 10)
    (tmp_path / "ten").write_bytes(b"0123456789")
    assert read_regular_file(tmp_path / "ten", 10) == b"0123456789"
    with pytest.raises(FileTooLarge, match="larger than 9 bytes"):
        read_regular_file(tmp_path / "ten", 9)


# ---------------------------------------------------------------------------- settings
@pytest.mark.parametrize(("make", "what"), [(fifo, FIFO), (endless, DEVICE)])
def test_settings_that_are_no_file_give_the_defaults_and_are_kept_aside(
    tmp_path: Path, make: Callable[[Path], Path], what: str
) -> None:
    path = make(tmp_path / "settings.toml")
    settings, warnings = unblocked(lambda: load_settings(path), path)
    assert settings == Settings()
    assert warnings == [
        f"{path}: {what}; using default settings "
        "(a change of settings moves the file aside to a .bad name first)"
    ]
    # A change of settings keeps it, under another name, and writes a settings file.
    unblocked(lambda: save_changes(path, Settings(), Settings(board="expert")), path)
    assert path.is_file() and load_settings(path) == (Settings(board="expert"), [])
    kept = tmp_path / "settings.toml.bad"
    assert kept.is_symlink() if make is endless else kept.is_fifo()


def test_a_huge_settings_file_is_not_read(tmp_path: Path) -> None:
    path = sparse(tmp_path / "settings.toml", MAX_SETTINGS_BYTES + 1)
    settings, warnings = load_settings(path)
    assert settings == Settings()
    assert warnings[0].startswith(f"{path}: it is larger than 4 MB; using default settings")


# ---------------------------------------------------------------------------- saved games
@pytest.mark.parametrize(("make", "what"), [(fifo, FIFO), (endless, DEVICE)])
def test_a_save_that_is_no_file_is_left_alone_and_games_are_saved_beside_it(
    tmp_path: Path, make: Callable[[Path], Path], what: str
) -> None:
    path = make(tmp_path / "saved-game.json")
    loaded, notice = unblocked(lambda: load_game(path), path)
    assert loaded is None
    assert notice == (
        f"Saved game {path} could not be read: {what}. Games are saved beside it until you "
        "remove it or move it away."
    )
    game = Game(9, 9, 10, seed=1)
    game.reveal(4, 4)
    # Quitting reads the save to see whose game it holds: it must not block either.
    where, problem = unblocked(lambda: save_own_game(path, game, {}, "game-1"), path)
    assert problem is None and where == waiting_path(path, "game-1")
    assert path.is_symlink() if make is endless else path.is_fifo()


def test_a_save_larger_than_any_game_is_moved_aside(tmp_path: Path) -> None:
    path = sparse(tmp_path / "saved-game.json", MAX_SAVE_BYTES + 1)
    loaded, notice = load_game(path)
    assert loaded is None and notice is not None
    assert "it is larger than 64 MB, more than any saved game" in notice
    assert not path.exists() and (tmp_path / "saved-game.json.bad").stat().st_size > 0


def test_a_fifo_among_the_waiting_games_is_passed_over(tmp_path: Path) -> None:
    waiting = fifo(waiting_path(tmp_path / "saved-game.json", "other"))
    assert unblocked(lambda: load_game(tmp_path / "saved-game.json"), waiting) == (None, None)
    assert waiting.is_fifo()


# ---------------------------------------------------------------------------- statistics
@pytest.mark.parametrize("name", ["stats.db", "stats.db-wal", "stats.db-journal"])
def test_statistics_that_are_a_fifo_are_not_opened(tmp_path: Path, name: str) -> None:
    blocker = fifo(tmp_path / name)
    store, notices = unblocked(lambda: open_stats(tmp_path / "stats.db"), blocker)
    assert store is None
    assert notices == [f"Statistics not saved: {blocker}: {FIFO}; move it away to keep statistics"]
    assert blocker.is_fifo()


def test_statistics_linked_to_a_device_are_not_opened(tmp_path: Path) -> None:
    path = endless(tmp_path / "stats.db")
    store, notices = unblocked(lambda: open_stats(path))
    assert store is None and notices == [
        f"Statistics not saved: {path}: {DEVICE}; move it away to keep statistics"
    ]


@pytest.mark.parametrize("make", [fifo, endless])
def test_games_kept_for_later_in_no_file_are_moved_aside(
    tmp_path: Path, make: Callable[[Path], Path]
) -> None:
    pending = make(tmp_path / "stats.db-pending.json")
    store, notices = unblocked(lambda: open_stats(tmp_path / "stats.db"), pending)
    assert store is not None
    store.close()
    assert len(notices) == 1 and f"games kept in {pending} cannot be read (it is a" in notices[0]
    assert notices[0].endswith(f"it was moved to {pending}.bad")


# ---------------------------------------------------------------------------- the program
@pytest.mark.slow  # the real program in a pseudo-terminal
@pytest.mark.parametrize(
    "files",
    [
        {"settings.toml": fifo, "saved-game.json": fifo, "stats.db": fifo},
        {
            "settings.toml": endless,
            "saved-game.json": endless,
            "stats.db-pending.json": fifo,
            "saved-game-0123456789abcdef.json": fifo,
        },
    ],
    ids=["fifos", "devices and the files beside"],
)
def test_the_game_starts_whatever_stands_in_for_its_files(
    tmp_path: Path, files: dict[str, Callable[[Path], Path]]
) -> None:
    made = [make(tmp_path / name) for name, make in files.items()]
    process, main = launch_in_pty(tmp_path, "--beginner", "--seed", "1")
    try:
        drawn = read_until(main, b"safe left", 30)
        assert b"safe left" in drawn, "the game never drew its status line"
    finally:
        if process.poll() is None:
            process.kill()
        for path in made:  # let a start blocked on one go (an old build)
            if path.is_fifo():
                with contextlib.suppress(OSError):
                    os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
        process.wait(timeout=10)
        os.close(main)
