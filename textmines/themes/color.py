"""Colour values of theme files: exactly what ``textual.color.Color.parse`` accepts, normalised.

Textual is the authority on colour syntax, but importing it costs a quarter of a second, which
``--list-themes`` and ``--export-theme`` should not pay when it tells them nothing new: the two
forms themes are written in (and exported as), ``#RRGGBB`` and the ANSI names, are recognised
here; anything else is handed to Textual, imported then.
"""

from __future__ import annotations

import re
from typing import Final

#: The ANSI colour names as Textual spells them after ``ansi_``, in its order.
ANSI_NAMES: Final = (
    "black",
    "red",
    "green",
    "yellow",
    "blue",
    "magenta",
    "cyan",
    "white",
    "bright_black",
    "bright_red",
    "bright_green",
    "bright_yellow",
    "bright_blue",
    "bright_magenta",
    "bright_cyan",
    "bright_white",
)
_ANSI_VALUES: Final = frozenset({"ansi_default", *(f"ansi_{name}" for name in ANSI_NAMES)})
_HEX6: Final = re.compile(r"#[0-9a-fA-F]{6}")


class ColorSyntaxError(ValueError):
    """Not a colour; ``suggestion`` is a colour name close to the text, if there is one."""

    def __init__(self, text: str, suggestion: str | None) -> None:
        super().__init__(f"{text!r} is not a colour")
        self.suggestion = suggestion


def normalise_color(text: str) -> str:
    """``Color.parse(text).hex``: ``"#RRGGBB"``, ``"#RRGGBBAA"`` or ``"ansi_<name>"``, all safe
    inside a CSS variable. Raises ``ColorSyntaxError`` where Textual raises ``ColorParseError``.
    """
    if _HEX6.fullmatch(text):
        return text.upper()
    if text in _ANSI_VALUES:
        return text
    from textual.color import Color, ColorParseError

    try:
        return Color.parse(text).hex
    except ColorParseError as error:
        raise ColorSyntaxError(text, error.suggested_color) from None
