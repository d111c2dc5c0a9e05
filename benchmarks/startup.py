"""Start-up as a player sees it: from launching the program to its first frame on screen.

    python benchmarks/startup.py              # 20 launches of each app
    python benchmarks/startup.py --runs 5

Each app runs as a program of its own in a pseudo-terminal of 120x40, launched alternately:
the trivial one-Static Textual app (``trivial.py``) and ``textmines --expert --seed 1`` with a
home of its own that holds settings and a statistics database from earlier launches, as a
player's does. The figure is the CPU time of the process up to the moment its first frame has
been written (interpreter start-up, imports and the app's own start included), and the ratio
of the two medians. Wall time is shown too; it depends more on the machine's load.

``ui.py`` measures the in-process part alone: from constructing the app to its first frame.

    python benchmarks/startup.py --bad-keys 50000 --runs 3

gives settings.toml that many [keys] entries for actions that do not exist (issue 34.8: 2,000
took 26 s to the first frame, 50,000 over ten minutes).

    python benchmarks/startup.py --instructions --runs 1

counts the instructions each launch executes up to its first frame instead (valgrind's
callgrind, which must be installed: ``apt-get install valgrind``; a launch takes some 30 s).
CPU times move with the machine's load and the other core's work; instruction counts do not
(to about 0.1%, with ``PYTHONHASHSEED=0``), so they show what a change did.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import os
import pty
import re
import select
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
COLUMNS, LINES = 120, 40


def launch(which: str, home: Path, instructions: bool = False) -> tuple[float, float]:
    """(CPU seconds, wall seconds) from launching ``which`` to its first frame; with
    ``instructions``, (instructions executed, wall seconds) under valgrind."""
    report_read, report_write = os.pipe()
    terminal, child_side = pty.openpty()
    fcntl.ioctl(child_side, termios.TIOCSWINSZ, struct.pack("HHHH", LINES, COLUMNS, 0, 0))
    env = dict(os.environ, TEXTMINES_HOME=str(home), TERM="xterm-256color")
    # Bytecode is cached as it is for an installed program, whatever this shell says.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    command = [sys.executable, str(HERE / "first_frame.py"), which, str(report_write)]
    log = home / "callgrind.log"
    if instructions:
        env["PYTHONHASHSEED"] = "0"  # the same dictionaries, the same work, run after run
        env["FIRST_FRAME_ONLY"] = "1"
        valgrind = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
        command = [*valgrind, f"--log-file={log}", *command]
    if which == "textmines":
        command += ["--expert", "--seed", "1"]
    started = time.perf_counter()
    child = subprocess.Popen(
        command,
        stdin=child_side,
        stdout=child_side,
        stderr=child_side,
        pass_fds=(report_write,),
        env=env,
        start_new_session=True,
    )
    os.close(child_side)
    os.close(report_write)
    report = b""
    wall = 0.0
    try:
        while True:
            ready, _, _ = select.select([terminal, report_read], [], [], 300)
            if not ready:
                raise RuntimeError(f"{which}: no first frame within 300 s")
            if terminal in ready:
                with contextlib.suppress(OSError):  # what the app drew: a terminal reads it
                    os.read(terminal, 1 << 16)
            if report_read in ready:
                chunk = os.read(report_read, 100)
                if not chunk:
                    break
                if not report:
                    wall = time.perf_counter() - started
                report += chunk
        child.wait(timeout=300)
    finally:
        os.close(terminal)
        os.close(report_read)
    if not report:
        raise RuntimeError(f"{which} exited with status {child.returncode} before its first frame")
    if instructions:
        counted = re.search(r"Collected : (\d+)", log.read_text())
        if counted is None:
            raise RuntimeError(f"{which}: valgrind counted nothing (see {log})")
        return float(counted.group(1)), wall
    # The child's perf_counter has an origin of its own: the parent times the wall.
    cpu = float(report.split()[0])
    return cpu, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=20, help="launches of each app")
    parser.add_argument(
        "--bad-keys", type=int, default=0, metavar="N", help="[keys] entries that cannot be used"
    )
    parser.add_argument(
        "--instructions", action="store_true", help="count instructions (valgrind), not time"
    )
    args = parser.parse_args()
    apps = ("trivial", "textmines")
    with tempfile.TemporaryDirectory() as home:
        if args.bad_keys:
            entries = (f'"app.no_such_action_{n}" = "ctrl+{n % 10}"' for n in range(args.bad_keys))
            (Path(home) / "settings.toml").write_text("[keys]\n" + "\n".join(entries) + "\n")
        for which in apps * 2:  # warm the bytecode cache; textmines creates its files
            launch(which, Path(home))
        if any(Path(home).rglob("saved-game.json")):
            raise RuntimeError("a game was saved: later launches would resume it")
        samples: dict[str, list[tuple[float, float]]] = {which: [] for which in apps}
        for _ in range(args.runs):
            for which in apps:
                samples[which].append(launch(which, Path(home), args.instructions))
    keys = f", {args.bad_keys:,} bad [keys] entries" if args.bad_keys else ""
    print(
        f"start-up to the first frame, {args.runs} launches each, terminal {COLUMNS}x{LINES}, "
        f"Python {sys.version.split()[0]}{keys}"
    )
    medians = {
        which: (
            statistics.median(cpu for cpu, _ in runs),
            statistics.median(wall for _, wall in runs),
        )
        for which, runs in samples.items()
    }
    trivial_cpu = medians["trivial"][0]
    for which, (cpu, wall) in medians.items():
        if args.instructions:
            print(f"{which:10s} {cpu / 1e6:8.1f}M instructions ({cpu / trivial_cpu:5.3f}x)")
            continue
        print(
            f"{which:10s} CPU {cpu * 1e3:6.1f} ms ({cpu / trivial_cpu:4.2f}x)"
            f"   wall {wall * 1e3:6.1f} ms"
        )


if __name__ == "__main__":
    main()
