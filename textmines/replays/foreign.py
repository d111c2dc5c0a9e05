"""Replay files of other programs: Metasweeper (.evf), Minesweeper Arbiter (.avf),
Viennasweeper (.rmv) and Minesweeper Clone (.mvf), read as textmines recordings.

The file is parsed by ms-toollib in a child process (``textmines.replays.reader``): the library
aborts its whole process on a file it cannot read, and a damaged file must never take the
game with it. Each mouse event that made a click, as the file's program counted it, becomes
the textmines move it stands for (a left click a reveal, a right click a flag, a chord a chord)
and each move of the pointer to another cell a cursor move; the moves are taken again on the
file's board, so the replay shows what the file's game showed.
"""

from __future__ import annotations

import json
import stat
import subprocess
import sys
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Final

from textmines.engine.actions import MOVES, ActionKind
from textmines.engine.board import Board
from textmines.engine.game import Action, Game, Status
from textmines.engine.view_alphabet import ViewChar
from textmines.printable import printable
from textmines.replays.evf import MAX_TIME_MS
from textmines.replays.recording import Recording

#: The reader (ms-toollib's class) for each file suffix, and the program that writes it.
FORMATS: Final = {
    ".evf": ("EvfVideo", "Metasweeper"),
    ".avf": ("AvfVideo", "Minesweeper Arbiter"),
    ".rmv": ("RmvVideo", "Viennasweeper"),
    ".mvf": ("MvfVideo", "Minesweeper Clone"),
}
#: Larger than any replay file (an Expert .avf is some tens of kilobytes).
MAX_BYTES: Final = 20 * 1024 * 1024
#: The longest a file may take to read.
TIMEOUT_S: Final = 30.0


class ReplayFileError(Exception):
    """A file that cannot be played back; the message says what and why, in one line."""


@dataclass(frozen=True, slots=True)
class ForeignReplay:
    """A replay file read as a recording, with what the file says of its game."""

    recording: Recording
    software: str
    player: str
    path: Path


def replay_title(replay: ForeignReplay) -> str:
    """``game.rmv by Thomas Kolar (Viennasweeper)``: the viewer's title for a file, as plain
    text (not markup: a name may hold ``[/]``), on one line with every character that is not
    printable shown escaped (the file's name and its player's are anybody's text)."""
    who = f" by {replay.player}" if replay.player else ""
    software = f" ({replay.software})" if replay.software else ""
    return printable(f"{replay.path.name}{who}{software}")


def read_replay_file(path: Path, *, shown: str | None = None) -> ForeignReplay:
    """Read ``path``; raises ``ReplayFileError`` for a missing, unreadable, damaged, foreign
    or mislabelled file, saying which. The messages name the file ``shown`` (what the player
    typed, in a browser tab: never the server's own folders), else ``path``."""
    name = str(path) if shown is None else shown
    kind = FORMATS.get(path.suffix.lower())
    if kind is None:
        known = ", ".join(FORMATS)
        raise ReplayFileError(f"{name}: not a replay file textmines reads ({known})")
    reader, program = kind
    size, head = _opened(path, program, name)
    if size == 0 or size > MAX_BYTES:
        raise ReplayFileError(f"{name}: not a {program} replay ({size} bytes)")
    if reader == "MvfVideo":
        _check_clone_version(name, head)
    data = _parse_in_child(reader, path, program, shown)
    try:
        recording = recording_of(data)
    except (KeyError, TypeError, ValueError, IndexError) as error:
        raise ReplayFileError(f"{name}: not a playable {program} replay ({error})") from None
    software, player = str(data.get("software", "")), str(data.get("player", ""))
    # The recording keeps them for an export (the viewer's `e`); the program is the format's
    # when the file does not name it.
    recording = replace(recording, player=player, software=software or program)
    return ForeignReplay(recording, software, player, path)


