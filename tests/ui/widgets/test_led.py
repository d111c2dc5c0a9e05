"""LED digits in the header: three rows tall where the zoom leaves room, plain digits
otherwise; negative counts and three-digit numbers draw like the original's display."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from tests.helpers import (
    FakeClock,
    Play,
    clear_all_but_one,
    click_cell,
    face_span,
    make_app,
    wait_until,
)
from textmines.ui.widgets.face import FACE_COLUMNS, face_row
from textmines.ui.widgets.header import GameHeader
from textmines.ui.widgets.led import led_row, led_width


def drawn(text: str) -> list[str]:
    return ["".join(chars for chars, _ in led_row(text, row)) for row in range(3)]


def lit(text: str, row: int) -> list[str]:
    """The styles of row ``row``, character by character."""
    return [style for chars, style in led_row(text, row) for _ in chars]


def test_every_segment_is_drawn_lit_or_unlit() -> None:
    # An 8 and a 1 have the same shape on screen; only the colours differ.
    assert drawn("8") == drawn("1") == ["█▀█", "█▀█", "▀▀▀"]
    assert set(lit("8", 2)) == {"led-nb"}, "the bottom bar of an 8 is lit"
    assert lit("1", 2) == ["led-fb", "led-fb", "led-nb"], "a 1 lights only its right side"
    assert lit("-", 0) == ["led-fb"] * 3
    assert lit("-", 1) == ["led-nf", "led-nb", "led-nf"], "a minus lights the middle bar only"


def test_digits_are_three_columns_with_a_gap() -> None:
    assert led_width("999") == 11
    assert all(len(row) == 11 for row in drawn("999"))
    assert drawn("-03")[0][3] == " "


async def led_header(pilot: Pilot[None]) -> GameHeader:
    await pilot.pause()
    return pilot.app.query_one(GameHeader)


@pytest.mark.slow
async def test_led_digits_where_two_rows_are_to_spare_else_plain(play: Play) -> None:
    from textmines.ui.widgets.panel import GamePanel

    app, pilot = await play(width=30, height=16, mines=99, size=(200, 60))
    header = await led_header(pilot)
    assert header.led and header.size.height == 3
    assert "█▀█" in header.render_line(0).text
    panel = app.query_one(GamePanel)
    assert header.region.y == panel.region.y + 1, "the frame's top edge over the header"
    # 16 rows of 3x2 tiles in 120x40: one row to spare, the plain header. The frame keeps its
    # top and bottom edges (issue 46.16d: they went to the LED digits) and the tiles their size.
    await pilot.resize_terminal(120, 40)
    await wait_until(pilot, lambda: not app.header.led, "the plain header")
    header = app.header
    assert header.size.height == 1
    assert header.region.y == panel.region.y + 1, "the frame's top edge over the header"
    # 16 rows of 2x1 tiles in 80x24: one-row tiles keep the frame and the plain header.
    await pilot.resize_terminal(80, 24)
    header = await led_header(pilot)
    assert not header.led and header.size.height == 1
    assert header.render_line(0).text.split()[0] == "099"


@pytest.mark.slow
@pytest.mark.parametrize("size", [(142, 38), (142, 34)])
async def test_a_1280_wide_page_shows_led_digits_and_the_board_whole(
    size: tuple[int, int],
    play: Play,
) -> None:
    """A browser page 1280 px wide is 142 columns: 38 rows at 1280x800, 34 at 1280x720 (a
    1280x800 screen's window). Beginner's 6x3 tiles fill 34 rows exactly with the whole frame
    (issue 46.16d): the counters are plain text there, LED digits at 38 rows; the game-over
    box covered the board's foot."""
    from textmines.ui.board.board_view import BoardView
    from textmines.ui.screens.game_over import GameOverScreen

    app, pilot = await play(size=size)
    board = app.query_one(BoardView)
    if size[1] >= 36:
        header = await led_header(pilot)
        assert header.size.height == 3 and "█▀█" in header.render_line(0).text
    else:
        await pilot.pause()
        header = app.header
        assert not header.led and header.size.height == 1
    assert str(board.tile) == "6x3"
    assert board.region.bottom <= size[1] - 1, "the whole board above the status line"
    await pilot.press("space")
    await click_cell(pilot, *clear_all_but_one(app))
    await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen), "the game-over box")
    await pilot.pause()
    await pilot.pause()
    box = app.screen.query_one("#box").region
    assert not box.overlaps(board.region), "the box beside the board, not over its rows"
    assert not box.overlaps(header.region)


