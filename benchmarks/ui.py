"""UI benchmarks: CPU time per key press against a trivial Textual app, start-up, big floods.

    python benchmarks/ui.py                          # a few minutes
    python benchmarks/ui.py --presses 100 --rounds 1
    python benchmarks/ui.py --pilot                  # keys through Pilot.press, as before

CPU time (time.process_time) is measured, never wall time: the Pilot sleeps on its own
between presses. Each key-press figure is measured in a fresh Python process, as a player
runs one app per process (in one long process the heap left by the apps before, a 300x300
board's above all, slows the ones after). A round measures each textmines figure side by
side with the trivial one-Static app (one core each, at the same time); each round's ratio
is ours over the trivial app's, and the report gives the median ratio over the rounds and
its range. On these shared 2-core machines one process's figure drifts by 10-20% from
minute to minute; measured side by side, both meet the same drift. A key goes through the
app's own key path and idle waits, not through Pilot.press, whose extra wait on every widget
is a test's cost that grows with the widgets on the screen (see ``press``).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from rich.console import RenderableType
from textual.app import App
from textual.pilot import Pilot
from textual.screen import Screen
from trivial import TrivialApp

from textmines.config import GameConfig
from textmines.ui.app import TextminesApp
from textmines.ui.board.board_view import BoardView


def frozen_clock() -> float:
    return 0.0


#: Measure each press through the Pilot's ``press`` (``--pilot``) instead of the app's own key
#: path. See ``press``.
USE_PILOT = False


async def press(app: App[None], pilot: Pilot[None], key: str) -> None:
    """Press ``key`` and return once the app has handled it and painted the frame.

    This is what ``Pilot.press`` does first: the key goes to the driver and Textual waits
    until the process is idle (20 ms windows with under 1 ms of CPU), after the key and after
    any animation. Every press's frame is painted inside that wait (checked: no press ends
    without a new frame, none comes later). ``Pilot.press`` then also makes every widget on
    the screen run a callback and waits for all of them: a test's safeguard whose cost grows
    with the number of widgets (about 0.8 ms per key for the trivial app's three, 2.2 ms for
    the game screen's seven) and which no key press in a terminal pays.
    """
    if USE_PILOT:
        await pilot.press(key)
    else:
        await app._press_keys([key])


async def cpu_per_press(app: App[None], keys: list[str], size: tuple[int, int]) -> float:
    """Median CPU seconds per key press over ``keys`` (after a warm-up)."""
    samples = []
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press(*keys[:5])  # warm caches
        for key in keys:
            start = time.process_time()
            await press(app, pilot, key)
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
            await press(app, pilot, "space")
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


#: The key-press figures: (label, board, what is pressed). The board is None for the trivial app.
FIGURES: dict[str, tuple[str, GameConfig | None, str]] = {
    "trivial": ("trivial one-Static app", None, "move"),
    "expert-move": ("Expert 30x16/99", GameConfig(30, 16, 99, seed=1), "move"),
    "expert-reveal": ("Expert 30x16/99", GameConfig(30, 16, 99, seed=1), "reveal"),
    "big-move": ("300x300/13500", GameConfig(300, 300, 13500, seed=1), "move"),
    "big-reveal": ("300x300/13500", GameConfig(300, 300, 13500, seed=1), "reveal"),
}
SIZE = (120, 40)


async def one_figure(name: str, presses: int) -> float:
    """Median CPU seconds per key press of one figure, in this process."""
    _, config, kind = FIGURES[name]
    moves = ["right", "down", "left", "up"] * (presses // 4)
    if config is None:
        return await cpu_per_press(TrivialApp(), moves, SIZE)
    if kind == "move":
        return await cpu_per_press(TextminesApp(config, clock=frozen_clock), moves, SIZE)
    return await reveal_presses(config, SIZE, presses // 2)


def start_figure(name: str, presses: int, core: int | None) -> subprocess.Popen[str]:
    """One figure in a fresh Python process, pinned to ``core`` when given."""

    def pin() -> None:
        if core is not None:
            os.sched_setaffinity(0, {core})

    pilot = ["--pilot"] if USE_PILOT else []
    return subprocess.Popen(
        [sys.executable, __file__, "--figure", name, "--presses", str(presses), *pilot],
        stdout=subprocess.PIPE,
        text=True,
        preexec_fn=pin,
    )


def result(process: subprocess.Popen[str]) -> float:
    out, _ = process.communicate()
    if process.returncode:
        raise SystemExit(f"a figure's process failed with exit code {process.returncode}")
    return float(out.split()[-1])


def paired_run(name: str, presses: int, swap: bool) -> tuple[float, float]:
    """CPU per key of the trivial app and of figure ``name``, measured at the same time on
    two cores (one each, swapped from round to round) where the machine has two, else one
    after the other. Run side by side, both meet the same machine: on these shared virtual
    machines a process's figure drifts by 20% from one minute to the next, and measuring the
    two apart made that drift part of their ratio."""
    cores = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    if len(cores) < 2:
        return result(start_figure("trivial", presses, None)), result(
            start_figure(name, presses, None)
        )
    first, second = (cores[1], cores[0]) if swap else (cores[0], cores[1])
    trivial = start_figure("trivial", presses, first)
    ours = start_figure(name, presses, second)
    return result(trivial), result(ours)


def key_presses(presses: int, rounds: int) -> None:
    print(f"{'figure':34s} {'ours':>8s} {'trivial':>8s}  ratio: median (range) over {rounds}")
    for name, (label, config, kind) in FIGURES.items():
        if config is None:
            continue
        pairs = [paired_run(name, presses, swap=bool(index % 2)) for index in range(rounds)]
        ratios = [ours / trivial for trivial, ours in pairs]
        print(
            f"{label:26s} {kind:6s} "
            f"{statistics.median(ours for _, ours in pairs) * 1e3:6.2f}ms "
            f"{statistics.median(trivial for trivial, _ in pairs) * 1e3:6.2f}ms  "
            f"{statistics.median(ratios):4.2f}x ({min(ratios):4.2f}-{max(ratios):4.2f})"
        )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--presses", type=int, default=200, help="presses per figure")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of every figure")
    parser.add_argument("--figure", choices=list(FIGURES), help=argparse.SUPPRESS)
    parser.add_argument(
        "--pilot",
        action="store_true",
        help="press keys with Pilot.press, which also waits on every widget (see press())",
    )
    args = parser.parse_args()
    global USE_PILOT
    USE_PILOT = args.pilot
    if args.figure is not None:  # one figure, in a process of its own
        print(await one_figure(args.figure, args.presses))
        return
    print(
        f"textmines UI benchmark: {args.presses} presses per figure, {args.rounds} rounds, "
        f"terminal {SIZE[0]}x{SIZE[1]}, Python {sys.version.split()[0]}, keys pressed "
        f"{'with Pilot.press' if USE_PILOT else 'through the app (no Pilot wait)'}\n"
    )
    key_presses(args.presses, args.rounds)

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
