"""File locations, directory creation and atomic writes."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from platformdirs import user_config_dir, user_data_dir

from textmines.store.paths import (
    Paths,
    default_paths,
    ensure_dir,
    is_profile_id,
    move_aside,
    profile_folder_name,
    write_atomic,
)


def test_textmines_home_puts_everything_under_one_directory(tmp_path: Path) -> None:
    paths = default_paths({"TEXTMINES_HOME": str(tmp_path)})
    assert paths == Paths(data_dir=tmp_path, config_dir=tmp_path)
    assert paths.stats_db == tmp_path / "stats.db"
    assert paths.saved_game == tmp_path / "saved-game.json"
    assert paths.settings_file == tmp_path / "settings.toml"
    assert paths.themes_dir == tmp_path / "themes"


@pytest.mark.parametrize("environ", [{}, {"TEXTMINES_HOME": ""}])
def test_platform_directories_by_default(environ: dict[str, str]) -> None:
    paths = default_paths(environ)
    assert paths.data_dir == Path(user_data_dir("textmines", appauthor=False))
    assert paths.config_dir == Path(user_config_dir("textmines", appauthor=False))
    assert paths.settings_file.parent == paths.config_dir
    assert paths.stats_db.parent == paths.data_dir


def test_default_paths_creates_nothing(tmp_path: Path) -> None:
    home = tmp_path / "home"
    paths = default_paths({"TEXTMINES_HOME": str(home)})
    assert not home.exists()
    assert not paths.themes_dir.exists()


def test_ensure_dir_creates_parents_and_accepts_existing(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b" / "themes"
    assert ensure_dir(target) is None
    assert target.is_dir()
    assert ensure_dir(target) is None


def test_ensure_dir_reports_a_file_in_the_way(tmp_path: Path) -> None:
    blocker = tmp_path / "data"
    blocker.write_text("not a directory")
    assert ensure_dir(blocker) == "a file is in the way"
    reason = ensure_dir(blocker / "themes")
    assert reason is not None
    assert "file is in the way" in reason
    assert str(blocker) in reason
    assert blocker.read_text() == "not a directory"


@pytest.mark.skipif(
    hasattr(os, "geteuid") and os.geteuid() == 0,
    reason="root can write into read-only directories (the file-in-the-way test covers failure)",
)
@pytest.mark.skipif(os.name == "nt", reason="chmod does not make directories read-only on Windows")
def test_ensure_dir_reports_a_read_only_parent(tmp_path: Path) -> None:
    parent = tmp_path / "locked"
    parent.mkdir()
    parent.chmod(0o500)
    try:
        assert ensure_dir(parent / "textmines") == "permission denied"
    finally:
        parent.chmod(0o700)


def _leftovers(directory: Path, keep: Path) -> list[Path]:
    return [entry for entry in directory.iterdir() if entry != keep]


def test_write_atomic_creates_and_replaces(tmp_path: Path) -> None:
    target = tmp_path / "saved-game.json"
    write_atomic(target, b"first")
    assert target.read_bytes() == b"first"
    write_atomic(target, b"second")
    assert target.read_bytes() == b"second"
    assert _leftovers(tmp_path, target) == []


def test_write_atomic_keeps_the_old_file_when_the_rename_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "settings.toml"
    target.write_bytes(b"old")

    def broken_replace(src: object, dst: object) -> None:
        raise OSError("disk on fire")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError, match="disk on fire"):
        write_atomic(target, b"new")
    assert target.read_bytes() == b"old"
    assert _leftovers(tmp_path, target) == []


def test_write_atomic_raises_when_the_directory_is_missing(tmp_path: Path) -> None:
    with pytest.raises(OSError):
        write_atomic(tmp_path / "missing" / "stats.db", b"data")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(os.name == "nt", reason="POSIX permission bits")
def test_write_atomic_keeps_the_file_mode(tmp_path: Path) -> None:
    target = tmp_path / "settings.toml"
    target.write_bytes(b"old")
    target.chmod(0o640)
    write_atomic(target, b"new")
    assert target.stat().st_mode & 0o777 == 0o640


def test_move_aside_takes_companion_files_along(tmp_path: Path) -> None:
    path = tmp_path / "stats.db"
    path.write_text("db")
    (tmp_path / "stats.db-wal").write_text("wal")
    (tmp_path / "stats.db.bad-shm").write_text("older")  # makes .bad unusable as a set
    moved = move_aside(path, ("-wal", "-shm"))
    assert moved == tmp_path / "stats.db.bad-2"
    assert (tmp_path / "stats.db.bad-2").read_text() == "db"
    assert (tmp_path / "stats.db.bad-2-wal").read_text() == "wal"
    assert not (tmp_path / "stats.db.bad-2-shm").exists()
    assert (tmp_path / "stats.db.bad-shm").read_text() == "older"
    assert not path.exists() and not (tmp_path / "stats.db-wal").exists()


def test_move_aside_of_a_missing_file_raises(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        move_aside(tmp_path / "nothing")


# ---------------------------------------------------------------------------- browser profiles
PROFILE = "0123456789abcdef0123456789abcdef"


def test_a_profiles_folder_is_named_by_a_hash_of_its_id() -> None:
    """The id is the profile's credential; a folder's name is there for any local user."""
    names = {profile_folder_name(f"{n:032x}") for n in range(100)}
    assert len(names) == 100 and all(re.fullmatch(r"[0-9a-f]{32}", name) for name in names)
    assert profile_folder_name(PROFILE) != PROFILE
    assert profile_folder_name(PROFILE * 2) not in (PROFILE, profile_folder_name(PROFILE))


@pytest.mark.parametrize(
    "text",
    [
        "",
        PROFILE[:-1],
        PROFILE + "a",
        PROFILE * 2 + "a",
        PROFILE + PROFILE[:-1],
        PROFILE.upper(),
        f"{PROFILE}\n",  # `$` in a pattern would let it through
        f" {PROFILE}",
        "..",
        "../" + PROFILE[3:],
        "0123456789abcdef/123456789abcdef",
        "0123456789abcdef\\123456789abcdef",
        "-123456789abcdef0123456789abcdef",
        "0123456789abcdef0123456789abcdeg",
        # Other digits (Arabic-Indic): str.isdigit() would take them.
        "".join(chr(0x660 + n) for n in range(10)) + "abcdef0123456789abcdef",
        "0123456789abcdef0123456789abcde\x00",
    ],
)
def test_anything_but_32_or_64_lowercase_hex_digits_is_no_profile(text: str) -> None:
    assert not is_profile_id(text)
    owner = Paths(data_dir=Path("data"), config_dir=Path("config"))
    with pytest.raises(ValueError, match="not a profile id"):
        owner.for_profile(text)
    # Made by hand, such paths still refuse to name a file.
    hand_made = Paths(data_dir=Path("data"), config_dir=Path("config"), profile=text)
    with pytest.raises(ValueError, match="not a profile id"):
        hand_made.stats_db.exists()


def test_a_profile_has_its_own_files_and_the_owners_themes_and_crash_log(tmp_path: Path) -> None:
    owner = Paths(data_dir=tmp_path / "data", config_dir=tmp_path / "config")
    assert owner.profile_dir is None
    paths = owner.for_profile(PROFILE)
    own = tmp_path / "data" / "profiles" / profile_folder_name(PROFILE)
    assert paths.profile_dir == own
    assert paths.stats_db == own / "stats.db"
    assert paths.saved_game == own / "saved-game.json"
    assert paths.settings_file == own / "settings.toml"
    assert paths.replays_dir == own / "replays"
    assert paths.themes_dir == owner.themes_dir
    assert paths.crash_log == owner.crash_log
    # The owner's files are none of the profile's.
    assert {owner.stats_db, owner.saved_game, owner.settings_file, owner.replays_dir}.isdisjoint(
        {paths.stats_db, paths.saved_game, paths.settings_file, paths.replays_dir}
    )
    with pytest.raises(ValueError):
        owner.for_profile("../" + PROFILE)
