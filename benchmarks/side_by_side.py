"""textmines against JSMinesweeper on the same Expert boards, paired per seed. Not a test.

python benchmarks/side_by_side.py --jsms ~/JSMinesweeper --rule both --games 1000
python benchmarks/side_by_side.py --games 10000 --seed-base 7000000 --shards 2 --keep runs/

David Hill's JSMinesweeper (github.com/DavidNHill/JSMinesweeper), the strongest published
solver, plays under Node with its source unmodified (``side_by_side/play_jsms.js`` loads
it as the page does and plays main.js bulkRun()'s loop with its options); textmines'
autoplay plays the same layouts, as ``benchmarks/solver.py`` plays them (every certain cell
at once, ``best_guess`` when none is left). The layouts are textmines' own: seed s, Expert
30x16/99, the first click at (3, 3) opening a zero (``--rule opening``) or in the corner
(0, 0) only safe (``--rule safe``); the export carries each layout's hash and the Node side
checks the layout it reads back from its own game against it.

The table pairs the two per seed: the games only one of them won decide, and z is the sign
test on those, positive when textmines won more (|z| of 2 or more is worth believing). A
game's time is wall time from the first click to the end, each solver in its own process,
never both at once. ``--keep DIR`` keeps the boards and every game's line (seed, won, ms,
guesses and the guesses made) and writes, per rule, the discordant games with the first
guess where the two parted. Skips with one line (exit 0) without Node or JSMinesweeper's
source: fetch it, export its tree to a folder and give that folder as ``--jsms`` or in
``JSMS_DIR``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from multiprocessing import Pool
from pathlib import Path
from typing import NoReturn

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solver import RULES, decisions, started

from textmines.engine import EXPERT, Status

HARNESS = Path(__file__).resolve().parent / "side_by_side" / "play_jsms.js"


@dataclass(frozen=True)
class Result:
    """One game of one solver."""

    seed: int
    won: bool
    ms: float
    guesses: tuple[str, ...]  # "x,y" each, in the order made

    def line(self) -> str:
        made = ";".join(self.guesses) or "-"
        return f"{self.seed} {int(self.won)} {self.ms:.1f} {len(self.guesses)} {made}"


def find_jsms(given: str | None) -> Path | None:
    """JSMinesweeper's ``Minesweeper`` folder, from ``--jsms``, ``JSMS_DIR`` or ``JSMS_SRC``
    (the repository's tree or that folder itself); None when it is not there."""
    for candidate in (given, os.environ.get("JSMS_DIR"), os.environ.get("JSMS_SRC")):
        if not candidate:
            continue
        root = Path(candidate).expanduser()
        for folder in (root / "Minesweeper", root):
            if (folder / "client" / "solver_main.js").is_file():
                return folder
    return None


def export(rule: str, seeds: range, path: Path) -> None:
    """Write the Expert layouts of ``seeds`` under ``rule`` (after the first click) as JSON."""
    width, height, mines = EXPERT.size
    x, y = RULES[rule][1]
    boards = []
    for seed in seeds:
        game = started(seed, rule)
        game.reveal(x, y)
        assert game.board is not None  # laid by the first click
        placed = sorted(game.board.mine_indices())
        text = ",".join(map(str, placed))
        boards.append({"seed": seed, "mines": placed, "sha": _hash(text)})
    document = {
        "width": width,
        "height": height,
        "mines": mines,
        "rule": rule,
        "first_click": [x, y],
        "boards": boards,
    }
    path.write_text(json.dumps(document))


def _hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def play_jsms(node: str, src: Path, boards: Path, shards: int, out: Path) -> dict[int, Result]:
    """JSMinesweeper's games on the exported ``boards``, in ``shards`` Node processes."""
    parts = [out.with_name(f"{out.name}.{shard}") for shard in range(shards)]
    processes = [
        subprocess.Popen(
            [
                *(node, str(HARNESS), "--src", str(src), "--boards", str(boards)),
                *("--shard", str(shard), "--shards", str(shards), "--out", str(part)),
            ]
        )
        for shard, part in enumerate(parts)
    ]
    if any(process.wait() for process in processes):
        raise SystemExit("side_by_side: the JSMinesweeper harness failed (see above)")
    results: dict[int, Result] = {}
    for part in parts:
        for line in part.read_text().splitlines():
            seed, won, ms, _count, _state, _hash, made = line.split()
            guesses = () if made == "-" else tuple(made.split(";"))
            results[int(seed)] = Result(int(seed), won == "1", float(ms), guesses)
    out.write_text("".join(results[s].line() + "\n" for s in sorted(results)))
    return results


def play_textmines(job: tuple[int, str]) -> Result:
    """One textmines autoplay game on the layout of ``seed`` under ``rule``."""
    seed, rule = job
    game = started(seed, rule)
    start = time.perf_counter()
    guesses = [f"{d.cells[0][0]},{d.cells[0][1]}" for d in decisions(game, rule) if d.guess]
    ms = (time.perf_counter() - start) * 1e3
    return Result(seed, game.status == Status.WON, ms, tuple(guesses))


def first_parting(a: Result, b: Result) -> int:
    """The number (from 1) of the first guess the two games made differently."""
    for i, (x, y) in enumerate(zip(a.guesses, b.guesses, strict=False), 1):
        if x != y:
            return i
    return min(len(a.guesses), len(b.guesses)) + 1


def pair(rule: str, js: dict[int, Result], tm: dict[int, Result]) -> dict[str, float]:
    """The paired figures of one rule."""
    seeds = sorted(js.keys() & tm.keys())
    only_js = sum(js[s].won and not tm[s].won for s in seeds)
    only_tm = sum(tm[s].won and not js[s].won for s in seeds)
    games = len(seeds)
    return {
        "games": games,
        "js": 100 * sum(js[s].won for s in seeds) / games,
        "tm": 100 * sum(tm[s].won for s in seeds) / games,
        "only_js": only_js,
        "only_tm": only_tm,
        "z": (only_tm - only_js) / math.sqrt(only_js + only_tm) if only_js + only_tm else 0.0,
        "js_median": statistics.median(js[s].ms for s in seeds),
        "js_max": max(js[s].ms for s in seeds),
        "tm_median": statistics.median(tm[s].ms for s in seeds),
        "tm_max": max(tm[s].ms for s in seeds),
    }


def discordant(js: dict[int, Result], tm: dict[int, Result]) -> str:
    """The games only one solver won: seed, winner, the first guess they made differently
    (its number, JSMinesweeper's cell, textmines' cell)."""
    lines = ["# seed winner first_differing_guess js_cell textmines_cell\n"]
    for seed in sorted(js.keys() & tm.keys()):
        a, b = js[seed], tm[seed]
        if a.won == b.won:
            continue
        k = first_parting(a, b)
        cell_a = a.guesses[k - 1] if k <= len(a.guesses) else "-"
        cell_b = b.guesses[k - 1] if k <= len(b.guesses) else "-"
        lines.append(f"{seed} {'js' if a.won else 'textmines'} {k} {cell_a} {cell_b}\n")
    return "".join(lines)


def table(rows: list[tuple[str, dict[str, float]]], seeds: range) -> str:
    head = (
        f"Expert 30x16/99, seeds {seeds.start}..{seeds.stop - 1}, paired per seed; "
        "z: sign test on the games only one won, + when textmines won more\n\n"
        "| Rule | games | JSMinesweeper | textmines | only JS won / only textmines won "
        "| z | ms a game, JS median / max | textmines median / max |\n"
        "|---|---|---|---|---|---|---|---|\n"
    )
    names = {"opening": "opening at (3,3)", "safe": "safe first click in the corner"}
    body = "".join(
        f"| {names[rule]} | {f['games']:,.0f} | {f['js']:.2f}% | {f['tm']:.2f}% "
        f"| {f['only_js']:,.0f} / {f['only_tm']:,.0f} | {f['z']:+.2f} "
        f"| {f['js_median']:.1f} / {f['js_max']:,.0f} "
        f"| {f['tm_median']:.1f} / {f['tm_max']:,.0f} |\n"
        for rule, f in rows
    )
    return head + body


def skip(reason: str) -> NoReturn:
    print(f"side_by_side: skipped: {reason}")
    sys.exit(0)


def run_rule(
    rule: str, seeds: range, args: argparse.Namespace, node: str, src: Path, keep: Path
) -> dict[str, float]:
    tag = f"{rule}-{seeds.start}-{seeds.stop - 1}"
    boards = keep / f"boards-{tag}.json"
    export(rule, seeds, boards)
    js_out = keep / f"jsms-{tag}.txt"
    if args.reuse_jsms and js_out.is_file():
        js = {r.seed: r for r in map(parse_result, js_out.read_text().splitlines())}
    else:
        start = time.perf_counter()
        js = play_jsms(node, src, boards, args.shards, js_out)
        print(f"  JSMinesweeper, {rule}: {time.perf_counter() - start:.0f} s", flush=True)
    if args.jsms_only:
        return {}
    start = time.perf_counter()
    with Pool(args.shards) as pool:
        played = pool.map(play_textmines, [(s, rule) for s in seeds], chunksize=10)
    print(f"  textmines, {rule}: {time.perf_counter() - start:.0f} s", flush=True)
    tm = {r.seed: r for r in played}
    (keep / f"textmines-{tag}.txt").write_text("".join(tm[s].line() + "\n" for s in seeds))
    (keep / f"discordant-{tag}.txt").write_text(discordant(js, tm))
    return pair(rule, js, tm)


def parse_result(line: str) -> Result:
    seed, won, ms, _count, made = line.split()
    return Result(int(seed), won == "1", float(ms), () if made == "-" else tuple(made.split(";")))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rule", choices=["opening", "safe", "both"], default="both")
    parser.add_argument("--games", type=int, default=1000, help="boards per rule")
    parser.add_argument("--seed-base", type=int, default=7_000_000, help="the first seed")
    parser.add_argument("--shards", type=int, default=1, help="processes per solver")
    parser.add_argument("--jsms", help="JSMinesweeper's tree (or set JSMS_DIR)")
    parser.add_argument("--node", default="node", help="the Node executable")
    parser.add_argument("--keep", type=Path, help="keep boards, games and discordant games")
    parser.add_argument(
        "--reuse-jsms",
        action="store_true",
        help="take JSMinesweeper's games from --keep when they are there already",
    )
    parser.add_argument(
        "--jsms-only",
        action="store_true",
        help="play JSMinesweeper's games into --keep and stop (pair later with --reuse-jsms)",
    )
    args = parser.parse_args()
    if args.jsms_only and args.keep is None:
        parser.error("--jsms-only keeps its games: give --keep DIR")
    node = shutil.which(args.node)
    if node is None:
        skip(f"no Node ({args.node!r} is not on PATH)")
    src = find_jsms(args.jsms)
    if src is None:
        skip("no JSMinesweeper source (give its tree as --jsms PATH or in JSMS_DIR)")
    print("command:", " ".join([Path(sys.executable).name, *sys.argv]), flush=True)
    seeds = range(args.seed_base, args.seed_base + args.games)
    rules = ["opening", "safe"] if args.rule == "both" else [args.rule]
    with tempfile.TemporaryDirectory() as scratch:
        keep = args.keep or Path(scratch)
        keep.mkdir(parents=True, exist_ok=True)
        rows = [(rule, run_rule(rule, seeds, args, node, src, keep)) for rule in rules]
    if not args.jsms_only:
        print(table(rows, seeds))


if __name__ == "__main__":
    main()
