"""The board's kept lines (board_lines.py): whatever changes, the board shows what a board
drawn from nothing shows, and it keeps a bounded number of lines."""

from __future__ import annotations

from typing import Any

import pytest
from rich.style import Style
from textual.filter import ANSIToTruecolor
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget

from tests.helpers import Play, cell_offset, make_app, settle
from textmines.ui.app import TextminesApp
from textmines.ui.board.board_view import BoardView
from textmines.ui.board.lines import LINE_CACHE_SIZE, BoardLines, Cell, join_pieces, line_key
from textmines.ui.board.tiles import Tile

Runs = list[list[tuple[str, str]]]


def runs(strip: Strip) -> list[tuple[str, str]]:
    """A line as (text, style) runs, neighbours of one style joined (as the screen shows it)."""
    return [(segment.text, str(segment.style)) for segment in strip.simplify()]


def shown(board: BoardView) -> Runs:
    """Every line of the board's view as Textual draws it for the screen: from its own cache
    of the lines it drew (redrawn where the board refreshed them) and the board's kept
    lines. (The widget's lines include its frame: the view is the content inside it.)"""
    region, view = board.region, board.content_region
    left, top = view.x - region.x, view.y - region.y
    strips = board.render_lines(Region(0, 0, region.width, region.height))
    return [runs(strip.crop(left, left + view.width)) for strip in strips[top : top + view.height]]


def drawn_afresh(board: BoardView) -> Runs:
    """Every line of the view drawn by a new ``BoardLines``, which has kept nothing, and
    filtered as Textual filters the board's lines."""
    fresh = BoardLines(
        board.glyphs, board.tile, lambda: board.app.theme_variables, lambda: board.rich_style
    )
    _, background = board.background_colors
    lines = []
    for y in range(board.size.height):
        key = board.line_key(y)
        strip = fresh.blank(board.size.width) if key is None else fresh.draw(key)
        for line_filter in board.get_line_filters():
            strip = strip.apply_filter(line_filter, background)
        lines.append(runs(strip))
    return lines


async def check(pilot: Any, board: BoardView, what: str) -> Runs:
    """The screen after ``what``: the same as a board drawn from nothing."""
    await pilot.pause()
    now = shown(board)
    assert now == drawn_afresh(board), f"after {what} the board shows an old line"
    return now


async def test_every_change_shows_and_no_line_is_stale(play: Play) -> None:
    app, pilot = await play(width=30, height=16, mines=99, theme="classic", size=(120, 40))
    board = app.query_one(BoardView)
    assert board.tile == Tile(3, 2)
    screen = await check(pilot, board, "the start")

    async def changed(what: str) -> None:
        nonlocal screen
        before, screen = screen, await check(pilot, board, what)
        assert screen != before, f"{what} does not show"

    for key in ("right", "right", "down", "left", "up"):  # the cursor leaves rows behind
        await pilot.press(key)
        await changed(f"the cursor moving {key}")
    await pilot.press("space")
    await changed("the first reveal")
    game = app.game
    covered = [(x, y) for y in range(16) for x in range(30) if game.cell(x, y) == "#"]
    board.move_cursor(*covered[0])
    await changed("the cursor going to a covered cell")
    for mark in ("a flag", "a question mark", "no mark"):
        await pilot.press("f")
        await changed(mark)
    await pilot.press("i")
    await settle(pilot)
    assert board.hint is not None
    await changed("a hint")
    await pilot.press("o")
    await settle(pilot)
    assert board.overlay is not None
    await changed("the overlay going on")
    await pilot.press("o")
    await changed("the overlay going off")
    assert game.board is not None
    x, y = next(cell for cell in reversed(covered) if not game.board.is_mine(*cell))
    await pilot.mouse_down(BoardView, cell_offset(board, x, y))
    await changed("a button held down on a covered cell")
    await pilot.mouse_up(BoardView, cell_offset(board, x, y))
    await changed("the button coming up (a reveal)")


async def test_theme_and_tile_changes_redraw_every_kept_line(play: Play) -> None:
    app, pilot = await play(width=30, height=16, mines=99, theme="classic", size=(120, 40))
    board = app.query_one(BoardView)
    await pilot.press("space")
    classic = await check(pilot, board, "the first reveal")
    app.action_theme("dark")
    dark = await check(pilot, board, "a theme change")
    assert dark != classic, "the kept lines were drawn in the old theme's colours"
    for tile in (Tile(2, 1), Tile(6, 3), Tile(3, 2)):
        board.set_tile(tile)
        await check(pilot, board, f"the tiles becoming {tile}")
    app.action_theme("ascii")  # ANSI colours, and the theme's own glyphs
    await check(pilot, board, "a theme with other glyphs")


