"""Boards larger than their view: the view keeps the cells around the cursor on screen, the
first opening is shown, the board never moves under the mouse, and the board's scroll bars
show which way it goes on."""

from __future__ import annotations

import pytest
from textual.geometry import Region
from textual.widget import Widget

from tests.helpers import Play, click_cell, make_app
from textmines.engine import Status
from textmines.ui.app import TextminesApp
from textmines.ui.board.board_view import BoardView, cursor_scroll, opening_scroll


def big_app() -> TextminesApp:
    """200x200 with 4000 mines: at 120x40 the view shows about 57x33 of its cells."""
    return make_app(width=200, height=200, mines=4000, seed=3)


def drawn(widget: Widget) -> list[str]:
    """The widget's lines as the screen shows them (line filters applied)."""
    width, height = widget.size
    return [strip.text for strip in widget.render_lines(Region(0, 0, width, height))]


def cells_beside(board: BoardView) -> tuple[int, int, int, int]:
    """Whole cells on screen between the cursor's cell and each edge of the view: left, top,
    right, bottom."""
    view = board.scrollable_content_region
    x, y = board.cursor_screen_offset()
    cols, rows = board.tile
    assert view.x <= x and x + cols <= view.right, "the cursor is in view"
    assert view.y <= y and y + rows <= view.bottom, "the cursor is in view"
    return (
        (x - view.x) // cols,
        (y - view.y) // rows,
        (view.right - x - cols) // cols,
        (view.bottom - y - rows) // rows,
    )


