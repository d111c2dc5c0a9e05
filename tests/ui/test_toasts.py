"""Messages over the game (toasts): a click goes through them to the cell under them, a new
one of a kind replaces the last, and they sit away from the cursor with the counter and the
timer in sight."""

from __future__ import annotations

from tests.helpers import Play, cell_offset, read_together, wait_until
from textmines.ui.board.board_view import BoardView


async def test_a_message_over_the_board_lets_the_click_through_to_the_cell(play: Play) -> None:
    # Found by a player: a click on a cell under a toast closed the toast and did nothing else.
    from textual.geometry import Offset

    app, pilot = await play(size=(80, 24), notifications=True)
    await pilot.press("space")
    app.notify("A long message to cover part of the board. " * 3, timeout=60)
    await wait_until(pilot, lambda: any(t.region for t in app.screen.query("Toast")), "the toast")
    (toast,) = app.screen.query("Toast")
    board = app.query_one(BoardView)
    under = [
        (x, y, point)
        for y in range(app.game.height)
        for x in range(app.game.width)
        if app.game.cell(x, y) == "#"
        and toast.region.contains_point(
            point := board.region.offset + Offset(*cell_offset(board, x, y))
        )
    ]
    assert under, "the toast covers a covered cell"
    x, y, point = under[0]
    await pilot.click(offset=point, button=3)
    await pilot.pause()
    assert app.game.cell(x, y) == "F"


async def test_toasts_of_a_kind_replace_each_other_away_from_the_cursor(play: Play) -> None:
    app, pilot = await play(width=30, height=16, mines=99, size=(100, 30))
    await pilot.press("space")
    for _ in range(5):
        await pilot.press("i")  # a hint each time
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
    hints = [n for n in app.toasts if n.title == "Hint"]
    assert len(hints) == 1
    assert len(app.toasts) == 1
    # The hinted cell holds the cursor; the toasts sit in the other half of the screen.
    x, y = app.board.cursor_screen_offset()
    screen = app.screen
    assert screen.has_class("-toasts-left") == (x >= screen.size.width // 2)
    assert screen.has_class("-toasts-top") == (y >= screen.size.height // 2)


async def test_toasts_of_a_kind_read_together_replace_each_other(play: Play) -> None:
    # [ [ [ typed fast: each zoom's toast was still on its way when the next came, and three
    # stacked up.
    app, pilot = await play(size=(100, 35))
    read_together(app, *["left_square_bracket"] * 3)
    await wait_until(pilot, lambda: app.toasts, "the zoom's toast")
    await pilot.pause()
    assert [toast.message[:5] for toast in app.toasts] == ["Zoom:"]


async def test_toasts_at_the_top_leave_the_counter_and_the_timer_in_sight(play: Play) -> None:
    # Seen in play: a hint's toast at the top covered the timer.
    app, pilot = await play(width=30, height=16, mines=99, size=(100, 35), notifications=True)
    await pilot.press("space")
    app.board.move_cursor(2, 15)  # low on the screen: the toasts go to the top
    app.notify("Something to say", title="Hint")
    await pilot.pause()
    rack = app.screen.query_one("#textual-toastrack")
    assert app.screen.has_class("-toasts-top")
    toasts = [w.region for w in rack.query("Toast")]
    assert toasts and all(r.y >= app.header.region.bottom for r in toasts)
    app.board.move_cursor(2, 0)  # high: back to the foot of the screen
    app.notify("Something else", title="Hint")
    await pilot.pause()
    assert not app.screen.has_class("-toasts-top")
    toasts = [w.region for w in rack.query("Toast")]
    assert toasts and all(r.bottom <= app.status_line.region.y for r in toasts)
