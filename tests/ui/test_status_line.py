"""The status line never cuts a word: hints drop whole entries, the progress or end message
whole words, and the end message wins the room."""

from __future__ import annotations

import pytest

from tests.helpers import make_app
from textmines.ui.line import fit_entries, fit_words
from textmines.ui.status import StatusLine


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
async def test_at_80_columns_and_up_no_word_is_cut(width: int) -> None:
    app = make_app(width=100, height=100, mines=1000)
    async with app.run_test(size=(width, 30)) as pilot:
        await pilot.press("space")
        await pilot.pause()
        status = app.query_one(StatusLine)
        row = status.render_line(0).text
        whole = words_of(" ".join(status.hints)) | words_of(status.text) | {"[Assisted]"}
        assert words_of(row) <= whole, row
        assert status.text in row, "progress wins over the hints"
        status.show(
            "Cleared in 1234.5 s - 3BV 4321 - 3.5 3BV/s - new best time! (was 1300.0 s)", "won"
        )
        await pilot.pause()
        row = status.render_line(0).text
        assert "new best time!" in row, "the end message wins the room"
        assert words_of(row) <= whole | words_of(status.text), row


async def test_once_the_game_is_over_the_hints_offer_what_comes_next() -> None:
    from tests.helpers import make_app, win_by_clicks

    app = make_app()
    async with app.run_test(size=(100, 35)) as pilot:
        assert app.status_line.hints[0] == "Space open"
        await win_by_clicks(pilot)
        assert app.status_line.hints[:3] == ("n new", "r restart", "w replay")
        await pilot.press("escape", "n")
        assert app.status_line.hints[0] == "Space open"
