"""Autoplay on a loaded machine plays the same games as on an idle one. Not a test.

python benchmarks/solver_load.py                       # 300 seeds, both rules
python benchmarks/solver_load.py --games 50 --rule opening --burners 4

Plays Expert seeds first-seed..first-seed+n-1 in this process as ``benchmarks/solver.py``
does (every certain cell at once, ``best_guess`` when none is left), once as it is and once
while ``--burners`` other processes (default: one a core) spin the CPU, and compares every
game move by move. The solver stops on budgets of work, never on the clock (issue 50), so
every game must be the same; the burners only make each decision slower.
"""

from __future__ import annotations

import argparse
import hashlib
import multiprocessing
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solver import decisions, started

from textmines.engine import Status


def game_digest(seed: int, rule: str) -> tuple[bool, str, float]:
    """One autoplay game: won, a digest of every move made, and the seconds it took."""
    start = time.perf_counter()
    game = started(seed, rule)
    moves = hashlib.sha256()
    for decision in decisions(game, rule):
        for cx, cy in decision.cells:
            moves.update(f"{cx},{cy};".encode())
    return game.status == Status.WON, moves.hexdigest()[:16], time.perf_counter() - start


def _burn() -> None:
    while True:
        pass


@contextmanager
def burning(burners: int) -> Iterator[None]:
    """``burners`` processes spinning the CPU while the block runs."""
    processes = [multiprocessing.Process(target=_burn, daemon=True) for _ in range(burners)]
    for process in processes:
        process.start()
    try:
        yield
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.join()


def play_all(seeds: range, rule: str) -> tuple[list[tuple[bool, str]], float]:
    results, seconds = [], 0.0
    for seed in seeds:
        won, digest, spent = game_digest(seed, rule)
        results.append((won, digest))
        seconds += spent
    return results, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--rule", choices=["opening", "safe", "both"], default="both")
    parser.add_argument("--burners", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    print("command:", " ".join([Path(sys.executable).name, *sys.argv]))
    seeds = range(args.first_seed, args.first_seed + args.games)
    same_everywhere = True
    for rule in ["opening", "safe"] if args.rule == "both" else [args.rule]:
        idle, idle_s = play_all(seeds, rule)
        with burning(args.burners):
            loaded, loaded_s = play_all(seeds, rule)
        same = sum(a == b for a, b in zip(idle, loaded, strict=True))
        same_everywhere &= same == len(seeds)
        print(
            f"{rule:<8} seeds {seeds.start}..{seeds.stop - 1}: won {sum(w for w, _ in idle)} "
            f"as it is ({idle_s:.0f} s), {sum(w for w, _ in loaded)} with {args.burners} "
            f"burners ({loaded_s:.0f} s); games identical move by move: {same}/{len(seeds)}",
            flush=True,
        )
    sys.exit(0 if same_everywhere else 1)


if __name__ == "__main__":
    main()
