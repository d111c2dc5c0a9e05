"""The daily board: one per UTC day, the same for everyone, no guessing needed."""

from __future__ import annotations

import itertools
import random
import time
from datetime import UTC, date, datetime, timedelta, timezone

import pytest

from textmines.engine import Game
from textmines.engine.board_id import board_id_of
from textmines.engine.daily import FIRST, SIZE, daily_board, daily_day, daily_seed
from textmines.engine.generate import place_mines, place_mines_no_guess


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


# Issue 33: the no-guess dealer stopped on the wall clock, so a slow or busy machine dealt
# other mines for the same date. These boards were dealt on an idle machine; they must come
# out the same whatever the clock says.
PINNED_DAYS = {
    date(2026, 11, 23): "30x16-99-o15.8n-1yeavf3pwh1r1mq56wfzpvv949sybrbdkbws72gfh0myeyg6bjy"
    "02bq9yw0k26h1cqa88m09",
    date(2026, 1, 1): "30x16-99-o15.8n-ve1k34h111s5bnp2f227zb56bb0bxe7qy393wd9zd15skhz70yxaf"
    "xs0kgjvdx55gpasb9v",
    date(2027, 2, 28): "30x16-99-o15.8n-3qx499pj8ymsgn33ac9agxvjajm8d54c4g85m8cxq2158j6jgsq1p"
    "vh3se2q3wf78v0wczkm",
}
SEEDED = {
    (99, 11): "30x16-99-o15.8n-6mnpta85f9j3kwvkt36m272xnndngjgfgrqtwbs21t7mtzhe2n3df7x46jzz1tg90"
    "t5hnjw9",
    (170, 5): "30x16-170-o15.8n-16m5ckv7yrm6hf0ntqckw8qtxn5zgghhsbxkeh86wjmq9h6c8kpcph6sma4067vb"
    "dntab5enzn5f3d7pnw0ppd2pygpn",
}


@pytest.fixture(params=["slow", "fast", "real"])
def any_clock(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """The machine's clock as a slow machine sees it (each read 5 ms after the last), as an
    infinitely fast one does (it never moves), or as it is."""
    if request.param == "slow":
        readings = itertools.count()
        monkeypatch.setattr(time, "perf_counter", lambda: next(readings) * 0.005)
    elif request.param == "fast":
        monkeypatch.setattr(time, "perf_counter", lambda: 0.0)


@pytest.mark.usefixtures("any_clock")
def test_the_daily_boards_are_the_same_on_every_machine() -> None:
    for day, text in PINNED_DAYS.items():
        assert daily_board(day).text() == text, day


@pytest.mark.usefixtures("any_clock")
def test_seeded_no_guess_boards_are_the_same_on_every_machine() -> None:
    for (mines, seed), text in SEEDED.items():
        game = Game(30, 16, mines, seed=seed, first_click="opening", no_guess=True)
        game.reveal(15, 8)
        assert board_id_of(game) == text and not game.no_guess_failed


@pytest.mark.usefixtures("any_clock")
def test_a_seeded_deal_out_of_budget_falls_back_the_same_way_everywhere() -> None:
    # 83% mines: no deduction gets far, the budget runs out and the ordinary board is dealt.
    board, solved = place_mines_no_guess(30, 16, 400, 155, random.Random(7), work_limit=20_000)
    assert not solved
    assert board == place_mines(30, 16, 400, 155, random.Random(7))
