"""UI benchmarks: CPU time per key press against a trivial Textual app, start-up, big floods.

    python benchmarks/ui.py                          # a few minutes
    python benchmarks/ui.py --presses 100 --rounds 1

CPU time (time.process_time) is measured, never wall time: the Pilot sleeps on its own
between presses. Each figure is compared with the same loop on a one-Static app in the
same run, and reported as a ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from rich.console import RenderableType
from textual.app import App
from textual.screen import Screen
from trivial import TrivialApp

from textmines.config import GameConfig
from textmines.ui.app import TextminesApp
from textmines.ui.board import BoardView


def frozen_clock() -> float:
    return 0.0


async def cpu_per_press(app: App[None], keys: list[str], size: tuple[int, int]) -> float:
    """Median CPU seconds per key press over ``keys`` (after a warm-up)."""
    samples = []
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press(*keys[:5])  # warm caches
        for key in keys:
            start = time.process_time()
            await pilot.press(key)
            samples.append(time.process_time() - start)
    return statistics.median(samples)


async def reveal_presses(config: GameConfig, size: tuple[int, int], n: int) -> float:
    """CPU per Space press that reveals a number (cursor placed between presses)."""
    app = TextminesApp(config, clock=frozen_clock)
    samples = []
    async with app.run_test(size=size) as pilot:
        await pilot.press("space")
        board = app.query_one(BoardView)
        game = app.game
        assert game.board is not None
        targets = [
            (x, y)
            for y in range(game.height)
            for x in range(game.width)
            if not game.board.is_mine(x, y) and game.cell(x, y) == "#"
        ]
        # Prefer cells near the cursor so the view does not scroll for every press.
        cx, cy = board.cursor
        targets.sort(key=lambda c: abs(c[0] - cx) + abs(c[1] - cy))
        for x, y in targets[:n]:
            if game.cell(x, y) != "#":
                continue
            board.move_cursor(x, y)
            await pilot.pause()
            start = time.process_time()
            await pilot.press("space")
            samples.append(time.process_time() - start)
    return statistics.median(samples)


async def startup_once(make: Callable[[], App[None]]) -> tuple[float, float]:
    """CPU seconds from constructing the app to its first painted frame, and to the point
    where every start-up message has been handled."""
    gc.collect()  # garbage left by earlier runs is not this start-up's cost
    start = time.process_time()
    app = make()
    first: float | None = None
    display = app._display  # the one place every frame goes through, headless or not

    def timed_display(screen: Screen[object], renderable: RenderableType | None) -> None:
        nonlocal first
        if renderable is not None and first is None:
            first = time.process_time() - start
        display(screen, renderable)

    app._display = timed_display  # type: ignore[method-assign]
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        settled = time.process_time() - start
    assert first is not None
    return first, settled


async def startup(runs: int) -> tuple[tuple[float, float], tuple[float, float]]:
    """Medians of (first frame, settled) for the trivial app and for textmines on Expert,
    measured alternately so that drift in the machine's load hits both alike."""
    trivial, ours = [], []
    for _ in range(runs):
        trivial.append(await startup_once(TrivialApp))
        ours.append(
            await startup_once(
                lambda: TextminesApp(GameConfig(30, 16, 99, seed=1), clock=frozen_clock)
            )
        )

    def medians(samples: list[tuple[float, float]]) -> tuple[float, float]:
        return (
            statistics.median(s[0] for s in samples),
            statistics.median(s[1] for s in samples),
        )

    return medians(trivial), medians(ours)


async def huge_flood() -> tuple[float, float]:
    """Wall and CPU seconds from pressing Space on a 1000x1000/1 board to the repainted screen."""
    app = TextminesApp(GameConfig(1000, 1000, 1, seed=3), clock=frozen_clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        wall, cpu = time.perf_counter(), time.process_time()
        await pilot.press("space")
        await pilot.pause()
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        assert app.game.safe_left == 0
    return wall, cpu


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--presses", type=int, default=200, help="presses per figure")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of every figure")
    args = parser.parse_args()
    n = args.presses
    moves = ["right", "down", "left", "up"] * (n // 4)
    size = (120, 40)
    print(
        f"textmines UI benchmark: {n} presses per figure, {args.rounds} rounds, "
        f"terminal {size[0]}x{size[1]}, Python {sys.version.split()[0]}\n"
    )

    # Rounds alternate the apps so that drift in the machine's load hits all of them alike;
    # each figure is the median over the rounds.
    configs = {
        "Expert 30x16/99": GameConfig(30, 16, 99, seed=1),
        "300x300/13500": GameConfig(300, 300, 13500, seed=1),
    }
    trivial_runs: list[float] = []
    move_runs: dict[str, list[float]] = {label: [] for label in configs}
    reveal_runs: dict[str, list[float]] = {label: [] for label in configs}
    for _ in range(args.rounds):
        trivial_runs.append(await cpu_per_press(TrivialApp(), moves, size))
        for label, config in configs.items():
            app = TextminesApp(config, clock=frozen_clock)
            move_runs[label].append(await cpu_per_press(app, moves, size))
            reveal_runs[label].append(await reveal_presses(config, size, n // 2))
    trivial = statistics.median(trivial_runs)
    print(f"trivial one-Static app     {trivial * 1e3:6.2f} ms CPU per key")
    for label in configs:
        move = statistics.median(move_runs[label])
        reveal = statistics.median(reveal_runs[label])
        print(
            f"{label:26s} move {move * 1e3:6.2f} ms ({move / trivial:4.2f}x)"
            f"   reveal {reveal * 1e3:6.2f} ms ({reveal / trivial:4.2f}x)"
        )

    runs = 15
    await startup(2)  # warm imports and caches
    (t_first, t_settled), (o_first, o_settled) = await startup(runs)
    print(
        f"start-up, first frame      trivial {t_first * 1e3:6.1f} ms, textmines Expert "
        f"{o_first * 1e3:6.1f} ms CPU ({o_first / t_first:4.2f}x, median of {runs})"
    )
    print(
        f"start-up, settled          trivial {t_settled * 1e3:6.1f} ms, textmines Expert "
        f"{o_settled * 1e3:6.1f} ms CPU ({o_settled / t_settled:4.2f}x)"
    )
    wall, cpu = await huge_flood()
    print(f"1000x1000/1 first click    screen updated in {wall:5.2f} s wall ({cpu:5.2f} s CPU)")


if __name__ == "__main__":
    asyncio.run(main())
