"""Why the game's clock is stopped: the player's pause, a lost focus, a dialog, a small
terminal. The clock runs only when nothing holds it, as in the classic game, where a dialog
over the board stops the timer and pausing also hides the board."""

from __future__ import annotations

from enum import Flag, auto

from textmines.engine.clock import GameClock


class Hold(Flag):
    """What may stop the clock; the clock runs when none does."""

    PLAYER = auto()  # P
    BLUR = auto()  # the terminal lost focus
    COVERED = auto()  # a dialog over the board
    TOO_SMALL = auto()  # a terminal too small for the board
    #: Holds that also hide the board, as pausing does in the classic game.
    HIDING = PLAYER | BLUR
    #: Holds under which a notice stands in for the board (paused, or a terminal too small).
    OUT_OF_SIGHT = HIDING | TOO_SMALL


class ClockHolds:
    """The holds on the clock of the game in play (a new game keeps the holds of what still
    covers the board: a dialog, a small terminal)."""

    def __init__(self) -> None:
        self.reasons = Hold(0)

    @property
    def board_hidden(self) -> bool:
        """Whether a pause (P, or the terminal losing focus) hides the board."""
        return bool(self.reasons & Hold.HIDING)

    @property
    def board_out_of_sight(self) -> bool:
        """Whether a notice stands in for the board: the Paused box, or a terminal too small."""
        return bool(self.reasons & Hold.OUT_OF_SIGHT)

    @property
    def clock_held(self) -> bool:
        """Whether anything holds the clock."""
        return bool(self.reasons)

    def set(self, reason: Hold, held: bool, clock: GameClock) -> bool:
        """Hold ``clock`` for ``reason`` (or let go of it); it runs only when nothing holds
        it. True when the board goes from shown to hidden or back."""
        was_hidden = self.board_hidden
        self.reasons = self.reasons | reason if held else self.reasons & ~reason
        if self.reasons:
            clock.pause()
        else:
            clock.resume()
        return self.board_hidden != was_hidden
