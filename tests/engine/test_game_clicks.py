"""Effective clicks (clicks.py): Metasweeper's rules, as a game counts them."""

from __future__ import annotations

from textmines.engine import ActionKind, Board, Game
from textmines.engine.clicks import ClickTally, EffectiveClicks

# Two mines top-right; the opening bottom-left.
BOARD = """\
...*.
....*
.....
.....
"""


def test_a_flag_on_a_mine_counts_once_and_one_on_a_safe_cell_never() -> None:
    tally = ClickTally()
    tally.count(ActionKind.MARK, 3, mine=True, flagged=True)
    tally.count(ActionKind.MARK, 3, mine=True, flagged=False)  # taken off: no click
    tally.count(ActionKind.MARK, 3, mine=True, flagged=True)  # put back: counted already
    tally.count(ActionKind.FLAG, 7, mine=False, flagged=True)
    assert tally.effective == EffectiveClicks(0, 1, 0)
    assert tally.flags_placed == 3


def test_reveals_count_safe_cells_and_chords_count_each() -> None:
    tally = ClickTally()
    tally.count(ActionKind.REVEAL, 0, mine=False, flagged=False)
    tally.count(ActionKind.REVEAL, 3, mine=True, flagged=False)  # the loss: no click
    tally.count(ActionKind.CHORD, 5, mine=False, flagged=False)
    assert tally.effective == EffectiveClicks(1, 0, 1)
    assert tally.flags_placed == 0


def test_the_game_counts_only_moves_that_changed_the_board() -> None:
    game = Game.from_board(Board.from_text(BOARD))
    game.reveal(0, 3)  # the opening
    game.reveal(0, 3)  # open already: nothing changes, nothing counted
    game.toggle_mark(3, 0)  # a flag on a mine
    game.toggle_mark(3, 0)  # a question mark
    game.toggle_mark(3, 0)  # covered
    game.toggle_mark(3, 0)  # flagged again: not counted again
    game.flag(3, 0)  # a flag already there: no change
    assert game.effective == EffectiveClicks(1, 1, 0)
    assert game.effective_clicks == 2 and game.flags_placed == 2