def margins_wanted(board: BoardView) -> tuple[int, int, int, int]:
    """What the view keeps beside the cursor: a quarter of the view and at least two cells,
    on each side, or what the board has that way where it ends sooner."""
    view = board.scrollable_content_region
    cols, rows = board.tile
    across = max(2, view.width // cols // 4)
    down = max(2, view.height // rows // 4)
    x, y = board.cursor
    game = board.game
    return (
        min(across, x),
        min(down, y),
        min(across, game.width - 1 - x),
        min(down, game.height - 1 - y),
    )


def assert_margins(board: BoardView) -> None:
    seen, wanted = cells_beside(board), margins_wanted(board)
    assert all(s >= w for s, w in zip(seen, wanted, strict=True)), (seen, wanted)


def bar_text(bar: Widget) -> str:
    """A scroll bar as one line of text (a vertical bar read top to bottom)."""
    return "".join(drawn(bar))


# ---------------------------------------------------------------------------- the rule
def test_the_view_moves_only_when_the_cursor_comes_near_its_edge() -> None:
    # One axis: a view 40 columns wide over a board 100 wide, cells 2 wide: the view holds
    # 20 cells, the margin is a quarter of that, 5 cells (10 columns).
    assert cursor_scroll(30, 50, 2, 40, 100) == 30, "in the middle: no move"
    assert cursor_scroll(30, 58, 2, 40, 100) == 30, "at the margin on the right: no move"
    assert cursor_scroll(30, 60, 2, 40, 100) == 32, "a cell past it: a cell"
    assert cursor_scroll(30, 40, 2, 40, 100) == 30, "at the margin on the left: no move"
    assert cursor_scroll(30, 20, 2, 40, 100) == 10, "a jump left: the margin on the left"
    assert cursor_scroll(30, 98, 2, 40, 100) == 60, "the board's end: nothing beyond it"
    assert cursor_scroll(30, 0, 2, 40, 100) == 0
    # A view of three cells: the margin shrinks to what fits (a cell each side).
    assert cursor_scroll(0, 10, 2, 6, 100) == 8
    # A new game: the board's corner where the cursor shows from there, else its middle.
    assert cursor_scroll(0, 20, 2, 60, 80, new_game=True) == 0
    assert cursor_scroll(0, 200, 2, 60, 400, new_game=True) == 171


def test_an_opening_is_shown_whole_when_it_fits() -> None:
    assert opening_scroll(100, 110, 150, 120, 2, 60) == 100, "already in view: no move"
    assert opening_scroll(100, 150, 190, 160, 2, 60) == 130, "the least move that shows it"
    assert opening_scroll(100, 0, 300, 160, 2, 60) == 131, "larger than the view: centred"


# ---------------------------------------------------------------------------- the board
@pytest.mark.slow
async def test_the_first_reveal_on_a_big_board_is_seen_around_the_cursor(play: Play) -> None:
    """200x200 at 120x40: the opening runs off every side of the view, so the reveal is in
    its middle with room on every side (it sat at the view's edge)."""
    app = big_app()
    pilot = await play.run(app, size=(120, 40))
    board = app.query_one(BoardView)
    await pilot.press("space")
    await pilot.pause()
    assert app.game.status == Status.PLAYING
    assert_margins(board)
    left, top, right, bottom = cells_beside(board)
    assert abs(left - right) <= 1 and abs(top - bottom) <= 1, "in the middle"


@pytest.mark.slow
async def test_a_first_click_near_the_views_edge_shows_its_opening(play: Play) -> None:
    app = big_app()
    pilot = await play.run(app, size=(120, 40))
    board = app.query_one(BoardView)
    await pilot.pause()
    view = board.scrollable_content_region
    cols, rows = board.tile
    scroll_x, scroll_y = (int(n) for n in board.scroll_offset)
    # Two cells in from the view's bottom-right corner.
    x = (scroll_x + view.width) // cols - 2
    y = (scroll_y + view.height) // rows - 2
    await click_cell(pilot, x, y)
    await pilot.pause()
    game = app.game
    opened = [
        (i, j) for j in range(game.height) for i in range(game.width) if game.is_revealed(i, j)
    ]
    assert len(opened) > 100 and board.cursor == (x, y)
    # Every cell it opened is on screen, whole (this opening fits in the view).
    left, top = (int(n) for n in board.scroll_offset)
    assert all(left <= i * cols and (i + 1) * cols <= left + view.width for i, _ in opened)
    assert all(top <= j * rows and (j + 1) * rows <= top + view.height for _, j in opened)


@pytest.mark.slow  # 89 key presses, each waited for: ~6 s of wall
async def test_the_view_scrolls_before_the_cursor_reaches_its_edge(play: Play) -> None:
    app = big_app()
    pilot = await play.run(app, size=(120, 40))
    board = app.query_one(BoardView)
    await pilot.press("space")
    cols, rows = board.tile
    for key, axis, presses in (("right", 0, 24), ("down", 1, 14), ("left", 0, 50)):
        still = 0
        for _ in range(presses):
            before = board.scroll_offset
            await pilot.press(key)
            assert_margins(board)
            moved = abs(board.scroll_offset[axis] - before[axis])
            # At most a cell at a time, as the cursor moves: the board never jumps.
            assert moved <= (cols, rows)[axis], (key, moved)
            still += moved == 0
        # While the cursor crossed the middle of the view, the board stood still.
        assert 5 <= still < presses, (key, still)
    # Five cells a key: five cells a scroll at most.
    before_x = board.scroll_offset.x
    await pilot.press("shift+left")
    assert_margins(board)
    assert 0 < before_x - board.scroll_offset.x <= 5 * cols


async def test_the_board_does_not_move_under_the_mouse(play: Play) -> None:
    """A click at the view's edge moves the cursor there, not the board: its release, the
    second click of a double click or the second button of a chord land where aimed."""
    app = big_app()
    pilot = await play.run(app, size=(120, 40))
    board = app.query_one(BoardView)
    await pilot.press("space")
    await pilot.pause()
    before = board.scroll_offset
    cols, _ = board.tile
    x = int(before.x) // cols  # the leftmost cell in view (maybe cut by the edge)
    y = board.cursor[1]
    await click_cell(pilot, x, y, button=3)
    assert board.cursor == (x, y)
    assert board.scroll_offset == before


@pytest.mark.parametrize(
    ("theme", "before", "after"), [(None, "◀", "▶"), ("ascii", "<", ">")], ids=["blocks", "ascii"]
)
async def test_a_cut_board_shows_which_way_it_goes_on(
    theme: str | None, before: str, after: str, play: Play
) -> None:
    """Expert zoomed in at 80x24 shows 25 of its 30 columns: its bar shows an arrow on each
    side with more board beyond, and none on a side that is the board's edge."""
    app, pilot = await play(theme=theme, width=30, height=16, mines=99, size=(80, 24))

    async def bar() -> str:
        await pilot.pause()
        return bar_text(board.horizontal_scrollbar)

    board = app.query_one(BoardView)
    await pilot.press("]")
    await pilot.pause()
    assert str(board.tile) == "3x1"
    # Cut across, whole from top to bottom: a bar below the board, none beside it.
    assert board.show_horizontal_scrollbar and not board.show_vertical_scrollbar
    # A new game shows the board's left edge (the cursor in its middle is in view).
    text = await bar()
    assert text[0] == " " and text[-1] == after, text
    await pilot.press("end")
    text = await bar()
    assert text[0] == before and text[-1] == " ", text
    # Ten cells from the left edge, the cursor's margin takes the view off the right end.
    await pilot.press(*["left"] * 19)
    assert board.cursor[0] == 10
    text = await bar()
    assert text[0] == before and text[-1] == after, "more board on both sides"


async def test_a_big_board_shows_it_goes_on_every_way(play: Play) -> None:
    app = big_app()
    pilot = await play.run(app, size=(120, 40))
    board = app.query_one(BoardView)
    await pilot.press("space")
    await pilot.pause()
    across, down = bar_text(board.horizontal_scrollbar), bar_text(board.vertical_scrollbar)
    assert (across[0], across[-1], down[0], down[-1]) == ("◀", "▶", "▲", "▼")
    await pilot.press("end")
    await pilot.pause()
    assert bar_text(board.horizontal_scrollbar)[-1] == " ", "the board's right edge"


async def test_the_cursor_stays_in_view_after_a_resize(play: Play) -> None:
    from textmines.ui.board.board_view import BoardView

    app, pilot = await play(width=30, height=16, mines=99, size=(120, 40))
    board = app.query_one(BoardView)
    await pilot.press("end", *["J"] * 3)
    await pilot.resize_terminal(40, 12)
    await pilot.pause()
    await pilot.pause()
    x, y = board.cursor_screen_offset()
    assert board.content_region.contains(x, y)