async def test_scrolling_shows_the_lines_of_the_new_place(play: Play) -> None:
    app, pilot = await play(width=300, height=300, mines=13500, size=(80, 24))
    board = app.query_one(BoardView)
    await pilot.press("space")
    await pilot.pause()
    cols, rows = board.tile
    for x, y in ((0, 0), (7, 3), (500, 201), (7, 3), (1, 1)):
        board.scroll_to(x, y, animate=False, immediate=True, force=True)
        # Asked at once, before the screen is drawn again, a line is the new place's.
        key = board.line_key(0)
        assert key is not None and (key[1], key[6]) == (y % rows, x % cols)
        await check(pilot, board, f"scrolling to {x}, {y}")


async def test_the_kept_lines_stay_bounded_on_a_huge_board(play: Play) -> None:
    # Few mines: the first reveal opens most of the board, whose rows then differ.
    app, pilot = await play(width=300, height=300, mines=2000, size=(80, 24))
    board = app.query_one(BoardView)
    await pilot.press("space")
    await pilot.pause()
    # Every place shows lines of its own: far more than the cache keeps.
    for step in range(2 * LINE_CACHE_SIZE // board.size.height):
        board.scroll_to(step * 7, step * 13, animate=False, immediate=True, force=True)
        shown(board)
    assert len(board.lines) == LINE_CACHE_SIZE
    await check(pilot, board, "the cache dropping its oldest lines")


async def test_skipping_the_true_colour_conversion_changes_nothing_on_screen(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The board leaves out Textual's ANSI-to-true-colour filter when all its colours are
    true colours already; the screen is the same as with it."""

    async def screenshot(app: TextminesApp) -> str:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("space", "right", "f", "o")
            await settle(pilot)
            return app.export_screenshot(simplify=True)

    themes = ("classic", "dark")
    ours = [await screenshot(make_app(width=30, height=16, mines=99, theme=t)) for t in themes]
    monkeypatch.setattr(BoardView, "get_line_filters", Widget.get_line_filters)
    filtered = [await screenshot(make_app(width=30, height=16, mines=99, theme=t)) for t in themes]
    assert ours == filtered


async def test_the_conversion_stays_for_ansi_colours(play: Play) -> None:
    for theme in ("classic", "ascii"):
        app, pilot = await play(theme=theme)
        await pilot.pause()
        board = app.query_one(BoardView)
        app_filters = list(app.get_line_filters())
        ours = list(board.get_line_filters())
        if theme == "ascii":  # ANSI colours: the board's lines are converted as any
            assert ours == app_filters
        else:
            assert ours == [f for f in app_filters if not isinstance(f, ANSIToTruecolor)]
        await play.close()


def test_rows_that_look_alike_share_a_line() -> None:
    marks: tuple[Cell, Cell, tuple[Cell, ...]] = ((3, 5), None, ())
    # The cursor is on row 5: row 4 and row 6 show the same cells the same way.
    assert line_key("##1#", 4, 0, 0, 0, 8, marks=marks, overlay=None) == line_key(
        "##1#", 6, 0, 0, 0, 8, marks=marks, overlay=None
    )
    here = line_key("##1#", 5, 0, 0, 0, 8, marks=marks, overlay=None)
    assert here[2] == 3  # the cursor's place in the line
    # A cursor beyond the cells the line shows is not in it.
    assert line_key("##1#", 5, 10, 0, 0, 8, marks=marks, overlay=None)[2] == -1
    overlay = {(1, 5): 0.25, (2, 5): 0.0}
    assert line_key("##1#", 5, 0, 0, 0, 8, marks=marks, overlay=overlay)[5] == (-1, 25, 0, -1)
    # Hinted cells: every one in the line (the replay viewer marks a risky click and the
    # certainly safe cell beside it), none elsewhere.
    hinted: tuple[Cell, Cell, tuple[Cell, ...]] = (None, None, ((0, 5), (3, 5), (1, 6)))
    assert line_key("##1#", 5, 0, 0, 0, 8, marks=hinted, overlay=None)[4] == (0, 3)


def test_neighbouring_pieces_of_one_style_are_joined() -> None:
    light, dark = Style(color="#ffffff"), Style(color="#808080")
    segments = join_pieces([[("▛", light), ("▀", light)], [("▛▀", light)], [("▐", dark)]])
    assert [(s.text, s.style) for s in segments] == [("▛▀▛▀", light), ("▐", dark)]
    # Joined by identity: the board shares one object per style (an equal style made
    # apart stays a piece of its own, drawn the same).
    assert len(join_pieces([[("a", light)], [("b", Style(color="#ffffff"))]])) == 2
