"""ASCIIFilter: every character on screen in plain ASCII, for an ASCII theme.

An ASCII theme is for terminals and fonts without box-drawing or block characters. The board,
the panel and the LED digits draw themselves in ASCII there; this filter does the same for
everything else on screen (Textual's borders and tabs, the menus' check marks, the charts, the
status line's separators, names from replay files) as the lines are drawn, so no widget needs
an ASCII variant of its own.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from typing import Final

from rich.cells import cell_len
from rich.segment import Segment
from textual.color import Color
from textual.filter import LineFilter

#: Characters with an obvious ASCII stand-in.
_KNOWN: Final = {
    "·": "-",
    "•": "*",
    "…": ".",
    "✓": "x",
    "✔": "x",
    "■": "#",
    "□": "o",
    "▶": ">",
    "◀": "<",
    "▲": "^",
    "▼": "v",
    "↑": "^",
    "↓": "v",
    "←": "<",
    "→": ">",
    "⏸": "=",
    "░": ".",
    "▒": ":",
    "▓": "#",
    "█": "#",
    "▁": "_",
    "▂": "_",
    "▃": "=",
    "▄": "=",
    "▅": "=",
    "▆": "#",
    "▇": "#",
    "▔": "-",
    "⚑": "F",
    "⚐": "F",
    "\u2014": "-",  # em dash
    "\u2013": "-",  # en dash
    "\u00d7": "x",  # multiplication sign
}


@lru_cache(maxsize=4096)
def ascii_char(char: str) -> str:
    """``char`` as ASCII of the same width: itself, a look-alike, or ``?`` per column."""
    if char.isascii():
        return char
    known = _KNOWN.get(char)
    if known is not None:
        return known
    name = unicodedata.name(char, "")
    if name.startswith("BOX DRAWINGS"):
        words = set(name.split())
        across = bool(words & {"HORIZONTAL", "LEFT", "RIGHT"})
        down = bool(words & {"VERTICAL", "UP", "DOWN"})
        if across != down:
            return "-" if across else "|"
        return "+"
    if name.startswith(("QUADRANT", "UPPER", "LOWER", "LEFT", "RIGHT")) and "BLOCK" in name:
        return "#"
    return "?" * max(1, cell_len(char))


@lru_cache(maxsize=4096)
def ascii_text(text: str) -> str:
    """``text`` with every character made ASCII (the same number of columns)."""
    return text if text.isascii() else "".join(ascii_char(char) for char in text)


class ASCIIFilter(LineFilter):
    """Replaces every character that is not ASCII as the lines are drawn."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        return [
            segment
            if segment.control or segment.text.isascii()
            else Segment(ascii_text(segment.text), segment.style)
            for segment in segments
        ]
