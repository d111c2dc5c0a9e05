"""Board geometry, mine layout and neighbour counts.

A board is stored as one byte per cell, row by row. The low nibble holds the number of
adjacent mines (0-8) and bit 4 marks a mine; ``Game`` adds the player's state in bits 5-6 of
its own copy. Keeping everything in flat byte strings lets the hot paths (neighbour counts,
flood fill, view text) run in C through ``bytes``/``re``/``int`` operations instead of
per-cell Python loops, which is what makes 1000x1000 boards practical.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import Final, Protocol

from textmines.engine.presets import MAX_SIDE, MIN_SIDE

COUNT_MASK: Final = 0x0F
MINE: Final = 0x10

_MINE_CELL: Final = re.compile(rb"[\x10-\x1f]")
_TO_TEXT: Final = bytes(ord("*") if b & MINE else ord(".") for b in range(256))


def neighbour_indices(index: int, width: int, height: int) -> list[int]:
    """Indices of the up-to-eight cells around ``index`` on a ``width`` x ``height`` grid."""
    y, x = divmod(index, width)
    x0, x1 = max(x - 1, 0), min(x + 1, width - 1)
    y0, y1 = max(y - 1, 0), min(y + 1, height - 1)
    return [
        row * width + col
        for row in range(y0, y1 + 1)
        for col in range(x0, x1 + 1)
        if row != y or col != x
    ]


#: Boards up to this many cells (100x100) share one list of every cell's neighbours, kept for
#: the next call (about 340 bytes a cell); bigger ones work a cell's out when asked.
SHARED_NEIGHBOURS_CELLS: Final = 10_000


class NeighbourLists(Protocol):
    """Every cell's neighbour indices, looked up by cell index (``neighbour_indices``)."""

    def __getitem__(self, index: int, /) -> list[int]: ...


class NeighboursOnDemand:
    """``neighbour_indices`` of a cell, worked out when asked (big boards)."""

    __slots__ = ("height", "last_row", "width")

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.last_row = width * (height - 1)

    def __getitem__(self, index: int, /) -> list[int]:
        w = self.width
        if w <= index < self.last_row and 0 < index % w < w - 1:
            # Away from the edges: neighbour_indices's list, in its order, without its loops.
            up, down = index - w, index + w
            return [up - 1, up, up + 1, index - 1, index + 1, down - 1, down, down + 1]
        return neighbour_indices(index, w, self.height)


def neighbour_lists(width: int, height: int) -> NeighbourLists:
    """Every cell's ``neighbour_indices`` on a ``width`` x ``height`` board: up to
    ``SHARED_NEIGHBOURS_CELLS``, lists made once and shared (the solver reads them thousands
    of times a move; never change them), else worked out when asked (the same lists, in the
    same order)."""
    if width * height <= SHARED_NEIGHBOURS_CELLS:
        return _shared_neighbour_lists(width, height)
    return NeighboursOnDemand(width, height)


@lru_cache(maxsize=4)
def _shared_neighbour_lists(width: int, height: int) -> list[list[int]]:
    return [neighbour_indices(i, width, height) for i in range(width * height)]


def grid_rows(text: str, *, empty: str, row_name: str) -> list[str]:
    """The rows of a grid written as text, one line per row, all as long as the first.

    Raises ``ValueError`` with ``empty`` when there is no row, or naming the row
    (``f"{row_name} {y}"``, counted from 1) that has another length.
    """
    rows = [line.strip() for line in text.strip().splitlines()]
    if not rows or not rows[0]:
        raise ValueError(empty)
    width = len(rows[0])
    for y, row in enumerate(rows, 1):
        if len(row) != width:
            raise ValueError(
                f"{row_name} {y} has {len(row)} cells, row 1 has {width}: "
                "every row must be as long as the first"
            )
    return rows


def _lane_mask(width: int, height: int, skip_column: int) -> int:
    """An int with 0xFF in every byte lane except those in column ``skip_column``."""
    row = bytearray(b"\xff" * width)
    row[skip_column] = 0
    return int.from_bytes(bytes(row) * height, "little")


def neighbour_sums(values: bytes, width: int, height: int) -> bytes:
    """For every cell, the sum of ``values`` over its 3x3 block (itself included).

    Each byte is a lane of one big integer, so the eight shifted copies add in C. The
    per-lane results must stay below 256: callers pass 0/1 bytes, giving at most 9.
    """
    cells = width * height
    grid = int.from_bytes(values, "little")
    from_left = (grid << 8) & _lane_mask(width, height, 0)
    from_right = (grid >> 8) & _lane_mask(width, height, width - 1)
    rows = grid + from_left + from_right
    row_bits = 8 * width
    total = rows + (rows << row_bits) + (rows >> row_bits)
    return (total & ((1 << (8 * cells)) - 1)).to_bytes(cells, "little")


def layout_bytes(width: int, height: int, mine_flags: bytes) -> bytes:
    """The packed layout (count | MINE) for a 0/1 byte per cell mine map."""
    sums = neighbour_sums(mine_flags, width, height)
    # A mine's own 1 is in its block sum: take it out and set the mine bit instead.
    mines = int.from_bytes(mine_flags, "little")
    packed = int.from_bytes(sums, "little") + (MINE - 1) * mines
    return packed.to_bytes(width * height, "little")


