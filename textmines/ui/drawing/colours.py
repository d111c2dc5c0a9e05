"""Colours and styles read straight from the theme's CSS variables.

The board, the menu bar, the header and the status line draw Rich styles they build from the
theme's variables (``$mines-*``, ``$panel``, ``$success`` ...) instead of styling CSS component
classes: Textual styles every component class as a node of its own, twice at start-up and again
on focus changes, which cost more than everything else those widgets do. The colours still come
from the theme, so a theme switch (which clears the widgets' cached styles) repaints them.
"""

from __future__ import annotations

from collections.abc import Mapping

from rich.style import Style
from textual.color import Color

from textmines.value import Value


def theme_colour(variables: Mapping[str, str], name: str, under: Color | None = None) -> Color:
    """Theme variable ``name`` (without the ``$``) as a colour.

    Over ``under``, a translucent colour is blended onto it and ``auto N%`` (Textual's
    "contrasting text" value) becomes white or black at N% over it, as Textual's CSS does.
    """
    value = variables[name].strip()
    if value.startswith("auto"):
        percent = value.removeprefix("auto").strip().rstrip("%")
        colour = (under or Color(0, 0, 0)).get_contrast_text(float(percent or 100) / 100)
    else:
        colour = Color.parse(value)
    return colour if under is None else under + colour


#: Below this brightness an ANSI background takes bright white text, above it black.
ANSI_DARK_BACKGROUND = 0.3


def ansi_contrast_text(background: Color) -> Color:
    """Readable ANSI text on ``background``: an ANSI theme's text is the terminal's default
    colour, which can be anything, so over a coloured piece it is black or bright white."""
    dark = background.brightness < ANSI_DARK_BACKGROUND
    return Color.parse("ansi_bright_white" if dark else "ansi_black")


class PieceStyle(Value):
    """How a piece of text is drawn: theme variable names (no ``$``) for its text and its
    background (None: the widget's own), and boldness."""

    color: str | None = None
    background: str | None = None
    bold: bool = False

    def over(self, base: Style, variables: Mapping[str, str]) -> Style:
        """This style on top of the widget's own ``base`` style."""
        under = Color.from_rich_color(base.bgcolor) if base.bgcolor else Color(0, 0, 0)
        background = under
        if self.background is not None:
            background = theme_colour(variables, self.background, under)
        colour = None if self.color is None else theme_colour(variables, self.color, background)
        if self.background is not None and variables.get(self.color or "") == "ansi_default":
            colour = ansi_contrast_text(background)
        return base + Style(
            color=None if colour is None else colour.rich_color,
            bgcolor=None if self.background is None else background.rich_color,
            bold=True if self.bold else None,
        )
