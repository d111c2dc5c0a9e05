"""Game-review benchmarks (issue 37): prints timings, never run as tests.

python benchmarks/review.py            # 40 Expert games, the long replay, a 255x255 game
python benchmarks/review.py --quick    # 10 Expert games

Review time per Expert game: games the solver played from an opening at (3, 3), seeds
0..n-1, each reviewed by ``review_game`` (every decision that opened cells judged by the exact
solver from the position before it). Then the long replay: the 60x36/540 game of about 59,600
mouse events ms-toollib's ``BaseVideo`` writes (tests/replays/toollib.py ``long_game``), read
as the app reads it (``read_replay_file``) and reviewed: its player knows the mines and opens
safe cells at random, so nearly every click is a risk the numbers did not decide (the worst
case: each needs the exact counting); and a 60x36/540 game played as a strong player plays it
(every certain cell first, lucky guesses), the realistic long game; last, a 255x255 game of
3,000 such random safe clicks. Targets: Expert median 1 s at most; the long replay and the
255x255 game stop at the review's budget of work (REVIEW_WORK), in 15 s at most.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from timing import summary

from tests.helpers import FakeClock
from textmines.engine.game import Game
from textmines.engine.review import REVIEW_WORK, review_game
from textmines.engine.solver import next_move


def autoplayed(seed: int) -> Game:
    clock = FakeClock()
    game = Game(30, 16, 99, seed=seed, first_click="opening", clock=clock)
    game.reveal(3, 3)
    while not game.status.is_over:
        clock.advance(0.2)
        move = next_move(game.view_text(), 99)
        game.act(move.kind, move.x, move.y)
    return game


def expert(games: int) -> None:
    seconds, decisions = [], []
    for seed in range(games):
        game = autoplayed(seed)
        assert game.board is not None
        start = time.perf_counter()
        review = review_game(game.board, game.actions, question_marks=False)
        seconds.append(time.perf_counter() - start)
        decisions.append(len(review.decisions))
    print(f"Expert, {games} autoplayed games ({min(decisions)}-{max(decisions)} decisions):")
    print("  review   ", summary(seconds, 1e-3, "ms", 0))


def lucky_expert(seed: int, size: tuple[int, int, int] = (60, 36, 540)) -> Game:
    """A game played as a strong player plays: every certain cell first (the solver's
    moves), and where a guess is needed, a safe cell (a lucky guess): it is always won."""
    width, height, mines = size
    clock = FakeClock()
    game = Game(width, height, mines, seed=seed, first_click="opening", clock=clock)
    game.reveal(width // 2, height // 2)
    board = game.board
    assert board is not None
    rng = random.Random(seed)
    while not game.status.is_over:
        clock.advance(0.3)
        move = next_move(game.view_text(), mines)
        if move.probability in (0.0, 1.0):
            game.act(move.kind, move.x, move.y)
            continue
        covered = [
            (x, y)
            for y in range(height)
            for x in range(width)
            if game.cell(x, y) in "#?" and not board.is_mine(x, y)
        ]
        game.reveal(*rng.choice(covered))
    return game


def long_game_reviews(seed: int) -> None:
    game = lucky_expert(seed)
    assert game.board is not None
    start = time.perf_counter()
    review = review_game(game.board, game.actions, question_marks=False)
    took = time.perf_counter() - start
    print(
        f"60x36/540 played certain cells first, lucky guesses: {len(game.actions)} actions, "
        f"{len(review.decisions)} decisions, {review.guesses} guesses: reviewed in {took:.2f} s"
        f" ({review.work / 1e6:.1f}M units of work)"
    )


def long_replay(seed: int) -> None:
    from tests.replays.toollib import basevideo_file, long_game
    from textmines.replays.foreign import read_replay_file

    with tempfile.TemporaryDirectory() as name:
        path = Path(name) / "long.evf"
        board, steps = long_game(seed, (60, 36, 540), 250)
        basevideo_file(board, steps, path)
        recording = read_replay_file(path).recording
        start = time.perf_counter()
        review = review_game(
            recording.board, recording.actions, question_marks=recording.question_marks
        )
        took = time.perf_counter() - start
    whole = "the whole game" if review.complete else "stopped at its budget"
    print(
        f"60x36/540 replay, {len(steps)} mouse events, {len(recording.actions)} actions, "
        f"{len(review.decisions)} decisions: reviewed in {took:.2f} s ({whole}, "
        f"{review.work / 1e6:.1f}M units of work)"
    )


def huge_board(seed: int, clicks: int = 3000) -> None:
    """A 255x255/13000 game of ``clicks`` safe cells opened at random by a player who knows
    the mines (issue 46.19: its review ran for over 20 minutes): the review's budget of work
    stops it."""
    clock = FakeClock()
    game = Game(255, 255, 13000, seed=seed, first_click="safe", clock=clock)
    game.reveal(127, 127)
    board = game.board
    assert board is not None
    rng = random.Random(seed)
    safe = [(x, y) for y in range(255) for x in range(255) if not board.is_mine(x, y)]
    while len(game.actions) <= clicks and not game.status.is_over:
        x, y = rng.choice(safe)
        if game.cell(x, y) in "#?":
            clock.advance(0.5)
            game.reveal(x, y)
    start = time.perf_counter()
    review = review_game(board, game.actions, question_marks=False)
    took = time.perf_counter() - start
    whole = "the whole game" if review.complete else "stopped at its budget"
    print(
        f"255x255/13000, {len(game.actions)} clicks at random: {len(review.decisions)} "
        f"decisions reviewed in {took:.2f} s ({whole}, {review.work / 1e6:.1f}M units of work)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10 Expert games")
    parser.add_argument("--games", type=int, default=40)
    args = parser.parse_args()
    print("command:", " ".join([Path(sys.executable).name, *sys.argv]))
    print(f"python {platform.python_version()}, {platform.system()}")
    print(f"budget: {REVIEW_WORK / 1e6:.0f}M units of work a review")
    expert(10 if args.quick else args.games)
    long_game_reviews(1)
    if not args.quick:
        long_replay(1)
        huge_board(3)


if __name__ == "__main__":
    main()
