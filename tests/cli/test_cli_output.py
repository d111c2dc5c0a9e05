"""What the command line prints, under attack (issue 46: 11, 17, 18, 24): exit statuses that
tell bad input (2) from the rest, a reader that stops early, control characters in names
and file names, messages that say what happened."""

from __future__ import annotations

import io
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli.test_cli import recorded_games, refused
from textmines.cli import main
from textmines.cli.start import PIPE_CLOSED


class _ClosedPipe(io.StringIO):
    """stdout whose reader has gone: every write fails as a closed pipe's does."""

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TEXTMINES_HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    return tmp_path


# ------------------------------------------------------------------ 17: a closed pipe
@pytest.mark.parametrize(
    "argv",
    [
        ["--paths"],
        ["--list-themes"],
        ["--export-theme", "classic", "-"],
        pytest.param(["--review", "last"], marks=pytest.mark.slow),  # a review: ~0.5 s of CPU
    ],
)
def test_a_reader_that_stops_early_ends_the_command_quietly(
    home: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
) -> None:
    if "--review" in argv:
        recorded_games(home)
    with capsys.disabled():
        monkeypatch.setattr(sys, "stdout", _ClosedPipe())
        assert main(argv) == PIPE_CLOSED
    assert capsys.readouterr().err == ""


@pytest.mark.slow  # the program
def test_a_closed_pipe_ends_the_program_with_status_141_and_not_a_word(tmp_path: Path) -> None:
    reading, writing = os.pipe()
    os.close(reading)  # the reader is gone before the first byte
    try:
        done = subprocess.run(
            [sys.executable, "-m", "textmines", "--paths"],
            stdout=writing,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
            env={**os.environ, "TEXTMINES_HOME": str(tmp_path)},
        )
    finally:
        os.close(writing)
    assert (done.returncode, done.stderr) == (141, "")


# ------------------------------------------------------------------ 11: exit statuses
@pytest.mark.parametrize("option", ["--review", "--export-replay"])
def test_asking_for_the_last_game_before_any_is_bad_input_and_says_so(
    home: Path, capsys: pytest.CaptureFixture[str], option: str
) -> None:
    argv = [option, "last"] + ([str(home / "out.evf")] if option == "--export-replay" else [])
    err = refused(argv, capsys, 2)
    assert "no game is recorded yet" in err and "play a game first" in err
    assert "older versions" not in err  # a fresh home holds no older version's games


