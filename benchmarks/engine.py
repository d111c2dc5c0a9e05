"""Engine benchmarks: prints timings, never run as tests.

python benchmarks/engine.py            # everything (about a minute)
python benchmarks/engine.py --quick    # fewer repetitions
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from timing import summary, timings

from textmines.engine import Board, Game
from textmines.engine import board_id as ids
from textmines.engine.metrics import game_metrics


def expert_first_reveal(repeat: int) -> None:
    seeds = iter(range(repeat))

    def run() -> None:
        Game(30, 16, 99, seed=next(seeds)).reveal(14, 7)

    print("Expert 30x16/99 new game + first reveal (seeds 0..n-1, click (14, 7)):")
    print("   ", summary(timings(run, repeat), 1e-3, "ms"))


def expert_single_actions(repeat: int) -> None:
    """One reveal / flag / chord on Expert positions in mid-game."""
    results: dict[str, list[float]] = {"reveal": [], "toggle_mark": [], "chord": []}
    seed = 0
    while min(len(v) for v in results.values()) < repeat:
        game = Game(30, 16, 99, seed=seed)
        seed += 1
        game.reveal(14, 7)
        board = game.board
        assert board is not None
        view = game.view_text().splitlines()
        covered_safe = [
            (x, y)
            for y in range(16)
            for x in range(30)
            if view[y][x] == "#" and not board.is_mine(x, y)
        ]
        covered_mines = [
            (x, y)
            for y in range(16)
            for x in range(30)
            if view[y][x] == "#" and board.is_mine(x, y)
        ]
        if not covered_safe or not covered_mines:
            continue
        x, y = covered_mines[0]
        start = time.perf_counter()
        game.toggle_mark(x, y)
        results["toggle_mark"].append(time.perf_counter() - start)
        # Chord a revealed number that still has covered safe neighbours: flag its mines first.
        for cx, cy in ((cx, cy) for cy in range(16) for cx in range(30)):
            if not game.is_revealed(cx, cy) or board.number(cx, cy) == 0:
                continue
            around = list(board.neighbours(cx, cy))
            if not any(game.cell(nx, ny) == "#" and not board.is_mine(nx, ny) for nx, ny in around):
                continue
            for nx, ny in around:
                if board.is_mine(nx, ny) and game.cell(nx, ny) != "F":
                    while game.cell(nx, ny) != "F":
                        game.toggle_mark(nx, ny)
            start = time.perf_counter()
            game.chord(cx, cy)
            results["chord"].append(time.perf_counter() - start)
            break
        for x, y in covered_safe:
            if game.cell(x, y) == "#" and board.number(x, y) > 0:
                start = time.perf_counter()
                game.reveal(x, y)
                results["reveal"].append(time.perf_counter() - start)
                break
    print("Expert single actions in mid-game (one of each per seeded game):")
    for name, samples in results.items():
        print(f"    {name:12s}", summary(samples[:repeat], 1e-6, "us"))


def huge_board(width: int, height: int, mines: int, repeat: int) -> None:
    gc.collect()
    samples = []
    for seed in range(repeat):
        start = time.perf_counter()
        game = Game(width, height, mines, seed=seed)
        game.reveal(width // 2, height // 2)
        samples.append(time.perf_counter() - start)
    opened = 100 - game.safe_left * 100 / (width * height - mines)
    tracemalloc.start()
    game = Game(width, height, mines, seed=0)
    game.reveal(width // 2, height // 2)
    size, _peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    cells = width * height
    med = statistics.median(samples)
    print(
        f"    {width}x{height}/{mines}: new game + first reveal median {med * 1e3:8.1f} ms"
        f"  max {max(samples) * 1e3:8.1f} ms  ({med / cells * 1e9:6.0f} ns/cell,"
        f" last game opened {opened:.1f}% of safe cells)  game object {size / 2**20:.1f} MiB"
    )


def flood_everything(side: int, repeat: int) -> None:
    samples = []
    for seed in range(repeat):
        start = time.perf_counter()
        game = Game(side, side, 1, seed=seed)
        game.reveal(side // 2, side // 2)
        samples.append(time.perf_counter() - start)
    print(
        f"    {side}x{side}/1 (one flood opens almost everything): median "
        f"{statistics.median(samples) * 1e3:8.1f} ms  max {max(samples) * 1e3:8.1f} ms"
    )


def metrics_cost(repeat: int) -> None:
    samples = []
    for seed in range(repeat):
        game = Game(30, 16, 99, seed=seed)
        game.reveal(14, 7)
        start = time.perf_counter()
        game_metrics(game)
        samples.append(time.perf_counter() - start)
    print("Expert game_metrics (3BV, openings, islands, solved 3BV):")
    print("   ", summary(samples, 1e-3, "ms"))


def board_ids(repeat: int) -> None:
    """Reading board IDs: the longest a board has, and 300,000 characters behind a good check
    (an attack: decoding them took 10-20 s before the length limit and the linear reading)."""
    last = Board.from_mines(50, 50, range(1250, 2500))  # the number with the most digits
    longest = ids.BoardId(last, (0, 0), "opening", True).text()
    code = "z" * 300_000
    huge = f"9x9-10-o4.4-{code}{ids._check('9x9-10-o4.4' + code)}"

    def refused() -> None:
        try:
            ids.parse_board_id(huge)
        except ids.BoardIdError:
            return
        raise AssertionError("a 300,000-character ID was read")

    print(f"Board IDs (parse_board_id), {len(longest)} characters (50x50/1250, the last code):")
    print("   ", summary(timings(lambda: ids.parse_board_id(longest), repeat), 1e-3, "ms", 2))
    print("Board IDs, 300,000 characters with a good check (refused as too long):")
    print("   ", summary(timings(refused, repeat), 1e-6, "us", 1))
    # The code's reading alone, past the limit: linear (one character at a time it took 20 s).
    print("Board IDs, reading a 300,000-character code of mines (_number, no limit):")
    print("   ", summary(timings(lambda: ids._number(code), max(1, repeat // 10)), 1e-3, "ms", 1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    args = parser.parse_args()
    n = 200 if args.quick else 2000
    big = 1 if args.quick else 3
    print(f"Python {sys.version.split()[0]}, time.perf_counter\n")
    expert_first_reveal(n)
    expert_single_actions(n)
    metrics_cost(n // 4)
    board_ids(n // 4)
    print("Scaling, 15% mines, first click in the middle (opening rule):")
    for side in (100, 300, 1000):
        huge_board(side, side, side * side * 15 // 100, big)
    print("Scaling, 5% mines (the first click opens a large region):")
    for side in (100, 300, 1000):
        huge_board(side, side, side * side * 5 // 100, big)
    print("Scaling, a single mine (the first click floods the board):")
    for side in (100, 300, 1000):
        flood_everything(side, big)


if __name__ == "__main__":
    main()
