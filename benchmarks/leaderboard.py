"""Leaderboard benchmarks (issue 49): prints timings, never run as tests.

python benchmarks/leaderboard.py                 # 30 Expert replays, 60 submissions
python benchmarks/leaderboard.py --replays 10 --submissions 20 --clients 4
python benchmarks/leaderboard.py --database postgresql://postgres@127.0.0.1:5432/bench

- verification: Expert boards dealt as a host deals them, each cleared (every safe cell
  opened in turn, a click a second) and exported as textmines' .evf; then read as the host
  reads a submission (ms-toollib in a child process) and verified click by click on the board
  dealt. Median and p95, in ms.
- submissions per second: the HTTP API in this process (aiohttp; the leaderboard in SQLite
  in a temporary folder, or in the empty PostgreSQL database ``--database`` names),
  ``--clients`` clients at once each asking for a challenge and submitting its win, until
  ``--submissions`` are ranked: the wall time, and so the rate a host sustains (a
  submission's replay is read in a child process: that is most of its cost).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import statistics
import tempfile
import time
from datetime import date
from pathlib import Path
from typing import Any

from textmines.engine.board_id import BoardId, parse_board_id
from textmines.leaderboard.boards import deal
from textmines.leaderboard.verify import verify
from textmines.replays.evf import export_evf
from textmines.replays.foreign import read_bytes_as_replay
from textmines.replays.recording import Recording

DAY = date(2026, 12, 1)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def cleared(board: BoardId) -> bytes:
    """The .evf of ``board`` cleared: every safe cell opened in turn, a second apart."""
    clock = Clock()
    game = board.game(clock=clock)
    for y in range(board.board.height):
        for x in range(board.board.width):
            if not board.board.is_mine(x, y) and not game.is_revealed(x, y):
                clock.now += 1
                game.reveal(x, y)
    return export_evf(Recording.of(game))


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def measure_verification(count: int) -> list[float]:
    times = []
    for seed in range(count):
        dealt = deal("expert", DAY, seed=seed)
        data = cleared(dealt.board)
        started = time.perf_counter()  # as the host reads a submission: web/api.py
        recording = read_bytes_as_replay(data, "replay.evf").recording
        verify(recording, dealt, since_issued_ms=10**9)
        times.append((time.perf_counter() - started) * 1e3)
    return times


async def measure_submissions(total: int, clients: int, database: str | None) -> float:
    """Wall seconds for ``total`` challenges dealt, played and submitted by ``clients`` at once."""
    import aiohttp
    from aiohttp import web
    from aiohttp.test_utils import TestServer

    from textmines.leaderboard.store import LeaderboardStore
    from textmines.web.api import LeaderboardApi

    with tempfile.TemporaryDirectory() as folder:
        store = LeaderboardStore.open(database or str(Path(folder) / "leaderboard.db"))
        clock = {"now": 1_764_547_200_000}
        api = LeaderboardApi(store, clock=lambda: clock["now"])
        app = web.Application()
        app.add_routes(api.routes())
        async with TestServer(app, host="127.0.0.1") as server:
            url = f"http://127.0.0.1:{server.port}"
            queue: asyncio.Queue[int] = asyncio.Queue()
            for n in range(total):
                queue.put_nowait(n)

            async def client() -> None:
                async with aiohttp.ClientSession() as session:
                    while not queue.empty():
                        queue.get_nowait()
                        await one_submission(session, url, clock)

            started = time.perf_counter()
            await asyncio.gather(*(client() for _ in range(clients)))
            elapsed = time.perf_counter() - started
        store.close()
    return elapsed


async def one_submission(session: Any, url: str, clock: dict[str, int]) -> None:
    async with session.post(f"{url}/api/challenge", json={"board": "expert"}) as response:
        dealt = await response.json()
    replay = await asyncio.to_thread(cleared, parse_board_id(dealt["board_id"]))
    clock["now"] += 3_600_000  # the deal was an hour ago: any game's time is possible
    body = {"challenge": dealt["challenge"], "replay": base64.b64encode(replay).decode()}
    headers = {"Authorization": f"Bearer {dealt['token']}"}
    async with session.post(f"{url}/api/results", json=body, headers=headers) as response:
        answer = await response.json()
    if response.status != 200:
        raise SystemExit(f"a submission was refused: {answer}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--replays", type=int, default=30)
    parser.add_argument("--submissions", type=int, default=60)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--database", help="a PostgreSQL database's URL (default: SQLite)")
    args = parser.parse_args()
    times = measure_verification(args.replays)
    print(
        f"verification of an Expert replay (.evf read by ms-toollib in a child, then replayed): "
        f"median {statistics.median(times):.0f} ms, p95 {p95(times):.0f} ms, "
        f"max {max(times):.0f} ms ({len(times)} replays)"
    )
    elapsed = asyncio.run(measure_submissions(args.submissions, args.clients, args.database))
    where = "PostgreSQL" if args.database else "SQLite"
    print(
        f"submissions through the HTTP API, {where}: {args.submissions} in {elapsed:.1f} s with "
        f"{args.clients} clients at once: {args.submissions / elapsed:.1f} a second "
        "(each dealt, played here, submitted, verified and ranked)"
    )


if __name__ == "__main__":
    main()
