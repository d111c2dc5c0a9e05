"""Replay-file benchmarks: prints timings, never run as tests.

python benchmarks/replays.py            # everything (about half a minute)
python benchmarks/replays.py --quick    # fewer repetitions

A long game made by ms-toollib's own ``BaseVideo`` (tests/replays/toollib.py ``long_game``),
like the longest real replay textmines was given, a 60x36/540 Metasweeper game of 56,659
mouse events with 248 right clicks taken back: the pointer wanders from cell to cell, flags
go on and wrong ones come off, right presses on numbers begin chords (the library takes that
right click back), now and then a click lands off the board. The file, written as .evf, is
opened the way the app opens it (``read_replay_file``), end to end and stage by stage: the
child process (start, ms-toollib's parse and analysis, the JSON it prints, read back), the
same parse in this process, the JSON alone, ``recording_of``; then what the replay viewer
does with the recording: opening (headless, 200x60), End, one frame of playback, a step back.
Target: any real replay opens in under 1 s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import sys
import tempfile
import time
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from timing import summary, timings

from tests.replays.toollib import basevideo_file, long_game
from textmines.engine.actions import MOVES, OFF_BOARD
from textmines.replays import reader
from textmines.replays.foreign import _parse_in_child, read_replay_file, recording_of
from textmines.replays.recording import Recording

SIZE = (60, 36, 540)
#: Right clicks the library takes back (the real file had 248).
TAKEN_BACK = 250


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the reader)."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def reading(path: Path, repeat: int) -> Recording:
    print(f"read_replay_file, end to end ({repeat} runs):")
    cpu: list[float] = []

    def run() -> None:
        start = cpu_seconds()
        read_replay_file(path)
        cpu.append(cpu_seconds() - start)

    print("    wall", summary(timings(run, repeat), 1e-3, "ms"))
    print("    CPU ", summary(cpu, 1e-3, "ms"), "(this process and the child)")
    print("  child process: start, parse and analyse, print JSON; the JSON read back:")
    child = timings(lambda: _parse_in_child("EvfVideo", path, "Metasweeper"), repeat)
    print("   ", summary(child, 1e-3, "ms"))
    print("  the same parse in this process (ms-toollib and the list of events):")
    print("   ", summary(timings(lambda: reader.read("EvfVideo", str(path)), repeat), 1e-3, "ms"))
    data = reader.read("EvfVideo", str(path))
    compact = (",", ":")
    size = len(json.dumps(data, separators=compact)) / 1e6
    print(f"  the JSON printed and read back ({size:.2f} MB, {len(data['events'])} events):")
    again = timings(lambda: json.loads(json.dumps(data, separators=compact)), repeat)
    print("   ", summary(again, 1e-3, "ms"))
    print("  recording_of:")
    print("   ", summary(timings(lambda: recording_of(data), repeat), 1e-3, "ms"))
    recording = recording_of(data)
    clicks = sum(1 for a in recording.actions if a.kind in MOVES or a.kind in OFF_BOARD)
    print(f"    ({len(recording.actions)} actions, {clicks} of them clicks)")
    return recording


def viewing(recording: Recording, repeat: int) -> None:
    print("the replay viewer:")
    opened, end = [], []
    for _ in range(repeat):
        first, last = asyncio.run(open_viewer(recording))
        opened.append(first)
        end.append(last)
    print("  opened (headless, 200x60), its first frame settled, CPU:")
    print("   ", summary(opened, 1e-3, "ms"))
    print("  End (the game after its last action), CPU:")
    print("   ", summary(end, 1e-3, "ms"))
    half = recording.actions[len(recording.actions) // 2].t_ms
    print("  a frame of playback (which action the time shown has reached):")
    frame = timings(lambda: sum(1 for a in recording.actions if a.t_ms <= half), repeat * 10)
    print("   ", summary(frame, 1e-3, "ms"))
    print("  a step back from the middle (the game replayed to there):")
    middle = len(recording.actions) // 2
    print("   ", summary(timings(lambda: recording.game(middle), repeat), 1e-3, "ms"))


async def open_viewer(recording: Recording) -> tuple[float, float]:
    """CPU seconds to open the viewer on ``recording``, then to press End."""
    from textmines.config import GameConfig
    from textmines.ui.app import TextminesApp
    from textmines.ui.screens.replay import ReplayScreen

    app = TextminesApp(GameConfig(9, 9, 10, seed=1), clock=lambda: 0.0)
    async with app.run_test(size=(200, 60)) as pilot:
        await pilot.pause()
        start = time.process_time()
        app.replays.view(recording, "long game")
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        opened = time.process_time() - start
        start = time.process_time()
        await pilot.press("end")
        return opened, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument("--seed", type=int, default=1, help="the long game's seed")
    args = parser.parse_args()
    repeat = 3 if args.quick else 9
    print("command:", " ".join([Path(sys.executable).name, *sys.argv]))
    try:
        toollib = version("ms_toollib")
    except PackageNotFoundError:
        raise SystemExit("this benchmark needs ms-toollib (pip install ms-toollib)") from None
    print(f"python {platform.python_version()}, ms-toollib {toollib}, {platform.system()}")
    with tempfile.TemporaryDirectory() as name:
        path = Path(name) / "long.evf"
        start = time.perf_counter()
        board, steps = long_game(args.seed, SIZE, TAKEN_BACK)
        figures = basevideo_file(board, steps, path)
        print(
            f"{board.width}x{board.height}/{board.mine_count}, seed {args.seed}: {len(steps)} "
            f"mouse events, {figures['cl']} clicks, {path.stat().st_size / 1e3:.0f} kB "
            f"(made in {time.perf_counter() - start:.1f} s)\n"
        )
        recording = reading(path, repeat)
        viewing(recording, repeat)


if __name__ == "__main__":
    main()
