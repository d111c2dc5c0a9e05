"""BoardLines: the board's screen lines, built from the looks of their cells and kept.

A line is the visible part of one screen row of the board: the looks of its cells
(``board_look.CellLooks``) joined by a row builder, one for one-row tiles and one for taller
ones, into a ``Strip``. Neighbouring pieces of one style are merged across the tiles: Textual
filters, divides and composes a line piece by piece, so a line of 30 raised tiles costs it
what its few runs of colour cost, not what 60 to 90 pieces would.

Drawn lines are kept in a bounded cache keyed by ``LineKey``, everything a line is drawn from
(as Textualize/toolong's ``log_lines.py`` and Textual's ``DataTable`` key theirs). The key
holds the line's cells, the cursor, the pressed cell, the hint, the overlay and the scroll, so
a line whose key is unchanged is the same line; the rest of the look (theme, glyphs, tile
size) clears the cache when it changes (``set_look``, ``restyle``). Rows that look alike
share lines: a new game's covered rows, a row the cursor left.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Final, TypeAlias

from rich.segment import Segment
from rich.style import Style
from textual.cache import LRUCache
from textual.strip import Strip

from textmines.themes import ThemeGlyphs
from textmines.ui.board.looks import CellLook, CellLooks, cell_styles, heat_styles, overlay_percent
from textmines.ui.board.tiles import (
    ASCII_EDGES,
    BLOCK_EDGES,
    Tile,
    TileColours,
    one_row_covered,
    tile_pieces,
)
from textmines.ui.drawing.colours import theme_colour

#: What one screen line of the board is drawn from: the view characters of the cells it shows,
#: which screen row of their tiles it is, the places in it of the cursor and the pressed cell
#: (-1: not in this line) and of the hinted cells, the overlay's percentage for each of its
#: cells (-1: none; None: overlay off), the column of the first cell's tile it starts at (the
#: horizontal scroll) and its width. The row's number is not in it: rows that look alike
#: share lines.
LineKey: TypeAlias = tuple[str, int, int, int, tuple[int, ...], tuple[int, ...] | None, int, int]

#: Lines kept: many screens' worth (a 200x60 terminal shows 60), so that moving the cursor
#: and scrolling back find theirs, and a bound on the memory a huge board's scrolling takes.
LINE_CACHE_SIZE: Final = 1000

#: A cell as (column, row), or None.
Cell: TypeAlias = tuple[int, int] | None


def line_key(
    text: str,
    row: int,
    first: int,
    sub: int,
    start: int,
    width: int,
    *,
    marks: tuple[Cell, Cell, tuple[Cell, ...]],
    overlay: Mapping[tuple[int, int], float] | None,
) -> LineKey:
    """The key of screen row ``sub`` of board row ``row``, showing the cells ``text`` from
    column ``first`` on, cropped from column ``start`` of the first one's tile to ``width``;
    ``marks`` are the cursor, the pressed cell (each may be None) and the hinted cells."""

    def place(cell: Cell) -> int:
        if cell is None or cell[1] != row:
            return -1
        index = cell[0] - first
        return index if 0 <= index < len(text) else -1

    cursor, pressed, hinted = marks
    hints = tuple(index for index in map(place, hinted) if index >= 0)
    percents = None
    if overlay is not None:
        percents = tuple(
            -1 if (p := overlay.get((first + index, row))) is None else overlay_percent(p)
            for index in range(len(text))
        )
    return text, sub, place(cursor), place(pressed), hints, percents, start, width


class BoardLines:
    """The lines of one board widget, drawn in its theme's colours (read through
    ``variables``) over its background (``background``)."""

    def __init__(
        self,
        glyphs: ThemeGlyphs,
        tile: Tile,
        variables: Callable[[], Mapping[str, str]],
        background: Callable[[], Style],
    ) -> None:
        self._variables = variables
        self._background_of = background
        self._lines: LRUCache[LineKey, Strip] = LRUCache(LINE_CACHE_SIZE)
        #: Each cell's pieces for one screen row of its tile, by its look (style names, not
        #: styles) and that row (``_cell_pieces``): bounded, as the looks and rows are few.
        self._pieces: dict[tuple[CellLook, int], list[tuple[str, Style]]] = {}
        #: Every style the pieces use, each once (``_shared``).
        self._instances: dict[Style, Style] = {}
        self._styles: dict[str, Style] = {}
        self._background: Style | None = None
        self._edges: TileColours | None = None
        self._true_colour: bool | None = None
        self.glyphs = glyphs
        self.looks = CellLooks(glyphs, tile)

    def __len__(self) -> int:
        """The lines kept (at most ``LINE_CACHE_SIZE``)."""
        return len(self._lines)

    def set_look(self, glyphs: ThemeGlyphs, tile: Tile) -> None:
        """Draw with ``glyphs`` in tiles of ``tile``: every line kept is drawn anew."""
        self.glyphs = glyphs
        self.looks = CellLooks(glyphs, tile)
        self.restyle()  # covered one-row tiles have a face of their own

    def restyle(self) -> None:
        """The theme's colours or the widget's style changed: forget everything drawn."""
        self._lines.clear()
        self._pieces.clear()
        self._instances.clear()
        self._styles.clear()
        self._background = None
        self._edges = None
        self._true_colour = None

    # ------------------------------------------------------------------ styles
    def styles(self) -> dict[str, Style]:
        """The cells' styles by name (``cell_styles``), made once per look."""
        if not self._styles:
            one_row = self.looks.tile.rows == 1
            self._styles = cell_styles(self._variables(), one_row=one_row)
        return self._styles

    def style(self, name: str) -> Style:
        """The style a ``CellLook`` names; the overlay's are made the first time one is."""
        styles = self.styles()
        style = styles.get(name)
        if style is None:  # heat<percent>
            heat = heat_styles(self._variables())
            styles.update((f"heat{percent}", each) for percent, each in enumerate(heat))
            style = styles[name]
        return style

    def background(self) -> Style:
        """The widget's own style, for what lies beyond the board."""
        # ``rich_style`` walks the DOM on every read: once per style change, not per line.
        if self._background is None:
            self._background = self._background_of()
        return self._background

    def true_colour(self) -> bool:
        """Whether every colour the lines can use is a true colour, none dim: the theme's
        ``mines-*`` colours, their edges, the overlay's (blends of two colours, always true)
        and the background. Textual's conversion of ANSI colours to true colour then leaves
        every line as it is."""
        if self._true_colour is None:
            styles = [*self.styles().values(), self.background()]
            colours = [c for s in styles for c in (s.color, s.bgcolor) if c is not None]
            colours += self._edge_colours()
            self._true_colour = all(c.triplet is not None for c in colours) and not any(
                s.dim for s in styles
            )
        return self._true_colour

    def _edge_colours(self) -> TileColours:
        if self._edges is None:
            variables = self._variables()
            self._edges = TileColours(
                *(
                    theme_colour(variables, f"mines-{key}").rich_color
                    for key in ("bevel-light", "bevel-dark", "grid")
                )
            )
        return self._edges

    # ------------------------------------------------------------------ lines
    def line(self, key: LineKey) -> Strip:
        """The line ``key`` describes, drawn once and kept."""
        strip = self._lines.get(key)
        if strip is None:
            strip = self._lines[key] = self.draw(key)
        return strip

    def blank(self, width: int) -> Strip:
        """A line below the board."""
        return Strip.blank(width, self.background())

    def draw(self, key: LineKey) -> Strip:
        """The line ``key`` describes, drawn now (``line`` keeps what it draws): the looks of
        its cells, each cell's pieces for this screen row of its tile, joined."""
        text, sub, cursor, pressed, hint, percents, start, width = key
        kept = self._pieces
        parts = [
            kept.get((look, sub)) or self._cell_pieces(look, sub)
            for look in self.looks.row(text, cursor, pressed, hint, percents)
        ]
        strip = Strip(join_pieces(parts), len(text) * self.looks.tile.cols)
        return strip.crop(start, start + width).extend_cell_length(width, self.background())

    def _cell_pieces(self, look: CellLook, sub: int) -> list[tuple[str, Style]]:
        """Screen row ``sub`` of a cell's tile as (text, style) pieces, made once per look
        and kept, their styles shared (``_shared``) so that ``join_pieces`` merges by
        identity."""
        if self.looks.tile.rows > 1:
            edges = ASCII_EDGES if self.glyphs.ascii else BLOCK_EDGES
            style = self.style(look.style)
            colours = self._edge_colours()
            made = tile_pieces(
                self.looks.tile, sub, look.glyph, style, look.raised, colours, edges, look.big
            )
        else:
            made = self._one_row_pieces(look)
        pieces = self._pieces[look, sub] = [(text, self._shared(each)) for text, each in made]
        return pieces

    def _one_row_pieces(self, look: CellLook) -> list[tuple[str, Style]]:
        """A one-row tile: a covered one is a block of its style's background with its
        shadow (plain glyphs in ASCII themes), an overlay label may begin with a column in
        a style of its own (``CellLook.lead``)."""
        style = self.style(look.style)
        pieces = [] if look.lead is None else [(look.lead[0], self.style(look.lead[1]))]
        if self.glyphs.ascii or not (look.raised and look.own):
            pieces.append((look.glyph, style))
        else:
            shadow = Style(color=self._edge_colours().dark, bgcolor=style.bgcolor)
            pieces += one_row_covered(look.glyph, style, shadow)
        return pieces

    def _shared(self, style: Style) -> Style:
        """The one instance of each style the pieces use: equal styles are the same object."""
        return self._instances.setdefault(style, style)


def join_pieces(parts: Iterable[list[tuple[str, Style]]]) -> list[Segment]:
    """The cells' pieces as segments, neighbours of one style (the same object) merged: a
    line of raised tiles has runs of one colour across its tiles (their top edges, the grid of
    opened cells) that Textual would otherwise filter and divide piece by piece."""
    texts: list[str] = []
    styles: list[Style] = []
    for pieces in parts:
        for text, style in pieces:
            if styles and styles[-1] is style:
                texts[-1] += text
            else:
                texts.append(text)
                styles.append(style)
    return list(map(Segment, texts, styles))


__all__ = ["LINE_CACHE_SIZE", "BoardLines", "LineKey", "join_pieces", "line_key"]
