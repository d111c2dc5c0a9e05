"""Seven-segment LED digits three rows tall, drawn with half blocks, for the header's mine
counter and timer when it has the room.

Each digit is a 3x5 grid of segment pixels; a screen row holds two pixel rows (upper and lower
half block). Every segment of an "8" is drawn: lit ones in the LED colour, the others in the
unlit colour, as on the real display. The pieces name their styles (see ``LED_STYLES``).
"""

from __future__ import annotations

from typing import Final

from textmines.ui.drawing.colours import PieceStyle
from textmines.ui.drawing.line import merge_runs

#: Pixel rows (top to bottom) of each character, three pixels wide.
_GLYPHS: Final = {
    "0": ("111", "101", "101", "101", "111"),
    "1": ("001", "001", "001", "001", "001"),
    "2": ("111", "001", "111", "100", "111"),
    "3": ("111", "001", "111", "001", "111"),
    "4": ("101", "101", "111", "001", "001"),
    "5": ("111", "100", "111", "001", "111"),
    "6": ("111", "100", "111", "101", "111"),
    "7": ("111", "001", "001", "001", "001"),
    "8": ("111", "101", "111", "101", "111"),
    "9": ("111", "101", "111", "001", "111"),
    "-": ("000", "000", "111", "000", "000"),
}
#: Screen rows of an LED digit.
LED_ROWS: Final = 3
#: Columns of one digit, and of the gap after it.
DIGIT_COLUMNS: Final = 3

_COLOURS: Final = {"n": "mines-digits", "f": "mines-digits-off", "b": "mines-digits-background"}
#: The styles LED pieces name: ``led-XY`` is text in X over Y (n lit, f unlit, b background).
LED_STYLES: Final = {
    f"led-{fg}{bg}": PieceStyle(color=_COLOURS[fg], background=_COLOURS[bg], bold=False)
    for fg in "nfb"
    for bg in "nfb"
}


def _pixel(char: str, row: int, column: int) -> str:
    """``n`` lit, ``f`` an unlit segment, ``b`` no segment (beyond the 5 pixel rows too)."""
    if row >= 5:
        return "b"
    if _GLYPHS[char][row][column] == "1":
        return "n"
    return "f" if _GLYPHS["8"][row][column] == "1" else "b"


def _cell(top: str, bottom: str) -> tuple[str, str]:
    if top == bottom:
        return ("█", f"led-{top}b") if top != "b" else (" ", "led-bb")
    if top == "b":
        return "▄", f"led-{bottom}b"
    return "▀", f"led-{top}{bottom}"


#: The same digits in ASCII, the classic three-row seven-segment way, for ASCII themes.
_ASCII: Final = {
    "0": (" _ ", "| |", "|_|"),
    "1": ("   ", "  |", "  |"),
    "2": (" _ ", " _|", "|_ "),
    "3": (" _ ", " _|", " _|"),
    "4": ("   ", "|_|", "  |"),
    "5": (" _ ", "|_ ", " _|"),
    "6": (" _ ", "|_ ", "|_|"),
    "7": (" _ ", "  |", "  |"),
    "8": (" _ ", "|_|", "|_|"),
    "9": (" _ ", "|_|", " _|"),
    "-": ("   ", " _ ", "   "),
}


def _ascii_cells(char: str, row: int) -> list[tuple[str, str]]:
    """Row ``row`` of ``char`` in ASCII: lit segments in the LED colour, the rest of an 8 in
    the unlit colour."""
    lit, full = _ASCII[char][row], _ASCII["8"][row]
    if char == "-" and row == 1:
        full = " _ "
    return [
        (a, "led-nb") if a != " " else (b, "led-fb") if b != " " else (" ", "led-bb")
        for a, b in zip(lit, full, strict=True)
    ]


def led_width(text: str) -> int:
    """Columns ``text`` takes in LED digits: each digit and a gap after all but the last."""
    return len(text) * (DIGIT_COLUMNS + 1) - 1 if text else 0


def led_row(text: str, row: int, ascii: bool = False) -> list[tuple[str, str]]:
    """Screen row ``row`` (0-2) of ``text`` (digits and ``-``) as (characters, style) pieces,
    neighbours of one style merged; in ASCII characters for an ASCII theme."""
    pieces: list[tuple[str, str]] = []
    for index, char in enumerate(text):
        if index:
            pieces.append((" ", "led-bb"))
        if ascii:
            pieces += _ascii_cells(char, row)
            continue
        for column in range(DIGIT_COLUMNS):
            pieces.append(_cell(_pixel(char, 2 * row, column), _pixel(char, 2 * row + 1, column)))
    return merge_runs(pieces)
