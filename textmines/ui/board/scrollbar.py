"""The board's scroll bars: Windows-style, with an arrow at each end where the board goes on.

Windows Minesweeper never scrolls, but every Windows player knows a window whose content is
larger than itself by its scroll bars: a groove, a thumb as long as the share in view, an
arrow button at each end. Textual's default bar is a thin thumb in the theme's neutral colours,
which on the classic grey all but vanishes, so a cut board looked like a whole one in a closed
frame. Here each bar draws an arrow (◀ ▶ ▲ ▼) at an end only while there is more board that
way: the arrow says "more this way", its absence "this is the edge". (An ASCII theme's filter
draws them as < > ^ v.)
"""

from __future__ import annotations

from typing import ClassVar, Final

from rich.color import Color
from rich.segment import Segment, Segments
from rich.style import Style
from textual.scrollbar import ScrollBarRender

#: Textual's own defaults, for a bar drawn without a style.
_BACK: Final = Color.parse("#555555")
_BAR: Final = Color.parse("bright_magenta")

#: What a press does on each part of the bar: the actions of Textual's ScrollBar (a page
#: either way, or grab the thumb to drag it).
_BEFORE: Final = {"@mouse.down": "scroll_up"}
_AFTER: Final = {"@mouse.down": "scroll_down"}
_THUMB: Final = {"@mouse.down": "grab"}


class BoardScrollBarRender(ScrollBarRender):
    """A scroll bar with an arrow at each end where there is more to see that way, and a
    thumb of whole cells between them (the track is ``back_color``, thumb and arrows
    ``bar_color``)."""

    #: The arrows at the start and end of a vertical and of a horizontal bar.
    ARROWS: ClassVar[dict[bool, tuple[str, str]]] = {True: ("▲", "▼"), False: ("◀", "▶")}
    #: Whether the thumb is drawn raised, with a shadow of eighth blocks.
    RAISED: ClassVar[bool] = True

    @classmethod
    def render_bar(
        cls,
        size: int = 25,
        virtual_size: float = 50,
        window_size: float = 20,
        position: float = 0,
        thickness: int = 1,
        vertical: bool = True,
        back_color: Color = _BACK,
        bar_color: Color = _BAR,
    ) -> Segments:
        width = thickness if vertical else 1
        track = Style(bgcolor=back_color)
        cells = [Segment(" " * width, track)] * size
        hidden = virtual_size - window_size  # what the view does not show, on this axis
        if window_size and size and hidden > 0:
            # Arrows only where the bar has room for them and a thumb between.
            arrows = size >= 3
            length = size - 2 if arrows else size
            thumb = max(1, min(length, round(length * window_size / virtual_size)))
            start = round((length - thumb) * min(1.0, max(0.0, position / hidden)))
            before = Segment(" " * width, track + Style(meta=_BEFORE))
            after = Segment(" " * width, track + Style(meta=_AFTER))
            # The thumb is raised as a button, its shadow in the groove's colour on the far
            # side: it stands apart from the light edge of the board's box beside it.
            face = ("▕" * width if vertical else "▁") if cls.RAISED else " " * width
            grab = Segment(face, Style(color=back_color, bgcolor=bar_color, meta=_THUMB))
            cells = [before] * start + [grab] * thumb + [after] * (length - start - thumb)
            if arrows:
                # The scroll offset is a whole cell, but the bar's position comes rounded
                # down to eighths: half a cell tells "at the end" from "short of it".
                first, last = cls.ARROWS[vertical]
                arrow = Style(color=bar_color, bgcolor=back_color, bold=True)
                more_before, more_after = position >= 0.5, hidden - position >= 0.5
                cells.insert(
                    0,
                    Segment((first if more_before else " ").ljust(width), arrow + before.style),
                )
                cells.append(
                    Segment((last if more_after else " ").ljust(width), arrow + after.style)
                )
        if vertical:
            return Segments(cells, new_lines=True)
        return Segments([*cells, Segment.line()] * thickness, new_lines=False)


class PlainScrollBarRender(BoardScrollBarRender):
    """The same bar for an ASCII theme: a flat thumb, as eighth blocks have no ASCII
    look-alike (the filter would draw its shadow as a row of ``#``)."""

    RAISED = False
