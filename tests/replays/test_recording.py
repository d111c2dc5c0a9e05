"""The recording a game keeps: it replays exactly, stays small, and damaged bytes are refused
with a message instead of a crash."""

from __future__ import annotations

import contextlib
import random
import zlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.factories import played_game
from tests.helpers import FakeClock
from textmines.engine import ActionKind
from textmines.engine.actions import MOVES
from textmines.engine.board import Board
from textmines.engine.game import Action, Game
from textmines.engine.metrics import game_metrics
from textmines.engine.saved_game import game_from_dict, game_to_dict
from textmines.replays.recording import MAX_ACTIONS, Recording, RecordingError


@pytest.mark.parametrize("seed", range(12))
def test_a_recording_replays_to_the_same_end(seed: int) -> None:
    size = [(30, 16, 99), (16, 16, 40), (9, 9, 10)][seed % 3]
    game = played_game(*size, seed, first_click="opening" if seed % 2 else "safe")
    recording = Recording.decode(Recording.of(game).encode())
    assert recording == Recording.of(game)
    replayed = recording.game()
    assert replayed.view_text() == game.view_text()
    assert (replayed.status, replayed.elapsed_ms) == (game.status, game.elapsed_ms)
    assert recording.first_click == game.first_click


def test_the_game_at_any_action_is_the_game_as_it_was_then() -> None:
    game = played_game(16, 16, 40, 5)
    recording = Recording.of(game)
    views = []
    partial = Game.from_board(recording.board, question_marks=recording.question_marks)
    for kind, x, y, _ in recording.actions:
        if kind == ActionKind.QUESTION_MARKS:
            partial.question_marks = bool(x)
        elif kind in MOVES:
            partial.act(kind, x, y)
        views.append(partial.view_text())
    for count in (1, len(views) // 2, len(views)):
        assert recording.game(count).view_text() == views[count - 1]


def test_a_click_off_the_board_is_kept_and_counted_and_changes_nothing() -> None:
    # Another program's replay file may hold them (see ActionKind.LEFT_OFF_BOARD).
    board = Board.from_text("*.*\n...\n...")
    first = Action(ActionKind.REVEAL, 1, 0, 0)  # a 2: the game goes on
    off = (
        Action(ActionKind.LEFT_OFF_BOARD, 2, 1, 300),
        Action(ActionKind.RIGHT_OFF_BOARD, 1, 2, 700),
    )
    recording = Recording(board, (first, *off), 700)
    assert Recording.decode(recording.encode()) == recording
    game = recording.game()
    assert game.view_text() == Recording(board, (first,), 0).game().view_text()
    assert game.status == "playing"
    figures = game_metrics(game)
    assert (figures.left_clicks, figures.right_clicks, figures.effective_clicks) == (2, 1, 1)
    assert figures.elapsed_ms == 700


@pytest.mark.slow  # ~0.5 s of CPU
def test_an_expert_game_takes_a_few_hundred_bytes() -> None:
    sizes = [len(Recording.of(played_game(30, 16, 99, seed)).encode()) for seed in range(10)]
    assert max(sizes) < 4000


def test_a_game_before_its_first_reveal_has_no_recording() -> None:
    with pytest.raises(ValueError, match="first reveal"):
        Recording.of(Game(9, 9, 10, seed=1))


def valid_bytes() -> bytes:
    return Recording.of(played_game(9, 9, 10, 1)).encode()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "empty"),
        (b"\x09" + valid_bytes()[1:], "version 9"),
        (b"\x01not zlib at all", "damaged"),
        (valid_bytes()[:-5], "cut short"),
        (b"\x01" + zlib.compress(b"\x09\x09\x0a\x00\x00"), "damaged at byte"),
        (b"\x01" + zlib.compress(zlib.decompress(valid_bytes()[1:]) + b"\x00"), "after its last"),
    ],
)
def test_damaged_bytes_are_refused_with_what_is_wrong(data: bytes, message: str) -> None:
    with pytest.raises(RecordingError, match=message):
        Recording.decode(data)


def test_actions_that_cannot_be_taken_are_refused() -> None:
    board = Board.from_text("*..\n...\n...")
    lost_then_more = (Action(ActionKind.REVEAL, 0, 0, 5), Action(ActionKind.REVEAL, 1, 1, 9))
    with pytest.raises(RecordingError, match="action 2 comes after the end"):
        Recording.decode(Recording(board, lost_then_more, 9).encode())
    backwards = (Action(ActionKind.REVEAL, 1, 0, 50), Action(ActionKind.MARK, 0, 0, 10))
    with pytest.raises(ValueError, match="action 2 is earlier"):
        Game.replayed(board, backwards, question_marks=False)


@pytest.mark.slow  # hypothesis: ~0.2 s of CPU
@given(st.binary(max_size=300), st.integers(0, 2**32))
def test_random_or_flipped_bytes_never_crash(noise: bytes, seed: int) -> None:
    for data in (noise, b"\x01" + zlib.compress(noise), flipped(valid_bytes(), seed)):
        with contextlib.suppress(RecordingError):
            Recording.decode(data)


