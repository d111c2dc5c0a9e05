"""The child process that reads another program's replay file with ms-toollib.

    python -m textmines.replays.reader EvfVideo|AvfVideo|RmvVideo|MvfVideo FILE
    python -m textmines.replays.reader zini < BOARD.json

ms-toollib aborts the whole process (a Rust panic) on a file it cannot read, so it runs here,
never in the game: ``textmines.replays.foreign`` starts this module and reads one line of JSON
from it, or learns from its exit status that the file could not be read. The JSON holds the
board (rows of -1 for a mine, 0-8), what the file says of the game, and one entry per mouse
event (but the pointer's moves within a cell): ``[t_ms, left, right, chord, row, column,
useful]``, the time on the game clock (0 at the first reveal), the click counts so far as
Metasweeper counts them, where the pointer was, and what the event did (2: it opened cells).
"""

from __future__ import annotations

import json
import sys
from typing import Any

READERS = ("EvfVideo", "AvfVideo", "RmvVideo", "MvfVideo")


#: The most mouse events read from a file, pointer moves within a cell left out: the longest
#: real replay known has 56,659 events, moves and all (a 60x36 game). Each costs about 15 us
#: of CPU and 0.75 KB in all (the library's record and Python's view of it, the JSON, the
#: move it becomes, the game taken again): at most some 3 s and 150 MB.
MAX_EVENTS = 200_000
#: The largest file the library reads whole: every other format than .evf version 4, whose
#: moves within a cell are dropped before (``evf_moves``). An event takes 5 bytes (.mvf) to
#: 8 in them: at most some 320,000 events (220 MB) are read before any is left out; the
#: longest real replay known would take about 450 KB.
MAX_WHOLE_BYTES = 1_600_000


def read(kind: str, path: str) -> dict[str, Any]:
    """What the file says of its game (see the module's docstring); or, for a file beyond
    what is read, ``{"refused": "events" | "bytes", "count": N}``."""
    import ms_toollib  # type: ignore[import-not-found,import-untyped,unused-ignore]

    data, refused = _readable(kind, path)
    if refused is not None:
        return refused
    # The bytes, read here: the library takes a file's name as UTF-8 text only, and a name
    # that is not (a byte of another encoding) would make a good file "damaged".
    name = path if _is_utf8(path) else ""
    video = getattr(ms_toollib, kind)(file_name=name, raw_data=data)
    video.parse()
    # Read what the file says before analyse(), which overwrites some of it.
    info = {
        "software": str(video.software),
        "player": str(video.player_identifier),
        "completed": bool(video.is_completed),
    }
    video.analyse()
    recorded = video.events  # a list made anew at each reading: once
    if len(recorded) > MAX_EVENTS:
        return {"refused": "events", "count": len(recorded)}
    board = [[int(cell) for cell in row] for row in video.board]
    info["rtime_ms"] = int(video.rtime_ms)
    events = _events(recorded, int(video.pix_size), float(video.video_start_time))
    return {"board": board, "events": events, **info}


def _readable(kind: str, path: str) -> tuple[bytes, dict[str, Any] | None]:
    """The bytes the library is to read of ``path``, or why none are."""
    from textmines.replays.evf_moves import TooManyEvents, drop_still_moves

    with open(path, "rb") as file:
        data = file.read()
    thinned = None
    if kind == "EvfVideo":
        try:
            thinned = drop_still_moves(data, MAX_EVENTS)
        except TooManyEvents as error:
            return data, {"refused": "events", "count": error.args[0]}
    if thinned is None and len(data) > MAX_WHOLE_BYTES:
        return data, {"refused": "bytes", "count": len(data)}
    return (data if thinned is None else thinned), None


def _events(recorded: list[Any], pixels: int, start: float) -> list[list[int]]:
    """The JSON's events of the library's ``recorded`` events."""
    events = []
    counts = [0, 0, 0]
    last_cell: tuple[int, int] | None = None
    for event in recorded:
        if not event.event.is_mouse():
            continue
        mouse = event.event.unwrap_mouse()
        at = (int(mouse.y) // pixels, int(mouse.x) // pixels)
        if mouse.mouse == "mv":
            # A move of the pointer counts no click, and within its cell it shows nothing
            # (for an .evf file they are gone already: evf_moves).
            if at == last_cell:
                continue
            useful = 0
        else:
            done = event.key_dynamic_params
            counts = [int(done.left), int(done.right), int(done.double)]
            useful = int(event.useful_level)
        last_cell = at
        events.append([round((event.time + start) * 1000), *counts, *at, useful])
    return events


def _is_utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # bytes of the name Python decoded to lone surrogates
        return False
    return True


def zini(rows: list[list[int]]) -> dict[str, int]:
    """ZiNi and HZiNi of a board (rows of -1 for a mine, 0-8), as Metasweeper computes them."""
    import ms_toollib  # type: ignore[import-not-found,import-untyped,unused-ignore]

    # The library's stub asks cal_zini for a loop count it does not take (1.5.20).
    zini = ms_toollib.cal_zini(rows)  # type: ignore[call-arg,unused-ignore]
    return {"zini": int(zini), "hzini": int(ms_toollib.cal_hzini(rows))}


def main(argv: list[str]) -> int:
    if argv == ["zini"]:
        print(json.dumps(zini(json.loads(sys.stdin.read()))))
        return 0
    if len(argv) != 2 or argv[0] not in READERS:
        print(f"usage: python -m textmines.replays.reader {'|'.join(READERS)} FILE | zini")
        return 2
    print(json.dumps(read(argv[0], argv[1]), separators=(",", ":")))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
