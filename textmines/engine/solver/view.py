"""The player's view as the solver reads it: one character a cell, nothing hidden."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from textmines.engine.board import grid_rows, neighbour_lists
from textmines.engine.view_alphabet import ViewChar

Cell = tuple[int, int]


def _any_of(chars: frozenset[str] | str) -> re.Pattern[str]:
    return re.compile(f"[{re.escape(''.join(sorted(chars)))}]")


#: Cells whose content the player does not know: covered, flagged (a flag is only a claim)
#: and question-marked.
UNKNOWN: Final = ViewChar.UNKNOWN
#: Mines shown after a loss: every mine, and the one that exploded.
KNOWN_MINE: Final = ViewChar.SHOWN_MINE
NUMBER: Final = _any_of(ViewChar.NUMBERS)
UNKNOWN_CELL: Final = _any_of(ViewChar.UNKNOWN)
#: An unknown cell the player has not flagged.
UNFLAGGED_CELL: Final = _any_of(ViewChar.OPENABLE)


def reading_order(cell: Cell) -> tuple[int, int]:
    """Sort key of a cell in reading order: by row, then by column."""
    return cell[1], cell[0]


@dataclass(slots=True)
class View:
    """A view as the solver works on it.

    ``text`` holds the rows joined without newlines, so a cell's index is
    ``y * width + x``. Build one with ``parse_view`` from view text, or directly when the
    text is already in that form (the no-guess generator does).
    """

    width: int
    height: int
    text: str

    @property
    def started(self) -> bool:
        """Whether anything is revealed (before that, autoplay makes its fixed first click)."""
        text = self.text
        return (
            NUMBER.search(text) is not None
            or ViewChar.WRONG_FLAG in text
            or ViewChar.EXPLODED in text
        )

    def unknown_neighbours(self, index: int) -> list[int]:
        """The unknown cells around the cell at ``index``."""
        text = self.text
        return [n for n in neighbour_lists(self.width, self.height)[index] if text[n] in UNKNOWN]

    def cell(self, index: int) -> Cell:
        """The ``(x, y)`` of an index."""
        return index % self.width, index // self.width


def parse_view(view_text: str) -> View:
    """Read view text (one line per row, see the module docstring of ``solver``).

    Raises ``ValueError`` when rows differ in length or a character is not a view character.
    """
    rows = grid_rows(
        view_text, empty="view text is empty: give one line per row", row_name="view row"
    )
    width = len(rows[0])
    text = "".join(rows)
    bad = set(text) - ViewChar.ALL
    if bad:
        raise ValueError(f"view text holds {sorted(bad)[0]!r}, not one of '#F?0-8*XW'")
    return View(width, len(rows), text)
