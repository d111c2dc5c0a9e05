"""The player's view, one character a cell: the alphabet of ``Game.view_text``.

The game writes it, the solver reads it, the UI draws it and the replays check moves
against it; all of them name its characters here rather than spelling them out.
"""

from __future__ import annotations

from typing import Final


class ViewChar:
    """The characters of the player's view (never instantiated: a namespace of names)."""

    COVERED: Final = "#"
    FLAG: Final = "F"
    QUESTION: Final = "?"
    #: A revealed cell: how many of the cells around it hold a mine.
    NUMBERS: Final = "012345678"
    #: After a loss: a mine not found, the mine that exploded, a flag on a safe cell.
    MINE: Final = "*"
    EXPLODED: Final = "X"
    WRONG_FLAG: Final = "W"

    #: What a reveal opens: a covered or question-marked cell (a flag protects its cell).
    OPENABLE: Final = frozenset({COVERED, QUESTION})
    #: Cells whose content the player does not know: a flag is only a claim.
    UNKNOWN: Final = frozenset({COVERED, QUESTION, FLAG})
    #: Mines shown after a loss: every mine, and the one that exploded.
    SHOWN_MINE: Final = frozenset({MINE, EXPLODED})
    #: Every character a view may hold.
    ALL: Final = frozenset({*UNKNOWN, *NUMBERS, *SHOWN_MINE, WRONG_FLAG})


__all__ = ["ViewChar"]
