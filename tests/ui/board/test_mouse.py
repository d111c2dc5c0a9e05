"""Both mouse buttons on the board: pressed together they chord, whatever the order, and a
button let go off the board leaves the next clicks as they were."""

from __future__ import annotations

import pytest
from textual import events
from textual.pilot import Pilot

from tests.helpers import Play, cell_offset
from textmines.ui.board.board_view import BoardView


async def press_buttons(pilot: Pilot[None], x: int, y: int, *steps: tuple[str, int]) -> None:
    """Mouse buttons going down and up over cell (x, y), in order: ("down", 1), ("up", 3)..."""
    board = pilot.app.query_one(BoardView)
    offset = cell_offset(board, x, y)
    for kind, button in steps:
        event = events.MouseDown if kind == "down" else events.MouseUp
        await pilot._post_mouse_events([event], BoardView, offset, button=button)
    await pilot.pause()


@pytest.mark.parametrize(
    "order",
    [
        (("down", 1), ("down", 3), ("up", 3), ("up", 1)),
        (("down", 1), ("down", 3), ("up", 1), ("up", 3)),
        (("down", 3), ("down", 1), ("up", 1), ("up", 3)),
    ],
)
async def test_left_and_right_together_chord(
    order: tuple[tuple[str, int], ...], play: Play
) -> None:
    # Seed 1 opened at the centre: (2, 4) is a 1 whose mine is (1, 4); (1, 5) is safe.
    app, pilot = await play(left_click_chords=False, size=(100, 30))
    await pilot.press("space")
    board = app.query_one(BoardView)
    board.move_cursor(1, 4)
    await pilot.press("f")
    assert app.game.cell(1, 4) == "F" and app.game.cell(1, 5) == "#"
    await press_buttons(pilot, 2, 4, *order)
    assert app.game.cell(1, 5) == "1"
    assert app.game.cell(1, 4) == "F"  # the right button did not unflag or mark anything
    assert app.game.cell(2, 4) == "1"
    # Afterwards a plain left click reveals again, and a right click flags.
    await press_buttons(pilot, 0, 5, ("down", 1), ("up", 1))
    assert app.game.cell(0, 5) != "#"


@pytest.mark.parametrize("lost", [False, True])
async def test_a_right_button_let_go_off_the_board_leaves_left_clicks_working(
    lost: bool, play: Play
) -> None:
    # Found by a player: right button down on a cell (a flag, as in Windows), up on the
    # status line. The board never heard it come up, so every later left click counted as
    # a two-button chord and opened nothing. ``lost``: an up the terminal never reported
    # (outside the window), told by the next move with no button held.
    from textmines.ui.widgets.status import StatusLine

    app, pilot = await play(left_click_chords=False, size=(100, 30))
    await pilot.press("space")
    assert app.game.cell(1, 4) == "#" and app.game.cell(0, 5) == "#"
    await press_buttons(pilot, 1, 4, ("down", 3))
    assert app.game.cell(1, 4) == "F"
    if lost:
        await pilot._post_mouse_events([events.MouseMove], StatusLine, (10, 0), button=0)
    else:
        await pilot._post_mouse_events([events.MouseUp], StatusLine, (10, 0), button=3)
    await pilot.pause()
    await press_buttons(pilot, 0, 5, ("down", 1), ("up", 1))
    assert app.game.cell(0, 5) != "#", "the left click opened the cell"
