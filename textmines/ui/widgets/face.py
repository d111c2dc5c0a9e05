"""The face on the three-row header: a small picture on a raised button, drawn with quadrant
block characters as the LED digits are drawn with half blocks.

A screen cell holds 2x2 pixels here (a pixel half a column wide and half a row tall, so twice
as tall as it is wide), so the face is a disc of 12x6 pixels on a button of eight columns and
three rows: as tall as the LED displays beside it, as in the original. A cell shows two colours
only (its character's and its background), so each picture keeps to two colours in every 2x2
block; a test checks it. The pieces name their styles (see ``FACE_STYLES``), which read the
theme's variables.
"""

from __future__ import annotations

from typing import Final

from textmines.ui.drawing.colours import PieceStyle
from textmines.ui.drawing.line import merge_runs

#: The pixel colours: ``.`` the button's face (the panel's grey), ``l`` and ``d`` its light and
#: dark edges, ``y`` the face itself, ``k`` its eyes and mouth.
_COLOURS: Final = {
    ".": "mines-frame",
    "l": "mines-bevel-light",
    "d": "mines-bevel-dark",
    "y": "mines-face-background",
    "k": "mines-face",
}
#: The styles face pieces name: ``face-XY`` is a character in X over the background Y.
FACE_STYLES: Final = {
    f"face-{fg}{bg}": PieceStyle(color=_COLOURS[fg], background=_COLOURS[bg])
    for fg in _COLOURS
    for bg in _COLOURS
}

#: The faces of the classic game, 12x6 pixels each: a smile, the "oh" while a button is held
#: on the board, sunglasses on a win, crossed-out eyes and a frown on a loss.
_FACES: Final = {
    "normal": (
        "..yyyyyyyy..",
        ".yykkyykkyy.",
        "yyyyyyyyyyyy",
        "yykyyyyyykyy",
        ".yykkkkkkyy.",
        "..yyyyyyyy..",
    ),
    "pressed": (
        "..yyyyyyyy..",
        ".yykkyykkyy.",
        "yyyyyyyyyyyy",
        "yyyyykkyyyyy",
        ".yyyykkyyyy.",
        "..yyyyyyyy..",
    ),
    "won": (
        "..yyyyyyyy..",
        "kkkkkkkkkkkk",
        "yykkkyykkkyy",
        "yyyyyyyyyyyy",
        ".yykyyyykyy.",
        "..yykkkkyy..",
    ),
    "lost": (
        "..yyyyyyyy..",
        ".ykykyykyky.",
        "yyykyyyykyyy",
        "yykykyykykyy",
        ".yyykkkkyyy.",
        "..ykyyyyky..",
    ),
}

#: Screen rows and columns of the button.
FACE_ROWS: Final = 3
FACE_COLUMNS: Final = 8

#: A quadrant character by which of its four pixels (top left, top right, bottom left,
#: bottom right) are in the character's colour; the others show its background.
_QUADRANTS: Final = {
    (0, 0, 0, 0): " ",
    (1, 0, 0, 0): "▘",
    (0, 1, 0, 0): "▝",
    (0, 0, 1, 0): "▖",
    (0, 0, 0, 1): "▗",
    (1, 1, 0, 0): "▀",
    (0, 0, 1, 1): "▄",
    (1, 0, 1, 0): "▌",
    (0, 1, 0, 1): "▐",
    (1, 0, 0, 1): "▚",
    (0, 1, 1, 0): "▞",
    (1, 1, 1, 0): "▛",
    (1, 1, 0, 1): "▜",
    (1, 0, 1, 1): "▙",
    (0, 1, 1, 1): "▟",
    (1, 1, 1, 1): "█",
}


def face_pixels(face: str) -> tuple[str, ...]:
    """The button with ``face`` on it, a string of pixel colours per pixel row: the light
    edge at the left, the dark one at the right, a pixel of the button's grey either side of
    the face (an unknown face shows the smile)."""
    return tuple(f"l.{row}.d" for row in _FACES.get(face, _FACES["normal"]))


#: Which of a cell's two colours is its background: the button under the face under its
#: eyes and mouth, so that the characters draw the marks on a surface.
_UNDER: Final = ".yldk"


def _cell(pixels: tuple[str, str, str, str]) -> tuple[str, str]:
    """One screen cell from its four pixels: a quadrant character and its style's name."""
    background = min(pixels, key=_UNDER.index)
    colour = next((p for p in pixels if p != background), background)
    if colour == background:
        return " ", f"face-{background}{background}"
    bits = tuple(int(p == colour) for p in pixels)
    return _QUADRANTS[bits[0], bits[1], bits[2], bits[3]], f"face-{colour}{background}"


def face_row(face: str, row: int) -> list[tuple[str, str]]:
    """Screen row ``row`` (0-2) of the button with ``face`` (``normal``, ``pressed``, ``won``,
    ``lost``) as (characters, style name) pieces, neighbours of one style merged."""
    pixels = face_pixels(face)
    top, bottom = pixels[2 * row], pixels[2 * row + 1]
    cells = [_cell((top[x], top[x + 1], bottom[x], bottom[x + 1])) for x in range(0, len(top), 2)]
    return merge_runs(cells)
