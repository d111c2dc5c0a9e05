"""Store benchmarks: prints timings, never run as tests.

python benchmarks/store.py            # everything (about half a minute)
python benchmarks/store.py --quick    # fewer repetitions

Figures: recording one game (target: median under 5 ms), the bytes of a game's recording and
what recordings add to a 10,000-game database, everything the statistics screen needs
for every group of a 100,000-game database (target: under 300 ms), and what opening such a
database costs next to an empty one and next to the start-up of the app.
"""

from __future__ import annotations

import argparse
import platform
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from timing import summary, timings

from tests.factories import game_record, played_game
from textmines.engine import Game
from textmines.records import record_for
from textmines.replays.recording import Recording
from textmines.store.stats import GameRecord, GroupStats, Outcome, StatsStore, open_stats

START = datetime(2022, 1, 1, tzinfo=UTC)
# Share of games, win rate and typical winning time (s) of each board in the big database.
MIX: list[tuple[tuple[int, int, int], bool, float, float, float]] = [
    ((9, 9, 10), False, 0.40, 0.85, 12.0),
    ((16, 16, 40), False, 0.30, 0.55, 60.0),
    ((30, 16, 99), False, 0.20, 0.35, 170.0),
    ((30, 16, 99), True, 0.03, 0.90, 200.0),
    ((9, 9, 10), True, 0.02, 0.95, 15.0),
]
CUSTOM_SIZES = [(10 + i, 10 + i // 2, 15 + 3 * i) for i in range(25)]


def opened(path: Path) -> StatsStore:
    store, notices = open_stats(path)
    if store is None or notices:
        raise SystemExit(f"cannot open {path}: {notices}")
    return store


# ---------------------------------------------------------------------------- data
def won_expert_game() -> Game:
    clock_now = [0.0]
    game = Game(30, 16, 99, seed=3, clock=lambda: clock_now[0])
    game.reveal(14, 7)
    board = game.board
    assert board is not None
    clock_now[0] = 95.0
    for y in range(16):
        for x in range(30):
            if not board.is_mine(x, y):
                game.reveal(x, y)
    return game


def synthetic(rng: random.Random, ended: datetime) -> GameRecord:
    """One plausible game: board, outcome, time and 3BV drawn from ``MIX``."""
    pick = rng.random()
    size, no_guess, win_rate, seconds = rng.choice(CUSTOM_SIZES), False, 0.5, 80.0
    for board, board_no_guess, share, board_win_rate, board_seconds in MIX:
        if pick < share:
            size, no_guess, win_rate, seconds = board, board_no_guess, board_win_rate, board_seconds
            break
        pick -= share
    roll = rng.random()
    outcome = Outcome.WON if roll < win_rate else Outcome.ABANDONED if roll > 0.97 else Outcome.LOST
    time_ms = max(1000, int(rng.gauss(seconds, seconds / 4) * 1000))
    bbbv = max(1, int(size[0] * size[1] * 0.4 * rng.uniform(0.6, 1.2)))
    return game_record(
        outcome,
        ended=ended,
        time_ms=time_ms,
        size=size,
        no_guess=no_guess,
        assisted=rng.random() < 0.05,
        bbbv=bbbv,
        solved_bbbv=bbbv if outcome == Outcome.WON else rng.randrange(bbbv),
        clicks=(bbbv + 5, size[2] // 2, bbbv // 4),
        seed=rng.getrandbits(63),
    )


def build(path: Path, games: int) -> float:
    """Fill ``path`` with ``games`` synthetic games in one transaction; returns seconds."""
    rng = random.Random(100_000)
    step = timedelta(days=3 * 365) / games
    records = [synthetic(rng, START + step * i) for i in range(games)]
    store = opened(path)
    start = time.perf_counter()
    notice = store.record_many(records)
    elapsed = time.perf_counter() - start
    store.close()
    if notice:
        raise SystemExit(notice)
    return elapsed


# ---------------------------------------------------------------------------- figures
def recording(folder: Path, repeat: int) -> None:
    game = won_expert_game()
    moment = datetime.now(UTC)

    def make() -> GameRecord:
        return record_for(
            game, outcome=Outcome.WON, started_at=moment, ended_at=moment, assisted=False
        )

    # Distinct start times: the store ignores a game it already has.
    records = iter(
        [replace(make(), started_at=moment + timedelta(milliseconds=i)) for i in range(repeat)]
    )
    store = opened(folder / "record.db")
    print(f"Recording one game ({repeat} games, one transaction each, synchronous=NORMAL, WAL):")
    samples = timings(lambda: store.record(next(records)), repeat)
    if store.count() != repeat:
        raise SystemExit("not every game was recorded")
    print("    store.record           ", summary(samples, 1e-3, "ms", 2))
    print("    record_for (Expert won)", summary(timings(make, 200), 1e-3, "ms", 2))
    store.close()


def replays(folder: Path, games: int) -> None:
    """Bytes per recording, and what recordings add to a database of ``games`` games."""
    played = {size: [played_game(*size, seed) for seed in range(60)] for size, *_ in MIX}
    print("\nRecordings (played_game: reveals, flags, chords, cursor moves):")
    for size, sample in played.items():
        sizes = sorted(len(Recording.of(game).encode()) for game in sample)
        actions = statistics.median(len(game.actions) for game in sample)
        print(
            f"    {size[0]}x{size[1]}/{size[2]}: median {statistics.median(sizes):.0f} bytes,"
            f" max {sizes[-1]} ({actions:.0f} actions)"
        )
    rng = random.Random(7)
    step = timedelta(days=365) / games
    plain, recorded = [], []
    for i in range(games):
        record = synthetic(rng, START + step * i)
        sample = played.get((record.width, record.height, record.mines))
        plain.append(record)
        game = rng.choice(sample or played[(30, 16, 99)])
        recorded.append(replace(record, replay=Recording.of(game).encode()))
    for name, records in (("without", plain), ("with", recorded)):
        path = folder / f"replays-{name}.db"
        store = opened(path)
        if store.record_many(records):
            raise SystemExit("not recorded")
        store.close()
        print(f"    {games:,} games {name} recordings: {path.stat().st_size / 1e6:.1f} MB")


def screen(folder: Path, games: int, repeat: int) -> Path:
    path = folder / "big.db"
    seconds = build(path, games)
    size = path.stat().st_size / 1e6
    print(f"\n{games:,} games built with executemany in {seconds:.2f} s ({size:.1f} MB)")
    store = opened(path)

    def every_group() -> list[GroupStats]:
        # As the statistics screen reads them, a tab at a time: the groups, then each one.
        return [store.group_stats(group) for group in store.groups()]

    first = timings(every_group, 1)
    groups = store.groups()
    print(f"Statistics screen, all {len(groups)} groups (groups, then group_stats each):")
    print("    first call after open  ", summary(first, 1e-3, "ms", 2))
    repeated = timings(every_group, repeat)
    print("    repeated               ", summary(repeated, 1e-3, "ms", 2))
    biggest = max(groups, key=lambda group: store.group_stats(group).played)
    played = store.group_stats(biggest).played
    print(
        f"    one group ({biggest.label}, {played:,} games)",
        summary(timings(lambda: store.group_stats(biggest), repeat), 1e-3, "ms", 2),
    )
    print("    groups() alone         ", summary(timings(store.groups, repeat), 1e-3, "ms", 2))
    print(
        "    best_time(group)       ",
        summary(timings(lambda: store.best_time(biggest), repeat), 1e-3, "ms", 2),
    )
    store.close()
    return path


def statistics_screen(big: Path, runs: int) -> None:
    """F4 in the real app on the big database, until the screen is painted and idle."""
    import asyncio

    from textmines.config import GameConfig
    from textmines.ui.app import TextminesApp
    from textmines.ui.screens.statistics import StatisticsScreen

    async def once(size: tuple[int, int], key: str = "f4") -> tuple[float, float]:
        store = opened(big)
        app = TextminesApp(GameConfig(30, 16, 99, seed=1), stats=store)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            wall, cpu = time.perf_counter(), time.process_time()
            await pilot.press(key)
            await pilot.pause()
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            assert isinstance(app.screen, StatisticsScreen) == (key == "f4")
        store.close()
        return wall, cpu

    print("Statistics screen in the app (F4 on an Expert game, until painted and idle):")
    # The Pilot waits on its own around every press: a key that does nothing shows how long.
    idle = [asyncio.run(once((120, 40), "x")) for _ in range(runs)]
    print("    a key doing nothing, wall", summary([wall for wall, _ in idle], 1e-3, "ms"))
    for size in ((80, 24), (120, 40)):
        samples = [asyncio.run(once(size)) for _ in range(runs)]
        walls = [wall for wall, _ in samples]
        cpus = [cpu for _, cpu in samples]
        label = f"{size[0]}x{size[1]}"
        print(f"    {label:7s} wall          ", summary(walls, 1e-3, "ms"))
        print(f"    {label:7s} CPU           ", summary(cpus, 1e-3, "ms"))


def opening(folder: Path, big: Path, repeat: int) -> None:
    empty = folder / "empty.db"
    opened(empty).close()

    def open_close(path: Path) -> Callable[[], None]:
        return lambda: opened(path).close()

    empty_times = timings(open_close(empty), repeat)
    big_times = timings(open_close(big), repeat)
    print("\nopen_stats + close:")
    print("    empty database         ", summary(empty_times, 1e-3, "ms", 2))
    print("    100,000-game database  ", summary(big_times, 1e-3, "ms", 2))
    code = "import textmines.ui.app"
    startup = timings(
        lambda: subprocess.run([sys.executable, "-c", code], check=True), max(3, repeat // 20)
    )
    difference = statistics.median(big_times) - statistics.median(empty_times)
    share = 100 * difference / statistics.median(startup)
    print(f"    reference: python -c '{code}'", summary(startup, 1e-3, "ms", 2))
    print(f"    extra cost of the big database: {difference * 1e3:.2f} ms = {share:.2f}% of that")
    imports = [import_cost() for _ in range(max(3, repeat // 20))]
    print(
        "    importing textmines.store.stats (with sqlite3) after the engine and settings:",
        summary(imports, 1e-3, "ms", 2),
    )


def import_cost() -> float:
    """Seconds ``import textmines.store.stats`` adds once the engine and settings are loaded."""
    code = "import textmines.engine.metrics, textmines.store.settings, textmines.store.stats"
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", code],
        check=True,
        capture_output=True,
        text=True,
    )
    for line in result.stderr.splitlines():
        fields = [field.strip() for field in line.removeprefix("import time:").split("|")]
        if fields[-1] == "textmines.store.stats":
            return int(fields[1]) / 1e6
    raise SystemExit("textmines.store.stats not in the -X importtime output")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument("--games", type=int, default=100_000, help="size of the big database")
    args = parser.parse_args()
    repeat = 200 if args.quick else 1000
    print("command:", " ".join([Path(sys.executable).name, *sys.argv]))
    print(
        f"python {platform.python_version()}, SQLite {sqlite3.sqlite_version}, "
        f"{platform.system()} {platform.machine()}"
    )
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        print(f"temporary directory: {folder}\n")
        recording(folder, repeat)
        replays(folder, 10_000)
        big = screen(folder, args.games, 10 if args.quick else 30)
        statistics_screen(big, 3 if args.quick else 10)
        opening(folder, big, 50 if args.quick else 200)


if __name__ == "__main__":
    main()