def read_bytes_as_replay(data: bytes, name: str, *, shown: str | None = None) -> ForeignReplay:
    """``data`` read as the replay file ``name`` would be (its suffix says its format; the
    messages name ``shown``, else ``name``): a replay that came over the network or out of a
    database."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="textmines-replay-") as folder:
        path = Path(folder) / Path(name).name
        path.write_bytes(data)
        return read_replay_file(path, shown=shown or name)


#: How much of a file's beginning is read here, before the reader reads it all: its header.
_HEAD_BYTES: Final = 128


def _opened(path: Path, program: str, name: str) -> tuple[int, bytes]:
    """The size of ``path`` and its first bytes; ``ReplayFileError`` (about the file
    ``name``) when it cannot be read or is not a regular file."""
    try:
        status = path.stat()
        # Only a regular file is opened: opening a FIFO waits for a writer, forever.
        if not stat.S_ISREG(status.st_mode):
            raise ReplayFileError(f"{name}: not a {program} replay (not a regular file)")
        with path.open("rb") as file:
            return status.st_size, file.read(_HEAD_BYTES)
    except OSError as error:
        raise ReplayFileError(f"{name}: cannot be read ({error.strerror or error})") from None
    except ValueError:  # a NUL character: no file is named so
        raise ReplayFileError(f"{name}: cannot be read (no file has that name)") from None


#: The one version of Minesweeper Clone's files that ms-toollib reads.
CLONE_READ: Final = "0.97 beta"


def clone_version(head: bytes) -> str | None:
    """The version of Minesweeper Clone that wrote a .mvf file beginning with ``head``, as
    the format's readers tell them apart (Clone (MVF) RAW 6); None for no version's."""
    if head[:2] == b"\x11\x4d" and len(head) > 27:
        mark = head[27]  # the last digit of the version's year
        if mark == ord("5"):
            return CLONE_READ
        if mark == ord("8"):
            return f"{CLONE_READ} (the Funny Mode hack)"
        if mark in b"67":
            year = f"200{chr(mark)}"
            named = head[54 : 54 + head[53]].decode("latin-1") if len(head) > 53 else ""
            # The file names its version (e.g. "2007 beta1"), if anything sensible.
            return named if named.isprintable() and named.startswith(year) else year
        return None
    if head[:2] == b"\x00\x00":
        return f"{CLONE_READ} (an unknown hack)"
    # Before 0.97 a file had no header: it begins with the board's width and height, which
    # were Beginner's (8x8), Intermediate's or Expert's only.
    if tuple(head[:2]) in ((8, 8), (16, 16), (30, 16)):
        return "0.96 beta or earlier"
    return None


def _check_clone_version(name: str, head: bytes) -> None:
    """Refuse a .mvf file that ms-toollib does not read, saying why: its version."""
    version = clone_version(head)
    if version is None:
        raise ReplayFileError(
            f"{name}: not a readable Minesweeper Clone replay (its header is no version's)"
        )
    if version != CLONE_READ:
        raise ReplayFileError(
            f"{name}: Minesweeper Clone {version} replays are not supported; textmines reads "
            f"those of Minesweeper Clone {CLONE_READ} only"
        )


def _run_reader(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``textmines.replays.reader`` with ``args``, in a folder of its own (ms-toollib writes a
    crash.log where it stands when it gives up). Raises ``OSError`` or ``TimeoutExpired``."""
    with tempfile.TemporaryDirectory(prefix="textmines-reader-") as folder:
        return subprocess.run(
            [sys.executable, "-m", "textmines.replays.reader", *args],
            input=stdin,
            capture_output=True,
            text=True,
            cwd=folder,
            timeout=TIMEOUT_S,
            check=False,
        )


