"""How each board cell looks: the styles of its states (from the theme's ``mines-*``
variables), the glyph tables of the tile sizes, the overlay's labels, and ``CellLooks``, which
turns one cell's state into a ``CellLook`` (its style's name, glyph and tile), the unit the
board's row builders (``board_lines.py``) draw lines from.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from rich.color import Color as RichColor
from rich.style import Style
from textual.color import Color

from textmines.themes import ThemeGlyphs
from textmines.ui.board.tiles import Tile, one_row_glyph
from textmines.ui.drawing.colours import ansi_contrast_text, theme_colour
from textmines.value import Value

#: Below this difference in brightness a theme's covered and revealed cells look alike (the
#: classic's grey: Windows tells them apart by the bevel alone).
ALIKE = 0.1
#: From these odds on, a theme of ANSI colours shows the overlay in its error colour.
HEAT_LIKELY = 50


def one_row_face(variables: Mapping[str, str]) -> RichColor:
    """The face of a covered one-row tile: the theme's covered colour, lifted halfway to its
    light bevel where the revealed colour is much the same. A one-row tile has no room for the
    bevel, so its face must tell covered from revealed; a theme whose covered cells already
    stand apart keeps its colour (and the contrast of its flags on it)."""
    covered = theme_colour(variables, "mines-covered")
    revealed = theme_colour(variables, "mines-revealed")
    if abs(covered.brightness - revealed.brightness) < ALIKE:
        covered = covered.blend(theme_colour(variables, "mines-bevel-light"), 0.5)
    return covered.rich_color


def cell_styles(variables: Mapping[str, str], one_row: bool = False) -> dict[str, Style]:
    """Rich styles for every view character, from the theme's ``mines-*`` variables; with
    ``one_row``, covered cells take the face of a one-row tile (``one_row_face``).

    Keys: the engine's view characters, ``pressed`` (a covered cell held down with the
    mouse), and each of those prefixed with ``c`` for the cell under the cursor.

    The board reads the theme's variables instead of styling ~20 CSS component classes:
    Textual restyles every component class at start-up and on each focus change, which
    measured 4-5 ms of CPU at start-up alone.
    """

    def colour(name: str) -> RichColor:
        return theme_colour(variables, f"mines-{name}").rich_color

    covered, revealed, mine = colour("covered"), colour("revealed"), colour("mine")
    if one_row:
        covered = one_row_face(variables)
    styles = {
        "#": Style(color=colour("covered-glyph"), bgcolor=covered),
        "F": Style(color=colour("flag"), bgcolor=covered, bold=True),
        "?": Style(color=colour("question"), bgcolor=covered, bold=True),
        # A wrong flag shows on an opened cell, as Windows shows its crossed-out mine.
        "W": Style(color=colour("wrong"), bgcolor=revealed, bold=True),
        "*": Style(color=mine, bgcolor=revealed, bold=True),
        "X": Style(color=mine, bgcolor=colour("exploded"), bold=True),
        "0": Style(color=revealed, bgcolor=revealed),
        **{
            str(n): Style(color=colour(f"number-{n}"), bgcolor=revealed, bold=True)
            for n in range(1, 9)
        },
    }
    styles["pressed"] = styles["0"]
    # A hinted cell: the theme's "success" colour says "this one".
    styles["hint"] = Style(
        color=colour("covered-glyph"), bgcolor=theme_colour(variables, "success").rich_color
    )
    cursor = Style(bgcolor=colour("cursor"))
    styles.update({"c" + key: style + cursor for key, style in list(styles.items())})
    # The mine that exploded keeps its red under the cursor (a keyboard loss leaves the cursor
    # there); the cursor shows as an underline instead.
    styles["cX"] = styles["X"] + Style(underline=True)
    return styles


def heat_styles(variables: Mapping[str, str]) -> list[Style]:
    """101 styles for the probability overlay, from 0% (the theme's success colour) through
    its warning colour to 100% (its error colour), each with readable text on top."""
    stops = (
        theme_colour(variables, "success"),
        theme_colour(variables, "warning"),
        theme_colour(variables, "error"),
    )
    ansi = any(stop.ansi is not None for stop in stops)
    styles = []
    for percent in range(101):
        background = _heat(stops, percent)
        text = ansi_contrast_text(background) if ansi else background.get_contrast_text(1.0)
        # Italic and not bold: unlike the numbers of revealed cells.
        styles.append(Style(color=text.rich_color, bgcolor=background.rich_color, italic=True))
    return styles


def _heat(stops: tuple[Color, Color, Color], percent: int) -> Color:
    """The overlay's colour for a ``percent`` chance of a mine, between the ``stops`` (safe,
    risky, mine).

    The low odds, where a player chooses a cell, get most of the way: along the square root
    of the odds, the warning colour comes at 25%, so that 0%, 10% and 20% read apart (a
    straight blend of two colours barely moved at first, and 256 colours showed 0% and 20% as
    one green). Through the warning colour the hue turns instead of one colour darkening.
    """
    safe, risky, mine = stops
    if any(stop.ansi is not None for stop in stops):
        # The terminal's own colours do not blend: certainly safe, a risk, likely a mine.
        return safe if percent == 0 else risky if percent < HEAT_LIKELY else mine
    along = math.sqrt(percent / 100)
    return safe.blend(risky, along * 2) if along < 0.5 else risky.blend(mine, along * 2 - 1)


def overlay_percent(probability: float) -> int:
    """The percentage shown for a probability: 0 and 100 only when certain."""
    if probability <= 0:
        return 0
    if probability >= 1:
        return 100
    return min(99, max(1, round(probability * 100)))


def overlay_label(percent: int, cols: int, cell_width: int | None = None) -> str:
    """What a covered cell shows under the overlay in a one-row tile ``cols`` wide, placed as
    a number is in that tile (``one_row_glyph``: right-aligned in the theme's ``cell_width``,
    default ``cols``, that cell centred), so the labels line up with the numbers beside them.

    Never a bare digit, which would read as a revealed number: two-column tiles show tenths
    after a tilde (``~3`` is about 30%), wider tiles the percentage with its sign. ``0`` and
    ``*`` only when certain. The colour says the rest.
    """
    if percent == 100:
        label = "*"
    elif percent == 0:
        label = "0"
    elif cols > 2:
        label = f"{percent}%" if cols > 3 or percent < 10 else str(percent)
    else:
        label = f"~{min(9, max(1, round(percent / 10)))}"
    return one_row_glyph(label, cols if cell_width is None else cell_width, cols)


#: View characters drawn larger on tiles with room (see ``tiles.BIG_ART``): the mines of a
#: lost game, the exploded one, wrong flags (crossed out), flags and the numbers.
BIG_GLYPHS = {
    "*": "mine",
    "X": "mine",
    "W": "wrong",
    "F": "flag",
    **{str(n): f"digit{n}" for n in range(1, 9)},
}


def glyph_table(glyphs: ThemeGlyphs, cols: int | None = None) -> dict[str, str]:
    """What each view character shows in a one-row tile ``cols`` wide (default: the theme's
    cell width), right-aligned in that cell: " 1" reads as a grid with a gap between
    columns. Padded by columns on screen, not by characters: an emoji takes two, "e" + a
    combining accent one (the theme check measures the same way)."""
    raw = {
        "#": glyphs.covered,
        "F": glyphs.flag,
        "?": glyphs.question,
        "*": glyphs.mine,
        "X": glyphs.exploded,
        "W": glyphs.wrong,
        "0": glyphs.empty,
        **{str(n): glyph for n, glyph in enumerate(glyphs.numbers, 1)},
    }
    width = glyphs.cell_width
    return {char: one_row_glyph(glyph, width, cols or width) for char, glyph in raw.items()}


def one_row_glyphs(glyphs: ThemeGlyphs, cols: int | None = None) -> dict[str, str]:
    """What each view character shows in a one-row tile ``cols`` wide (``glyph_table``): a
    plain covered cell shows no glyph where the tile's shadow says "covered" (block themes),
    the theme's covered glyph where the tile is drawn in plain characters (ASCII themes)."""
    table = glyph_table(glyphs, cols)
    if not glyphs.ascii:
        table["#"] = " " * (cols or glyphs.cell_width)
    return table


