"""A browser tab's wins ranked on its host's leaderboard as they end, under the profile's
player name, with nothing uploaded: the daily board, and the presets' boards dealt at random;
help, practice, chosen mines and other rules never ranked."""

from __future__ import annotations

import stat
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from tests.helpers import FakeClock, winning_clicks
from textmines.engine.daily import daily_board
from textmines.engine.game import Game
from textmines.leaderboard.seat import TOKEN_FILE, BrowserSeat, watched_entry
from textmines.leaderboard.store import LeaderboardStore
from textmines.session import GameSession
from textmines.web.tabs import tab_environment

DAY = date(2026, 12, 1)
NOON_MS = int(datetime(2026, 12, 1, 12, tzinfo=UTC).timestamp() * 1000)


def daily_win(*, leave: int = 0) -> GameSession:
    """A session of ``DAY``'s daily board, won a click a second from noon (unless ``leave``)."""
    clock = FakeClock()
    game = daily_board(DAY).game(clock=clock)
    clicks = [c for c in winning_clicks(game.board) if not game.is_revealed(*c)]  # type: ignore[arg-type]
    for x, y in clicks[: len(clicks) - leave]:
        clock.advance(1)
        game.reveal(x, y)
    session = GameSession(game, started_at=datetime(2026, 12, 1, 12, tzinfo=UTC))
    session.daily = DAY
    return session


@pytest.fixture
def leaderboard(tmp_path: Path) -> str:
    LeaderboardStore.open(tmp_path / "leaderboard.db").close()
    return str(tmp_path / "leaderboard.db")


def seat(where: str, folder: Path, name: str = "Ann", *, after_s: int = 3600) -> BrowserSeat:
    return BrowserSeat(where, folder, name=lambda: name, clock=lambda: NOON_MS + after_s * 1000)


def test_a_daily_win_in_a_tab_is_ranked_under_the_profiles_name(
    leaderboard: str, tmp_path: Path
) -> None:
    profile = tmp_path / "profile"
    said = seat(leaderboard, profile).finished(daily_win())
    assert said == "Leaderboard: #1 of 1 on the daily board of 2026-12-01."
    assert stat.S_IMODE((profile / TOKEN_FILE).stat().st_mode) == 0o600
    store = LeaderboardStore.open(leaderboard)
    (entry,) = store.leaderboard("daily", day=DAY)
    assert entry.name == "Ann" and store.replay(entry.entry_id)
    store.close()
    # The same profile, its name changed: the same player, renamed; a second daily win of the
    # day is practice for the leaderboard too (its first try counted).
    assert seat(leaderboard, profile, "Ann Lee").finished(daily_win()) is None
    store = LeaderboardStore.open(leaderboard)
    assert [e.name for e in store.leaderboard("daily", day=DAY)] == ["Ann Lee"]
    store.close()


def test_help_practice_and_losses_are_never_ranked(leaderboard: str, tmp_path: Path) -> None:
    place = seat(leaderboard, tmp_path / "profile")
    assisted, practice, lost = daily_win(), daily_win(), daily_win(leave=1)
    assisted.assisted = True
    practice.practice = True
    not_daily = daily_win()
    not_daily.daily = None
    assert [place.finished(s) for s in (assisted, practice, lost, not_daily)] == [None] * 4
    store = LeaderboardStore.open(leaderboard)
    assert store.leaderboard("daily", day=DAY) == []
    store.close()


def test_a_game_longer_than_it_has_been_played_is_not_ranked(
    leaderboard: str, tmp_path: Path
) -> None:
    said = seat(leaderboard, tmp_path / "profile", after_s=10).finished(daily_win())
    assert said is not None and said.startswith("Not on the leaderboard: the replay takes")


def test_the_host_tells_its_tabs_where_its_leaderboard_is_and_which_entry_to_watch() -> None:
    environment = tab_environment(80, 24, "a" * 64, "postgresql://h/db", watch=12)
    assert environment["TEXTMINES_LEADERBOARD"] == "postgresql://h/db"
    assert environment["TEXTMINES_WATCH"] == "12"
    alone = tab_environment(80, 24, "a" * 64, watch=12)
    assert "TEXTMINES_LEADERBOARD" not in alone and "TEXTMINES_WATCH" not in alone


def test_a_leaderboard_that_cannot_be_written_is_said_and_the_game_goes_on(
    tmp_path: Path,
) -> None:
    (tmp_path / "leaderboard.db").mkdir()  # in the way: no database can be made there
    said = seat(str(tmp_path / "leaderboard.db"), tmp_path / "profile").finished(daily_win())
    assert said is not None and said.startswith("The leaderboard could not take this win: ")


@pytest.mark.slow  # the replay is read by ms-toollib, in a child
def test_an_entrys_replay_is_watched_in_a_tab_with_its_title(
    leaderboard: str, tmp_path: Path
) -> None:
    assert seat(leaderboard, tmp_path / "profile").finished(daily_win()) is not None
    recording, title = watched_entry(leaderboard, 1)
    assert recording.game().status.name == "WON"
    assert title.startswith("Leaderboard: Ann, daily board of 2026-12-01, ")
    with pytest.raises(ValueError, match="this host's leaderboard has no entry 2"):
        watched_entry(leaderboard, 2)
    with pytest.raises(ValueError, match="the leaderboard cannot be read"):
        watched_entry(str(tmp_path), 1)


def preset_win(
    width: int = 9, height: int = 9, mines: int = 10, *, random: bool = True, **rules: object
) -> GameSession:
    """A session of a new game won a click a second, dealt at random unless not ``random``."""
    clock = FakeClock()
    game = Game(width, height, mines, seed=11, clock=clock, **rules)  # type: ignore[arg-type]
    game.reveal(4, 4)
    for x, y in winning_clicks(game.board):  # type: ignore[arg-type]
        if not game.is_revealed(x, y):
            clock.advance(1)
            game.reveal(x, y)
    session = GameSession(game, started_at=datetime(2026, 12, 1, 12, tzinfo=UTC))
    session.dealt_at_random = random
    return session


def test_a_preset_game_dealt_at_random_is_ranked_with_the_players_first_click(
    leaderboard: str, tmp_path: Path
) -> None:
    said = seat(leaderboard, tmp_path / "profile").finished(preset_win())
    assert said == "Leaderboard: #1 of 1 on Beginner."
    store = LeaderboardStore.open(leaderboard)
    (entry,) = store.leaderboard("beginner")
    assert entry.name == "Ann" and entry.time_ms == preset_win().game.elapsed_ms
    store.close()


def test_chosen_mines_and_other_rules_are_not_ranked_and_the_rules_are_named(
    leaderboard: str, tmp_path: Path
) -> None:
    place = seat(leaderboard, tmp_path / "profile")
    # A seed or a board ID the player gave, a custom size: not ranked, nothing said.
    assert place.finished(preset_win(random=False)) is None
    assert place.finished(preset_win(9, 9, 11)) is None
    assert place.finished(preset_win(no_guess=True)) == (
        "Not on the leaderboard: ranked boards may need a guess (Options > No-guess boards)."
    )
    assert place.finished(preset_win(first_click="safe")) == (
        "Not on the leaderboard: ranked boards open an area at the first click "
        "(Options > First click: opening)."
    )
    store = LeaderboardStore.open(leaderboard)
    assert store.leaderboard("beginner") == []
    store.close()
