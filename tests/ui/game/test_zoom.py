"""Zoom: the board's cells fill the terminal (fit), the keys step the size, a click anywhere
inside a large tile hits that tile."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from rich.color import Color
from rich.style import Style
from textual.pilot import Pilot

from tests.helpers import FakeClock, Play, clear_all_but_one, click_cell, make_app, wait_until
from textmines.config import GameConfig
from textmines.engine import ActionKind
from textmines.store.settings import Settings, load_settings
from textmines.ui.app import TextminesApp
from textmines.ui.board.board_view import BoardView
from textmines.ui.board.tiles import (
    ASCII_EDGES,
    BLOCK_EDGES,
    FIT,
    Tile,
    TileColours,
    fitting_tile,
    tile_row,
    tile_sizes,
    zoom_index,
)
from textmines.ui.widgets.panel import GamePanel

BEGINNER = {"width": 9, "height": 9, "mines": 10}
EXPERT = {"width": 30, "height": 16, "mines": 99}


# ---------------------------------------------------------------------------- the sizes
def test_tile_sizes_start_at_the_themes_own_cell() -> None:
    assert tile_sizes(2) == [(2, 1), (3, 1), (3, 2), (4, 2), (6, 3), (8, 4), (10, 5)]
    assert tile_sizes(3) == [(3, 1), (3, 2), (4, 2), (6, 3), (8, 4), (10, 5)]


def test_fit_takes_the_largest_tile_that_fits_else_the_smallest() -> None:
    sizes = tile_sizes(2)
    assert sizes[fitting_tile(sizes, (9, 9), (116, 33))] == (6, 3)
    assert sizes[fitting_tile(sizes, (9, 9), (54, 27))] == (6, 3)  # exactly
    assert sizes[fitting_tile(sizes, (9, 9), (53, 27))] == (4, 2)
    assert sizes[fitting_tile(sizes, (1000, 1000), (100, 30))] == (2, 1)  # it scrolls


def test_a_zoom_setting_names_a_size_or_fit() -> None:
    sizes = tile_sizes(3)
    assert zoom_index(sizes, FIT) is None
    assert sizes[zoom_index(sizes, "6x3") or 0] == (6, 3)
    assert zoom_index(sizes, "2x1") == 0  # narrower than the theme's cell: its own cell


def drawn(tile: Tile, glyph: str, raised: bool, edges: Sequence[str] = BLOCK_EDGES) -> list[str]:
    colours = TileColours(Color.parse("white"), Color.parse("black"), Color.parse("grey50"))
    face = Style(color="red", bgcolor="grey70")
    return [
        "".join(s.text for s in tile_row(tile, row, glyph, face, raised, colours, edges))
        for row in range(tile.rows)
    ]


def test_numbers_are_drawn_large_where_a_revealed_tile_has_three_free_rows() -> None:
    colours = TileColours(Color.parse("white"), Color.parse("black"), Color.parse("grey50"))
    face = Style(color="blue", bgcolor="grey70")
    rows = [
        "".join(s.text for s in tile_row(Tile(8, 4), row, "3", face, False, colours, big="digit3"))
        for row in range(4)
    ]
    assert rows == ["  ▀▀█  │", "   ▀█  │", "  ▀▀▀  │", "───────┼"]
    # Two free rows (6x3) are too few: the number stays a character.
    small = [
        "".join(s.text for s in tile_row(Tile(6, 3), row, "3", face, False, colours, big="digit3"))
        for row in range(3)
    ]
    assert small == ["     │", "  3  │", "─────┼"]


def test_a_raised_tile_is_light_top_left_and_dark_bottom_right() -> None:
    assert drawn(Tile(6, 3), "F", raised=True) == ["▛▀▀▀▀▀", "▌ F  ▐", "▌▄▄▄▄▟"]
    assert drawn(Tile(6, 3), "3", raised=False) == ["     │", "  3  │", "─────┼"]
    # Two rows: the glyph goes on the upper one, which has no grid line.
    assert drawn(Tile(4, 2), "3", raised=False) == [" 3 │", "───┼"]
    # A raised two-row tile with a glyph (a flag, an overlay's odds): the glyph sits between
    # the edges, never on the bevel ("▛0▀▀" left pieces of it around the glyph).
    assert drawn(Tile(4, 2), "0", raised=True) == ["▌0 ▐", "▌▄▄▟"]
    assert drawn(Tile(4, 2), " ", raised=True) == ["▛▀▀▀", "▌▄▄▟"]


# ---------------------------------------------------------------------------- fit
@pytest.mark.parametrize(
    ("board", "size", "tile"),
    [
        (BEGINNER, (80, 24), (3, 1)),
        (BEGINNER, (120, 40), (6, 3)),
        (BEGINNER, (200, 60), (10, 5)),
        (EXPERT, (80, 24), (2, 1)),
        (EXPERT, (100, 30), (3, 1)),
        (EXPERT, (120, 40), (3, 2)),  # 90x32 in 116x33: raised tiles
        (EXPERT, (200, 60), (6, 3)),
    ],
)
async def test_fit_fills_the_terminal(
    board: dict[str, int], size: tuple[int, int], tile: tuple[int, int], play: Play
) -> None:
    app, pilot = await play(**board, size=size)
    await pilot.pause()
    view = app.query_one(BoardView)
    assert view.tile == tile
    # The whole board shows: nothing to scroll.
    assert view.content_region.width == board["width"] * tile[0]
    assert view.content_region.height == board["height"] * tile[1]


async def test_fit_shows_the_whole_framed_panel(play: Play) -> None:
    """Issue 46.16d: Expert at 120x40 (and Intermediate) gave the frame's top and bottom edges
    to the LED digits: the panel showed without them. Fit keeps the whole frame, the header
    under its top edge and the board over its bottom edge; LED digits only where they fit
    with it."""
    from textmines.ui.widgets.header import GameHeader

    app, pilot = await play(**EXPERT, size=(120, 40))

    def framed() -> list[str]:
        """What is missing of the framed panel (nothing once it shows whole)."""
        panel = app.query_one(GamePanel)
        header, board = app.query_one(GameHeader), app.query_one(BoardView)
        box, missing = panel.region, []
        if box.y < 1 or box.bottom > 39:
            missing.append(f"{box} beyond the menu bar or the status line")
        if not (panel.styles.border_top[0] and panel.styles.border_bottom[0]):
            missing.append("the frame's top or bottom edge")
        if header.region.y != box.y + 1 or board.region.bottom != box.bottom - 1:
            missing.append(f"header at {header.region.y}, board to {board.region.bottom}")
        width, height = app.game.width * board.tile[0], app.game.height * board.tile[1]
        if board.content_region.size != (width, height):
            missing.append(f"the board shows {board.content_region.size}, not {width}x{height}")
        return missing

    await pilot.pause()
    assert framed() == [] and app.board.tile == (3, 2)
    await pilot.press("2")  # Intermediate: 4x2 tiles
    await wait_until(pilot, lambda: app.game.width == 16, "the Intermediate board")
    await pilot.pause()
    assert framed() == [] and app.board.tile == (4, 2)


async def test_resizing_the_terminal_refits(play: Play) -> None:
    app, pilot = await play(**BEGINNER, size=(80, 24))
    board = app.query_one(BoardView)
    assert board.tile == (3, 1)
    await pilot.resize_terminal(200, 60)
    await pilot.pause()
    assert board.tile == (10, 5)
    await pilot.resize_terminal(120, 40)
    await pilot.pause()
    assert board.tile == (6, 3)


def record_board_sizes(app: TextminesApp) -> list[tuple[int, int]]:
    """The board's size whenever it draws a line from now on: every frame that shows the
    board draws its lines at the size it has then."""
    sizes: list[tuple[int, int]] = []
    board = app.board
    render_line = board.render_line

    def recording(y: int) -> Any:
        size = (board.size.width, board.size.height)
        if not sizes or sizes[-1] != size:
            sizes.append(size)
        return render_line(y)

    board.render_line = recording  # type: ignore[method-assign]
    return sizes


async def test_a_resize_that_changes_the_zoom_draws_no_frame_at_the_old_size(play: Play) -> None:
    app, pilot = await play(**BEGINNER, size=(80, 24))
    await pilot.pause()
    sizes = record_board_sizes(app)
    for terminal, tile in (((120, 40), (6, 3)), ((200, 60), (10, 5)), ((80, 24), (3, 1))):
        sizes.clear()
        await pilot.resize_terminal(*terminal)
        await pilot.pause()
        await pilot.pause()
        assert app.board.tile == tile
        final = (9 * tile[0], 9 * tile[1])
        assert sizes and set(sizes) == {final}, f"frames drawn at {terminal}: {sizes}"


@pytest.mark.slow
async def test_a_resize_under_a_dialog_refits_the_board_behind_it(play: Play) -> None:
    app, pilot = await play(**BEGINNER, size=(80, 24))
    await pilot.press("f1")  # help, over the game
    await pilot.resize_terminal(200, 60)
    await pilot.pause()
    assert app.board.tile == (10, 5)
    sizes = record_board_sizes(app)
    await pilot.press("escape")
    await pilot.pause()
    assert app.screen is app.board.screen
    # Shown again from the lines drawn behind the dialog, or drawn anew: at 10x5 only.
    assert set(sizes) <= {(90, 45)} and tuple(app.board.size) == (90, 45)


# ---------------------------------------------------------------------------- keys
async def test_zoom_keys_step_the_size_and_the_choice_is_kept(tmp_path: Path, play: Play) -> None:
    settings_file = tmp_path / "settings.toml"
    app = TextminesApp(GameConfig(seed=1), clock=FakeClock(), settings_path=settings_file)
    pilot = await play.run(app, size=(120, 40))
    board = app.query_one(BoardView)
    assert board.tile == (6, 3)
    await pilot.press("left_square_bracket")
    assert board.tile == (4, 2)
    await pilot.press("left_square_bracket", "left_square_bracket", "left_square_bracket")
    assert board.tile == (2, 1), "the smallest size is as far as it goes"
    await pilot.press("right_square_bracket")
    assert board.tile == (3, 1)
    assert load_settings(settings_file)[0].zoom == "3x1"
    await pilot.resize_terminal(200, 60)
    await pilot.pause()
    assert board.tile == (3, 1), "a chosen size stays when the terminal changes"
    await pilot.press("equals_sign")
    assert board.tile == (10, 5)
    assert load_settings(settings_file)[0].zoom == "fit"


async def test_the_zoom_in_settings_is_used_at_start(play: Play) -> None:
    app = TextminesApp(GameConfig(seed=1), clock=FakeClock(), settings=Settings(zoom="4x2"))
    await play.run(app, size=(120, 40))
    assert app.query_one(BoardView).tile == (4, 2)


async def test_the_options_menu_zooms(play: Play) -> None:
    app, pilot = await play(size=(120, 40))
    items = {item.label: item for _, item in app.menu_bar.all_items()}
    assert items["Zoom to fit"].checked is not None and items["Zoom to fit"].checked()
    await app.game_screen.run_action(items["Zoom out"].action)
    await pilot.pause()
    assert app.query_one(BoardView).tile == (4, 2)
    assert not items["Zoom to fit"].checked()


# ---------------------------------------------------------------------------- mouse
@pytest.mark.slow
async def test_a_click_anywhere_inside_a_large_tile_hits_that_tile(play: Play) -> None:
    app, pilot = await play(**BEGINNER, size=(120, 40))
    await pilot.press("space")
    board = app.query_one(BoardView)
    cols, rows = board.tile
    assert (cols, rows) == (6, 3)
    gutter_x = board.content_region.x - board.region.x
    gutter_y = board.content_region.y - board.region.y
    target = next(
        (x, y) for y in range(8, -1, -1) for x in range(8, -1, -1) if app.game.cell(x, y) == "#"
    )
    for dy in range(rows):
        for dx in range(cols):
            offset = (gutter_x + target[0] * cols + dx, gutter_y + target[1] * rows + dy)
            await pilot.click(BoardView, offset, button=3)  # right: flag, ?, clear
            assert board.cursor == target
    # 18 right clicks on one cell: flag, ?, clear six times over.
    assert app.game.cell(*target) == "#"


# ---------------------------------------------------------------------------- snapshots
@pytest.mark.parametrize(
    ("board", "size", "zoom", "tile"),
    [
        pytest.param(BEGINNER, (80, 24), "2x1", "2x1", id="beginner-2x1"),
        pytest.param(BEGINNER, (80, 24), "3x1", "3x1", id="beginner-3x1"),
        pytest.param(BEGINNER, (100, 30), FIT, "4x2", id="beginner-4x2"),
        pytest.param(BEGINNER, (120, 40), FIT, "6x3", id="beginner-6x3"),  # LED digits
        pytest.param(BEGINNER, (100, 45), "8x4", "8x4", id="beginner-8x4"),
        pytest.param(BEGINNER, (200, 60), FIT, "10x5", id="beginner-10x5"),
        pytest.param(EXPERT, (80, 24), FIT, "2x1", id="expert-2x1"),
        pytest.param(EXPERT, (100, 30), FIT, "3x1", id="expert-3x1"),
        pytest.param(EXPERT, (120, 40), FIT, "3x2", id="expert-3x2"),
        pytest.param(EXPERT, (130, 42), "4x2", "4x2", id="expert-4x2"),
        pytest.param(EXPERT, (200, 60), FIT, "6x3", id="expert-6x3"),  # LED digits
        # Larger than the terminal: the board scrolls.
        pytest.param(EXPERT, (200, 60), "8x4", "8x4", id="expert-8x4"),
        pytest.param(EXPERT, (200, 60), "10x5", "10x5", id="expert-10x5"),
    ],
)
def test_zoom_sizes(
    snap_compare: Any, board: dict[str, int], size: tuple[int, int], zoom: str, tile: str
) -> None:
    """Every tile size on Beginner and on Expert: the size fit picks in that terminal, or
    the size chosen in the settings."""
    app = make_app(**board, settings=Settings(zoom=zoom))

    async def play(pilot: Pilot[None]) -> None:
        # Open the board, flag a covered cell and leave the cursor on a revealed one.
        await pilot.press("space")
        game = app.game
        covered = next(
            (x, y) for y in range(game.height) for x in range(game.width) if game.cell(x, y) == "#"
        )
        app.flow.play(ActionKind.FLAG, *covered)
        await pilot.pause()
        assert str(app.query_one(BoardView).tile) == tile

    assert snap_compare(app, terminal_size=size, run_before=play)


@pytest.mark.slow
@pytest.mark.parametrize("outcome", ["won", "lost"])
def test_the_end_at_a_large_size(snap_compare: Any, outcome: str) -> None:
    clock = FakeClock()
    app = make_app(clock, **BEGINNER)

    async def finish(pilot: Pilot[None]) -> None:
        await pilot.press("space")
        clock.advance(9.5)
        board = app.game.board
        assert board is not None
        if outcome == "won":
            await click_cell(pilot, *clear_all_but_one(app))
        else:
            mine = next((x, y) for y in range(9) for x in range(9) if board.is_mine(x, y))
            await click_cell(pilot, *mine)
        assert app.game.status == outcome
        await pilot.press("escape")  # close the game-over box: the final board as it is

    assert snap_compare(app, terminal_size=(120, 40), run_before=finish)


def test_mines_and_flags_are_drawn_larger_where_the_tile_has_room() -> None:
    colours = TileColours(Color.parse("white"), Color.parse("black"), Color.parse("grey50"))
    face = Style(color="black", bgcolor="grey70")

    def rows(tile: Tile, big: str, raised: bool) -> list[str]:
        return [
            "".join(s.text for s in tile_row(tile, r, "*", face, raised, colours, big=big))
            for r in range(tile.rows)
        ]

    assert rows(Tile(6, 3), "mine", raised=False) == [" ▄█▄ │", " ▀█▀ │", "─────┼"]
    assert rows(Tile(8, 4), "flag", raised=True)[1:3] == ["▌ ▄█▌  ▐", "▌  ▄▙▄ ▐"]
    # A 6x3 covered tile has one free row: the flag stays the theme's glyph.
    assert rows(Tile(6, 3), "flag", raised=True)[1] == "▌ *  ▐"
    # ASCII themes keep their glyphs.
    ascii_rows = [
        "".join(
            s.text for s in tile_row(Tile(6, 3), r, "*", face, False, colours, ASCII_EDGES, "mine")
        )
        for r in range(3)
    ]
    assert ascii_rows[1] == "  *  |"


async def test_pausing_keeps_the_panel_its_size(play: Play) -> None:
    app, pilot = await play(width=16, height=16, mines=40, size=(100, 35))
    await pilot.press("space")
    panel = app.query_one(GamePanel)
    before = panel.outer_size
    await pilot.press("p")
    await pilot.pause()
    assert app.game.clock.paused and app.screen.has_class("-paused")
    assert panel.outer_size == before
    await pilot.press("p")
    await pilot.pause()
    assert panel.outer_size == before


@pytest.mark.parametrize("size", [(100, 35), (80, 18)], ids=["framed", "compact"])
@pytest.mark.parametrize("columns", [1, 2, 3, 4])
async def test_a_narrow_board_keeps_its_counter_face_and_timer(
    columns: int, size: tuple[int, int], play: Play
) -> None:
    """A custom board of 1 to 4 columns had a header only as wide as itself: the timer (on
    one column the face too) did not fit and was left out. As in the classic game, whose
    window is never narrower than its header, the panel is as wide as the header needs,
    with the board in its middle, paused too."""
    app, pilot = await play(width=columns, height=12, mines=2, seed=3, size=size)
    await click_cell(pilot, 0, 11)
    assert app.game.clock.started
    shown = app.header.render_line(0).text.split()
    assert shown[0] == "002" and shown[-1] == "001", shown  # the counter and the timer
    assert shown[1] == app.header.face_text.strip()
    panel, board = app.query_one(GamePanel).content_region, app.board.region
    left, right = board.x - panel.x, panel.right - board.right
    assert abs(left - right) <= 1
    # Paused, the box that stands in for the board keeps the panel as wide.
    await pilot.press("p")
    await pilot.pause()
    assert app.header.render_line(0).text.split() == shown
    assert app.query_one(GamePanel).content_region.width == panel.width