def test_a_game_without_a_recording_is_bad_input(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    recorded_games(home)  # game 3 is an older version's, without a recording
    err = refused(["--review", "3"], capsys, 2)
    assert "game 3 has no recording" in err and "choose another game" in err


@pytest.mark.parametrize(
    "argv",
    [
        ["--export-replay", "last", "taken.evf"],
        ["--export-theme", "classic", "taken.evf"],
    ],
)
def test_writing_over_an_existing_file_is_bad_input(
    home: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    recorded_games(home)
    (home / "taken.evf").write_text("keep me")
    err = refused(argv, capsys, 2)
    assert "taken.evf already exists; choose another file or remove it" in err
    assert (home / "taken.evf").read_text() == "keep me"


# ------------------------------------------------------------------ 24: a locked database
@pytest.fixture
def locked(home: Path) -> Iterator[Path]:
    """Statistics with games, held by another program that lets nobody read them."""
    recorded_games(home)
    holder = sqlite3.connect(home / "stats.db", isolation_level=None)
    holder.execute("PRAGMA locking_mode = EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        yield home / "stats.db"
    finally:
        holder.close()


@pytest.mark.parametrize("option", ["--review", "--export-replay"])
def test_a_locked_database_could_not_be_read_not_saved(
    locked: Path, capsys: pytest.CaptureFixture[str], option: str
) -> None:
    argv = [option, "last"] + (
        [str(locked.parent / "out.evf")] if option == "--export-replay" else []
    )
    err = refused(argv, capsys, 1)
    assert f"{option}: the statistics could not be read: {locked}: " in err
    assert "locked" in err and "not saved" not in err.lower()


# ------------------------------------------------------------------ 18: control characters
#: What an attacker puts in a name: a colour, a window title, a newline, markup.
HOSTILE = "\x1b[31mred\x1b]0;title\x07\nline[/]"
#: The same as a file's name (a slash would be a folder).
HOSTILE_NAME = HOSTILE.replace("/", "")


def _no_control(text: str) -> None:
    """``text`` is lines of printable characters only (the escapes show as text)."""
    assert all(line.isprintable() for line in text.split("\n")), repr(text[:300])


@pytest.mark.slow  # ms-toollib in a child process, and a review
def test_a_replays_names_and_file_name_are_printed_escaped_by_review(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("ms_toollib")
    from tests.factories import played_game
    from textmines.replays.evf import EvfInfo, evf_bytes
    from textmines.replays.recording import Recording

    recording = Recording.of(played_game(9, 9, 10, 1))
    info = EvfInfo(bbbv=1, won=False, no_flags=False, software=HOSTILE, player=HOSTILE)
    path = home / "a\x1bb.evf"
    path.write_bytes(evf_bytes(recording, info))
    assert main(["--review", str(path)]) == 0
    out = capsys.readouterr().out
    _no_control(out)
    first = out.split("\n")[0]
    assert first.startswith("a\\x1bb.evf by \\x1b[31mred\\x1b]0;title\\x07\\nline[/] (")


def test_a_file_name_with_a_newline_is_refused_in_one_line(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    err = refused(["--review", "two\nlines\x1b[2J.avf"], capsys, 2)
    assert "two\\nlines\\x1b[2J.avf" in err
    _no_control(err)


def test_an_unknown_option_is_refused_in_one_line_escaped(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    err = refused(["--\x1b[2J"], capsys, 2)
    assert "--\\x1b[2J" in err
    _no_control(err)


def test_list_themes_and_paths_print_names_escaped(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    themes = home / "themes"
    themes.mkdir()
    (themes / f"{HOSTILE_NAME}.toml").write_text('[board]\nflag = "#00ff00"\n')
    (themes / f"broken{HOSTILE_NAME}.toml").write_text("[board\n")
    assert main(["--list-themes"]) == 0
    out = capsys.readouterr().out
    _no_control(out)
    shown = "\\x1b[31mred\\x1b]0;title\\x07\\nline[]"
    # Such a name is no theme's (a name is shown where markup is read): listed as broken.
    assert [line.split()[1] for line in out.splitlines() if shown in line] == ["broken"] * 2
    assert len(out.splitlines()) == 8  # the six bundled themes and these two


def test_paths_prints_a_hostile_home_escaped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("TEXTMINES_HOME", str(tmp_path / HOSTILE_NAME))
    assert main(["--paths"]) == 0
    out = capsys.readouterr().out
    _no_control(out)
    assert len(out.splitlines()) == 7 and "\\x1b[31mred" in out.splitlines()[0]


# ------------------------------------------------------------------ a safety net at start
def test_an_unexpected_error_before_the_game_is_one_line_and_a_crash_log(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Issue 46.21 found a start that stopped with a traceback and nothing in crash.log; an
    # error no check foresaw is told as the app tells its own.
    import gc

    from textmines import cli, launch

    def broken(argv: list[str] | None = None) -> int:
        raise RecursionError("maximum recursion depth exceeded\nin \x1b[2J")

    monkeypatch.setattr(cli, "main", broken)
    thresholds = gc.get_threshold()
    try:
        assert launch.main() == 1
    finally:
        gc.set_threshold(*thresholds)
    err = capsys.readouterr().err
    log = home / "crash.log"
    assert err == (
        "textmines stopped on an unexpected error (RecursionError: maximum recursion depth "
        f"exceeded\\nin \\x1b[2J). Details: {log} (please attach it to a bug report).\n"
    )
    assert "Traceback" in log.read_text() and "def broken" not in err
