"""A replay is ranked only when it wins, click by click with the engine, exactly the board the
host dealt for the challenge; every other one is refused in a line that says why."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest

from tests.helpers import FakeClock, winning_clicks
from textmines.engine.actions import ActionKind
from textmines.engine.daily import daily_board
from textmines.engine.game import Action, Game, Status
from textmines.engine.metrics import game_metrics
from textmines.leaderboard.boards import BOARD_KINDS, Dealt, deal
from textmines.leaderboard.verify import Refused, Verified, verify
from textmines.replays.evf import export_evf
from textmines.replays.foreign import read_replay_file
from textmines.replays.recording import Recording

DAY = date(2026, 12, 1)
HOUR_MS = 3_600_000


def played(dealt: Dealt, *, leave: int = 0) -> Recording:
    """The recording of a game on ``dealt``, a second between clicks, winning unless ``leave``
    clicks are left out."""
    clock = FakeClock()
    game = dealt.board.game(clock=clock)
    clicks = [c for c in winning_clicks(dealt.board.board) if not game.is_revealed(*c)]
    for x, y in clicks[: len(clicks) - leave]:
        clock.advance(1)
        game.reveal(x, y)
    return Recording.of(game)


@pytest.fixture(scope="module")
def dealt() -> Dealt:
    return deal("beginner", DAY, seed=5)


def test_a_win_on_the_board_dealt_is_verified_with_its_time_and_3bv(dealt: Dealt) -> None:
    recording = played(dealt)
    verified = verify(recording, dealt, since_issued_ms=HOUR_MS)
    game = recording.game()
    assert game.status == Status.WON
    metrics = game_metrics(game)
    assert verified == Verified(recording.elapsed_ms, metrics.bbbv, metrics.bbbv_per_second)
    assert verified.time_ms > 0 and verified.bbbv > 0


def refusal(recording: Recording, dealt: Dealt, since_issued_ms: int = HOUR_MS) -> str:
    with pytest.raises(Refused) as refused:
        verify(recording, dealt, since_issued_ms=since_issued_ms)
    assert refused.value.status == 422
    return str(refused.value)


def test_a_replay_of_another_board_or_size_is_refused(dealt: Dealt) -> None:
    other = deal("beginner", DAY, seed=6)
    assert refusal(played(other), dealt) == "the replay's mines are not those of the board dealt"
    expert = deal("expert", DAY, seed=5)
    assert refusal(played(dealt), expert) == (
        "the replay is of a 9x9 board with 10 mines, not the 30x16 with 99 dealt"
    )


def test_a_replay_that_does_not_win_is_refused(dealt: Dealt) -> None:
    assert refusal(played(dealt, leave=1), dealt) == "the replay does not win the board"


def test_a_replay_whose_time_or_order_was_altered_is_refused(dealt: Dealt) -> None:
    recording = played(dealt)
    faster = replace(recording, elapsed_ms=recording.elapsed_ms - 1000)
    assert refusal(faster, dealt).startswith(f"the replay says {recording.elapsed_ms - 1000} ms")
    actions = list(recording.actions)
    actions[-1], actions[-2] = actions[-2], actions[-1]  # the last two clicks, times swapped
    assert refusal(replace(recording, actions=tuple(actions)), dealt).startswith(
        "the replay does not replay: action"
    )
    # Times made up all alike are the replay's own: only the time since the board was dealt
    # bounds them (docs/leaderboard.md says what a replay cannot prove).
    early = [Action(a.kind, a.x, a.y, a.t_ms // 2) for a in recording.actions]
    halved = replace(recording, actions=tuple(early), elapsed_ms=early[-1].t_ms)
    assert verify(halved, dealt, since_issued_ms=HOUR_MS).time_ms == early[-1].t_ms


def test_a_replay_faster_than_the_time_since_the_board_was_dealt_is_refused(
    dealt: Dealt,
) -> None:
    recording = played(dealt)
    message = refusal(recording, dealt, since_issued_ms=recording.elapsed_ms - 1)
    assert "but the board was dealt only" in message


def test_a_replay_that_starts_elsewhere_is_refused(dealt: Dealt) -> None:
    recording = played(dealt)
    # The rules that place mines at the first click do not matter: the host made it.
    assert verify(replace(recording, first_click="safe"), dealt, since_issued_ms=HOUR_MS)
    # The same mines, its first click somewhere else than where the host made it.
    moved = Game.from_board(dealt.board.board, clock=FakeClock())
    safe = next(
        (x, y)
        for y in range(9)
        for x in range(9)
        if not dealt.board.board.is_mine(x, y) and (x, y) != dealt.board.first
    )
    moved.reveal(*safe)
    moved.first_click = "opening"
    actions = (*moved.actions, *played(dealt).actions)
    elsewhere = replace(recording, actions=actions)
    assert (
        refusal(elsewhere, dealt) == "the replay does not start with the first click the host made"
    )


def test_an_action_off_the_board_does_not_replay(dealt: Dealt) -> None:
    recording = played(dealt)
    bad = (*recording.actions[:-1], Action(ActionKind.REVEAL, 40, 3, recording.elapsed_ms))
    assert refusal(replace(recording, actions=bad), dealt).startswith("the replay does not replay")


def test_the_host_deals_every_kind_its_first_click_made_and_the_daily_is_the_days() -> None:
    daily = deal("daily", DAY)
    assert daily.day == DAY and daily.board_id == daily_board(DAY).text()
    for kind in BOARD_KINDS[1:]:
        first, second = deal(kind, DAY), deal(kind, DAY)
        assert first.board_id != second.board_id, "a fresh board each time"
        assert first.board.first_click == "opening" and first.day is None
        game = first.board.game()
        assert game.is_revealed(*first.board.first) and game.status == Status.PLAYING
    assert deal("expert", DAY, seed=9).board_id == deal("expert", DAY, seed=9).board_id
    with pytest.raises(ValueError, match="no leaderboard for 'custom'"):
        deal("custom", DAY)  # type: ignore[arg-type]


@pytest.mark.slow  # ms-toollib reads the file in a child process
@pytest.mark.parametrize("kind", ["beginner", "daily"])
def test_an_evf_export_of_a_win_proves_it_as_its_recording_does(kind: str, tmp_path: Path) -> None:
    """What a terminal will submit: textmines' .evf export, read back by ms-toollib."""
    pytest.importorskip("ms_toollib")
    dealt = deal(kind, DAY, seed=5)  # type: ignore[arg-type]
    recording = played(dealt)
    path = tmp_path / "win.evf"
    path.write_bytes(export_evf(recording))
    read = read_replay_file(path).recording
    assert verify(read, dealt, since_issued_ms=HOUR_MS) == verify(
        recording, dealt, since_issued_ms=HOUR_MS
    )
    other = deal(kind, date(2026, 12, 2), seed=6)  # type: ignore[arg-type]
    assert refusal(read, other) == "the replay's mines are not those of the board dealt"
