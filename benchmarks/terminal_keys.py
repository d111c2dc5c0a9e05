"""CPU per key press as a player's terminal sees it: the real programs in a pseudo-terminal.

    python benchmarks/terminal_keys.py              # 3 rounds, 300 keys a figure
    python benchmarks/terminal_keys.py --rounds 5 --keys 400

``ui.py`` drives the apps with Textual's Pilot, which after every key posts a callback to
every widget and waits for it: a cost a terminal never adds, and one that grows with the
number of widgets. Here each app runs as a program of its own in a 120x40 pseudo-terminal
(the trivial one-Static app, ``textmines --expert --seed 1``, ``--custom 300x300x13500``),
keys are written to it as a terminal writes them, one every ``--interval`` seconds, and what
it draws is read as a terminal reads it. The CPU time of the process (``/proc``, user +
system) over the keys, less what it spends idle over as long (its clock ticking), divided by
the keys, is the figure; the ratio is against the trivial app of the same round.

Moves are arrow keys around a square. Reveals are measured on Expert: the benchmark deals
the same board (seed 1, first click in the middle, where the cursor starts; that click is
made before the measurement, so the running clock is in the idle time too), walks the
cursor to covered safe cells and presses Space on each; the moves' share (the move figure
of the same round) is taken off, leaving the reveals'. Linux only (``/proc``).
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import os
import pty
import select
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from textmines.engine import Game

HERE = Path(__file__).resolve().parent
COLUMNS, LINES = 120, 40
TICK = os.sysconf("SC_CLK_TCK")
ARROWS = {"right": b"\x1b[C", "left": b"\x1b[D", "up": b"\x1b[A", "down": b"\x1b[B"}
SPACE = b" "
PROGRAMS = {
    "trivial": [str(HERE / "trivial.py")],
    "expert": ["-m", "textmines", "--expert", "--seed", "1"],
    "big": ["-m", "textmines", "--custom", "300x300x13500", "--seed", "1"],
}


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


class Program:
    """One app running in a pseudo-terminal of its own, its output read and thrown away."""

    def __init__(self, which: str, home: Path) -> None:
        self.terminal, child_side = pty.openpty()
        fcntl.ioctl(child_side, termios.TIOCSWINSZ, struct.pack("HHHH", LINES, COLUMNS, 0, 0))
        env = dict(os.environ, TEXTMINES_HOME=str(home), TERM="xterm-256color")
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        self.process = subprocess.Popen(
            [sys.executable, *PROGRAMS[which]],
            stdin=child_side,
            stdout=child_side,
            stderr=child_side,
            env=env,
            cwd=HERE.parent,
            start_new_session=True,
        )
        os.close(child_side)

    def drain(self, seconds: float) -> None:
        """Read what the app draws for ``seconds``."""
        end = time.perf_counter() + seconds
        while (left := end - time.perf_counter()) > 0:
            if select.select([self.terminal], [], [], left)[0]:
                with contextlib.suppress(OSError):
                    os.read(self.terminal, 1 << 16)

    def cpu(self) -> float:
        return cpu_seconds(self.process.pid)

    def press(self, keys: list[bytes], interval: float) -> float:
        """CPU seconds the app spends over ``keys``, one every ``interval`` seconds, less its
        idle CPU over as long (measured just before)."""
        span = len(keys) * interval
        start = self.cpu()
        self.drain(span)
        idle = self.cpu() - start
        start = self.cpu()
        for key in keys:
            os.write(self.terminal, key)
            self.drain(interval)
        self.drain(0.5)  # the last frames
        busy = self.cpu() - start
        return busy - idle * (span + 0.5) / span

    def close(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)  # no save: the next run starts afresh
        self.process.wait(timeout=10)
        os.close(self.terminal)


def moves(count: int) -> list[bytes]:
    return [ARROWS[k] for k in ("right", "down", "left", "up") * (count // 4)]


def reveal_walk(count: int) -> tuple[list[bytes], int, int]:
    """Keys that walk from the middle of the Expert board of seed 1, opened there, to
    ``count`` covered safe cells and reveal each: (keys, moves among them, reveals)."""
    game = Game(30, 16, 99, seed=1)
    x, y = 15, 8
    game.reveal(x, y)
    board = game.board
    assert board is not None
    keys: list[bytes] = []
    walked, revealed = 0, 0
    while revealed < count and not game.status.is_over:
        targets = [
            (tx, ty)
            for ty in range(16)
            for tx in range(30)
            if game.cell(tx, ty) == "#" and not board.is_mine(tx, ty)
        ]
        if not targets:
            break
        tx, ty = min(targets, key=lambda c: abs(c[0] - x) + abs(c[1] - y))
        for _ in range(abs(tx - x)):
            keys.append(ARROWS["right" if tx > x else "left"])
        for _ in range(abs(ty - y)):
            keys.append(ARROWS["down" if ty > y else "up"])
        walked += abs(tx - x) + abs(ty - y)
        x, y = tx, ty
        keys.append(SPACE)
        game.reveal(x, y)
        revealed += 1
    return keys, walked, revealed


def figure(which: str, keys: list[bytes], interval: float, first: bytes = b"") -> float:
    """CPU seconds over ``keys`` in a fresh run of ``which``, after ``first`` (the first
    reveal, so that the game clock ticks in the idle time taken off too)."""
    with tempfile.TemporaryDirectory() as home:
        program = Program(which, Path(home))
        try:
            program.drain(2.5)  # start-up and the first frames
            if first:
                os.write(program.terminal, first)
                program.drain(1.0)
            return program.press(keys, interval)
        finally:
            program.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--keys", type=int, default=300, help="keys per move figure")
    parser.add_argument("--interval", type=float, default=0.03, help="seconds between keys")
    args = parser.parse_args()
    walk, walked, revealed = reveal_walk(args.keys // 3)
    runs: dict[str, list[float]] = {}
    for _ in range(args.rounds):
        per_key = {
            which: figure(which, moves(args.keys), args.interval) / args.keys
            for which in ("trivial", "expert", "big")
        }
        walk_cpu = figure("expert", walk, args.interval, first=SPACE)
        per_key["expert reveal"] = (walk_cpu - walked * per_key["expert"]) / revealed
        for name, value in per_key.items():
            runs.setdefault(name, []).append(value)
    print(
        f"CPU per key in a {COLUMNS}x{LINES} pseudo-terminal, {args.keys} moves a figure and "
        f"{revealed} reveals, a key every {args.interval * 1e3:g} ms, {args.rounds} rounds, "
        f"Python {sys.version.split()[0]}"
    )
    trivial = runs["trivial"]
    print(f"  trivial one-Static app  {statistics.median(trivial) * 1e3:6.2f} ms")
    labels = {"expert": "Expert move", "expert reveal": "Expert reveal", "big": "300x300 move"}
    for name, label in labels.items():
        ratios = [ours / base for ours, base in zip(runs[name], trivial, strict=True)]
        print(
            f"  {label:22s}  {statistics.median(runs[name]) * 1e3:6.2f} ms"
            f"  ratio median {statistics.median(ratios):4.2f}x"
            f" (range {min(ratios):4.2f}-{max(ratios):4.2f})"
        )


if __name__ == "__main__":
    main()
