"""Effective clicks: the clicks of a game that did something, as Metasweeper counts them.

The game hands its tally every move that changed the board; the tally applies the counting
rules (a flag on a mine counts once per mine, a flag on a safe cell never) and the metrics
(``metrics.py``) read the counts. They are scoring rules, not game rules: the state machine
only reports its moves.
"""

from __future__ import annotations

from textmines.engine.actions import ActionKind
from textmines.value import Value


class EffectiveClicks(Value):
    """Clicks that did something, as Metasweeper counts them (its "Ce" = the sum).

    ``left``: reveals that opened a safe cell; ``right``: flags put on a mine never flagged
    before in the game (a flag taken off and put back again counts once, a flag on a safe
    cell never); ``chord``: chords that opened cells.
    """

    left: int = 0
    right: int = 0
    chord: int = 0


class ClickTally:
    """The effective clicks of one game so far, and the flags put on its board."""

    def __init__(self) -> None:
        self.effective = EffectiveClicks()
        #: Flags put on the board over the game (none in a no-flag game).
        self.flags_placed = 0
        #: Mines flagged at some time in the game (a second flag on one is no effective click).
        self._flagged_mines: set[int] = set()

    def count(self, kind: ActionKind, index: int, *, mine: bool, flagged: bool) -> None:
        """Count move ``kind`` at cell ``index``, a move that changed the board: ``mine`` says
        whether the cell holds a mine, ``flagged`` whether it has a flag now."""
        left, right, chord = self.effective
        if kind == ActionKind.CHORD:
            chord += 1
        elif kind == ActionKind.REVEAL:
            left += not mine
        elif flagged:
            self.flags_placed += 1
            if mine and index not in self._flagged_mines:
                self._flagged_mines.add(index)
                right += 1
        self.effective = EffectiveClicks(left, right, chord)


__all__ = ["ClickTally", "EffectiveClicks"]