def cell_index(x: int, y: int, width: int, height: int) -> int:
    """The flat index (``y * width + x``) of a cell; raises ``ValueError`` outside the board."""
    if not (0 <= x < width and 0 <= y < height):
        raise ValueError(f"cell ({x}, {y}) is outside the {width}x{height} board")
    return y * width + x


def _check_shape(width: int, height: int, cells: int) -> None:
    if not (MIN_SIDE <= width <= MAX_SIDE and MIN_SIDE <= height <= MAX_SIDE):
        raise ValueError(
            f"board sides must be between {MIN_SIDE} and {MAX_SIDE}, not {width}x{height}"
        )
    if cells != width * height:
        raise ValueError(f"a {width}x{height} board has {width * height} cells, not {cells}")


class Board:
    """An immutable mine layout with its neighbour counts.

    Coordinates are ``(x, y)``: column, row, origin top-left.
    """

    __slots__ = ("_cells", "height", "mine_count", "width")

    def __init__(self, width: int, height: int, cells: bytes) -> None:
        """Wrap packed layout bytes; use ``from_text`` or ``from_mines`` to build one."""
        _check_shape(width, height, len(cells))
        self.width = width
        self.height = height
        self._cells = bytes(cells)
        self.mine_count = self._cells.translate(_TO_TEXT).count(b"*")

    @classmethod
    def from_mines(cls, width: int, height: int, mines: Iterable[int]) -> Board:
        """A board with mines at the given cell indices (``y * width + x``)."""
        cells = width * height
        flags = bytearray(cells)
        for index in mines:
            if not 0 <= index < cells:
                raise ValueError(f"mine index {index} is outside the {width}x{height} board")
            flags[index] = 1
        return cls.from_flags(width, height, bytes(flags))

    @classmethod
    def from_flags(cls, width: int, height: int, flags: bytes) -> Board:
        """A board from one byte per cell: 1 for a mine, 0 for a safe cell."""
        _check_shape(width, height, len(flags))
        if flags.translate(None, b"\x00\x01"):
            raise ValueError("mine flags must be 0 (safe) or 1 (mine)")
        return cls(width, height, layout_bytes(width, height, flags))

    @classmethod
    def from_text(cls, text: str) -> Board:
        """Parse a layout: one line per row, ``*`` for a mine and ``.`` for a safe cell."""
        rows = grid_rows(
            text,
            empty="board text is empty: give one line per row of '*' and '.'",
            row_name="board text row",
        )
        width = len(rows[0])
        for y, row in enumerate(rows):
            bad = row.strip("*.")
            if bad:
                x = row.index(bad[0])
                raise ValueError(
                    f"board text row {y + 1}, column {x + 1}: "
                    f"{bad[0]!r} is not '*' (mine) or '.' (safe)"
                )
        height = len(rows)
        flags = "".join(rows).encode("ascii").translate(_FROM_TEXT)
        return cls.from_flags(width, height, flags)

    def to_text(self) -> str:
        """The layout as text, the inverse of ``from_text``."""
        text = self._cells.translate(_TO_TEXT).decode("ascii")
        w = self.width
        return "\n".join(text[i : i + w] for i in range(0, len(text), w))

    @property
    def cells(self) -> bytes:
        """The packed layout: one byte per cell, count in the low nibble, ``MINE`` bit."""
        return self._cells

    @property
    def size(self) -> int:
        """Number of cells."""
        return self.width * self.height

    @property
    def safe_count(self) -> int:
        """Number of cells without a mine."""
        return self.size - self.mine_count

    def index(self, x: int, y: int) -> int:
        """The flat index of ``(x, y)``; raises ``ValueError`` outside the board."""
        return cell_index(x, y, self.width, self.height)

    def is_mine(self, x: int, y: int) -> bool:
        """Whether ``(x, y)`` holds a mine."""
        return bool(self._cells[self.index(x, y)] & MINE)

    def number(self, x: int, y: int) -> int:
        """How many of the neighbours of ``(x, y)`` hold a mine."""
        return self._cells[self.index(x, y)] & COUNT_MASK

    def neighbours(self, x: int, y: int) -> Iterator[tuple[int, int]]:
        """The cells around ``(x, y)``, in row order."""
        w = self.width
        for i in neighbour_indices(self.index(x, y), w, self.height):
            yield i % w, i // w

    def mine_indices(self) -> list[int]:
        """Flat indices of every mine, ascending."""
        return [match.start() for match in _MINE_CELL.finditer(self._cells)]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (self.width, self.height, self._cells) == (other.width, other.height, other._cells)

    def __hash__(self) -> int:
        return hash((self.width, self.height, self._cells))

    def __repr__(self) -> str:
        return f"Board({self.width}x{self.height}, {self.mine_count} mines)"


_FROM_TEXT: Final = bytes(1 if b == ord("*") else 0 for b in range(256))
