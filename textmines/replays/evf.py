"""Export a recording as an .evf replay (version 4), the open format of Metasweeper.

Written from the format as ms-toollib 1.5 reads it (all numbers big-endian):

* header: version 4; a byte of flags (128 completed, 64 official, 32 fair, 16 no flags); a
  byte of options (128 question marks); rows and columns (one byte each); mines (u16); the
  cell size in pixels (u8); the mode (u16); 3BV (u16); the time in ms (u32); a two-letter
  country; start and end as microseconds since 1970 (u64 each); then the software, player,
  race and unique ids as zero-terminated UTF-8; a u16-counted device id;
* the mines, one bit per cell, row by row, most significant bit first; a u16 count of custom
  fields (0);
* the mouse events: the first as code, time (u8 ms) and position (u16 x, u16 y, pixels);
  each next one as code, the ms since the one before (u8) and the step in x and y (i16),
  after as many ``255, u16 ms`` pauses as the gap needs; a 0 ends them; then a u16-counted
  checksum (empty).

Each move becomes the mouse events that make it in Metasweeper: a reveal is a left press and
release on the cell, a flag a right press and release, a chord left, right, right up, left up;
a cursor move is a mouse move. A click off the board (read from another program's file) is
one at the point just past the board's last column and row, the one point off the board
ms-toollib reads (it aborts on any other): it counts the click there and does nothing else. A
right click that changes no flag (a question mark taken off) goes there too, so the click
counts agree. Time 0 is the first reveal, as in textmines.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from textmines import __version__
from textmines.engine.actions import OFF_BOARD, ActionKind
from textmines.engine.game import Game
from textmines.engine.metrics import game_metrics
from textmines.engine.view_alphabet import ViewChar
from textmines.replays.recording import Recording, mine_bits

CELL_PIXELS: Final = 16
#: Largest board an .evf holds: one byte per side.
MAX_SIDE: Final = 255
_MOUSE_CODES: Final = {"mv": 1, "lc": 2, "lr": 3, "rc": 4, "rr": 5}
_PAUSE: Final = 255
#: Metasweeper's modes: standard (first click safe), "Win7" (first click opens), strong no-guess.
MODE_STANDARD, MODE_OPENING, MODE_NO_GUESS = 0, 4, 6


@dataclass(frozen=True, slots=True)
class EvfInfo:
    """What the file says besides the board and the events."""

    bbbv: int
    won: bool
    no_flags: bool
    fair: bool = True
    software: str = "textmines"
    player: str = ""
    unique_id: str = ""
    country: str = "XX"
    started_us: int = 0
    ended_us: int = 0


def export_evf(
    recording: Recording,
    *,
    started_us: int = 0,
    ended_us: int = 0,
    fair: bool = True,
    unique_id: str = "",
) -> bytes:
    """The .evf file of ``recording``, with the 3BV, completion and NF of the game it replays
    (``fair``: played without help). Raises ``ValueError`` as ``evf_bytes`` does."""
    metrics = game_metrics(recording.game())
    info = EvfInfo(
        bbbv=metrics.bbbv,
        won=metrics.won,
        no_flags=metrics.no_flags,
        fair=fair,
        software=exported_software(recording.software),
        player=recording.player,
        unique_id=unique_id,
        started_us=started_us,
        ended_us=ended_us,
    )
    return evf_bytes(recording, info)


def exported_software(software: str) -> str:
    """What an export says wrote it: textmines, or for a game another program recorded
    (``software``, from its file), ``Viennasweeper 3.1 via textmines 1.0``: the program the
    game was played in is kept, once, however often the file is exported again."""
    own = f"textmines {__version__}"
    program = software.split(" via textmines ")[0].strip()
    if not program or program.startswith("textmines"):
        return own
    return f"{program} via {own}"


#: The longest game the format's time field holds (four bytes of milliseconds).
MAX_TIME_MS: Final = 0xFFFF_FFFF


def evf_bytes(recording: Recording, info: EvfInfo) -> bytes:
    """The .evf file of ``recording``; raises ``ValueError`` for a board too large for the
    format (more than 255 rows or columns) or a game that never started."""
    board = recording.board
    if board.width > MAX_SIDE or board.height > MAX_SIDE:
        raise ValueError(
            f"an .evf replay holds boards up to {MAX_SIDE}x{MAX_SIDE}, "
            f"not {board.width}x{board.height}"
        )
    if not recording.actions:
        raise ValueError("the game has no moves to export")
    if recording.elapsed_ms > MAX_TIME_MS:
        # A save may hold such a game (its time is checked only up to ten years).
        raise ValueError(
            f"an .evf replay holds games up to {MAX_TIME_MS:,} ms (49.7 days), "
            f"not {recording.elapsed_ms:,} ms"
        )
    out = bytearray(_header(recording, info))
    out += mine_bits(recording.board)
    out += struct.pack(">H", 0)  # no custom fields
    events = _mouse_events(recording)
    code, t_ms, x, y = next(events)
    out += struct.pack(">BBHH", code, min(t_ms, 255), x, y)
    last_t, last_x, last_y = t_ms, x, y
    for code, t_ms, x, y in events:
        gap = t_ms - last_t
        while gap > 255:
            pause = min(gap - 255, 0xFFFF)
            out += struct.pack(">BH", _PAUSE, pause)
            gap -= pause
        out += struct.pack(">BBhh", code, gap, x - last_x, y - last_y)
        last_t, last_x, last_y = t_ms, x, y
    out.append(0)
    out += struct.pack(">H", 0)  # no checksum
    return bytes(out)


def _header(recording: Recording, info: EvfInfo) -> bytes:
    board = recording.board
    flags = (128 if info.won else 0) | (32 if info.fair else 0) | (16 if info.no_flags else 0)
    if recording.no_guess:
        mode = MODE_NO_GUESS
    elif recording.first_click == "opening":
        mode = MODE_OPENING
    else:
        mode = MODE_STANDARD
    country = info.country.upper().encode("ascii", "replace")[:2].ljust(2, b"X")
    fixed = struct.pack(
        ">BBBBBHBHHI2sQQ",
        4,
        flags,
        128 if recording.question_marks else 0,
        board.height,
        board.width,
        board.mine_count,
        CELL_PIXELS,
        mode,
        min(info.bbbv, 0xFFFF),
        recording.elapsed_ms,
        country,
        info.started_us,
        info.ended_us,
    )
    texts = b"".join(
        text.replace("\0", "").encode() + b"\0"
        for text in (info.software, info.player, "", info.unique_id)
    )
    return fixed + texts + struct.pack(">H", 0)  # no device id


def _mouse_events(recording: Recording) -> Iterator[tuple[int, int, int, int]]:
    """(code, ms, x pixels, y pixels) for each mouse event that makes the recorded moves."""
    board = recording.board
    # The point off the board where a click counts but does nothing (and the only one).
    outside = (board.width * CELL_PIXELS, board.height * CELL_PIXELS)
    # The moves are taken again on a game of their own, to know what a right click does.
    game = Game.replayed(board, (), question_marks=recording.question_marks)
    at: tuple[int, int] | None = None
    held = _held_presses(recording)
    pressed = False
    for number, action in enumerate(recording.actions):
        kind, x, y, t_ms = action
        # An option change, or a press that came to nothing: no mouse event.
        if kind != ActionKind.QUESTION_MARKS and (kind != ActionKind.PRESS or number in held):
            point = (x * CELL_PIXELS + CELL_PIXELS // 2, y * CELL_PIXELS + CELL_PIXELS // 2)
            clicks = _clicks(kind)
            if pressed and kind in (ActionKind.REVEAL, ActionKind.CHORD):
                clicks = clicks[1:]  # the left button went down at the press
            pressed = kind == ActionKind.PRESS
            if kind in OFF_BOARD or (
                kind in (ActionKind.MARK, ActionKind.FLAG) and not _changes_flag(game, kind, x, y)
            ):
                # Besides clicks off the board, a question mark taken off or a flag left as it
                # is: Metasweeper has no such right click on a cell (its right click only puts
                # a flag on or takes it off).
                point = outside
            if point != at:
                yield (_MOUSE_CODES["mv"], t_ms, *point)
                at = point
            for mouse in clicks:
                yield (_MOUSE_CODES[mouse], t_ms, *point)
        game.replay_action(action)


def _held_presses(recording: Recording) -> set[int]:
    """The presses whose release made a reveal or a chord (next, cursor moves apart): the
    others came to nothing (released beside the board, say) and leave no click."""
    held = set()
    press: int | None = None
    for number, action in enumerate(recording.actions):
        if action.kind == ActionKind.PRESS:
            press = number
        elif action.kind in (ActionKind.REVEAL, ActionKind.CHORD) and press is not None:
            held.add(press)
            press = None
        elif action.kind != ActionKind.CURSOR:
            press = None
    return held


def _clicks(kind: ActionKind) -> tuple[str, ...]:
    """The mouse presses and releases that make move ``kind`` in Metasweeper."""
    if kind == ActionKind.PRESS:
        return ("lc",)
    if kind == ActionKind.REVEAL:
        return ("lc", "lr")
    if kind == ActionKind.CHORD:
        return ("lc", "rc", "rr", "lr")
    if kind in (ActionKind.MARK, ActionKind.FLAG, ActionKind.RIGHT_OFF_BOARD):
        return ("rc", "rr")
    if kind == ActionKind.LEFT_OFF_BOARD:
        return ("lc", "lr")
    return ()


def _changes_flag(game: Game, kind: ActionKind, x: int, y: int) -> bool:
    """Whether right click ``kind`` puts a flag on ``(x, y)`` or takes one off."""
    shown = game.view_row(y)[x]
    if shown == ViewChar.FLAG:
        return kind == ActionKind.MARK
    return shown != ViewChar.QUESTION or kind == ActionKind.FLAG
