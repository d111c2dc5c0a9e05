"""What issue 34.21 asked for, as a player sees it: the face on the three-row header is a
picture that changes with the game; Expert in 120x40 gets raised 3x2 tiles; one-row tiles
read as tiles (a covered cell is a block of its own colour with a shadow, a revealed one flat)."""

from __future__ import annotations

import pytest
from rich.segment import Segment

from tests.helpers import Play, cell_offset, clear_all_but_one, click_cell, face_span
from textmines.engine import ActionKind
from textmines.ui.board.board_view import BoardView
from textmines.ui.board.tiles import Tile
from textmines.ui.widgets.face import FACE_COLUMNS, face_pixels
from textmines.ui.widgets.header import GameHeader


def test_every_face_keeps_to_two_colours_a_screen_cell() -> None:
    """A character has a colour and a background: a 2x2 block of pixels with three colours
    could not be drawn."""
    for face in ("normal", "pressed", "won", "lost"):
        pixels = face_pixels(face)
        assert len(pixels) == 6 and {len(row) for row in pixels} == {2 * FACE_COLUMNS}
        for y in range(0, 6, 2):
            for x in range(0, 2 * FACE_COLUMNS, 2):
                block = {pixels[y][x], pixels[y][x + 1], pixels[y + 1][x], pixels[y + 1][x + 1]}
                assert len(block) <= 2, (face, x, y, block)


def face_picture(header: GameHeader) -> tuple[list[str], set[str]]:
    """The face's button as drawn: its three rows of characters, and its colours."""
    first, end = face_span(header)
    rows, colours = [], set()
    for y in range(3):
        column, text = 0, ""
        for segment in header.render_line(y):
            width = segment.cell_length
            if column < end and column + width > first:
                text += segment.text[max(0, first - column) : end - column]
                if segment.style is not None:
                    colours |= {
                        str(c.triplet.hex)
                        for c in (segment.style.color, segment.style.bgcolor)
                        if c is not None and c.triplet is not None
                    }
            column += width
        rows.append(text)
    return rows, colours


@pytest.mark.slow
async def test_the_face_is_a_picture_that_changes_with_the_game(play: Play) -> None:
    app, pilot = await play(width=9, height=9, mines=10, size=(120, 40))
    await pilot.pause()
    header = app.query_one(GameHeader)
    assert header.led, "Beginner in 120x40 has the three-row header"
    board = app.query_one(BoardView)
    seen: dict[str, list[str]] = {}

    async def look(state: str) -> None:
        await pilot.pause()
        assert header.face == state
        rows, colours = face_picture(header)
        assert all(len(row) == FACE_COLUMNS for row in rows), rows
        assert rows[1].strip(), "the face fills the button's middle row too"
        # The theme's yellow face and its black eyes, on the panel's grey button.
        assert {"#ffd700", "#000000", "#c0c0c0"} <= colours, colours
        seen[state] = rows

    await look("normal")
    # A button held on the board: the "oh" face, until it comes up.
    await pilot.mouse_down(BoardView, cell_offset(board, 4, 4))
    await look("pressed")
    await pilot.mouse_up(BoardView, cell_offset(board, 4, 4))
    await look("normal")
    await click_cell(pilot, *clear_all_but_one(app))
    await look("won")
    await pilot.press("escape", "n")  # a new game, lost at once
    await pilot.press("space")
    game_board = app.game.board
    assert game_board is not None
    mine = next((x, y) for y in range(9) for x in range(9) if game_board.is_mine(x, y))
    await click_cell(pilot, *mine)
    await pilot.press("escape")
    await look("lost")
    pictures = {tuple(rows) for rows in seen.values()}
    assert len(pictures) == 4, "smile, oh, sunglasses and crossed-out eyes all differ"
    # The button: a light edge at its left, a dark one at its right, on every row.
    for row in seen["normal"]:
        assert row[0] == "▌" and row[-1] == "▐"


async def test_expert_in_120x40_gets_raised_3x2_tiles(play: Play) -> None:
    app, pilot = await play(width=30, height=16, mines=99, size=(120, 40))
    await pilot.press("space")
    board = app.query_one(BoardView)
    assert board.tile == Tile(3, 2)
    game = app.game
    x, y = next((x, y) for y in range(16) for x in range(30) if game.cell(x, y) == "#")
    flat_x, flat_y = next((x, y) for y in range(16) for x in range(30) if game.cell(x, y) == "0")
    scroll_y = int(board.scroll_offset.y)

    def tile(x: int, y: int) -> list[str]:
        lines = [board.render_line(2 * y + row - scroll_y).text for row in range(2)]
        return [line[3 * x : 3 * x + 3] for line in lines]

    # Raised: light top and left, dark bottom and right; revealed: flat, a thin grid.
    assert tile(x, y) == ["▛▀▀", "▌▄▟"]
    assert tile(flat_x, flat_y) == ["  │", "──┼"]


def cell_segments(board: BoardView, x: int, y: int) -> list[Segment]:
    """The segments of cell ``(x, y)`` of a one-row board, column by column."""
    cols = board.tile.cols
    line = board.render_line(y - int(board.scroll_offset.y))
    columns = [Segment(char, s.style) for s in line for char in s.text]
    return columns[x * cols : (x + 1) * cols]


