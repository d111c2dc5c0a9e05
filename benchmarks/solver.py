"""Solver benchmarks: autoplay win rates, analysis time, no-guess generation. Not a test.

python benchmarks/solver.py                    # everything (5000/5000/10000 games, slow)
python benchmarks/solver.py --games 500        # 500 games on every preset
python benchmarks/solver.py --only winrate --rule safe --games 20000  # one first-click rule
python benchmarks/solver.py --only noguess     # one section: winrate, timing, noguess or big
python benchmarks/solver.py --only big --big-boards 3  # no-guess deals on huge boards
python benchmarks/solver.py --only huge        # 1000x1000/150000: budget and peak memory
python benchmarks/solver.py --only calibrate   # the no-guess dealer's units of work a second

Autoplay: a new seeded game per seed 0..n-1, first click at (3, 3) (0-based) with the
opening rule, or in the corner (0, 0) with the safe rule; then every certain safe cell of
``analyse`` at once, and ``best_guess`` when none is left. A decision's time is that of
the analysis plus the guess choice when there is one, on the Expert games.
"""

from __future__ import annotations

import argparse
import math
import platform
import random
import resource
import sys
import threading
import time
from collections.abc import Callable, Iterator
from functools import partial
from multiprocessing import Pool
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from timing import summary

from textmines.engine import BEGINNER, EXPERT, INTERMEDIATE, Game, Preset, Status
from textmines.engine.generate import place_mines_no_guess
from textmines.engine.noguess import (
    WORK_PER_SECOND,
    DealCancelled,
    DealProgress,
    time_limit_for,
)
from textmines.engine.solver import analyse, best_guess, first_click


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


#: The first-click rules measured: the rule, and where the first click is made.
RULES = {"opening": ("opening", (3, 3)), "safe": ("safe", (0, 0))}


class Decision(NamedTuple):
    """One of autoplay's decisions (``decisions``): the cells it reveals (every certain cell
    at once, in reading order, else its guess), whether it guessed, and the seconds it took
    by the clock given."""

    cells: list[tuple[int, int]]
    guess: bool
    seconds: float


def started(seed: int, rule: str, size: tuple[int, int, int] = EXPERT.size) -> Game:
    """The game of ``seed`` under ``rule`` (``RULES``), its first click not made yet."""
    width, height, mines = size
    return Game(width, height, mines, seed=seed, first_click=RULES[rule][0])


def decisions(
    game: Game, rule: str, clock: Callable[[], float] = time.perf_counter
) -> Iterator[Decision]:
    """Autoplay on ``game``: the first click of ``rule``, then each decision until the game
    ends, yielded before its cells are revealed (the game is as the decision saw it)."""
    game.reveal(*RULES[rule][1])
    while not game.status.is_over:
        view = game.view_text()
        start = clock()
        analysis = analyse(view, game.mines)
        cells = sorted(analysis.safe, key=lambda c: (c[1], c[0]))
        guess = not cells
        if guess:
            cells = [best_guess(view, analysis)]
        yield Decision(cells, guess, clock() - start)
        for cx, cy in cells:
            game.reveal(cx, cy)


def play(
    job: tuple[int, int, int, int, str],
) -> tuple[bool, int, list[float], list[float], int | None]:
    """One autoplay game: (won, guesses, seconds per decision, seconds per guess decision,
    safe cells left when the fatal guess was made, or None for a win).

    A decision is what the autoplay does before a move: the analysis, and the guess choice
    when no cell is certainly safe (every certain cell is then revealed at once).
    """
    seed, width, height, mines, rule = job
    game = started(seed, rule, (width, height, mines))
    times: list[float] = []
    guess_times: list[float] = []
    safe_left = None
    for decision in decisions(game, rule):
        times.append(decision.seconds)
        if decision.guess:
            guess_times.append(decision.seconds)
            safe_left = game.safe_left
    won = game.status == Status.WON
    return won, len(guess_times), times, guess_times, None if won else safe_left


#: Published win rates to compare with: PSEQ-D256 (100M games) and David Hill's solver.
PUBLISHED = {
    ("opening", "Expert"): "PSEQ 53.45%, Hill 54.3%",
    ("safe", "Expert"): "PSEQ 40.05%, Hill 41.13%",
    ("safe", "Intermediate"): "PSEQ 78.12%",
    ("safe", "Beginner"): "PSEQ 91.68%",
}


def win_rates(  # type: ignore[type-arg]
    pool: Pool, games: dict[str, int], rules: list[str], timing_only: bool, first_seed: int = 0
) -> None:
    presets: list[tuple[Preset, int]] = [
        (preset, games[preset.key])
        for preset in (BEGINNER, INTERMEDIATE, EXPERT)
        if games.get(preset.key)
    ]
    if timing_only:
        presets = [(preset, n) for preset, n in presets if preset is EXPERT]
    for rule in rules:
        first_rule, at = RULES[rule]
        print(f"Autoplay, {first_rule} first click at {at}, seeds {first_seed}..{first_seed}+n-1:")
        for preset, n in presets:
            _win_rate(pool, preset, n, rule, first_seed)


