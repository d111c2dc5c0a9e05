"""The recording of a game: its mines and every action with its time, in a few hundred bytes.

A recording replays exactly, from the layout and the actions, never by running the random
generator again. It is what the statistics database keeps for each game and what the
replay viewer and the .evf export read.

Encoding (version 1): one version byte, then zlib-compressed:

* varints: width, height, mines, the game time in ms; one byte of options (1: question marks
  on at the start, 2: opening first click, 4: no-guess board);
* the mines, one bit per cell in row order (most significant bit first);
* a varint count of actions, then per action: a kind byte, the varint milliseconds since the
  action before, and for a move, a cursor move, a press or a click off the board (at the cell
  nearest to it) the zigzag varint step from the cell of the action before (the new value for
  a question-mark option change).
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import Final

from textmines.engine.actions import ActionKind
from textmines.engine.board import Board
from textmines.engine.game import Action, Game

VERSION: Final = 1
#: Kind bytes; never renumber one that has shipped.
_KIND_BYTES: Final = {
    ActionKind.REVEAL: 0,
    ActionKind.FLAG: 1,
    ActionKind.MARK: 2,
    ActionKind.CHORD: 3,
    ActionKind.QUESTION_MARKS: 4,
    ActionKind.CURSOR: 5,
    ActionKind.PRESS: 6,
    ActionKind.LEFT_OFF_BOARD: 7,
    ActionKind.RIGHT_OFF_BOARD: 8,
}
_BYTE_KINDS: Final = {code: kind for kind, code in _KIND_BYTES.items()}
_QUESTION_MARKS, _OPENING, _NO_GUESS = 1, 2, 4
#: The most actions a recording is read with (more are refused before any is decoded).
#: Decoding and replaying one costs some 5 us and 180 bytes: at most about 5 s and 180 MB.
#: A human's hour of play takes some 40,000 (cursor moves and all); the solver clearing the
#: largest board (1000x1000) about half a million: a reveal for a third of the cells or so,
#: a flag for each mine.
MAX_ACTIONS: Final = 1_000_000
#: The most bytes a recording inflates to: its header, one bit a cell of the largest board,
#: and MAX_ACTIONS of at most 10 bytes (a kind, 6 of time, 3 of step).
_MAX_INFLATED: Final = 64 + 1000 * 1000 // 8 + MAX_ACTIONS * 10


class RecordingError(ValueError):
    """Bytes that are not a recording this build can read."""


@dataclass(frozen=True, slots=True)
class Recording:
    """A game as it was played: ``board`` (the mines), ``actions`` (times in ms of game time),
    and the options that change what an action does."""

    board: Board
    actions: tuple[Action, ...]
    elapsed_ms: int
    question_marks: bool = False
    first_click: str = "safe"
    no_guess: bool = False
    #: Who played it and in which program, as another program's replay file says ("" for a
    #: game of textmines'); not encoded: they go with the file's recording into an export.
    player: str = ""
    software: str = ""

    @classmethod
    def of(cls, game: Game) -> Recording:
        """The recording of ``game`` so far. Raises ``ValueError`` before its first reveal."""
        if game.board is None:
            raise ValueError("a game has no recording before its first reveal")
        return cls(
            game.board,
            game.actions,
            game.elapsed_ms,
            question_marks=game.question_marks_at_start,
            first_click=game.first_click,
            no_guess=game.no_guess,
        )

    def game(self, actions: int | None = None) -> Game:
        """The game after the first ``actions`` actions (all by default), clock stopped. With
        all of them, an unfinished game stands at the recording's time: it went on after its
        last action, until it was left."""
        game = Game.replayed(self.board, self.actions[:actions], question_marks=self.question_marks)
        if actions is None and not game.status.is_over and self.elapsed_ms > game.elapsed_ms:
            game.clock.set_elapsed(self.elapsed_ms)
        return game

    def encode(self) -> bytes:
        board = self.board
        out = bytearray()
        for value in (board.width, board.height, board.mine_count, self.elapsed_ms):
            _put(out, value)
        out.append(
            (_QUESTION_MARKS if self.question_marks else 0)
            | (_OPENING if self.first_click == "opening" else 0)
            | (_NO_GUESS if self.no_guess else 0)
        )
        out += mine_bits(board)
        _put(out, len(self.actions))
        last_t = last_cell = 0
        for kind, x, y, t_ms in self.actions:
            out.append(_KIND_BYTES[kind])
            _put(out, t_ms - last_t)
            last_t = t_ms
            if kind == ActionKind.QUESTION_MARKS:
                out.append(x)
                continue
            cell = y * board.width + x
            step = cell - last_cell
            _put(out, step * 2 if step >= 0 else -step * 2 - 1)
            last_cell = cell
        return bytes([VERSION]) + zlib.compress(bytes(out), 9)

    @classmethod
    def decode(cls, data: bytes) -> Recording:
        """Read ``encode``'s bytes; raises ``RecordingError`` saying what is wrong, for bytes
        that are damaged, cut short or of another version, or actions that cannot be replayed."""
        if not data:
            raise RecordingError("the recording is empty")
        if data[0] != VERSION:
            raise RecordingError(f"recording version {data[0]} (this build reads {VERSION})")
        try:
            inflater = zlib.decompressobj()
            payload = inflater.decompress(data[1:], _MAX_INFLATED)
        except zlib.error as error:
            raise RecordingError(f"the recording is damaged ({error})") from None
        if inflater.unconsumed_tail or not inflater.eof:
            raise RecordingError(_too_many(payload) or "the recording is cut short or too large")
        reader = _Reader(payload)
        try:
            recording = _read(reader)
        except RecordingError:
            raise
        except (IndexError, KeyError) as error:
            raise RecordingError(f"the recording is damaged at byte {reader.at}") from error
        except ValueError as error:
            raise RecordingError(f"the recording does not replay: {error}") from None
        if reader.at != len(payload):
            raise RecordingError("the recording has bytes after its last action")
        return recording


def _header(reader: _Reader) -> tuple[int, int, int, int, int, bytes, int]:
    """Width, height, mines, time, options, the mines' bits and the count of actions."""
    width, height, mines, elapsed_ms = (reader.varint() for _ in range(4))
    options = reader.byte()
    bits = reader.take((width * height + 7) // 8)
    return width, height, mines, elapsed_ms, options, bits, reader.varint()


def _too_many(payload: bytes) -> str | None:
    """Why a recording that inflates past ``_MAX_INFLATED`` is not read, if its header
    (the start of ``payload``) says: more actions than are read."""
    try:
        count = _header(_Reader(payload))[-1]
    except IndexError:
        return None
    return _too_many_actions(count) if count > MAX_ACTIONS else None


def _too_many_actions(count: int) -> str:
    return f"the recording holds {count:,} actions, more than the {MAX_ACTIONS:,} textmines reads"


def _read(reader: _Reader) -> Recording:
    width, height, mines, elapsed_ms, options, bits, count = _header(reader)
    if count > MAX_ACTIONS:  # refused before a million Actions are made, and replayed
        raise RecordingError(_too_many_actions(count))
    board = Board.from_mines(
        width, height, [i for i in range(width * height) if bits[i >> 3] & (0x80 >> (i & 7))]
    )
    if board.mine_count != mines:
        raise ValueError(f"{board.mine_count} mines in the layout, {mines} in the header")
    actions = _actions(reader, count, width, width * height)
    recording = Recording(
        board,
        tuple(actions),
        elapsed_ms,
        question_marks=bool(options & _QUESTION_MARKS),
        first_click="opening" if options & _OPENING else "safe",
        no_guess=bool(options & _NO_GUESS),
    )
    recording.game()  # raises ValueError for actions that cannot be taken
    return recording


def _actions(reader: _Reader, count: int, width: int, cells: int) -> list[Action]:
    """The ``count`` actions that follow in ``reader``, on a board ``width`` wide of ``cells``
    cells. The hot loop of a decoding (up to ``MAX_ACTIONS`` times): the bytes are read in
    place, a one-byte number (nearly all are) without a call, and each Action made as
    Value's own ``_replace`` makes one, at a third of the cost (3 us an action before)."""
    data, at, new = reader.data, reader.at, tuple.__new__
    kinds, question_marks = _BYTE_KINDS, ActionKind.QUESTION_MARKS
    actions: list[Action] = []
    t_ms = cell = 0
    try:
        for number in range(1, count + 1):
            kind, delta = kinds[data[at]], data[at + 1]
            at += 2
            if delta >= 0x80:
                delta, at = _varint_rest(data, at, delta)
            t_ms += delta
            if kind is question_marks:
                actions.append(new(Action, (kind, data[at], 0, t_ms)))
                at += 1
                continue
            step = data[at]
            at += 1
            if step >= 0x80:
                step, at = _varint_rest(data, at, step)
            cell += -((step + 1) >> 1) if step & 1 else step >> 1
            if not 0 <= cell < cells:
                raise ValueError(f"action {number} is off the board")
            y, x = divmod(cell, width)
            actions.append(new(Action, (kind, x, y, t_ms)))
    finally:
        reader.at = at  # where a damaged one was found
    return actions


def _varint_rest(data: bytes, at: int, first: int) -> tuple[int, int]:
    """A varint whose first byte ``first`` (0x80 or more) came before ``at``: its value and
    where it ends."""
    value, shift = first & 0x7F, 7
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, at
        shift += 7
        if shift > 63:
            raise IndexError("a number too long")


def mine_bits(board: Board) -> bytes:
    """The mines, one bit per cell in row order, most significant bit first."""
    bits = bytearray((board.size + 7) // 8)
    for index in board.mine_indices():
        bits[index >> 3] |= 0x80 >> (index & 7)
    return bytes(bits)


def _put(out: bytearray, value: int) -> None:
    """Append ``value`` (>= 0) as a little-endian base-128 varint."""
    if value < 0:
        raise ValueError(f"cannot record a negative number ({value})")
    while value >= 0x80:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.at = 0

    def byte(self) -> int:
        value = self.data[self.at]
        self.at += 1
        return value

    def take(self, count: int) -> bytes:
        if self.at + count > len(self.data):
            raise IndexError("past the end")
        chunk = self.data[self.at : self.at + count]
        self.at += count
        return chunk

    def varint(self) -> int:
        value = shift = 0
        while True:
            byte = self.byte()
            value |= (byte & 0x7F) << shift
            if byte < 0x80:
                return value
            shift += 7
            if shift > 63:
                raise IndexError("a number too long")