def _parse_in_child(
    reader: str, path: Path, program: str, shown: str | None = None
) -> dict[str, Any]:
    """What the reader makes of ``path``; ``ReplayFileError`` (about the file ``shown``,
    else ``path``) when it makes nothing of it."""
    name = str(path) if shown is None else shown
    try:
        done = _run_reader(reader, str(path.resolve()))
    except subprocess.TimeoutExpired:
        raise ReplayFileError(f"{name}: reading took over {TIMEOUT_S:.0f} s") from None
    except OSError as error:
        # Named, the file is the player's: the interpreter's path is the server's then.
        why = error if shown is None else error.strerror or type(error).__name__
        raise ReplayFileError(f"{name}: the reader could not start ({why})") from None
    if "No module named 'ms_toollib'" in done.stderr:
        raise ReplayFileError(
            f"{name}: reading {program} replays needs ms-toollib (pip install ms-toollib)"
        )
    if done.returncode != 0:
        raise ReplayFileError(
            f"{name}: not a readable {program} replay (damaged or another format)"
        )
    try:
        data = json.loads(done.stdout)
    except ValueError:
        raise ReplayFileError(f"{name}: the reader gave no answer") from None
    if not isinstance(data, dict):
        raise ReplayFileError(f"{name}: the reader gave no answer")
    if "refused" in data:
        raise ReplayFileError(_refusal(name, program, data))
    return data


def _refusal(name: str, program: str, data: dict[str, Any]) -> str:
    """Why the reader read no more of the file ``name`` than it did (its bounds: see
    ``reader``)."""
    from textmines.replays.reader import MAX_EVENTS, MAX_WHOLE_BYTES

    if data["refused"] == "bytes":
        return (
            f"{name}: {data['count']:,} bytes is more than textmines reads of a {program} "
            f"replay ({MAX_WHOLE_BYTES:,}; a long game takes a few hundred thousand)"
        )
    return (
        f"{name}: more than {MAX_EVENTS:,} mouse events besides pointer moves within a cell; "
        "textmines reads replays of up to that many (a long game has some 50,000)"
    )


def board_zini(board: Board) -> tuple[int, int] | None:
    """ZiNi and HZiNi of ``board`` (the fewest clicks that clear it, estimated greedily as
    Metasweeper does, and the same for a human's order: openings first), computed by
    ms-toollib in a child process; None if it cannot be (no ms-toollib, a failure)."""
    rows = [
        [-1 if board.is_mine(x, y) else board.number(x, y) for x in range(board.width)]
        for y in range(board.height)
    ]
    try:
        done = _run_reader("zini", stdin=json.dumps(rows))
        values = json.loads(done.stdout) if done.returncode == 0 else None
        return (int(values["zini"]), int(values["hzini"])) if values else None
    except (OSError, subprocess.TimeoutExpired, ValueError, KeyError, TypeError):
        return None


def recording_of(data: dict[str, Any]) -> Recording:
    """The recording of a game read by ``textmines.replays.reader``."""
    rows = data["board"]
    height, width = len(rows), len(rows[0])
    if any(len(row) != width for row in rows):
        raise ValueError("the board's rows differ in length")
    mines = [y * width + x for y, row in enumerate(rows) for x, cell in enumerate(row) if cell < 0]
    moves = _Moves(Board.from_mines(width, height, mines))
    clicks = (0, 0, 0)
    pointed: tuple[int, int] | None = None
    for t_ms, left, right, chord, row, column, useful in data["events"]:
        if moves.game.status.is_over:
            break
        t_ms = max(int(t_ms), moves.last_t)
        kind = _click(clicks, (left, right, chord))
        on_board = 0 <= row < height and 0 <= column < width
        if (
            kind == ActionKind.REVEAL
            and useful >= 2
            and on_board
            and moves.game.cell(column, row) == ViewChar.FLAG
        ):
            # The right press was part of a two-button click after all, a left click that
            # opened the cell: its flag never stayed.
            moves.take_back_flag(column, row)
        elif right < clicks[1]:
            # The right press began a chord (on a number, or off the board), and the
            # file's program took that right click back.
            moves.take_back_right_click()
        clicks = (left, right, chord)
        game = moves.game  # a new one if a right click taken back had moves after it
        if game.status.is_over:
            break  # replayed without that click, the game ended before this event
        if not on_board:
            off = _OFF_BOARD.get(kind) if kind is not None else None
            if off is not None:  # counted, as the file's program counts it, and nothing more
                nearest = (min(max(column, 0), width - 1), min(max(row, 0), height - 1))
                moves.add(Action(off, *nearest, t_ms))
            continue
        if kind is None:
            if (column, row) != pointed and game.status != Status.READY:
                moves.add(Action(ActionKind.CURSOR, column, row, t_ms))
        else:
            moves.add(Action(kind, column, row, t_ms))
        pointed = (column, row)
    return moves.recording(data.get("rtime_ms"))