def _win_rate(pool: Pool, preset: Preset, n: int, rule: str, first_seed: int) -> None:  # type: ignore[type-arg]
    start = time.perf_counter()
    jobs = [(seed, *preset.size, rule) for seed in range(first_seed, first_seed + n)]
    results = pool.map(play, jobs, chunksize=20)
    wins = sum(r[0] for r in results)
    low, high = wilson(wins, n)
    guesses = sum(r[1] for r in results) / n
    elapsed = time.perf_counter() - start
    published = PUBLISHED.get((rule, preset.name), "")
    print(
        f"  {preset.label:<22} won {wins}/{n} = {100 * wins / n:5.2f}%"
        f"  95% CI [{100 * low:5.2f}, {100 * high:5.2f}]"
        f"  guesses/game {guesses:4.2f}  ({elapsed:.0f} s)"
        + (f"  [{published}]" if published else ""),
        flush=True,
    )
    print(f"    {where_lost([r[4] for r in results if r[4] is not None])}")
    if preset is EXPERT:
        decisions = sorted(t for r in results for t in r[2])
        guessing = sorted(t for r in results for t in r[3])
        for label, times in (("every decision", decisions), ("guesses only", guessing)):
            p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
            print(f"    {label:<15} {summary(times, 1e-3, 'ms', 2)}  p99 {p99 * 1e3:8.2f} ms")


#: Where games are lost: bands of safe cells left when the fatal guess was made.
LOSS_BANDS = ((1, 5), (6, 20), (21, 100), (101, None))


def where_lost(safe_left: list[int]) -> str:
    """The share of the losses in each band of safe cells left at the fatal guess: the end
    game's forced guesses (few cells left) against the look-ahead's (many)."""
    if not safe_left:
        return "no game lost"
    shares = []
    for low, high in LOSS_BANDS:
        count = sum(1 for n in safe_left if n >= low and (high is None or n <= high))
        band = f"{low}-{high}" if high is not None else f"{low}+"
        shares.append(f"{band} {100 * count / len(safe_left):.0f}%")
    return "lost with safe cells left: " + ", ".join(shares)


