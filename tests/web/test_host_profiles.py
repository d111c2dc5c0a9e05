"""The browsers' profiles of a ``--serve`` host: ids it issued only, folders named by a hash
and the owner's alone, visits that kept nothing leave nothing, and a cap on players."""

from __future__ import annotations

import os
import stat
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.factories import game_record
from tests.web.conftest import Said
from textmines.store.paths import profile_folder_name
from textmines.store.stats import open_stats
from textmines.web.profiles import KEY_FILE, Profiles, host_key

OLD_ID = "0123456789abcdef0123456789abcdef"  # an id of an older release: 32 hex digits


@pytest.fixture
def profiles(tmp_path: Path) -> Profiles:
    return Profiles(tmp_path, host_key(tmp_path))


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_host_key_is_made_once_and_the_owners_alone(tmp_path: Path) -> None:
    key = host_key(tmp_path)
    assert len(key) == 32 and host_key(tmp_path) == key
    assert mode(tmp_path / KEY_FILE) == 0o600


def test_only_ids_this_host_issued_name_a_profile(profiles: Profiles, tmp_path: Path) -> None:
    issued = profiles.new_id()
    assert len(issued) == 64 and profiles.issued(issued)
    assert len({profiles.new_id() for _ in range(100)}) == 100
    # The same shape, signed by no one or by another host: no profile.
    assert not profiles.issued(issued[:32] + "0" * 32)
    assert not Profiles(tmp_path, b"another host's key!!").issued(issued)
    for bad in (None, "", "../../etc", issued.upper(), issued + "0"):
        assert not profiles.issued(bad)
    # An older release's id counts where it has a folder, and only there.
    assert not profiles.issued(OLD_ID)
    (profiles.folder / OLD_ID).mkdir(parents=True)
    assert profiles.issued(OLD_ID)


def test_a_folder_is_named_by_a_hash_and_is_the_owners_alone(profiles: Profiles) -> None:
    (profiles.folder / OLD_ID).mkdir(parents=True, mode=0o755)
    (profiles.folder / OLD_ID / "settings.toml").write_text("theme = 'dark'\n")
    profiles.open(OLD_ID)  # an older release's folder, named by the id: renamed
    assert [p.name for p in profiles.folder.iterdir()] == [profile_folder_name(OLD_ID)]
    assert (profiles.folder / profile_folder_name(OLD_ID) / "settings.toml").exists()
    new = profiles.new_id()
    profiles.open(new)
    assert mode(profiles.folder) == 0o700
    assert mode(profiles.folder / profile_folder_name(new)) == 0o700


def test_a_visit_that_kept_nothing_leaves_no_folder(profiles: Profiles) -> None:
    visitor, player, named = profiles.new_id(), profiles.new_id(), profiles.new_id()
    for profile in (visitor, player, named):
        profiles.open(profile)
        store, _ = open_stats(profiles.folder / profile_folder_name(profile) / "stats.db")
        assert store is not None
        if profile == player:
            store.record_game(game_record(ended=datetime(2026, 12, 1, tzinfo=UTC)))
        store.close()
    (profiles.folder / profile_folder_name(named) / "settings.toml").write_text("x = 1\n")
    # Two tabs of the visitor's browser: its folder stays while the second plays.
    profiles.open(visitor)
    profiles.close(visitor)
    assert (profiles.folder / profile_folder_name(visitor)).exists()
    for profile in (visitor, player, named):
        profiles.close(profile)
    kept = {p.name for p in profiles.folder.iterdir()}
    assert kept == {profile_folder_name(player), profile_folder_name(named)}


def test_the_sweep_at_start_removes_empty_folders_and_makes_the_rest_owner_only(
    profiles: Profiles, serve_log: Said
) -> None:
    empty = profiles.folder / ("a" * 32)
    kept = profiles.folder / ("b" * 32)
    for folder in (empty, kept):
        folder.mkdir(parents=True, mode=0o755)
    (kept / "saved-game.json").write_text("{}")
    os.chmod(kept / "saved-game.json", 0o644)
    profiles.sweep()
    assert not empty.exists() and mode(kept) == 0o700
    assert mode(kept / "saved-game.json") == 0o600
    assert serve_log.lines == [
        "textmines: 1 player's profile kept (0.0 MB); 1 that kept nothing removed"
    ]


def test_past_its_most_players_or_disk_no_new_player_but_the_known_play_on(
    tmp_path: Path,
) -> None:
    profiles = Profiles(tmp_path, b"k" * 32, max_profiles=2, max_bytes=10_000)
    first, second = profiles.new_id(), profiles.new_id()
    for profile in (first, second):
        profiles.open(profile)
    assert profiles.room_for(None) == "this server keeps the games of 2 players, its most"
    assert profiles.room_for(profiles.new_id()) is not None
    assert profiles.room_for(first) is None
    (profiles.folder / profile_folder_name(first) / "settings.toml").write_bytes(b"#" * 20_000)
    profiles.close(first)  # weighed as it ends
    profiles.max_profiles = 10
    assert profiles.room_for(None) == "its players' games take 0 MB, its most"
    assert profiles.room_for(second) is None
