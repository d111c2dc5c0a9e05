"""The game review where a player sees it (issue 37): the end-of-game box says in one line
how the clicks went, once the solver has reviewed them, without holding the box up."""

from __future__ import annotations

from textual.widgets import Static

from tests.helpers import clear_all_but_one, click_cell, make_app, wait_until


def review_line(app: object) -> str:
    from textual.app import App

    assert isinstance(app, App)
    lines = app.screen.query("#review")
    if not lines or not lines.first(Static).display:
        return ""
    return str(lines.first(Static).render())


async def test_the_box_says_how_a_won_games_clicks_went() -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("space")
        await click_cell(pilot, *clear_all_but_one(app))
        assert app.game.status == "won"
        assert app.screen.query_one("#new").has_focus, "the box takes keys at once"
        await wait_until(pilot, lambda: review_line(app) != "", "the review line")
        assert "avoidable risk" in review_line(app)


async def test_the_box_names_the_click_that_lost() -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("space")
        board = app.game.board
        assert board is not None
        mine = next((x, y) for y in range(9) for x in range(9) if board.is_mine(x, y))
        await click_cell(pilot, *mine)
        assert app.game.status == "lost"
        await wait_until(pilot, lambda: review_line(app) != "", "the review line")
        assert review_line(app).startswith("Lost on ")