def flipped(data: bytes, seed: int) -> bytes:
    rng = random.Random(seed)
    payload = bytearray(zlib.decompress(data[1:]))
    payload[rng.randrange(len(payload))] ^= 1 << rng.randrange(8)
    return data[:1] + zlib.compress(bytes(payload))


# ---------------------------------------------------------------------------- the game
def test_the_cursor_is_recorded_while_the_clock_runs_and_only_when_it_moves() -> None:
    clock = FakeClock()
    game = Game.from_board(Board.from_text("*...\n....\n...."), clock=clock)
    game.note_cursor(3, 2)  # before the first reveal: no game time yet
    game.reveal(1, 1)  # a 1: the game goes on
    clock.advance(0.5)
    game.note_cursor(1, 1)  # where the reveal was
    game.note_cursor(2, 2)
    game.note_cursor(2, 2)
    game.clock.pause()
    game.note_cursor(1, 1)  # paused
    cursor = [a for a in game.actions if a.kind == ActionKind.CURSOR]
    assert cursor == [Action(ActionKind.CURSOR, 2, 2, 500)]


def test_effective_clicks_count_as_metasweeper_counts_them() -> None:
    game = Game.from_board(Board.from_text("*.*\n...\n..."), question_marks=False)
    game.reveal(1, 0)  # a number: effective
    game.reveal(1, 0)  # again: wasted
    game.toggle_mark(0, 0)  # a mine flagged: effective
    game.toggle_mark(0, 0)  # off
    game.toggle_mark(0, 0)  # on again: the same mine counts once
    game.toggle_mark(1, 2)  # a flag on a safe cell: never effective
    game.toggle_mark(1, 2)
    game.toggle_mark(2, 0)
    game.chord(1, 0)  # opens the rest
    assert game.effective == (1, 2, 1)
    assert game.flags_placed == 4


def test_a_saved_and_resumed_game_goes_on_with_the_same_recording() -> None:
    clock = FakeClock()
    played = played_game(16, 16, 40, 8)
    recording = Recording.of(played)
    # The same moves in two sittings: half, a save, a long break, then the rest.
    game = Game.from_board(recording.board, question_marks=recording.question_marks, clock=clock)
    half = len(recording.actions) // 2
    for action in recording.actions[:half]:
        clock.now = 1000 + action.t_ms / 1000
        _take(game, action)
    saved = game_to_dict(game)
    clock.advance(3600)  # an hour away: not game time
    resumed = game_from_dict(saved, clock=clock)
    start = clock.now - recording.actions[half - 1].t_ms / 1000
    for action in recording.actions[half:]:
        clock.now = start + action.t_ms / 1000
        _take(resumed, action)
    again = Recording.of(resumed)
    assert again.actions == recording.actions
    assert again.game().view_text() == played.view_text()


def _take(game: Game, action: Action) -> None:
    kind, x, y, _ = action
    if kind == ActionKind.CURSOR:
        game.note_cursor(x, y)
    elif kind == ActionKind.PRESS:
        game.note_press(x, y)
    elif kind == ActionKind.QUESTION_MARKS:
        game.question_marks = bool(x)
    else:
        game.act(kind, x, y)


def still_cursor_moves(moves: int) -> bytes:
    """A recording of a 9x9 board: a reveal, then ``moves`` cursor moves that stay where
    they are, all at 0 ms. Compressed: 3 bytes a move inflate from almost nothing (a 35 KB
    one in stats.db held 12 million, decoded in 20 s and 1.5 GB)."""
    from textmines.replays.recording import mine_bits

    board = Board.from_mines(9, 9, list(range(10)))
    header = bytes([9, 9, 10, 0, 0]) + mine_bits(board)
    count = bytearray()
    value = moves + 1
    while value >= 0x80:
        count.append(value & 0x7F | 0x80)
        value >>= 7
    count.append(value)
    payload = header + bytes(count) + bytes([0, 0, 80 * 2]) + bytes([5, 0, 0]) * moves
    return b"\x01" + zlib.compress(payload, 9)


@pytest.mark.parametrize("moves", [MAX_ACTIONS, 4 * MAX_ACTIONS])  # the second, past the
# bytes MAX_ACTIONS can take, is refused as it inflates
def test_a_recording_of_more_actions_than_are_read_is_refused_at_once(moves: int) -> None:
    # Issue 46.19: the count is read before the actions, and refused at once: no bytes are
    # inflated past the most MAX_ACTIONS could take.
    data = still_cursor_moves(moves)
    assert len(data) < 40_000
    with pytest.raises(RecordingError) as refused:
        Recording.decode(data)
    assert str(refused.value) == (
        f"the recording holds {moves + 1:,} actions, more than the {MAX_ACTIONS:,} textmines reads"
    )
