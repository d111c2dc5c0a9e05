"""Hostile replays: builds them, never run as tests (issue 46.19).

python benchmarks/hostile_replays.py FOLDER

Writes into FOLDER the files an attacker reads with ``textmines --review``, each under a cap
textmines checks (the file's 20 MB, the database row's size):

* ``moves.evf``: a Beginner game whose pointer jitters 3.3 million times within one cell,
  1 ms apart (6 bytes a move: 19.8 MB);
* ``cells.evf``: the same, the pointer going back and forth between two cells;
* ``stats.db``: game 1 a 35 KB recording that inflates to 12 million cursor moves.

Measure each with ``/usr/bin/time -v textmines --review FILE --json`` (``--review 1`` with
``TEXTMINES_HOME=FOLDER``): the elapsed time and the maximum resident set size.

Measured on 2 shared cores (issue 46.19), wall time, CPU time, peak RSS:

==========  =============================  ==============================================
file        before                         after
==========  =============================  ==============================================
moves.evf   21.4 s, 2,331 MB               3.1 s (2.8 s CPU), 33 MB: read, the moves
                                           within a cell dropped before ms-toollib
cells.evf   77 s (50 s CPU), 2,331 MB      0.75 s, 34 MB: refused (more than 200,000
                                           events besides moves within a cell)
stats.db    150 s (114 s CPU), 2,251 MB    0.28 s, 41 MB: refused (12,000,001 actions,
                                           more than 1,000,000)
==========  =============================  ==============================================

At the bounds: an .evf of 199,900 moves from cell to cell, 3.0 s (2.7 s CPU), 156 MB; a
recording of 999,999 actions, decoded in 4.7 s and 180 MB (``--review``, which replays it
again, 8.6 s and 209 MB).
"""

from __future__ import annotations

import dataclasses
import struct
import sys
import zlib
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.factories import played_game
from textmines.records import record_for
from textmines.replays import evf
from textmines.replays.recording import Recording, mine_bits
from textmines.store.stats import open_stats

MOVES = 3_300_000


def jittered_evf(recording: Recording, moves: int, step: int) -> bytes:
    """``recording`` as an .evf file with ``moves`` pointer moves 1 ms apart after its
    first click, each ``step`` pixels right then left again."""
    info = evf.EvfInfo(bbbv=0, won=False, no_flags=False)
    out = bytearray(evf._header(recording, info))
    out += mine_bits(recording.board)
    out += struct.pack(">H", 0)
    events = list(evf._mouse_events(recording))
    code, t_ms, x, y = events[0]
    out += struct.pack(">BBHH", code, min(t_ms, 255), x, y)
    last_t, last_x, last_y = t_ms, x, y
    for number, (code, t_ms, x, y) in enumerate(events[1:], 1):
        if number == 3:  # after the first click: the pointer jitters
            shift = step
            for _ in range(moves):
                out += struct.pack(">BBhh", 1, 1, shift, 0)
                shift = -shift
            last_x += step * (moves % 2)
            last_t += moves
        t_ms += moves if number >= 3 else 0
        gap = t_ms - last_t
        while gap > 255:
            pause = min(gap - 255, 0xFFFF)
            out += struct.pack(">BH", 255, pause)
            gap -= pause
        out += struct.pack(">BBhh", code, gap, x - last_x, y - last_y)
        last_t, last_x, last_y = t_ms, x, y
    out.append(0)
    out += struct.pack(">H", 0)
    return bytes(out)


def bomb(recording: Recording, moves: int) -> bytes:
    """A version 1 recording of ``recording``'s board and first action, then ``moves``
    cursor moves that stay where they are, 0 ms apart: a few tens of KB, compressed."""
    board = recording.board
    out = bytearray()
    for value in (board.width, board.height, board.mine_count, 0):
        evf_put(out, value)
    out.append(0)
    out += mine_bits(board)
    first = recording.actions[0]
    evf_put(out, moves + 1)
    out += bytes([0, 0])  # a reveal at 0 ms...
    evf_put(out, (first.y * board.width + first.x) * 2)  # ...at the first action's cell
    out += bytes([5, 0, 0]) * moves
    return bytes([1]) + zlib.compress(bytes(out), 9)


def evf_put(out: bytearray, value: int) -> None:
    while value >= 0x80:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)


def main(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    game = played_game(9, 9, 10, 3)
    recording = Recording.of(game)
    for name, step in (("moves.evf", 1), ("cells.evf", evf.CELL_PIXELS)):
        data = jittered_evf(recording, MOVES, step)
        (folder / name).write_bytes(data)
        print(f"{name}: {len(data):,} bytes, {MOVES:,} pointer moves")
    store, _ = open_stats(folder / "stats.db")
    assert store is not None
    moment = datetime(2025, 1, 1, tzinfo=UTC)
    record = record_for(
        game, outcome=game.status.value, started_at=moment, ended_at=moment, assisted=False
    )
    data = bomb(recording, 12_000_000)
    with store:
        store.record(dataclasses.replace(record, replay=data))
    print(f"stats.db: game 1's recording {len(data):,} bytes, 12,000,000 cursor moves")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
