"""Tile sizes (the zoom) and how one board cell is drawn at each.

A tile is ``cols`` x ``rows`` screen cells. In one-row tiles the glyph is right-aligned in the
theme's cell width, centred when the tile is wider; a covered tile is a block of its face
colour with a thin shadow along its bottom and down its right edge (``one_row_covered``), a
revealed one flat, so that a covered field reads as raised tiles. Taller tiles look like the
classic game's: a covered cell is raised (light top and left edges, dark bottom and right,
drawn with half blocks), a revealed one flat with a thin grid line on its right and bottom,
the glyph centred on the middle row (the upper one of two).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rich.cells import cell_len
from rich.color import Color
from rich.segment import Segment
from rich.style import Style

from textmines.store.settings import ZOOMS
from textmines.ui.drawing.line import merge_runs
from textmines.value import Value

#: The zoom setting that picks the largest tile at which the whole panel fits.
FIT: Final = ZOOMS[0]


class Tile(Value):
    """A tile size in screen cells."""

    cols: int
    rows: int

    def __str__(self) -> str:
        return f"{self.cols}x{self.rows}"


#: Every tile size the zoom setting names, smallest first: roughly square from two rows on
#: (a terminal cell is about twice as tall as it is wide).
TILES: Final = tuple(Tile(*map(int, zoom.split("x"))) for zoom in ZOOMS[1:])


def tile_sizes(cell_width: int) -> list[Tile]:
    """The tile sizes for a theme whose one-row cell is ``cell_width`` columns, smallest
    first: that cell, then the sizes larger than it."""
    return [Tile(cell_width, 1)] + [t for t in TILES if t.rows > 1 or t.cols > cell_width]


def zoom_index(sizes: Sequence[Tile], zoom: str) -> int | None:
    """Index in ``sizes`` of the ``zoom`` setting (None for fit); a size the theme's cell
    is wider than means its own cell."""
    if zoom == FIT:
        return None
    cols, rows = map(int, zoom.split("x"))
    return next((i for i, t in enumerate(sizes) if (t.rows, t.cols) >= (rows, cols)), 0)


def fitting_tile(sizes: Sequence[Tile], board: tuple[int, int], room: tuple[int, int]) -> int:
    """Index in ``sizes`` of the largest tile at which a ``board`` of (width, height) cells
    fits in ``room`` (columns, rows); the smallest (0) when none does (the board scrolls)."""
    width, height = board
    columns, rows = room
    fits = [i for i, t in enumerate(sizes) if width * t.cols <= columns and height * t.rows <= rows]
    return max(fits, default=0)


def one_row_glyph(glyph: str, cell_width: int, cols: int) -> str:
    """``glyph`` in a one-row tile: right-aligned in the theme's cell width (a gap between
    columns, as the board always looked), that cell centred in a wider tile."""
    cell = " " * max(0, cell_width - cell_len(glyph)) + glyph
    room = max(0, cols - cell_len(cell))
    return " " * (room // 2) + cell + " " * (room - room // 2)


#: A covered one-row tile's shadow: along its bottom and down its right edge, an eighth of a
#: cell thick. There is no room for a bevel's four edges in one row (a character has two
#: colours), and the two dark ones are what make a light block look raised.
SHADOW_EDGES: Final = ("▁", "▕")


def one_row_covered(glyph: str, style: Style, shadow: Style) -> list[tuple[str, Style]]:
    """A covered one-row tile: ``glyph`` as ``one_row_glyph`` lays it out (a flag, a question
    mark; all blank for a plain covered cell) in ``style``, its blank columns drawn as the
    tile's shadow in ``shadow`` (the dark edge over the tile's face)."""
    bottom, right = SHADOW_EDGES
    last = cell_len(glyph) - 1
    cells: list[tuple[str, Style]] = []
    column = 0
    for char in glyph:
        if char == " ":
            cells.append((right if column == last else bottom, shadow))
        elif cells and cell_len(char) == 0:
            cells[-1] = (cells[-1][0] + char, style)  # a combining mark stays with its letter
        else:
            cells.append((char, style))
        column += cell_len(char)
    return merge_runs(cells)


class TileColours(Value):
    """The colours of the edges: a covered tile's bevel and a revealed tile's grid line."""

    light: Color
    dark: Color
    grid: Color


#: The characters of a tile's edges: raised (top-left corner, top, left, right, bottom-left
#: corner, bottom, bottom-right corner), then the flat tile's grid (bottom, right, and the
#: crossing at its bottom-right corner, which joins the lines of the tiles around it: drawn
#: through the middle of the character cells, the grid has no gap where lines cross).
BLOCK_EDGES: Final = ("▛", "▀", "▌", "▐", "▌", "▄", "▟", "─", "│", "┼")
ASCII_EDGES: Final = ("+", "-", "|", "|", "+", "-", "+", "-", "|", "+")

#: Larger drawings of a mine and a flag, for tiles with two free rows: each row is
#: (character, part) pairs, the part ``g`` in the glyph's style (the mine, the pennant),
#: ``d`` in the dark edge colour (the flag's pole and base), `` `` the tile's face.
BigArt = tuple[tuple[tuple[str, str], ...], ...]

#: The numbers 1-8 as 3x5 pixel digits, drawn two pixel rows a screen row with half blocks
#: (three rows tall): for revealed tiles with three free rows, bold like the original's.
_DIGIT_PIXELS: Final = {
    "1": ("010", "110", "010", "010", "111"),
    "2": ("111", "001", "111", "100", "111"),
    "3": ("111", "001", "011", "001", "111"),
    "4": ("101", "101", "111", "001", "001"),
    "5": ("111", "100", "111", "001", "111"),
    "6": ("111", "100", "111", "101", "111"),
    "7": ("111", "001", "001", "001", "001"),
    "8": ("111", "101", "111", "101", "111"),
}
_HALF_BLOCKS: Final = {("1", "1"): "█", ("1", "0"): "▀", ("0", "1"): "▄", ("0", "0"): " "}


def _digit_art(pixels: tuple[str, ...]) -> BigArt:
    rows = (*pixels, "000")  # an even number of pixel rows: the last half row is empty
    return tuple(
        tuple(
            (_HALF_BLOCKS[top, bottom], "g" if "1" in (top, bottom) else " ")
            for top, bottom in zip(rows[i], rows[i + 1], strict=True)
        )
        for i in range(0, len(pixels), 2)
    )


BIG_ART: Final[dict[str, BigArt]] = {
    "mine": (tuple(zip("▄█▄", "ggg", strict=True)), tuple(zip("▀█▀", "ggg", strict=True))),
    # A wrong flag: the mine crossed out in the wrong colour, as Windows shows it.
    "wrong": (tuple(zip("▚█▞", "gdg", strict=True)), tuple(zip("▞█▚", "gdg", strict=True))),
    "flag": (tuple(zip("▄█▌ ", "ggd ", strict=True)), tuple(zip(" ▄▙▄", " ddd", strict=True))),
    **{f"digit{n}": _digit_art(pixels) for n, pixels in _DIGIT_PIXELS.items()},
}


def tile_row(
    tile: Tile,
    row: int,
    glyph: str,
    style: Style,
    raised: bool,
    colours: TileColours,
    edges: Sequence[str] = BLOCK_EDGES,
    big: str | None = None,
) -> list[Segment]:
    """Row ``row`` of a tile of two rows or more showing ``glyph`` in ``style`` (whose
    background is the tile's face): raised for a covered cell, flat for a revealed one,
    its edges drawn with ``edges`` (block characters, or ``ASCII_EDGES``). ``big`` names a
    drawing in ``BIG_ART`` that replaces the glyph where the tile has room for it."""
    pieces = tile_pieces(tile, row, glyph, style, raised, colours, edges, big)
    return [Segment(text, cell_style) for text, cell_style in pieces]


def tile_pieces(
    tile: Tile,
    row: int,
    glyph: str,
    style: Style,
    raised: bool,
    colours: TileColours,
    edges: Sequence[str] = BLOCK_EDGES,
    big: str | None = None,
) -> list[tuple[str, Style]]:
    """``tile_row`` as (text, style) pieces, one per run of a style: what a row builder joins
    with the tiles beside it."""
    cols, rows = tile
    background = style.bgcolor
    light = Style(color=colours.light, bgcolor=background)
    dark = Style(color=colours.dark, bgcolor=background)
    grid = Style(color=colours.grid, bgcolor=background)
    # Blank space in a style of its own, apart from the glyph's: SVG captures (and so the
    # snapshots) then place the glyph exactly, as a terminal does.
    face = Style(bgcolor=background)
    if raised:
        # A two-row tile has no row between its edges: the glyph's row (the top) becomes
        # one, so that a flag or a probability sits between the edges, not on the bevel.
        if rows == 2 and row == 0 and glyph.strip():
            cells = _raised_row(cols, 3, 1, (light, dark, face), edges)
        else:
            cells = _raised_row(cols, rows, row, (light, dark, face), edges)
        inner = (1, cols - 1)
    else:
        last = row == rows - 1
        line = (edges[7], grid) if last else (" ", face)
        cells = [line] * (cols - 1) + [(edges[9] if last else edges[8], grid)]
        inner = (0, cols - 1)
    art = BIG_ART.get(big or "") if edges is BLOCK_EDGES else None
    top, height = (1, rows - 2) if raised else (0, rows - 1)
    if art is not None and height >= len(art) and inner[1] - inner[0] >= len(art[0]) + 2:
        first = top + (height - len(art)) // 2
        if first <= row < first + len(art):
            drawing = art[row - first]
            start = inner[0] + (inner[1] - inner[0] - len(drawing)) // 2
            parts = {"g": style, "d": dark, " ": face}
            cells[start : start + len(drawing)] = [(c, parts[p]) for c, p in drawing]
    elif row == (rows - 1) // 2 and glyph.strip():
        width = cell_len(glyph)
        # A flat tile's grid line runs down the middle of its last column: half that column
        # is the tile's, so a 3x2 tile's number sits in its middle column, not against the
        # line of the tile before it.
        room = inner[1] - inner[0] + (0 if raised else 1)
        start = inner[0] + max(0, (room - width) // 2)
        cells[start : start + width] = [(glyph, style)] + [("", style)] * (width - 1)
    return merge_runs(cells)


def _raised_row(
    cols: int, rows: int, row: int, styles: tuple[Style, Style, Style], edges: Sequence[str]
) -> list[tuple[str, Style]]:
    """A covered tile's row: the light edge runs along the top and down the left, the dark
    one along the bottom and up the right, each corner taken as the classic bevel does."""
    light, dark, face = styles
    corner, top, left, right, bottom_corner, bottom, last = edges[:7]
    if row == 0:
        return [(corner, light)] + [(top, light)] * (cols - 1)
    if row == rows - 1:
        return [(bottom_corner, light)] + [(bottom, dark)] * (cols - 2) + [(last, dark)]
    return [(left, light)] + [(" ", face)] * (cols - 2) + [(right, dark)]
