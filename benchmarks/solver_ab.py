"""Paired solver experiments: the same seeds with and without a change. Not a test.

python benchmarks/solver_ab.py run base.txt --first-seed 0 --games 5000
python benchmarks/solver_ab.py run slack.txt --games 5000 --set guessing.GUESS_SLACK=0.3
python benchmarks/solver_ab.py compare base.txt slack.txt

``run`` plays Expert games (``--rule opening`` or ``safe``, as ``benchmarks/solver.py``
does) and writes one line per seed: the seed, 1 for a win, the safe cells left at the fatal
guess. Each ``--set module.NAME=VALUE`` sets a constant of ``textmines.engine.solver.<module>``
in the workers first (the value is a Python literal), so a tuning can be measured without
editing the code. ``compare`` pairs two runs on their common seeds: the games only one of
them won decide, and z is the sign test on those (|z| of 2 or more is worth believing).
The end-game search stops on a budget of positions, not on the clock, so a run repeats
exactly, even on a busy machine (the 0.5 s box of a decision is far above what one takes).

To find which part of a change made the difference, ``compare --differing seeds.txt``
writes the seeds only one run won, and ``run --seeds seeds.txt`` plays just those (a
screen in a minute instead of a quarter hour; confirm what it finds on every seed, since a
change also moves games the two first runs agreed on).
"""

from __future__ import annotations

import argparse
import ast
import importlib
import math
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solver import play

from textmines.engine import EXPERT


def set_constants(settings: list[str]) -> None:
    """Apply ``module.NAME=VALUE`` settings to the solver's modules (in each worker)."""
    for setting in settings:
        target, value = setting.split("=", 1)
        module_name, name = target.rsplit(".", 1)
        module = importlib.import_module(f"textmines.engine.solver.{module_name}")
        if not hasattr(module, name):
            raise SystemExit(f"textmines.engine.solver.{module_name} has no {name}")
        setattr(module, name, ast.literal_eval(value))


def run(out: Path, seeds: list[int], rule: str, settings: list[str]) -> None:
    set_constants(settings)  # here first: a bad setting stops the run before the workers
    start = time.perf_counter()
    jobs = [(seed, *EXPERT.size, rule) for seed in seeds]
    with Pool(2, initializer=set_constants, initargs=(settings,)) as pool:
        results = pool.map(play, jobs, chunksize=25)
    lines = [
        f"{seed} {int(won)} {safe_left or 0}\n"
        for (seed, *_), (won, _, _, _, safe_left) in zip(jobs, results, strict=True)
    ]
    out.write_text("".join(lines))
    wins, games = sum(r[0] for r in results), len(seeds)
    span = f"{seeds[0]}..{seeds[-1]}" if seeds == list(range(seeds[0], seeds[-1] + 1)) else "listed"
    print(
        f"{out}: won {wins}/{games} = {100 * wins / games:.2f}% ({rule} rule, seeds "
        f"{span}, {time.perf_counter() - start:.0f} s)"
        + (f" with {' '.join(settings)}" if settings else "")
    )


def load(path: Path) -> dict[int, bool]:
    return {int(seed): won == "1" for seed, won, *_ in map(str.split, path.open())}


def read_seeds(path: Path) -> list[int]:
    """The seeds of a run file or of a list (the first number of each line)."""
    try:
        seeds = sorted({int(line.split()[0]) for line in path.open() if line.strip()})
    except (OSError, ValueError) as error:
        raise SystemExit(f"cannot read seeds from {path}: {error}") from None
    if not seeds:
        raise SystemExit(f"{path} lists no seed")
    return seeds


def compare(a: Path, b: Path, differing: Path | None = None) -> None:
    first, second = load(a), load(b)
    seeds = sorted(first.keys() & second.keys())
    if not seeds:
        raise SystemExit(f"{a} and {b} have no seed in common")
    only_a = sum(first[s] and not second[s] for s in seeds)
    only_b = sum(second[s] and not first[s] for s in seeds)
    z = (only_b - only_a) / math.sqrt(only_a + only_b) if only_a + only_b else 0.0
    rate_a = 100 * sum(first[s] for s in seeds) / len(seeds)
    rate_b = 100 * sum(second[s] for s in seeds) / len(seeds)
    print(
        f"{len(seeds)} seeds: {a} {rate_a:.2f}%, {b} {rate_b:.2f}% ({rate_b - rate_a:+.2f}); "
        f"won only by the first {only_a}, only by the second {only_b}; z {z:+.2f}"
    )
    if differing is not None:
        differing.write_text("".join(f"{s}\n" for s in seeds if first[s] != second[s]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    play_parser = commands.add_parser("run", help="play Expert games, one line per seed")
    play_parser.add_argument("out", type=Path)
    play_parser.add_argument("--first-seed", type=int, default=0)
    play_parser.add_argument("--games", type=int, default=5000)
    play_parser.add_argument("--seeds", type=Path, help="play only the seeds listed here")
    play_parser.add_argument("--rule", choices=["opening", "safe"], default="opening")
    play_parser.add_argument(
        "--set", dest="settings", action="append", default=[], metavar="module.NAME=VALUE"
    )
    compare_parser = commands.add_parser("compare", help="pair two runs on their seeds")
    compare_parser.add_argument("a", type=Path)
    compare_parser.add_argument("b", type=Path)
    compare_parser.add_argument(
        "--differing", type=Path, help="write the seeds only one of the runs won here"
    )
    args = parser.parse_args()
    if args.command == "run":
        seeds = (
            read_seeds(args.seeds)
            if args.seeds
            else list(range(args.first_seed, args.first_seed + args.games))
        )
        run(args.out, seeds, args.rule, args.settings)
    else:
        compare(args.a, args.b, args.differing)


if __name__ == "__main__":
    main()
