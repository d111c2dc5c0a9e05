"""Closing the terminal under textmines: how many of N runs end within 2 s (issue 34 item 9).

    python benchmarks/close_terminal.py                 # 50 runs of each scenario
    python benchmarks/close_terminal.py --runs 10 --scenario autoplay

Each run starts the real program in a pseudo-terminal of its own that is its controlling
terminal, as a terminal emulator's is, then closes our side of it: the kernel hangs the
terminal up and sends SIGHUP, exactly as when a window or a tmux session goes away. The figure
is the time from the close to the end of the process; a process still there after 10 s is
killed and counted as stuck. The scenarios:

* ``start``: ``--expert``, closed at a random moment in the half second after its first
  frame;
* ``autoplay``: a 300x300 board with 14,000 mines (it keeps autoplay busy for a while) at
  autoplay's fastest pace (0.02 s), closed while it plays;
* ``warnings``: a settings file with 2,000 bad ``[keys]`` entries (one warning each), closed
  as the warnings arrive.

Each scenario also says how many runs kept the game (saved, or recorded if it had ended)
and exited with 128 + SIGHUP.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import select
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.helpers import launch_in_pty

COLUMNS, LINES = 160, 50
LIMIT = 2.0
GIVE_UP = 10.0


def launch(home: Path, *args: str) -> tuple[subprocess.Popen[bytes], int]:
    """``textmines ARGS`` in a new session whose controlling terminal is a new pty."""
    return launch_in_pty(home, *args, size=(COLUMNS, LINES), controlling=True)


def drain(main: int, seconds: float, until: bytes = b"", seen: bytes = b"") -> bytes:
    """Read what the program draws for ``seconds`` (or until ``until`` shows)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not (until and until in seen):
        if select.select([main], [], [], 0.05)[0]:
            try:
                seen = (seen + os.read(main, 65536))[-200_000:]
            except OSError:
                break
    return seen


def close_and_time(process: subprocess.Popen[bytes], main: int) -> float | None:
    """Close the terminal; seconds until the process ended, None if it did not in GIVE_UP."""
    closed = time.monotonic()
    os.close(main)
    try:
        process.wait(timeout=GIVE_UP)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        return None
    return time.monotonic() - closed


def run(scenario: str, home: Path, rng: random.Random) -> tuple[float | None, bool]:
    """One run: (seconds to end or None, whether it kept the game and said so by its status)."""
    if scenario == "start":
        process, main = launch(home, "--expert")
        seen = drain(main, 30, b"safe left")
        drain(main, rng.uniform(0.0, 0.5), seen=seen)
    elif scenario == "autoplay":
        process, main = launch(home, "--custom", "300x300x14000", "--autoplay")
        seen = drain(main, 30, b"cleared")
        for _ in range(6):  # the fastest pace: 0.02 s
            os.write(main, b">")
        drain(main, rng.uniform(0.5, 2.5), seen=seen)
    else:
        keys = "\n".join(f'"app.nothing{i}" = "f{i}"' for i in range(2000))
        (home / "settings.toml").write_text(f"[keys]\n{keys}\n", encoding="utf-8")
        process, main = launch(home, "--beginner")
        drain(main, rng.uniform(0.2, 1.5))
    seconds = close_and_time(process, main)
    kept = process.returncode in (128 + signal.SIGHUP, -signal.SIGHUP) and (
        scenario != "autoplay" or (home / "saved-game.json").exists() or recorded(home)
    )
    return seconds, kept


def recorded(home: Path) -> bool:
    """Whether the statistics hold a game (autoplay may have finished it before the close)."""
    with contextlib.closing(sqlite3.connect(home / "stats.db")) as db:
        return bool(db.execute("SELECT count(*) FROM games").fetchone()[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--scenario", choices=["start", "autoplay", "warnings"], action="append")
    parser.add_argument("--seed", type=int, default=34)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    for scenario in args.scenario or ["start", "autoplay", "warnings"]:
        times: list[float] = []
        stuck = kept = 0
        for _ in range(args.runs):
            with tempfile.TemporaryDirectory() as folder:
                seconds, ok = run(scenario, Path(folder), rng)
            kept += ok
            if seconds is None:
                stuck += 1
            else:
                times.append(seconds)
        within = sum(t <= LIMIT for t in times)
        slowest = f"{max(times):.2f} s" if times else "-"
        print(
            f"{scenario:9} {within} of {args.runs} ended within {LIMIT:g} s "
            f"(slowest {slowest}, {stuck} stuck past {GIVE_UP:g} s); "
            f"{kept} of {args.runs} kept the game and exited with 128+SIGHUP",
            flush=True,
        )


if __name__ == "__main__":
    main()
