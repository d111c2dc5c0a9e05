"""What a player (or the solver) can do to a game: one vocabulary for the engine, the metrics,
the solver, the session and the UI."""

from __future__ import annotations

from enum import StrEnum


class ActionKind(StrEnum):
    """One kind of move, and the click it stands for.

    ``MARK`` is the player's right click, which cycles covered -> flag -> question mark (if
    enabled) -> covered; ``FLAG`` puts a flag on a covered cell and leaves a flag as it is (the
    solver's "this is a mine", which must not cycle on into a question mark). Both are right
    clicks. ``QUESTION_MARKS`` is not a move but a change of that option, recorded so that a
    replay cycles marks as the player did. ``CURSOR`` is not a move either: where the player's
    cursor or mouse pointer went between moves, recorded for replays (and a replay file's
    mouse path); nor is ``PRESS``, a mouse button held down on a cell before the reveal or
    chord its release makes (a replay shows the pressed face, a replay file the press).
    ``LEFT_OFF_BOARD`` and ``RIGHT_OFF_BOARD`` are clicks just off the board, in replay files
    of other programs: Arbiter and Viennasweeper record them and ms-toollib counts them as
    left and right clicks (so in IOE and correctness), but they change nothing; their cell is
    the one of the board nearest to the click. (The library never counts a chord there.)
    """

    REVEAL = "reveal"
    FLAG = "flag"
    MARK = "mark"
    CHORD = "chord"
    QUESTION_MARKS = "question_marks"
    CURSOR = "cursor"
    PRESS = "press"
    LEFT_OFF_BOARD = "left_off_board"
    RIGHT_OFF_BOARD = "right_off_board"

    @property
    def click(self) -> str | None:
        """The mouse click this move stands for: ``left``, ``right``, ``chord`` or None."""
        return _CLICKS.get(self)


_CLICKS = {
    ActionKind.REVEAL: "left",
    ActionKind.FLAG: "right",
    ActionKind.MARK: "right",
    ActionKind.CHORD: "chord",
    ActionKind.LEFT_OFF_BOARD: "left",
    ActionKind.RIGHT_OFF_BOARD: "right",
}

#: The moves of the board (everything but the option change).
MOVES = (ActionKind.REVEAL, ActionKind.FLAG, ActionKind.MARK, ActionKind.CHORD)
#: Clicks beside the board: counted, and nothing more.
OFF_BOARD = (ActionKind.LEFT_OFF_BOARD, ActionKind.RIGHT_OFF_BOARD)