async def test_one_row_tiles_tell_covered_from_revealed_by_their_colour(play: Play) -> None:
    app, pilot = await play(width=9, height=9, mines=10, size=(80, 24))
    await pilot.press("space")
    await pilot.press("up", "up", "up", "up")  # the cursor off the cells compared
    await pilot.pause()
    board = app.query_one(BoardView)
    assert board.tile.rows == 1
    game = app.game
    row = next(y for y in range(9) if {"#", "0"} <= set(game.view_row(y)) and y != 0)
    covered = game.view_row(row).index("#")
    revealed = game.view_row(row).index("0")
    raised = cell_segments(board, covered, row)
    flat = cell_segments(board, revealed, row)
    backgrounds = {s.style.bgcolor for s in raised if s.style}
    assert len(backgrounds) == 1 and backgrounds != {s.style.bgcolor for s in flat if s.style}
    # Classic's covered and revealed greys are one colour: the covered face is lifted
    # toward the light bevel, lighter than the flat ground.
    face = backgrounds.pop()
    ground = flat[0].style.bgcolor if flat[0].style else None
    assert face is not None and ground is not None and face.triplet and ground.triplet
    assert sum(face.triplet) > sum(ground.triplet)
    # No dot: a shadow along the bottom and down the right edge.
    assert "".join(s.text for s in raised) == "▁▁▕"
    assert "".join(s.text for s in flat).strip() == ""


async def test_a_one_row_flag_and_the_cursor_still_show(play: Play) -> None:
    app, pilot = await play(width=30, height=16, mines=99, size=(80, 24))
    await pilot.press("space")
    board = app.query_one(BoardView)
    assert board.tile == Tile(2, 1)
    game = app.game
    x, y = next((x, y) for y in range(16) for x in range(30) if game.cell(x, y) == "#")
    board.move_cursor(x, y)
    await pilot.press("f")
    await pilot.pause()
    flagged = cell_segments(board, x, y)
    assert "".join(s.text for s in flagged) == "▁⚑"
    cursor = {s.style.bgcolor for s in flagged if s.style}
    await pilot.press("right")
    await pilot.pause()
    away = {s.style.bgcolor for s in cell_segments(board, x, y) if s.style}
    assert cursor != away, "the cursor shows on a covered one-row tile"


def tile_segments(board: BoardView, x: int, y: int, sub: int) -> list[Segment]:
    """The segments of screen row ``sub`` of cell ``(x, y)`` of a board of tall tiles."""
    cols, rows = board.tile
    scroll_x, scroll_y = (int(n) for n in board.scroll_offset)
    line = board.render_line(y * rows + sub - scroll_y)
    columns = [Segment(char, s.style) for s in line for char in s.text]
    return columns[x * cols - scroll_x : (x + 1) * cols - scroll_x]


@pytest.mark.slow
async def test_a_wrong_flag_after_a_loss_is_a_crossed_out_mine_on_an_opened_cell(
    play: Play,
) -> None:
    # Issue 34.22: wrong flags were a tiny red cross on a raised tile; Windows crosses out
    # the mine on an opened cell.
    app, pilot = await play(width=9, height=9, mines=10, size=(120, 40))
    await pilot.press("space")
    game = app.game
    board_layout = game.board
    assert board_layout is not None
    covered = [(x, y) for y in range(9) for x in range(9) if game.cell(x, y) == "#"]
    safe = next(c for c in covered if not board_layout.is_mine(*c))
    mine = next(c for c in covered if board_layout.is_mine(*c))
    app.flow.play(ActionKind.FLAG, *safe)
    app.flow.play(ActionKind.REVEAL, *mine)
    assert game.status == "lost" and game.cell(*safe) == "W"
    board = app.query_one(BoardView)
    board.set_tile(Tile(6, 3))
    await pilot.pause()
    rows = ["".join(s.text for s in tile_segments(board, *safe, sub)) for sub in range(3)]
    assert "▚█▞" in rows[0] and "▞█▚" in rows[1], rows
    opened = next((x, y) for y in range(9) for x in range(9) if game.cell(x, y) == "0")
    backgrounds = {
        s.style.bgcolor for s in tile_segments(board, *safe, 0) if s.style and s.text.strip()
    }
    assert backgrounds == {s.style.bgcolor for s in tile_segments(board, *opened, 0) if s.style}


@pytest.mark.slow
async def test_after_a_keyboard_loss_the_exploded_mine_stays_red_under_the_cursor(
    play: Play,
) -> None:
    app, pilot = await play(size=(100, 30))
    await pilot.press("space")
    board = app.query_one(BoardView)
    board.move_cursor(1, 4)  # a mine
    await pilot.press("space")
    assert app.game.cell(1, 4) == "X" and board.cursor == (1, 4)
    exploded = board._cell_styles()["X"].bgcolor
    cols, rows = board.tile
    line = board.render_line(4 * rows + (rows - 1) // 2 - int(board.scroll_offset.y))
    column = 0
    for segment in line:
        if column <= cols * 1 + cols // 2 < column + segment.cell_length:
            assert segment.style is not None and segment.style.bgcolor == exploded
            break
        column += segment.cell_length
    else:
        raise AssertionError("cell (1, 4) not drawn")