def generate(
    job: tuple[int, int, int, int], centre: bool = False, work_limit: int | None = None
) -> tuple[float, bool, int]:
    """One no-guess board: (seconds, solved, units of work) for a first click at (3, 3) or
    the centre, on the default work budget or ``work_limit``."""
    seed, width, height, mines = job
    x, y = (width // 2, height // 2) if centre else first_click(width, height)
    reports: list[DealProgress] = []
    start = time.perf_counter()
    _, solved = place_mines_no_guess(
        width,
        height,
        mines,
        y * width + x,
        random.Random(seed),
        work_limit=work_limit,
        on_progress=reports.append,
    )
    return time.perf_counter() - start, solved, reports[-1].work_used


def no_guess(pool: Pool, boards: int) -> None:  # type: ignore[type-arg]
    print(f"No-guess generation, first click at (3, 3), seeds 0..{boards - 1}:")
    for width, height, mines in ((30, 16, 99), (16, 16, 60), (30, 16, 130), (30, 16, 170)):
        jobs = [(seed, width, height, mines) for seed in range(boards)]
        results = pool.map(generate, jobs, chunksize=5)
        times = [r[0] for r in results]
        failed = sum(not r[1] for r in results)
        print(
            f"  {width}x{height}/{mines:<4} {summary(times, 1e-3, 'ms', 2)}"
            f"  fallbacks {failed}/{boards}",
            flush=True,
        )


#: Boards the work unit is calibrated on: small to huge, sparse to far too dense (the last
#: Expert-sized one never deals: it spends its whole budget).
CALIBRATION = (
    (9, 9, 10, 100),
    (9, 9, 30, 50),
    (16, 16, 40, 100),
    (30, 16, 99, 100),
    (30, 16, 170, 50),
    (30, 16, 250, 5),
    (30, 16, 400, 2),
    (100, 100, 2000, 2),
    (100, 100, 3000, 1),
    (300, 300, 18000, 1),
)


def calibrate(pool: Pool) -> None:  # type: ignore[type-arg]
    """Units of work a second of dealing does on this machine, board by board (no budget
    is reached but the 83%-mines board's): what ``noguess.WORK_PER_SECOND`` should be."""
    print(f"Units of no-guess work per second (WORK_PER_SECOND is {WORK_PER_SECOND:,}):")
    for width, height, mines, boards in CALIBRATION:
        jobs = [(seed, width, height, mines) for seed in range(boards)]
        limit = 4 * WORK_PER_SECOND if mines > width * height // 2 else 10**12
        results = pool.map(partial(generate, centre=True, work_limit=limit), jobs, chunksize=1)
        seconds = sum(r[0] for r in results)
        units = sum(r[2] for r in results)
        print(
            f"  {width}x{height}/{mines:<6} {boards:>4} deals  {seconds:8.3f} s"
            f"  {units:>12,} units  {units / seconds:>12,.0f} units/s",
            flush=True,
        )


def cancel_latency(job: tuple[int, int, int, int]) -> float:
    """Seconds from Escape (another thread sets the flag one second in) to DealCancelled."""
    seed, width, height, mines = job
    index = (height // 2) * width + width // 2
    cancel = threading.Event()
    asked: list[float] = []

    def press_escape() -> None:
        asked.append(time.perf_counter())
        cancel.set()

    timer = threading.Timer(1.0, press_escape)
    timer.start()
    try:
        place_mines_no_guess(
            width, height, mines, index, random.Random(seed), should_stop=cancel.is_set
        )
    except DealCancelled:
        return time.perf_counter() - asked[0]
    finally:
        timer.cancel()
    return math.nan  # dealt within the first second


def big_boards(pool: Pool, boards: int) -> None:  # type: ignore[type-arg]
    """What the UI's dealing box waits for on huge boards: time to deal, fallbacks and how
    fast Escape takes effect."""
    print(f"No-guess deals on big boards, first click in the centre, seeds 0..{boards - 1}:")
    for width, height, mines in ((100, 100, 2000), (300, 300, 18000)):
        jobs = [(seed, width, height, mines) for seed in range(boards)]
        results = pool.map(partial(generate, centre=True), jobs, chunksize=1)
        latencies = pool.map(cancel_latency, jobs, chunksize=1)
        times = [r[0] for r in results]
        failed = sum(not r[1] for r in results)
        print(
            f"  {width}x{height}/{mines:<6} deal {summary(times, 1, 's', 1)}"
            f"  fallbacks {failed}/{boards} (budget {time_limit_for(width, height):g} s of work)"
            f"  cancel {summary(latencies, 1e-3, 'ms', 0)}",
            flush=True,
        )


def huge_deal(job: tuple[int, int, int, int]) -> tuple[float, bool, float]:
    """One no-guess deal in a fresh process: (seconds, solved, peak resident MB of it)."""
    seconds, solved, _ = generate(job, centre=True)
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KB on Linux
    return seconds, solved, peak_kb / 1024


def huge_boards(boards: int) -> None:
    """Issue 18 item 11: the deal must end with its budget (20 s of work here) and hold
    little memory, however big the board. Each deal runs in its own process to measure its peak."""
    width, height, mines = 1000, 1000, 150_000
    print(f"No-guess deals on {width}x{height}/{mines}, seeds 0..{boards - 1}, one process each:")
    results = []
    for seed in range(boards):
        with Pool(1, maxtasksperchild=1) as single:
            results.append(single.apply(huge_deal, ((seed, width, height, mines),)))
    times = [r[0] for r in results]
    print(
        f"  deal {summary(times, 1, 's', 2)} (budget {time_limit_for(width, height):g} s of work)"
        f"  fallbacks {sum(not r[1] for r in results)}/{boards}"
        f"  peak RSS max {max(r[2] for r in results):.0f} MB",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games",
        type=int,
        default=None,
        help="games per preset (default 5000 Beginner/Intermediate, 10000 Expert)",
    )
    parser.add_argument("--boards", type=int, default=500, help="no-guess boards per size")
    parser.add_argument(
        "--first-seed", type=int, default=0, help="seeds first-seed..first-seed+n-1"
    )
    parser.add_argument(
        "--presets",
        default="beginner,intermediate,expert",
        help="the presets to play, e.g. expert",
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--big-boards", type=int, default=3, help="seeds per huge board")
    parser.add_argument(
        "--only",
        choices=["winrate", "timing", "noguess", "big", "huge", "calibrate"],
        default=None,
    )
    parser.add_argument(
        "--rule",
        choices=["opening", "safe", "both"],
        default="both",
        help="first click: opening at (3, 3), safe in the corner (0, 0), or both",
    )
    args = parser.parse_args()
    print("command:", " ".join([Path(sys.executable).name, *sys.argv]))
    print("python:", platform.python_version(), platform.python_implementation())
    print(f"workers: {args.workers}")
    chosen = args.presets.split(",")
    games = {
        key: (args.games or (10000 if key == "expert" else 5000)) if key in chosen else 0
        for key in ("beginner", "intermediate", "expert")
    }
    with Pool(args.workers) as pool:
        if args.only in (None, "winrate", "timing"):
            rules = ["opening", "safe"] if args.rule == "both" else [args.rule]
            win_rates(pool, games, rules, args.only == "timing", args.first_seed)
        if args.only in (None, "noguess"):
            no_guess(pool, args.boards)
        if args.only in (None, "big"):
            big_boards(pool, args.big_boards)
        if args.only == "calibrate":
            calibrate(pool)
    if args.only in (None, "huge"):
        huge_boards(args.big_boards)


if __name__ == "__main__":
    main()
