"""OneLineWidget: a single row drawn straight from styled pieces with the Line API.

The menu bar, the header and the status line are each one row of a few styled words. Drawing
them as one widget each, instead of a container of ``Static``s, keeps the screen to a handful
of widgets: every key press costs Textual work per widget (message pumps, compositing), so
fewer widgets is the cheapest speed-up there is.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import ClassVar, TypeVar

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip
from textual.widget import Widget

from textmines.ui.drawing.colours import PieceStyle

#: Text and the name of its style in ``PIECE_STYLES`` (None: the widget's own style).
Piece = tuple[str, str | None]

S = TypeVar("S")


def merge_runs(cells: Iterable[tuple[str, S]]) -> list[tuple[str, S]]:
    """Neighbouring (text, style) cells of one style as one piece: fewer segments to draw."""
    merged: list[tuple[str, S]] = []
    for text, style in cells:
        if merged and merged[-1][1] == style:
            merged[-1] = (merged[-1][0] + text, style)
        else:
            merged.append((text, style))
    return merged


def pieces_width(pieces: Sequence[Piece]) -> int:
    """Terminal columns the pieces take."""
    return sum(cell_len(text) for text, _ in pieces)


def fit_words(text: str, width: int) -> str:
    """``text``, or as many of its words as fit in ``width`` columns with an ellipsis after
    them: a word is never cut (nothing at all when not even the first word fits)."""
    if cell_len(text) <= width:
        return text
    words = text.split(" ")
    while words and cell_len(" ".join(words) + " …") > width:
        words.pop()
    return " ".join(words) + " …" if words else ""


def fit_entries(entries: Sequence[str], width: int, separator: str = " · ") -> str:
    """As many whole ``entries`` as fit in ``width`` columns, joined by ``separator``."""
    text = ""
    for entry in entries:
        longer = f"{text}{separator}{entry}" if text else entry
        if cell_len(longer) > width:
            break
        text = longer
    return text


class OneLineWidget(Widget):
    """One row: ``left()`` pieces from the left edge (or centred), ``right()`` at the right edge.

    Subclasses describe the row; call ``refresh()`` when it changes. ``PIECE_STYLES`` names
    the styles pieces may use, built from theme variables (see ``colours``).
    """

    DEFAULT_CSS: ClassVar[str] = """
    OneLineWidget { height: 1; }
    """

    #: Centre the left pieces in the row instead of starting at the left edge.
    centred: ClassVar[bool] = False

    #: The styles a piece may name, over the widget's own style.
    PIECE_STYLES: ClassVar[Mapping[str, PieceStyle]] = {}

    def __init__(
        self, *, name: str | None = None, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._styles: dict[str | None, Style] = {}
        #: The row being laid out: ``left`` and ``right`` may read it in a taller widget.
        self.row = 0
        # The last row drawn and what it was drawn from: most refreshes change nothing here.
        self._drawn: tuple[object, Strip] | None = None

    def left(self, width: int) -> list[Piece]:
        """The pieces drawn from the left (``width`` is the room the row has)."""
        return []

    def right(self, width: int) -> list[Piece]:
        """The pieces drawn against the right edge (at most ``width`` columns)."""
        return []

    def _layout(self, row: int = 0) -> tuple[int, list[Piece], list[Piece]]:
        """(column of the first left piece, left pieces, right pieces) of ``row`` for the
        current width (``left`` and ``right`` read the row from ``self.row`` meanwhile)."""
        self.row = row
        try:
            right = self.right(self.size.width)
            room = max(0, self.size.width - pieces_width(right))
            left = self.left(room)
        finally:
            self.row = 0
        start = max(0, (room - pieces_width(left)) // 2) if self.centred else 0
        return start, left, right

    def left_spans(self, row: int = 0) -> list[tuple[int, int]]:
        """(first column, end column) of each left piece of ``row``, relative to the widget."""
        column, left, _ = self._layout(row)
        spans = []
        for text, _name in left:
            spans.append((column, column + cell_len(text)))
            column += cell_len(text)
        return spans

    def left_piece_at(self, x: int, row: int = 0) -> int | None:
        """Index of the left piece of ``row`` under column ``x`` of the widget, if any."""
        for index, (first, end) in enumerate(self.left_spans(row)):
            if first <= x < end:
                return index
        return None

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._styles.clear()
        self._drawn = None

    def _style(self, name: str | None) -> Style:
        # Resolving the widget's style walks the DOM: once per name until the styles change.
        style = self._styles.get(name)
        if style is None:
            if name is None:
                style = self.rich_style
            else:
                style = self.PIECE_STYLES[name].over(self._style(None), self.app.theme_variables)
            self._styles[name] = style
        return style

    #: Rows drawn from pieces (``row`` says which); those below are blank.
    piece_rows = 1

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        if y >= self.piece_rows:
            return Strip.blank(width, self._style(None))
        start, left, right = self._layout(y)
        key = (width, start, left, right)
        if self._drawn is not None and self._drawn[0] == key:
            return self._drawn[1]
        base = self._style(None)
        room = width - pieces_width(right)
        segments = [Segment(" " * start, base)] if start else []
        segments += [Segment(text, self._style(name)) for text, name in left]
        used = start + pieces_width(left)
        if used < room:
            segments.append(Segment(" " * (room - used), base))
        segments += [Segment(text, self._style(name)) for text, name in right]
        strip = Strip(segments).crop(0, width).extend_cell_length(width, base)
        self._drawn = (key, strip)
        return strip
