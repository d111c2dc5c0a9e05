"""Board IDs: a short text that lets anyone play exactly the same mines.

    30x16-99-o14.7-4h8x...q2

The size, the mine count, the first-click rule (``o`` opening, ``s`` safe) with the first
click's cell, ``n`` after it for a no-guess board, then the mines and a two-character check.
The ID holds the layout itself (the mines' combination, numbered in the combinatorial number
system, written in Crockford's base 32), never a seed: a better generator or solver in a later
version cannot change the board an ID names. A shared board starts with its first click made,
so everyone faces the same position (as Simon Tatham's game IDs do); the clock starts at the
player's first move.
"""

from __future__ import annotations

import math
import re
import time
import zlib
from dataclasses import dataclass
from typing import Final

from textmines.engine.board import Board
from textmines.engine.clock import Clock
from textmines.engine.game import Game
from textmines.engine.presets import FirstClick
from textmines.engine.quoting import quoted

#: Crockford's base 32, lower case: no i, l, o or u to misread.
ALPHABET: Final = "0123456789abcdefghjkmnpqrstvwxyz"
_VALUES: Final = {char: value for value, char in enumerate(ALPHABET)} | {
    "i": 1,
    "l": 1,
    "o": 0,
}
#: Each character as the digit of that value in Python's base 32, for int(..., 32).
_PYTHON_DIGITS: Final = str.maketrans(
    {char: "0123456789abcdefghijklmnopqrstuv"[value] for char, value in _VALUES.items()}
)
#: Boards up to this many cells have IDs: beyond, an ID is too long to share (100x100 with
#: 2,000 mines would take 1,465 characters, and most of a second to make).
MAX_CELLS: Final = 2_500
# ASCII digits only: ``\d`` also matches Arabic-Indic, full-width and other digits, which
# int() reads but the check (over ASCII) cannot, and no ID is ever written with them.
_SHAPE: Final = re.compile(
    r"([0-9]+)x([0-9]+)-([0-9]+)-([os])([0-9]+)\.([0-9]+)(n?)-([0-9a-z]+)", re.ASCII
)
_CHECK: Final = 2
#: The longest code of mines: the number of the last combination of the largest board (1,250
#: mines in 2,500 cells), 5 bits a character: 499.
_LONGEST_CODE: Final = -(-(math.comb(MAX_CELLS, MAX_CELLS // 2) - 1).bit_length() // 5)
#: The longest ID: the longest head (fourteen digits, as in 227x11-2496-o226.10n; sides go up
#: to 1,000), the longest code and the check: 522. Anything longer is refused before any
#: other work.
MAX_ID_LENGTH: Final = len("227x11-2496-o226.10n-") + _LONGEST_CODE + _CHECK
#: The most digits a number of a board ID has (width, height, mines, first click).
_MAX_DIGITS: Final = len(str(MAX_CELLS))


class BoardIdError(ValueError):
    """Text that is no board ID; the message says what is wrong."""


@dataclass(frozen=True, slots=True)
class BoardId:
    """What a board ID names: the mines, the first click made on them, and the rules."""

    board: Board
    first: tuple[int, int]
    first_click: FirstClick = "opening"
    no_guess: bool = False

    def text(self) -> str:
        """The ID. Raises ``ValueError`` for a board over ``MAX_CELLS`` cells."""
        board = self.board
        if board.size > MAX_CELLS:
            raise ValueError(f"boards over {MAX_CELLS:,} cells have no ID")
        head = (
            f"{board.width}x{board.height}-{board.mine_count}-{self.first_click[0]}"
            f"{self.first[0]}.{self.first[1]}{'n' if self.no_guess else ''}"
        )
        code = _base32(_rank(board.mine_indices()))
        return f"{head}-{code}{_check(head + code)}"

    def game(self, *, question_marks: bool = True, clock: Clock = time.monotonic) -> Game:
        """The game this ID names, its first click made; its clock starts at the next move."""
        game = Game.from_board(self.board, question_marks=question_marks, clock=clock)
        game.first_click = self.first_click
        game.no_guess = self.no_guess
        game.reveal(*self.first)
        game.clock.hold_until_move()
        return game


def shared_board_of(game: Game) -> BoardId | None:
    """``game``'s mines, first click and rules, to play again or to name; None before its
    first reveal, and when that was on a mine (a board laid before it, as a practice game's
    from a replay: no rule deals such a board). (A board of any size: only its ``text`` is
    limited to ``MAX_CELLS``.)"""
    first, board = game.first_reveal, game.board
    if first is None or board is None or board.is_mine(*first):
        return None
    return BoardId(board, first, game.first_click, game.no_guess)


def board_id_of(game: Game) -> str | None:
    """The ID of ``game``'s board, or None: before its first reveal, or too big for one."""
    shared = shared_board_of(game)
    if shared is None or shared.board.size > MAX_CELLS:
        return None
    return shared.text()


def parse_board_id(text: str) -> BoardId:
    """The board ``text`` names; raises ``BoardIdError`` (and nothing else) saying what is
    wrong, in one line. Spaces and line breaks anywhere are left out: an ID copied from a
    terminal where it took two lines still plays."""
    stripped = "".join(text.split())
    # Before any other work: a pasted megabyte must cost no more than reading it once.
    if len(stripped) > MAX_ID_LENGTH:
        raise BoardIdError(
            f"{quoted(stripped)} is not a board ID (too long: at most {MAX_ID_LENGTH} characters)"
        )
    cleaned = stripped.lower()
    match = _SHAPE.fullmatch(cleaned)
    if match is None:
        raise BoardIdError(
            f"{quoted(stripped)} is not a board ID (they look like 9x9-10-o4.4-1k3m...)"
        )
    numbers = [match.group(i) for i in (1, 2, 3, 5, 6)]
    # No board with an ID needs a longer number; a longer one would fill the message.
    too_long = next((n for n in numbers if len(n.lstrip("0")) > _MAX_DIGITS), None)
    if too_long is not None:
        raise BoardIdError(
            f"{quoted(too_long)} is too large a number for a board ID (up to {MAX_CELLS:,} cells)"
        )
    width, height, mines, x, y = (int(number) for number in numbers)
    rule: FirstClick = "opening" if match.group(4) == "o" else "safe"
    body = match.group(8)
    code, check = body[:-_CHECK], body[-_CHECK:]
    if not code or _check(cleaned[: match.start(8) - 1] + code) != check:
        raise BoardIdError("the board ID's check does not match: a character is wrong or missing")
    if not (width >= 1 and height >= 1 and width * height <= MAX_CELLS):
        raise BoardIdError(f"a {width}x{height} board has no ID (up to {MAX_CELLS:,} cells)")
    if not 0 < mines < width * height:
        raise BoardIdError(f"{mines} mines do not fit a {width}x{height} board")
    if not (0 <= x < width and 0 <= y < height):
        raise BoardIdError(f"the first click ({x}, {y}) is outside the {width}x{height} board")
    try:
        cells = _unrank(_number(code), mines, width * height)
        board = Board.from_mines(width, height, cells)
    except ValueError as error:
        raise BoardIdError(f"the board ID's mines do not decode ({error})") from None
    if board.is_mine(x, y):
        raise BoardIdError(f"the first click ({x}, {y}) is on a mine")
    return BoardId(board, (x, y), rule, bool(match.group(7)))


def _rank(cells: list[int]) -> int:
    """The combination's number: sum of C(cell, k) over its cells in order, k from 1."""
    return sum(math.comb(cell, k) for k, cell in enumerate(sorted(cells), 1))


def _unrank(rank: int, count: int, size: int) -> list[int]:
    """The ``count`` cells of ``size`` whose combination has number ``rank``: the largest
    cell c with C(c, k) <= rank for k = count ... 1, walking c down one step at a time (each
    step a multiplication and a division), so a board costs time in proportion to its cells."""
    if rank >= math.comb(size, count):
        raise ValueError("the number is too large for the board")
    cells = []
    cell = size - 1
    comb = math.comb(cell, count)  # C(cell, k)
    for k in range(count, 0, -1):
        while comb > rank:
            comb = comb * (cell - k) // cell  # C(cell - 1, k)
            cell -= 1
        cells.append(cell)
        rank -= comb
        if k > 1:
            comb = comb * k // cell  # C(cell - 1, k - 1)
            cell -= 1
    return cells


def _base32(number: int) -> str:
    digits = []
    while True:
        number, digit = divmod(number, 32)
        digits.append(ALPHABET[digit])
        if not number:
            return "".join(reversed(digits))


def _number(code: str) -> int:
    bad = next((char for char in code if char not in _VALUES), None)
    if bad is not None:
        raise BoardIdError(f"{bad!r} cannot be in a board ID")
    # int() reads a power-of-two base in time linear in the length; adding one digit at a
    # time (number * 32 + value) copies the whole number at each step: quadratic.
    return int(code.translate(_PYTHON_DIGITS), 32)


def _check(text: str) -> str:
    value = zlib.crc32(text.encode("ascii")) % (32**_CHECK)
    return _base32(value).rjust(_CHECK, "0")