#: What a click off the board is recorded as (a chord there is never counted).
_OFF_BOARD: Final = {
    ActionKind.REVEAL: ActionKind.LEFT_OFF_BOARD,
    ActionKind.MARK: ActionKind.RIGHT_OFF_BOARD,
}


class _Moves:
    """The actions of a file's game as they are read, its moves taken on its board at once.

    A right click the file's program takes back is nearly always the last move (the right
    press that began a chord), so it is undone on the game in place; only one with moves
    after it makes the game be replayed without it. (Replaying for every one made a long
    game's reading quadratic: 5.7 s for 248 flags taken back in 56,659 mouse events.)
    """

    def __init__(self, board: Board) -> None:
        self.board = board
        self.game = Game.from_board(board, question_marks=False)
        #: The actions so far; None where one was taken back.
        self.actions: list[Action | None] = []
        #: Where the right clicks standing are in ``actions``, and the moves on the board.
        self.right_clicks: list[int] = []
        self.moves: list[int] = []
        self.last_t = 0

    def add(self, action: Action) -> None:
        index = len(self.actions)
        self.actions.append(action)
        self.last_t = action.t_ms
        if action.kind.click == "right":
            self.right_clicks.append(index)
        if action.kind in MOVES:
            self.moves.append(index)
            self.game.replay_action(action)

    def take_back_right_click(self) -> None:
        """Drop the last right click (a flag move or one off the board)."""
        if self.right_clicks:
            self._drop(self.right_clicks.pop())

    def take_back_flag(self, x: int, y: int) -> None:
        """Drop the last flag move on ``(x, y)``."""
        for place in range(len(self.right_clicks) - 1, -1, -1):
            action = self.actions[self.right_clicks[place]]
            if (
                action is not None
                and action.kind == ActionKind.MARK
                and (action.x, action.y) == (x, y)
            ):
                self._drop(self.right_clicks.pop(place))
                return

    def _drop(self, index: int) -> None:
        action = self.actions[index]
        self.actions[index] = None
        if action is None or action.kind not in MOVES:
            return  # a click off the board, which changed nothing
        if self.moves[-1] == index:
            self.moves.pop()
            # Flags only (question marks are off): a flag move on a covered cell or a flag
            # toggled it, and the same move toggles it back. On an open cell it did nothing.
            if self.game.cell(action.x, action.y) in (ViewChar.COVERED, ViewChar.FLAG):
                self.game.replay_action(action._replace(t_ms=self.last_t))
        else:
            self.moves.remove(index)
            kept = [a for a in self.actions if a is not None]
            self.game = Game.replayed(self.board, kept, question_marks=False)

    def recording(self, file_ms: object = None) -> Recording:
        """The moves as a recording; an unfinished game lasts the file's time (``file_ms``)
        where that is later than its last move: it went on until it was left."""
        actions = tuple(action for action in self.actions if action is not None)
        if not any(action.kind in MOVES for action in actions):
            raise ValueError("no move in it")
        elapsed = actions[-1].t_ms
        if isinstance(file_ms, int) and not self.game.status.is_over:
            elapsed = max(elapsed, min(file_ms, MAX_TIME_MS))  # an .evf's longest
        return Recording(self.board, actions, elapsed, question_marks=False)


def _click(before: tuple[int, int, int], after: tuple[int, int, int]) -> ActionKind | None:
    """The move a mouse event made, from the click counts before and after it."""
    if after[2] > before[2]:
        return ActionKind.CHORD
    if after[0] > before[0]:
        return ActionKind.REVEAL
    if after[1] > before[1]:
        return ActionKind.MARK
    return None
