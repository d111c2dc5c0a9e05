"""An .evf file's pointer moves within one cell, dropped before ms-toollib reads the file.

A move of the pointer counts no click and, within its cell, shows nothing; yet ms-toollib
keeps every mouse event it reads (about 230 bytes each), and Python's view of them costs
twice that again: a 19.8 MB file of 3.3 million such moves took 25 s and 2.3 GB to read.
This module rewrites a version 4 file (the current one, which textmines writes: see
``textmines.replays.evf``) without those moves, as the reader would have passed over them
after the library read them (``textmines.replays.reader``): the other events stay as they
were, at the same times and points. No textmines import: it runs in the reader's process.

Events (after the header, the mines and the custom fields): the first is a code, the time in
ms (u8), x and y (u16); each next one a code and the ms since the event before (u8), then for
a mouse event (codes 1-80; 1 is a move) the step in x and y (i16), nothing more for a game's
state (81-99); 255 and a u16 is a pause of that many ms added to the next event's time; the
codes 100-254 are a byte alone; 0 ends them.
"""

from __future__ import annotations

import struct
from typing import Final

VERSION: Final = 4
_MOVE: Final = 1
_PAUSE: Final = 255
_STEP = struct.Struct(">hh")
_POINT = struct.Struct(">HH")
#: The header's flag of a "translated" file, which holds two texts more: not read here.
_TRANSLATED: Final = 0x08


class TooManyEvents(Exception):
    """More events than the reader takes are left once the moves within a cell are dropped."""


def drop_still_moves(data: bytes, limit: int) -> bytes | None:
    """``data`` without the pointer moves that end in the cell of the event before them;
    None when it is no version 4 file this reads (the library then reads it as it is).
    Raises ``TooManyEvents`` past ``limit`` events left."""
    try:
        start = _events_start(data)
    except (IndexError, struct.error):
        return None
    if start is None:
        return None
    try:
        return _rewritten(data, start, limit)
    except (IndexError, struct.error):
        return None  # cut short: the library says so, as for any file


def _events_start(data: bytes) -> int | None:
    """Where the events of a version 4 ``data`` begin; None for another version."""
    if data[0] != VERSION or data[1] & _TRANSLATED:
        return None
    rows, columns = data[3], data[4]
    at = 34  # past the fixed fields (see textmines.replays.evf)
    for _ in range(4):  # the software, the player, the race, the unique id
        at = data.index(b"\0", at) + 1
    (device,) = struct.unpack_from(">H", data, at)
    at += 2 + device + (rows * columns + 7) // 8
    (fields,) = struct.unpack_from(">H", data, at)
    at += 2
    for _ in range(fields):  # custom fields: zero-terminated texts
        at = data.index(b"\0", at) + 1
    return at


def _rewritten(data: bytes, start: int, limit: int) -> bytes:
    """``data``'s events from ``start`` without the moves within a cell (``drop_still_moves``)."""
    pixels = max(data[7], 1)
    x, y = _POINT.unpack_from(data, start + 2)
    out = bytearray(data[: start + 6])  # the header and the first event, absolute
    shown = (x, y)  # where the last event written put the pointer
    cell = (x // pixels, y // pixels)
    at, carried, kept = start + 6, 0, 1  # carried: the ms not yet written
    while (code := data[at]) != 0:
        if code == _PAUSE:
            carried += (data[at + 1] << 8) | data[at + 2]
            at += 3
            continue
        if code > 99:
            out.append(code)
            at += 1
            continue
        carried += data[at + 1]
        if code > 80:  # a game's state: no point
            at += 2
            _write_gap(out, code, carried)
            carried = 0
            continue
        dx, dy = _STEP.unpack_from(data, at + 2)
        at += 6
        x, y = (x + dx) & 0xFFFF, (y + dy) & 0xFFFF
        if code == _MOVE and (x // pixels, y // pixels) == cell:
            continue  # within the cell: its time goes to the next event written
        kept += 1
        if kept > limit:
            raise TooManyEvents(kept)
        _write_gap(out, code, carried)
        out += _POINT.pack((x - shown[0]) & 0xFFFF, (y - shown[1]) & 0xFFFF)
        shown, cell, carried = (x, y), (x // pixels, y // pixels), 0
    out += data[at:]  # the end, and the checksum
    return bytes(out)


def _write_gap(out: bytearray, code: int, gap: int) -> None:
    """An event's ``code`` and its ``gap`` of ms since the event before, after as many
    pauses as a gap of more than 255 ms needs."""
    while gap > 255:
        pause = min(gap - 255, 0xFFFF)
        out += bytes((_PAUSE, pause >> 8, pause & 0xFF))
        gap -= pause
    out += bytes((code, gap))
