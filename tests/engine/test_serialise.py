"""Saving a game to a dict and resuming it."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from tests.helpers import FakeClock
from textmines.engine import Board, Game, Status
from textmines.engine.saved_game import game_from_dict, game_to_dict


def round_trip(game: Game, clock: FakeClock | None = None) -> Game:
    data = json.loads(json.dumps(game_to_dict(game)))
    return game_from_dict(data, clock=clock or FakeClock())


def mid_game(clock: FakeClock) -> Game:
    game = Game(16, 16, 40, seed=11, clock=clock)
    game.toggle_mark(0, 0)
    game.reveal(8, 8)
    clock.advance(1.5)
    game.toggle_mark(15, 15)
    game.toggle_mark(15, 15)
    game.question_marks = False
    game.toggle_mark(14, 15)
    game.toggle_mark(14, 15)
    game.flag(13, 15)  # saved as "f": a replay must not cycle it like a right click
    clock.advance(0.25)
    game.chord(8, 8)
    return game


def test_round_trip_is_exact(clock: FakeClock) -> None:
    game = mid_game(clock)
    restored = round_trip(game, FakeClock(0))
    assert game_to_dict(restored) == game_to_dict(game)
    assert restored.view_text() == game.view_text()
    assert restored.status == Status.PLAYING
    assert (restored.mines_left, restored.safe_left, restored.seed) == (
        game.mines_left,
        game.safe_left,
        game.seed,
    )
    assert restored.board == game.board
    assert restored.actions == game.actions
    assert restored.question_marks is False


def test_resumed_game_continues_where_it_was(clock: FakeClock) -> None:
    game = mid_game(clock)
    later = FakeClock(50_000)
    restored = round_trip(game, later)
    assert restored.elapsed_ms == 1750
    later.advance(2)
    assert restored.elapsed_ms == 3750
    board = game.board
    assert board is not None
    for y in range(board.height):
        for x in range(board.width):
            if not board.is_mine(x, y):
                while game.cell(x, y) in "F?":  # take marks off safe cells, on both games
                    assert game.toggle_mark(x, y) and restored.toggle_mark(x, y)
                a, b = game.reveal(x, y), restored.reveal(x, y)
                assert list(a.cells()) == list(b.cells())
    assert restored.status == game.status == Status.WON
    assert restored.view_text() == game.view_text()


def test_a_game_saved_before_its_first_reveal_gets_the_same_board(clock: FakeClock) -> None:
    game = Game(9, 9, 10, seed=77, first_click="safe", clock=clock)
    game.toggle_mark(0, 0)
    restored = round_trip(game)
    assert restored.board is None and restored.cell(0, 0) == "F"
    game.reveal(5, 5)
    restored.reveal(5, 5)
    assert restored.board == game.board


@pytest.mark.parametrize("ending", ["won", "lost"])
def test_finished_games_round_trip(clock: FakeClock, ending: str) -> None:
    game = Game.from_board(Board.from_text("*..\n...\n..*"), clock=clock)
    game.reveal(2, 0)
    clock.advance(3.21)
    game.reveal(0, 2) if ending == "won" else game.reveal(0, 0)
    restored = round_trip(game)
    assert restored.status == ending
    assert restored.view_text() == game.view_text()
    assert restored.elapsed_ms == 3210


def test_fixed_board_round_trips_before_the_first_reveal() -> None:
    game = Game.from_board(Board.from_text("*..\n..."))
    restored = round_trip(game)
    assert restored.board == game.board and restored.status == Status.READY


def valid() -> dict[str, Any]:
    game = Game(5, 5, 3, seed=1, clock=FakeClock())
    game.reveal(2, 2)
    game.toggle_mark(0, 0)
    return game_to_dict(game)


def broken(**changes: Any) -> dict[str, Any]:
    data = copy.deepcopy(valid())
    data.update(changes)
    return data


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "expected a dict"),
        ({}, "'format' must be 'textmines-game'"),
        (broken(version=99), "unsupported version 99"),
        (broken(width="5"), "'width' must be of type int"),
        (broken(mines=True), "'mines' must be of type int"),
        (broken(mines=4), "'layout' does not match"),
        (broken(layout="..x"), "not '\\*' \\(mine\\) or '.'"),
        (broken(layout=None, seed=None), "needs a seed"),
        (broken(seed="x"), "'seed' must be a whole number"),
        (broken(first_click="left"), "'opening' or 'safe'"),
        (broken(actions=[["z", 0, 0, 0]]), "action 1 must be"),
        (broken(actions=[["r", 0, 0]]), "action 1 must be"),
        (broken(actions=[["r", 9, 0, 0]]), "outside the 5x5 board"),
        (broken(actions=[["m", 0, 0, 5], ["m", 0, 0, 4]]), "action 2 is earlier"),
        (broken(elapsed_ms=-1), "'elapsed_ms' is earlier"),
        (broken(view="#####"), "does not give the saved 'view'"),
        (
            broken(question_marks=True, actions=[["q", 0, 0, 0]]),
            "does not match the recorded option",
        ),
    ],
)
def test_malformed_saves_raise_a_clear_value_error(data: Any, message: str) -> None:
    with pytest.raises(ValueError, match="not a valid saved game: .*" + message):
        game_from_dict(data)


def test_actions_after_the_end_are_rejected() -> None:
    game = Game.from_board(Board.from_text("*.."), clock=FakeClock())
    game.reveal(0, 0)
    data = game_to_dict(game)
    data["actions"].append(["r", 1, 0, 0])
    with pytest.raises(ValueError, match="action 2 comes after the end"):
        game_from_dict(data)


def test_no_guess_flag_round_trips(clock: FakeClock) -> None:
    before = Game(16, 16, 40, seed=5, no_guess=True, clock=clock)
    restored = round_trip(before)
    assert restored.no_guess is True and restored.board is None
    game = Game(16, 16, 40, seed=5, no_guess=True, clock=clock)
    game.reveal(3, 3)
    restored = round_trip(game)
    assert restored.no_guess is True
    assert restored.no_guess_failed is game.no_guess_failed
    assert restored.board == game.board
    assert game_to_dict(restored) == game_to_dict(game)
    # Saves from before no-guess mode have no such keys: an ordinary game.
    data = json.loads(json.dumps(game_to_dict(game)))
    del data["no_guess"], data["no_guess_failed"]
    old = game_from_dict(data, clock=FakeClock())
    assert old.no_guess is False and old.no_guess_failed is False
    assert old.board == game.board
    data["no_guess"] = "yes"
    with pytest.raises(ValueError, match="no_guess"):
        game_from_dict(data, clock=FakeClock())


def test_a_replayed_game_with_clicks_off_the_board_round_trips() -> None:
    # Such clicks come only from other programs' files; a game replayed from one (to play on
    # from it, say) had no way to be saved: a KeyError.
    from textmines.engine.actions import ActionKind
    from textmines.engine.game import Action

    board = Board.from_text("*.*\n...\n...")
    actions = [
        Action(ActionKind.REVEAL, 1, 2, 0),
        Action(ActionKind.LEFT_OFF_BOARD, 2, 2, 100),
        Action(ActionKind.RIGHT_OFF_BOARD, 2, 2, 200),
    ]
    game = Game.replayed(board, actions, question_marks=True, clock=FakeClock())
    restored = round_trip(game)
    assert game_to_dict(restored) == game_to_dict(game)
    assert [a.kind for a in restored.actions] == [a.kind for a in actions]
