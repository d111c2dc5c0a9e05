"""The daily board: one per UTC day, the same for everyone, no guessing needed."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone

from textmines.engine.daily import FIRST, SIZE, daily_board, daily_day, daily_seed


def test_a_day_has_one_board_and_the_next_day_another() -> None:
    today = daily_board(date(2026, 11, 23))
    assert daily_board(date(2026, 11, 23)) == today
    assert daily_board(date(2026, 11, 24)).board != today.board
    board = today.board
    assert (board.width, board.height, board.mine_count) == SIZE
    assert today.first == FIRST and today.no_guess and today.first_click == "opening"
    assert not any(board.is_mine(x, y) for x, y in board.neighbours(*FIRST))


def test_the_seed_is_pinned() -> None:
    # Every version must deal each day's board from the same seed.
    assert daily_seed(date(2026, 11, 23)) == daily_seed(date(2026, 11, 23))
    assert daily_seed(date(2026, 1, 1)) == 0xC000AB45E9CC66B1


def test_the_day_is_the_utc_date_wherever_the_player_is() -> None:
    late_in_tokyo = datetime(2026, 11, 24, 8, 30, tzinfo=timezone(timedelta(hours=9)))
    assert daily_day(late_in_tokyo) == date(2026, 11, 23)
    early_in_new_york = datetime(2026, 11, 23, 20, 0, tzinfo=timezone(timedelta(hours=-5)))
    assert daily_day(early_in_new_york) == date(2026, 11, 24)
    just_before_midnight = datetime(2026, 11, 23, 23, 59, 59, tzinfo=UTC)
    assert daily_day(just_before_midnight) == date(2026, 11, 23)
    assert daily_day(just_before_midnight + timedelta(seconds=1)) == date(2026, 11, 24)


def test_a_daily_game_started_before_midnight_stays_that_days_board() -> None:
    from tests.helpers import FakeClock

    clock = FakeClock()
    shared = daily_board(date(2026, 11, 23))
    game = shared.game(clock=clock)
    clock.advance(3600)  # finished after midnight: the board is still the 23rd's
    assert game.board == daily_board(date(2026, 11, 23)).board
