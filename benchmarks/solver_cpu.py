"""Autoplay's CPU time a game and a decision, one process. Not a test.

python benchmarks/solver_cpu.py --rule both --games 300

The games of ``benchmarks/solver.py`` (Expert seeds first-seed..first-seed+n-1, every
certain cell at once, ``best_guess`` when none is left), timed with ``time.process_time``
rather than wall time: two versions of the solver compared on a machine others share
differ by what they do, not by who else ran meanwhile. Run it with each version's tree
first on ``PYTHONPATH`` to compare them.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solver import decisions, started

from textmines.engine import Status
from textmines.engine.solver import analyse


def play(seed: int, rule: str, times: list[float]) -> tuple[bool, float]:
    """One game: won, and its CPU seconds; each decision's CPU seconds go to ``times``."""
    game = started(seed, rule)
    start = time.process_time()
    times.extend(d.seconds for d in decisions(game, rule, time.process_time))
    return game.status == Status.WON, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--rule", choices=["opening", "safe", "both"], default="both")
    args = parser.parse_args()
    print("command:", " ".join([Path(sys.executable).name, *sys.argv]))
    print("solver:", Path(sys.modules[analyse.__module__].__file__ or "?").parent)
    for rule in ["opening", "safe"] if args.rule == "both" else [args.rule]:
        decisions: list[float] = []
        results = [
            play(seed, rule, decisions)
            for seed in range(args.first_seed, args.first_seed + args.games)
        ]
        games = [seconds for _, seconds in results]
        decisions.sort()
        p99 = decisions[min(len(decisions) - 1, int(0.99 * len(decisions)))]
        print(
            f"{rule:<8} won {sum(won for won, _ in results)}/{args.games}; a game: median "
            f"{statistics.median(games) * 1e3:.1f} ms, mean {statistics.mean(games) * 1e3:.1f}, "
            f"max {max(games) * 1e3:.0f}; a decision: p99 {p99 * 1e3:.1f} ms, "
            f"max {decisions[-1] * 1e3:.0f} (CPU)",
            flush=True,
        )


if __name__ == "__main__":
    main()