async def test_a_negative_count_and_the_face_on_the_led_header(play: Play) -> None:
    clock = FakeClock()
    _, pilot = await play(clock, size=(120, 40))
    header = await led_header(pilot)
    await pilot.press("space")
    clock.advance(999)  # the app's clock tick writes the timer: the game time says 999
    header.mines_left = -3
    await wait_until(
        pilot,
        lambda: header.counter_text == "-03" and header.timer_text == "999",
        "the counter at -03 and the timer at 999",
    )
    first, end = face_span(header)
    # The face is a picture on a button with a light edge left, a dark edge right (see
    # test_tiles_and_face.py for the faces).
    assert end - first == FACE_COLUMNS
    for row in range(3):
        drawn = header.render_line(row).text[first:end]
        assert drawn == "".join(chars for chars, _ in face_row("normal", row))
        assert drawn[0] == "▌" and drawn[-1] == "▐"
    styles = [
        segment.style
        for segment in header.render_line(1)
        if segment.text.strip("▀█▄ ") == "" and segment.style is not None
    ]
    assert styles, "the LED rows are drawn in LED styles"


def test_led_header_snapshot(snap_compare: Any) -> None:
    app = make_app()

    async def flag_too_many(pilot: Pilot[None]) -> None:
        # More flags than mines: the counter goes negative, as in the original.
        header = await led_header(pilot)
        header.mines_left = -12

    assert snap_compare(app, terminal_size=(120, 40), run_before=flag_too_many)


def test_an_ascii_theme_draws_ascii_digits_frames_and_tiles() -> None:
    from tests.ui.game.test_zoom import drawn as tile_drawn
    from textmines.ui.board.tiles import ASCII_EDGES, Tile

    # Lit segments only (the others are drawn in the unlit colour): -38 the usual _| way.
    lit_rows = [
        "".join(
            c if style == "led-nb" else " "
            for chars, style in led_row("-38", row, ascii=True)
            for c in chars
        )
        for row in range(3)
    ]
    assert lit_rows == ["     _   _ ", " _   _| |_|", "     _| |_|"]
    assert tile_drawn(Tile(6, 3), "F", raised=True, edges=ASCII_EDGES) == [
        "+-----",
        "| F  |",
        "+----+",
    ]


async def test_the_ascii_theme_frames_the_panel_in_ascii(play: Play) -> None:
    app, pilot = await play(theme="ascii", size=(120, 40))
    await pilot.pause()
    header = pilot.app.query_one(GameHeader)
    assert header.led and header.ascii
    assert "_" in header.render_line(0).text + header.render_line(1).text
    svg = app.export_screenshot()
    assert "▀" not in svg and "▌" not in svg and "+---" in svg


async def test_the_counter_sits_at_the_left_edge_the_timer_at_the_right_the_face_between(
    play: Play,
) -> None:
    _, pilot = await play(width=30, height=16, mines=99, size=(200, 60))
    header = await led_header(pilot)
    width = header.size.width
    line = header.render_line(0).text
    left, right = len(line) - len(line.lstrip()), len(line) - len(line.rstrip())
    assert left == right <= 2, f"the displays sit at the edges: {line!r}"
    first, end = face_span(header)
    assert abs((first + end) / 2 - width / 2) <= 1, "the face is in the middle"


def test_the_timer_counts_as_windows_did() -> None:
    from textmines.ui.drawing.numbers import timer_seconds

    assert timer_seconds(0, started=False) == 0
    assert timer_seconds(0, started=True) == 1, "1 as soon as the first click is made"
    assert timer_seconds(999, started=True) == 1
    assert timer_seconds(1000, started=True) == 2
    assert timer_seconds(5_000_000, started=True) == 999


@pytest.mark.parametrize("size", [(30, 8), (31, 9), (34, 8), (30, 10)])
async def test_a_tiny_terminal_never_cuts_a_digit_of_the_counter_or_the_timer(
    size: tuple[int, int],
    play: Play,
) -> None:
    clock = FakeClock()
    app, pilot = await play(clock, size=size)
    await pilot.press("space")
    clock.advance(123)
    await wait_until(pilot, lambda: app.header.seconds == 124, "the timer at 124")
    line = app.header.render_line(0).text
    assert line.split() == ["010", ":)", "124"], line


def test_the_counters_show_every_digit_a_number_needs() -> None:
    from textmines.ui.widgets.header import format_counter

    assert format_counter(10) == "010"
    assert format_counter(-3) == "-03"
    assert format_counter(18000, 5) == "18000"
    assert format_counter(999, 5) == "00999"
    assert format_counter(-120, 5) == "-0120"
    assert format_counter(1234) == "1234"  # the timer past 999 s


async def test_a_board_with_thousands_of_mines_counts_them_all(play: Play) -> None:
    from textmines.ui.widgets.header import GameHeader

    app, pilot = await play(width=200, height=100, mines=12000, size=(100, 30))
    await pilot.pause()
    row = app.query_one(GameHeader).render_line(0).text
    assert "12000" in row
