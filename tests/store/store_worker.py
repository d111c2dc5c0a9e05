"""A child process for the reliability tests: records games or saves a game, over and over.

python tests/store/store_worker.py record DB COUNT TAG GO_FILE   record COUNT games, then exit
python tests/store/store_worker.py record-forever DB             record until killed
python tests/store/store_worker.py save PATH SEED                save a game after every move

Each line printed to stdout is flushed only once the work it describes is on disk.
"""

from __future__ import annotations

import random
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.factories import game_record
from textmines.engine import Game
from textmines.store.saves import save_game
from textmines.store.stats import GameRecord, open_stats


def worker_record(number: int, tag: str) -> GameRecord:
    """Game ``number`` of worker ``tag``: the chord count tells the workers' rows apart."""
    won = number % 3 != 0
    return game_record(
        "won" if won else "lost",
        ended=datetime(2024, 1, 1, tzinfo=UTC) + timedelta(seconds=number),
        time_ms=20_000 + number,
        size=(30, 16, 99),
        bbbv=120,
        solved_bbbv=120 if won else 60,
        clicks=(130, 90, 10 if tag == "a" else 11),
        seed=number * 10 + (tag == "b"),
    )


def record(db: Path, count: int, tag: str, go_file: Path) -> int:
    store, notices = open_stats(db)
    if store is None:
        print("open failed:", notices, flush=True)
        return 2
    deadline = time.monotonic() + 10
    while not go_file.exists() and time.monotonic() < deadline:
        time.sleep(0.001)
    failures = 0
    pause = random.Random(tag)
    for number in range(count):
        notice = store.record(worker_record(number, tag))
        if notice is not None and store.pending == 0:  # not even kept for a retry
            failures += 1
            print(notice, flush=True)
        # A breath between games, as between real games: without it the process that holds
        # the lock takes it back at once and the other only waits (SQLite is not fair).
        time.sleep(pause.random() * 0.002)
    # Games kept because the other worker held the lock past the busy timeout go now.
    deadline = time.monotonic() + 10
    while store.retry_pending() is not None and time.monotonic() < deadline:
        time.sleep(0.01)
    failures += store.pending
    store.close()
    print(f"failures {failures}", flush=True)
    return 0 if failures == 0 else 1


def record_forever(db: Path) -> int:
    store, notices = open_stats(db)
    if store is None:
        print("open failed:", notices, flush=True)
        return 2
    committed = store.count()
    while True:
        if store.record(worker_record(committed, "k")) is None:
            committed += 1
            print(committed, flush=True)


def save_forever(path: Path, seed: int) -> int:
    """Play random moves on Intermediate boards; after each move save and print seed and moves."""
    rng = random.Random(seed)
    game_seed = seed * 1000
    while True:
        game = Game(16, 16, 40, seed=game_seed)
        while not game.status.is_over:
            x, y = rng.randrange(16), rng.randrange(16)
            if rng.random() < 0.2:
                game.toggle_mark(x, y)
            else:
                game.reveal(x, y)
            if game.status.is_over:
                break
            if save_game(path, game, {"started_at": datetime.now(UTC), "preset": "x"}) is None:
                print(game_seed, len(game.actions), flush=True)
        game_seed += 1


def main(argv: list[str]) -> int:
    mode, *args = argv
    if mode == "record":
        return record(Path(args[0]), int(args[1]), args[2], Path(args[3]))
    if mode == "record-forever":
        return record_forever(Path(args[0]))
    if mode == "save":
        return save_forever(Path(args[0]), int(args[1]))
    raise SystemExit(f"unknown mode {mode!r}")


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
