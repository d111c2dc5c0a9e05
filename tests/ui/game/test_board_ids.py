"""Board IDs in the app: Game > Board info shows and copies the ID, Game > Play a board ID...
and textmines --game play one; IDs made to break the dialog are a message in it."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input, Static

from tests.helpers import FakeClock, Play, click_cell, wait_until
from textmines.engine import Game, board_id
from textmines.engine.board_id import board_id_of, parse_board_id
from textmines.store.saves import load_game, save_game
from textmines.ui.screens.board_id import BoardInfoScreen, PlayBoardIdScreen
from textmines.ui.widgets.header import GameHeader

SHARED = "9x9-10-o4.4-1ef8z1e8y1s"


async def test_board_info_shows_the_id_and_c_copies_it(play: Play) -> None:
    app, pilot = await play(size=(100, 30))
    await pilot.press("space")
    await pilot.press("b")
    screen = app.screen
    assert isinstance(screen, BoardInfoScreen)
    text = board_id_of(app.game)
    assert text is not None and text in str(screen.query_one("#board-id", Static).render())
    await pilot.press("c")
    assert app.clipboard == text
    await pilot.press("escape")
    assert not isinstance(app.screen, BoardInfoScreen)


async def test_play_a_board_id_says_what_is_wrong_then_plays_it(play: Play) -> None:
    clock = FakeClock()
    app, pilot = await play(clock, size=(100, 30))
    await app.game_screen.run_action("play_board_id")
    await pilot.pause()
    dialog = app.screen
    assert isinstance(dialog, PlayBoardIdScreen)
    dialog.query_one(Input).value = SHARED[:-1] + "x"
    await pilot.press("enter")
    assert "check does not match" in str(dialog.query_one("#message", Static).render())
    dialog.query_one(Input).value = SHARED
    await pilot.press("enter")
    await pilot.pause()
    assert app.screen is not dialog
    assert app.game.board == parse_board_id(SHARED).board
    assert app.game.is_revealed(4, 4), "the first click is made"
    clock.advance(10)
    await pilot.pause()
    assert app.game.elapsed_ms == 0, "the clock waits for the player's first move"


async def test_an_app_started_with_an_id_plays_it(play: Play) -> None:
    app, pilot = await play(board_id=parse_board_id(SHARED), size=(100, 30))
    assert app.game.board == parse_board_id(SHARED).board
    assert (app.config.width, app.config.height, app.config.mines) == (9, 9, 10)
    # The first click was made for the player: the timer waits for theirs, at 000.
    header = app.query_one(GameHeader)
    assert header.seconds == 0
    x, y = next((x, y) for x in range(9) for y in range(9) if app.game.cell(x, y) == "#")
    await click_cell(pilot, x, y, button=3)  # a flag: the player's first move
    assert header.seconds == 1


@pytest.mark.slow
async def test_the_game_over_box_copies_the_board_id(play: Play) -> None:
    from tests.helpers import win_by_clicks

    app, pilot = await play(size=(100, 35))
    await win_by_clicks(pilot)
    await pilot.press("c")
    text = board_id_of(app.game)
    assert text is not None and app.clipboard == text
    assert any(text in n.message for n in app.toasts)


async def test_board_info_before_the_first_click_says_why_there_is_no_id(play: Play) -> None:
    from textual.widgets import Button

    app, pilot = await play(size=(100, 30))
    await pilot.press("b")
    screen = app.screen
    assert isinstance(screen, BoardInfoScreen)
    shown = str(screen.query_one("#board-id", Static).render())
    assert shown.startswith("none yet: the mines are placed at the first reveal")
    assert [button.id for button in screen.query(Button)] == ["close"]
    await pilot.press("c")
    message = str(screen.query_one("#message", Static).render())
    assert message == "Nothing to copy: this board has no ID." and app.clipboard == ""


@pytest.mark.slow
async def test_autoplay_plays_a_board_whose_first_click_was_made_for_you(play: Play) -> None:
    # Issue 34.13: the clock waits for the player's first move on a shared board, and
    # autoplay waited for that clock: `[Autoplay]` on the status line, and nothing moved.
    app, pilot = await play(board_id=parse_board_id(SHARED), size=(100, 30))
    await pilot.press(*["greater_than_sign"] * 4, "a")
    await wait_until(pilot, lambda: app.game.status.is_over, "the autoplay to end", 60)
    assert app.game.status == "won"


async def test_autoplay_from_the_start_plays_a_shared_board(play: Play) -> None:
    app, pilot = await play(board_id=parse_board_id(SHARED), autoplay=True, size=(100, 30))
    await wait_until(pilot, lambda: len(app.game.actions) > 1, "an autoplay move", 60)


@pytest.mark.slow
async def test_board_info_names_the_board_once_and_breaks_a_long_id_at_its_dashes(
    play: Play,
) -> None:
    # Issue 34.22: "Expert: 30x16, 99 mines" said the size twice over (with the ID), and at
    # 80 columns the ID wrapped anywhere: a copy of the two lines did not play.
    app, pilot = await play(width=30, height=16, mines=99, size=(80, 24))
    await pilot.press("space", "b")
    screen = app.screen
    assert isinstance(screen, BoardInfoScreen)
    text = board_id_of(app.game)
    assert text is not None and len(text) > 74  # wider than the dialog at 80 columns
    description = str(screen.query_one("#description", Static).render())
    assert description == "Expert 30x16/99, first click opening"
    shown = str(screen.query_one("#board-id", Static).render())
    head, code = shown.split("\n")
    assert head == text[: text.rindex("-") + 1] and head + code == text
    # What a terminal copies of the two lines still plays.
    assert parse_board_id(shown) == parse_board_id(text)
    await play.close()
    wide, pilot = await play(width=30, height=16, mines=99, size=(120, 30))
    await pilot.press("space", "b")
    assert str(wide.screen.query_one("#board-id", Static).render()) == text


@pytest.mark.parametrize("how", ["board ID", "resumed"])
async def test_a_dense_board_played_on_the_safe_rule_leaves_new_games_playable(
    tmp_path: Path, play: Play, how: str
) -> None:
    # Found by a review: a board ID of 79 mines on 9x9 (the safe rule deals it; the opening
    # rule, the player's, cannot) became the settings' board with the player's rule, and the
    # next new game ended textmines with an unexpected error (before, the start itself did).
    dense = Game(9, 9, 79, seed=1, first_click="safe")
    dense.reveal(4, 4)
    shared = parse_board_id(board_id_of(dense))
    if how == "board ID":
        app, pilot = await play(board_id=shared, size=(100, 30))
    else:
        save = tmp_path / "saved-game.json"
        assert save_game(save, dense) is None
        loaded, _ = load_game(save)
        app, pilot = await play(resumed=loaded, save_path=save, size=(100, 30))
    await pilot.press("n")
    await pilot.pause()
    assert app.is_running and app.game.status == "ready"
    assert (app.game.mines, app.game.first_click) == (79, "safe")


# Game > Play a board ID... with IDs made to break it: each is a message in the dialog, and
# the game goes on (issue 34, items 1 and 12).
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