def tile_glyphs(glyphs: ThemeGlyphs) -> dict[str, str]:
    """What each view character shows on the middle row of a tile of two rows or more: the
    bevel says "covered", so a covered cell shows no glyph of its own."""
    table = {char: glyph.strip() for char, glyph in glyph_table(glyphs).items()}
    table["#"] = ""
    return table


class CellLook(Value):
    """How one cell is drawn.

    ``style`` names its style: a key of ``cell_styles``, or ``heat<percent>`` under the
    overlay (``heat_styles``). ``own`` says the glyph is the cell's own, not an overlay label:
    only then may a one-row tile draw its shadow around it, or a taller one the big drawing
    ``big`` (``BIG_GLYPHS``) instead of it. ``lead`` is the label's first column drawn apart,
    as (text, style name), before the glyph.
    """

    style: str
    glyph: str
    raised: bool
    own: bool
    big: str | None = None
    lead: tuple[str, str] | None = None


class CellLooks:
    """The look of each cell at one tile size with one theme's glyphs (``cell``)."""

    def __init__(self, glyphs: ThemeGlyphs, tile: Tile) -> None:
        self.tile = tile
        self.cell_width = glyphs.cell_width
        #: What each view character shows at this size.
        self.table = one_row_glyphs(glyphs, tile.cols) if tile.rows == 1 else tile_glyphs(glyphs)
        # A two-column cell under the overlay: its first column (the tilde) stays in the
        # covered cell's style, so the heat colours do not run into one wall.
        self.split = tile == (2, 1)
        self._labels: dict[int, str] = {}
        #: The look of each view character with nothing on it: most cells of a line.
        self.plain = {
            char: self.cell(char, cursor=False, pressed=False, hint=False, percent=-1)
            for char in self.table
        }

    def row(
        self,
        text: str,
        cursor: int,
        pressed: int,
        hints: tuple[int, ...],
        percents: tuple[int, ...] | None,
    ) -> list[CellLook]:
        """The looks of the cells ``text`` shows in a line: ``cursor`` and ``pressed`` are
        places in it (-1: none), ``hints`` those of the hinted cells, ``percents`` the
        overlay's (-1: none)."""
        plain = self.plain
        looks = [plain[char] for char in text]
        marked = {cursor, pressed, *hints}
        if percents is not None:
            marked.update(index for index, percent in enumerate(percents) if percent >= 0)
        marked.discard(-1)
        for index in marked:
            looks[index] = self.cell(
                text[index],
                cursor=index == cursor,
                pressed=index == pressed,
                hint=index in hints,
                percent=-1 if percents is None else percents[index],
            )
        return looks

    def label(self, percent: int) -> str:
        """What a covered cell shows under the overlay at this size (``overlay_label``)."""
        label = self._labels.get(percent)
        if label is None:
            cols, rows = self.tile
            if rows > 1:
                # A raised tile has its width less its two edges for the label.
                room = cols - 2
                label = overlay_label(percent, room).strip() if room >= 2 else ""
            else:
                label = overlay_label(percent, cols, self.cell_width)
            self._labels[percent] = label
        return label

    def cell(self, char: str, *, cursor: bool, pressed: bool, hint: bool, percent: int) -> CellLook:
        """The look of a cell showing view character ``char``: under the ``cursor``,
        ``pressed`` (held down with the mouse), the ``hint``; ``percent`` is its mine
        probability under the overlay (-1: none shown)."""
        table = self.table
        glyph = own = table[char]
        covered = char in "#?"
        if pressed and covered:
            name, glyph = "pressed", table["0"]
        else:
            name = "hint" if hint else char
        style = "c" + name if cursor else name
        lead = None
        if percent >= 0 and covered and name != "pressed":
            glyph = self.label(percent)
            if not cursor and name != "hint":
                if self.split:
                    lead = (glyph[0], style)
                    glyph = glyph[1:]
                style = f"heat{percent}"
        raised = name != "pressed" and char in "#F?"
        is_own = glyph == own
        return CellLook(
            style, glyph, raised, is_own, BIG_GLYPHS.get(char) if is_own else None, lead
        )


__all__ = [
    "ALIKE",
    "BIG_GLYPHS",
    "CellLook",
    "CellLooks",
    "cell_styles",
    "glyph_table",
    "heat_styles",
    "one_row_face",
    "one_row_glyphs",
    "overlay_label",
    "overlay_percent",
    "tile_glyphs",
]
