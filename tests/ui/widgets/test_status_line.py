"""The status line never cuts a word: hints drop whole entries, the progress or end message
whole words, and the end message wins the room."""

from __future__ import annotations

import pytest

from tests.helpers import Play
from textmines.ui.drawing.line import fit_entries, fit_words
from textmines.ui.widgets.status import StatusLine


def test_fit_words_drops_whole_words() -> None:
    assert fit_words("Cleared in 12.3 s - 3BV 17", 40) == "Cleared in 12.3 s - 3BV 17"
    assert fit_words("Cleared in 12.3 s - 3BV 17", 17) == "Cleared in 12.3 …"
    assert fit_words("Cleared in 12.3 s - 3BV 17", 16) == "Cleared in …"
    assert fit_words("Cleared", 3) == ""


def test_fit_entries_keeps_whole_entries() -> None:
    assert fit_entries(["Space open", "F flag", "N new"], 17) == "Space open"
    assert fit_entries(["Space open", "F flag", "N new"], 19) == "Space open · F flag"
    assert fit_entries(["Space open"], 5) == ""


def words_of(text: str) -> set[str]:
    return set(text.replace("·", " ").replace("…", " ").split())


@pytest.mark.parametrize("width", [80, 100, 120])
async def test_at_80_columns_and_up_no_word_is_cut(width: int, play: Play) -> None:
    app, pilot = await play(width=100, height=100, mines=1000, size=(width, 30))
    await pilot.press("space")
    await pilot.pause()
    status = app.query_one(StatusLine)
    row = status.render_line(0).text
    whole = words_of(" ".join(status.hints)) | words_of(status.text) | {"[Assisted]"}
    assert words_of(row) <= whole, row
    assert status.text in row, "progress wins over the hints"
    status.show("Cleared in 1234.5 s - 3BV 4321 - 3.5 3BV/s - new best time! (was 1300.0 s)", "won")
    await pilot.pause()
    row = status.render_line(0).text
    assert "new best time!" in row, "the end message wins the room"
    assert words_of(row) <= whole | words_of(status.text), row


async def test_once_the_game_is_over_the_hints_offer_what_comes_next(play: Play) -> None:
    from tests.helpers import win_by_clicks

    app, pilot = await play(size=(100, 35))
    assert app.status_line.hints[0] == "Space open"
    await win_by_clicks(pilot)
    assert app.status_line.hints[:3] == ("n new", "r restart", "w replay")
    await pilot.press("escape", "n")
    assert app.status_line.hints[0] == "Space open"


async def test_progress_says_100_percent_only_when_cleared(play: Play) -> None:
    from textmines.ui.widgets.status import StatusLine

    app, pilot = await play(width=100, height=100, mines=1000, size=(100, 30))
    await pilot.press("space")
    game = app.game
    board = game.board
    assert board is not None
    safe = [(x, y) for y in range(100) for x in range(100) if not board.is_mine(x, y)]
    # Zeros first (they flood), then numbers one at a time down to five.
    for x, y in sorted(safe, key=lambda cell: board.number(*cell) != 0):
        if game.cell(x, y) == "#" and game.safe_left > 6:
            game.reveal(x, y)
    app.board.move_cursor(*next(cell for cell in safe if game.cell(*cell) == "#"))
    await pilot.press("space")  # a number: five safe cells left
    await pilot.pause()
    assert game.safe_left == 5
    assert app.query_one(StatusLine).text == "5 safe left · 99% cleared"


async def test_the_status_line_names_no_guess_autoplay_and_assisted(play: Play) -> None:
    from textmines.ui.widgets.status import StatusLine

    app, pilot = await play(no_guess=True, size=(120, 30))
    status = app.query_one(StatusLine)
    assert status.modes == ("No-guess",)
    await pilot.press("a")
    await pilot.pause()
    assert status.modes == ("No-guess", "Autoplay 0.25 s", "Assisted")
    await pilot.press("greater_than_sign")
    assert status.modes[1] == "Autoplay 0.1 s"
    assert "[Autoplay 0.1 s]" in status.render_line(0).text
    await pilot.press("a")
    await pilot.pause()
    assert status.modes == ("No-guess", "Assisted")
