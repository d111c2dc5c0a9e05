"""Games and statistics records made to order: the one factory the store tests, the statistics
screen tests, the store worker processes, the replay tests and benchmarks/store.py share.

Only what a test cares about is given; the rest follows as in a real game (3BV solved, the
efficiency and 3BV/s from the clicks and the time).
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from tests.helpers import FakeClock
from textmines.engine.game import Game
from textmines.store.stats import GameRecord, Group

__all__ = ["autoplayed_game", "game_record", "played_game"]


def game_record(
    outcome: str = "won",
    *,
    ended: datetime,
    time_ms: int = 10_000,
    size: tuple[int, int, int] = (9, 9, 10),
    no_guess: bool = False,
    assisted: bool = False,
    bbbv: int = 20,
    solved_bbbv: int | None = None,
    clicks: tuple[int, int, int] | None = None,
    seed: int | None = 7,
) -> GameRecord:
    """A game of ``size`` (width, height, mines) that ended at ``ended`` after ``time_ms``.

    ``solved_bbbv`` defaults to all of ``bbbv`` for a win and half of it otherwise; ``clicks``
    (left, right, chord) to one left click per 3BV, three flags and one chord.
    """
    group = Group.for_board(*size, no_guess=no_guess)
    if solved_bbbv is None:
        solved_bbbv = bbbv if outcome == "won" else bbbv // 2
    left, right, chord = clicks if clicks is not None else (bbbv, 3, 1)
    total = left + right + chord
    return GameRecord(
        started_at=ended - timedelta(milliseconds=time_ms),
        ended_at=ended,
        preset=group.preset,
        width=group.width,
        height=group.height,
        mines=group.mines,
        first_click="opening",
        seed=seed,
        outcome=outcome,
        time_ms=time_ms,
        bbbv=bbbv,
        solved_bbbv=solved_bbbv,
        left_clicks=left,
        right_clicks=right,
        chord_clicks=chord,
        efficiency=solved_bbbv / total if total else 0.0,
        bbbv_per_s=solved_bbbv * 1000 / time_ms if time_ms else 0.0,
        assisted=assisted,
        no_guess=no_guess,
    )


def played_game(
    width: int, height: int, mines: int, seed: int, *, first_click: str = "safe"
) -> Game:
    """A game played to its end by a random player who knows where the mines are: mostly
    reveals, with flags (some on safe cells, taken off again), chords, wasted clicks, cursor
    moves, mouse presses held before a move (and some that come to nothing), pauses of every
    length and now and then a lost game. Deterministic per ``seed``."""
    rng = random.Random(seed)
    clock = FakeClock()
    game = Game(width, height, mines, seed=seed, first_click=first_click, clock=clock)
    game.reveal(rng.randrange(width), rng.randrange(height))
    board = game.board
    assert board is not None
    cells = [(x, y) for y in range(height) for x in range(width)]
    doomed = rng.random() < 0.2  # this game ends on a mine
    while not game.status.is_over:
        clock.advance(rng.choice((0.0, 0.05, 0.2, 0.4, 1.0, 3.0, 70.0)) * rng.random())
        view = game.view_text().split("\n")
        covered = [(x, y) for x, y in cells if view[y][x] in "#?"]
        safe = [(x, y) for x, y in covered if not board.is_mine(x, y)]
        flags = [(x, y) for x, y in cells if view[y][x] == "F"]
        numbers = [(x, y) for x, y in cells if view[y][x] in "12345678"]
        roll = rng.random()
        if roll < 0.05:
            game.note_cursor(*rng.choice(cells))
        elif roll < 0.12 and covered:
            game.toggle_mark(*rng.choice(covered))  # a flag, right or wrong
        elif roll < 0.18 and flags:
            game.toggle_mark(*rng.choice(flags))  # off again, or on to a question mark
        elif roll < 0.26 and numbers:
            cell = rng.choice(numbers)
            _press_first(game, clock, rng, cell)
            game.chord(*cell)  # works only where the flags add up
        elif roll < 0.30 and numbers:
            game.reveal(*rng.choice(numbers))  # wasted
        elif doomed and roll < 0.33:
            game.reveal(*rng.choice([c for c in covered if board.is_mine(*c)] or safe))
        elif safe:
            cell = rng.choice(safe)
            _press_first(game, clock, rng, cell)
            game.reveal(*cell)
    return game


def _press_first(game: Game, clock: FakeClock, rng: random.Random, cell: tuple[int, int]) -> None:
    """Now and then a mouse press before the move (held a moment), or one that comes to
    nothing (released beside the board)."""
    roll = rng.random()
    if roll < 0.05:
        game.note_press(*rng.choice([(0, 0), cell]))  # let go elsewhere: no move
    if roll < 0.4:
        game.note_press(*cell)
        clock.advance(rng.uniform(0.02, 0.3))


def autoplayed_game(width: int, height: int, mines: int, seed: int) -> Game:
    """A game played to its end by the solver (the autoplay's moves: reveals, flags and
    chords where they are certain), a second of game time or so between moves."""
    from textmines.engine import ActionKind
    from textmines.engine.solver import first_click, next_move

    rng = random.Random(seed)
    clock = FakeClock()
    game = Game(width, height, mines, seed=seed, clock=clock)
    game.reveal(*first_click(width, height))
    while not game.status.is_over:
        clock.advance(rng.uniform(0.1, 1.5))
        move = next_move(game.view_text(), mines)
        assert move is not None
        game.act(ActionKind(move.kind), move.x, move.y)
    return game
