"""Game > Play a board ID... with IDs made to break it: each is a message in the dialog, and
the game goes on (issue 34, items 1 and 12). The ordinary dialog is in test_board_ids.py."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Static

from tests.helpers import Play, wait_until
from textmines.engine import board_id
from textmines.engine.board_id import parse_board_id
from textmines.ui.screens.board_id import PlayBoardIdScreen

SHARED = "9x9-10-o4.4-1ef8z1e8y1s"
#: 300,000 characters of mines behind a check that matches: decoding them froze the dialog.
HUGE_CODE = "z" * 300_000
HUGE = f"9x9-10-o4.4-{HUGE_CODE}{board_id._check('9x9-10-o4.4' + HUGE_CODE)}"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("\u0661x9-10-o4.4-1ef8z1e8y1s", "is not a board ID (they look like"),  # Arabic-Indic 1
        ("\uff10x9-10-o4.4-1ef8z1e8y1s", "is not a board ID (they look like"),  # full-width 0
        ("9" * 5000 + "x9-10-o4.4-1ef8z1e8y1s", "(5,022 characters) is not a board ID (too long"),
        (HUGE, "(300,014 characters) is not a board ID (too long: at most 522 characters)"),
    ],
    ids=["arabic-indic digit", "full-width digit", "5000-digit number", "300000-character code"],
)
async def test_a_hostile_id_is_a_message_and_the_game_goes_on(
    text: str, said: str, play: Play
) -> None:
    app, pilot = await play(size=(100, 30))
    await app.game_screen.run_action("play_board_id")
    await wait_until(
        pilot,
        lambda: isinstance(app.screen, PlayBoardIdScreen) and app.screen.query(Input),
        "the dialog and its field",
    )
    dialog = app.screen
    dialog.query_one(Input).value = text
    await pilot.press("enter")
    message = dialog.query_one("#message", Static)
    await wait_until(pilot, lambda: said in str(message.render()), f"the message {said!r}")
    assert app.screen is dialog and message.has_class("-error")
    # Still playable: the same dialog takes a good ID.
    dialog.query_one(Input).value = SHARED
    await pilot.press("enter")
    await wait_until(pilot, lambda: app.screen is not dialog, "the dialog to close")
    assert app.game.board == parse_board_id(SHARED).board
