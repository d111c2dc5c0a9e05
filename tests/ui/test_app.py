"""The playable game, driven with the Pilot: keys, mouse, menus, dialogs, pause, resize."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.console import Console
from textual.command import CommandList
from textual.widgets import Input, Static

from tests.helpers import (
    FakeClock,
    Play,
    cell_offset,
    clear_all_but_one,
    click_cell,
    face_span,
    new_stats,
    read_together,
    wait_until,
    win_by_clicks,
)
from textmines.config import GameConfig
from textmines.engine import ActionKind, Game
from textmines.store.settings import load_settings
from textmines.ui.app import TextminesApp
from textmines.ui.board.board_view import BoardView
from textmines.ui.menu.menu_bar import MenuBar
from textmines.ui.menu.menu_screen import MenuScreen
from textmines.ui.screens.custom import CustomBoardScreen
from textmines.ui.screens.info import InfoScreen
from textmines.ui.widgets.header import GameHeader
from textmines.ui.widgets.status import StatusLine

# Seed 1, first click at the centre (4, 4) of a Beginner board gives this layout and view:
#   ..*......   ###101###
#   *.....*.*   #31101###
#   *........   #20001121
#   .........   #21000000
#   .*.......   ##1000000
#   .........   ##1000000
#   .........   ##1000011
#   .*......*   ##222101#
#   ...**....   #####101#


def progress(app: TextminesApp) -> str:
    """The progress or end message, checked to be on screen in full."""
    status = app.query_one(StatusLine)
    assert status.render_line(0).text.rstrip().endswith(status.text)
    return status.text


def counter(app: TextminesApp) -> str:
    """The mine counter's digits (drawn as LED digits or as text: see test_led.py)."""
    return app.query_one(GameHeader).counter_text


def timer(app: TextminesApp) -> str:
    return app.query_one(GameHeader).timer_text


def face(app: TextminesApp) -> str:
    return app.query_one(GameHeader).face


async def test_keyboard_moves_the_cursor(play: Play) -> None:
    app, pilot = await play()
    board = app.query_one(BoardView)
    assert board.cursor == (4, 4)
    await pilot.press("left", "up", "h", "k")
    assert board.cursor == (2, 2)
    await pilot.press("right", "l", "down", "j")
    assert board.cursor == (4, 4)
    await pilot.press("shift+right")
    assert board.cursor == (8, 4)  # clamped at the edge
    await pilot.press("H", "K")
    assert board.cursor == (3, 0)
    await pilot.press("J", "shift+down", "shift+left")
    assert board.cursor == (0, 8)
    await pilot.press("end")
    assert board.cursor == (8, 8)
    await pilot.press("home")
    assert board.cursor == (0, 8)


async def test_space_reveals_enter_chords_f_and_plus_mark(play: Play) -> None:
    app, pilot = await play()
    await pilot.press("space")
    assert app.game.status == "playing"
    assert app.game.view_text().splitlines()[4] == "##1000000"
    assert "17 safe left" in progress(app)
    # Flag the mine at (1, 4) next to the 1 at (2, 4), then chord that 1 with Enter.
    await pilot.press("left", "left", "left", "f")
    assert app.game.cell(1, 4) == "F"
    assert counter(app) == "009"
    await pilot.press("right", "enter")
    assert app.game.cell(1, 3) == "2" and app.game.cell(1, 5) == "1"
    await pilot.press("left", "plus", "plus")
    assert app.game.cell(1, 4) == "#"  # flag -> ? -> covered


@pytest.mark.slow
async def test_the_boards_keys_go_to_a_dialog_or_menu_over_it(play: Play) -> None:
    """The board's keys take effect as they arrive (priority bindings), but only while the
    board's screen is on top: over it, a menu or a dialog gets them."""
    app, pilot = await play()
    board = app.query_one(BoardView)
    await pilot.press("f10")
    menu = app.screen
    assert menu is not board.screen
    await pilot.press("down", "f", "plus", "right", "left")
    assert app.screen is menu, "the menu still open: no key reached the board"
    await pilot.press("escape", "f1")
    await pilot.press("space", "f", "left", "up")
    assert app.screen is not board.screen, "help still shown"
    await pilot.press("escape")
    assert app.screen is board.screen
    assert board.cursor == (4, 4) and app.game.status == "ready"
    assert app.game.view_text().count("#") == 81, "no cell revealed or flagged"
    await pilot.press("left", "space")
    assert board.cursor == (3, 4) and app.game.status == "playing"


async def test_mouse_left_reveals_on_release_and_shows_the_pressed_face(play: Play) -> None:
    app, pilot = await play()
    board = app.query_one(BoardView)
    from tests.helpers import cell_offset

    await pilot.mouse_down(BoardView, cell_offset(board, 4, 4))
    await pilot.pause()
    assert face(app) == "pressed"
    assert app.game.status == "ready"  # nothing happens before the release
    await pilot.mouse_up(BoardView, cell_offset(board, 4, 4))
    await pilot.pause()
    assert face(app) == "normal"
    assert app.game.status == "playing" and app.game.cell(4, 4) == "0"
    assert board.cursor == (4, 4)


async def test_mouse_right_ctrl_middle_double_click(play: Play) -> None:
    app, pilot = await play()
    await click_cell(pilot, 4, 4)
    await click_cell(pilot, 1, 4, button=3)
    assert app.game.cell(1, 4) == "F"
    await click_cell(pilot, 1, 4, control=True)
    assert app.game.cell(1, 4) == "?"
    await click_cell(pilot, 1, 4, button=3)
    await click_cell(pilot, 1, 4, button=3)
    assert app.game.cell(1, 4) == "F"
    await click_cell(pilot, 2, 4, button=2)  # middle click chords
    assert app.game.is_revealed(1, 5)


@pytest.mark.slow
async def test_left_click_on_a_number_chords_only_with_the_option(play: Play) -> None:
    app, pilot = await play(left_click_chords=False)
    await click_cell(pilot, 4, 4)
    await click_cell(pilot, 1, 4, button=3)
    await click_cell(pilot, 2, 4)
    assert not app.game.is_revealed(1, 5)  # option off: a single click does nothing
    await click_cell(pilot, 2, 4, times=2)
    assert app.game.is_revealed(1, 5)  # a double click chords
    await play.close()
    app, pilot = await play()
    await click_cell(pilot, 4, 4)
    await click_cell(pilot, 1, 4, button=3)
    await click_cell(pilot, 2, 4)
    assert app.game.is_revealed(1, 5)


async def test_smiley_starts_a_new_game(play: Play) -> None:
    app, pilot = await play()
    await pilot.press("space")
    old = app.game
    header = app.query_one(GameHeader)
    face_x = face_span(header)[0] + 1
    await pilot.click(GameHeader, offset=(face_x, 0))
    await pilot.pause()
    assert app.game is not old and app.game.status == "ready"
    assert counter(app) == "010"


@pytest.mark.slow
async def test_the_smiley_plays_again_from_the_game_over_box_in_one_click(play: Play) -> None:
    # Found by a player: with the box open, a click on the face only closed the box.
    from textmines.ui.screens.game_over import GameOverScreen

    app, pilot = await play()
    await pilot.press("space")
    await click_cell(pilot, *clear_all_but_one(app))
    await pilot.pause()
    assert isinstance(app.screen, GameOverScreen)
    old = app.game
    header = app.query_one(GameHeader)
    region = header.content_region
    await pilot.click(offset=(region.x + face_span(header)[0] + 1, region.y))
    await pilot.pause()
    assert not isinstance(app.screen, GameOverScreen)
    assert app.game is not old and app.game.status == "ready"


@pytest.mark.slow
async def test_won_game_and_the_board_ignores_clicks_after(play: Play) -> None:
    clock = FakeClock()
    app, pilot = await play(clock)
    await pilot.press("space")
    clock.advance(12.34)
    await click_cell(pilot, *clear_all_but_one(app))
    assert app.game.status == "won"
    assert face(app) == "won"
    assert progress(app).startswith("Cleared in 12.3 s - 3BV ")
    assert "3BV/s" in progress(app)
    assert counter(app) == "000"
    view = app.game.view_text()
    await pilot.press("escape")  # close the game-over box, keep looking at the board
    await click_cell(pilot, 2, 0, button=3)
    await click_cell(pilot, 2, 0)
    assert app.game.view_text() == view


@pytest.mark.slow
async def test_a_won_games_figures_are_worked_out_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, play: Play
) -> None:
    # Its record, the status line and the game-over box all read them: they come with the
    # session's EndResult (they were worked out three times).
    import textmines.engine.metrics
    import textmines.records
    from textmines.engine.metrics import GameMetrics, game_metrics

    calls: list[Game] = []

    def counted(game: Game) -> GameMetrics:
        calls.append(game)
        return game_metrics(game)

    # The session and the game flow import it where they use it (not at start): from its module.
    for module in (textmines.engine.metrics, textmines.records):
        monkeypatch.setattr(module, "game_metrics", counted)
    app, pilot = await play(stats=new_stats(tmp_path), size=(100, 35))
    await pilot.press("space")
    await win_by_clicks(pilot)
    await pilot.pause()
    assert app.game.status == "won"
    assert any(name == "3BV/s" for name, _ in app.screen.figures)  # the game-over box
    assert "3BV/s" in progress(app)
    await play.close()
    assert calls == [app.game]


@pytest.mark.slow
async def test_lost_game_shows_the_board_and_the_message(play: Play) -> None:
    app, pilot = await play()
    await pilot.press("space")
    await click_cell(pilot, 2, 0)  # a mine
    assert app.game.status == "lost" and face(app) == "lost"
    assert progress(app) == "Boom - 76% cleared"
    assert app.game.cell(2, 0) == "X" and app.game.cell(0, 1) == "*"
    await pilot.press("space")
    assert app.game.status == "lost"


async def test_new_game_and_preset_keys(play: Play) -> None:
    app, pilot = await play()
    await pilot.press("3")
    assert (app.game.width, app.game.height, app.game.mines) == (30, 16, 99)
    await pilot.press("2")
    assert (app.game.width, app.game.height, app.game.mines) == (16, 16, 40)
    await pilot.press("space")
    old = app.game
    await pilot.press("n")
    assert app.game is not old and app.game.mines == 40
    old = app.game
    await pilot.press("f2")
    assert app.game is not old
    await pilot.press("1")
    assert app.config.label == "Beginner 9x9/10"


async def test_pause_hides_the_board_and_stops_the_clock(play: Play) -> None:
    clock = FakeClock()
    app, pilot = await play(clock)
    await pilot.press("space")
    clock.advance(3)
    await pilot.press("p")
    assert (
        not app.query_one(BoardView).display
        or not app.query_one(BoardView).visible
        or (app.query_one(BoardView).region.area == 0)
    )
    assert app.query_one("#paused").region.area > 0
    clock.advance(100)
    await pilot.pause()
    assert app.game.elapsed_ms == 3000
    assert timer(app) == "004", "as in Windows: 1 at the first click, 3 s later 4"
    await pilot.press("space")  # the board is hidden: keys do not play
    assert app.game.safe_left == 17
    await pilot.press("p")
    assert app.query_one(BoardView).region.area > 0
    clock.advance(1)
    assert app.game.elapsed_ms == 4000


async def test_losing_focus_pauses(play: Play) -> None:
    app, pilot = await play()
    await pilot.press("space")
    app.post_message(__import__("textual.events", fromlist=["AppBlur"]).AppBlur())
    await pilot.pause()
    assert app.game.clock.paused


@pytest.mark.slow
async def test_help_lists_every_binding(play: Play) -> None:
    app, pilot = await play(size=(100, 50))
    await pilot.press("f1")
    assert isinstance(app.screen, InfoScreen)
    console = Console(record=True, width=100)
    console.print(app.screen.body)
    text = console.export_text()
    for expected in (
        "Space / Enter",
        "Reveal / chord",
        "f / +",
        "F2 / n",
        "Pause",
        "Right click",
        "Hint",
    ):
        assert expected in text
    assert "> " in text and "Autoplay faster" in text
    assert "_SIGN" not in text  # key names read as the keys
    await pilot.press("escape")
    assert not isinstance(app.screen, InfoScreen)
    await pilot.press("question_mark")
    assert isinstance(app.screen, InfoScreen)


@pytest.mark.slow
async def test_custom_dialog_validates_live(play: Play) -> None:
    app, pilot = await play(size=(80, 30))
    await pilot.press("c")
    dialog = app.screen
    assert isinstance(dialog, CustomBoardScreen)
    message = dialog.query_one("#message", Static)
    assert "mines 1-72 on 9x9" in str(message.render())
    dialog.query_one("#width", Input).value = "40"
    dialog.query_one("#height", Input).value = "20"
    await pilot.pause()
    assert "mines 1-791 on 40x20" in str(message.render())
    dialog.query_one("#mines", Input).value = "900"
    await pilot.pause()
    assert "between 1 and 791" in str(message.render())
    assert dialog.query_one("#ok").disabled
    await pilot.click("#ok")
    assert app.screen is dialog
    dialog.query_one("#mines", Input).value = "150"
    await pilot.pause()
    await pilot.click("#ok")
    await pilot.pause()
    assert (app.game.width, app.game.height, app.game.mines) == (40, 20, 150)
    assert app.config.label == "Custom 40x20/150"
    await pilot.press("c", "escape")
    assert app.game.mines == 150


@pytest.mark.slow
async def test_menus_by_keyboard_and_mouse(play: Play) -> None:
    app, pilot = await play(size=(80, 30))
    await pilot.press("f10", "down", "down", "down", "down", "enter")  # Game > Intermediate
    await pilot.pause()
    assert app.game.mines == 40
    bar = app.query_one(MenuBar)
    await pilot.click(MenuBar, (bar.title_x(1) + 1, 0))  # Options
    await pilot.pause()
    await pilot.press("enter")  # Question marks
    await pilot.pause()
    assert app.config.question_marks is False and app.game.question_marks is False


@pytest.mark.slow
async def test_command_palette_offers_the_menu_actions(play: Play) -> None:
    app, pilot = await play(size=(80, 30))
    titles = [command.title for command in app.get_system_commands(app.screen)]
    for title in (
        "New game",
        "Expert",
        "Custom...",
        "Statistics",
        "Question marks",
        "Controls",
    ):
        assert title in titles
    await pilot.press("ctrl+p")
    await pilot.pause()
    await pilot.press(*"expert")
    hits = app.screen.query_one(CommandList)
    await wait_until(pilot, lambda: hits.option_count > 0, "the palette's matches")
    await pilot.press("enter")
    await wait_until(pilot, lambda: app.game.mines == 99, "an Expert game")


@pytest.mark.slow
async def test_enter_pressed_twice_in_the_palette_runs_its_command_once(play: Play) -> None:
    # Found by a player: Ctrl+P then Enter Enter within a frame ended textmines (Textual's
    # palette closed twice: ScreenStackError); slower, the command's dialog opened twice.
    from textual import events

    app, pilot = await play(size=(80, 30))
    await pilot.press("ctrl+p")
    hits = app.screen.query_one(CommandList)
    await wait_until(pilot, lambda: hits.option_count > 0, "the palette's commands")
    for _ in range(3):  # in one frame: queued before the palette handles the first
        app.post_message(events.Key("enter", "\r"))
    await wait_until(pilot, lambda: isinstance(app.screen, InfoScreen), "a dialog")
    await pilot.pause(0.2)
    assert [type(screen).__name__ for screen in app.screen_stack[1:]] == ["InfoScreen"]
    await pilot.press("escape")
    await pilot.pause()
    assert app.is_running and len(app.screen_stack) == 1


@pytest.mark.slow
async def test_the_palette_opens_over_the_game_only(play: Play) -> None:
    # Found by a player: Ctrl+P over the keys screen (waiting for a key), then "Expert",
    # changed the board under the dialog.
    app, pilot = await play(size=(80, 30))
    await pilot.press("f1")
    await pilot.pause()
    dialog = app.screen
    assert len(app.screen_stack) == 2
    await pilot.press("ctrl+p")
    await pilot.pause()
    assert app.screen is dialog


async def test_resize_down_to_40x12_and_back(play: Play) -> None:
    app, pilot = await play(width=30, height=16, mines=99, size=(120, 40))
    await pilot.press("space")
    await pilot.resize_terminal(40, 12)
    await pilot.pause()
    board = app.query_one(BoardView)
    assert board.region.area > 0 and board.region.right <= 40
    await pilot.press("end", "right")
    await pilot.pause()
    assert board.cursor[0] == 29
    assert not app.screen.has_class("-too-small")
    await pilot.resize_terminal(20, 6)
    await pilot.pause()
    assert app.screen.has_class("-too-small")
    assert app.query_one("#too-small").region.area > 0
    await pilot.press("left")  # the board is out of sight: its keys do nothing
    assert board.cursor[0] == 29
    await pilot.resize_terminal(120, 40)
    await pilot.pause()
    assert not app.screen.has_class("-too-small") and board.region.area > 0
    assert app.query_one(GameHeader).region.area > 0
    # Back in sight, the board has the keys again (it had lost its focus for good).
    await pilot.press("left")
    assert board.cursor[0] == 28


async def test_big_board_scrolls_to_keep_the_cursor_in_view(play: Play) -> None:
    app, pilot = await play(width=200, height=200, mines=4000, size=(80, 24))
    board = app.query_one(BoardView)
    await pilot.press("home")
    await pilot.pause()
    assert board.scroll_offset.x == 0
    for _ in range(10):
        await pilot.press("shift+down")
    await pilot.pause()
    y = board.cursor[1]
    assert y == 150
    assert (
        board.scroll_offset.y <= y < board.scroll_offset.y + board.scrollable_content_region.height
    )


async def test_quit_key_saves_the_game_and_leaves(tmp_path: Path, play: Play) -> None:
    save = tmp_path / "saved-game.json"
    app, pilot = await play(save_path=save)
    await pilot.press("space")
    assert app.return_code is None  # still running
    await pilot.press("q")
    await pilot.pause()
    assert app.return_code == 0, "q ends the app"
    await play.close()
    assert save.exists()


async def test_options_persist_in_settings_toml(tmp_path: Path, play: Play) -> None:
    path = tmp_path / "config" / "settings.toml"
    app = TextminesApp(GameConfig(seed=1), clock=FakeClock(), settings_path=path)
    pilot = await play.run(app, size=(80, 30))
    await pilot.press("3")
    await pilot.pause()
    settings, warnings = load_settings(path)
    assert settings.board == "expert" and not warnings
    await app.game_screen.run_action("toggle_question_marks")
    await app.game_screen.run_action("first_click('safe')")
    await app.game_screen.run_action("toggle_left_click_chords")
    await pilot.pause()
    await play.close()
    settings, _ = load_settings(path)
    assert (settings.question_marks, settings.first_click, settings.left_click_chords) == (
        False,
        "safe",
        False,
    )


async def test_settings_that_cannot_be_written_are_reported(tmp_path: Path, play: Play) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    app = TextminesApp(GameConfig(seed=1), clock=FakeClock(), settings_path=blocker / "s.toml")
    pilot = await play.run(app, size=(80, 30))
    await pilot.press("2")
    await pilot.pause()
    assert app.game.mines == 40  # the game goes on
    messages = [n.message for n in app.toasts]
    assert any("Settings not saved to" in m for m in messages)


async def test_settings_warnings_are_shown_at_start(play: Play) -> None:
    app = TextminesApp(GameConfig(seed=1), clock=FakeClock(), warnings=["settings.toml: key [x]"])
    pilot = await play.run(app, size=(80, 30))
    await pilot.pause()
    assert [n.message for n in app.toasts] == ["settings.toml: key [x]"]


async def test_menu_drop_down_opens_under_its_title_in_the_game(play: Play) -> None:
    app, pilot = await play(size=(80, 24))
    await pilot.press("f10")
    screen = app.screen
    assert isinstance(screen, MenuScreen)
    assert screen.dropdown.region.x == 0 and screen.dropdown.region.y == 1
    await pilot.press("right")
    assert screen.dropdown.region.x == app.query_one(MenuBar).title_x(1)


async def test_swapped_mouse_buttons_reveal_with_right_and_flag_with_left(
    tmp_path: Path, play: Play
) -> None:
    settings_file = tmp_path / "settings.toml"
    app = TextminesApp(GameConfig(seed=1), clock=FakeClock(), settings_path=settings_file)
    pilot = await play.run(app)
    await app.game_screen.run_action("toggle_swap_mouse_buttons")
    await click_cell(pilot, 4, 4, button=3)  # right reveals (on release, as left did)
    assert app.game.status == "playing" and app.game.cell(4, 4) != "#"
    x, y = next((x, y) for y in range(9) for x in range(9) if app.game.cell(x, y) == "#")
    await click_cell(pilot, x, y)  # left flags
    assert app.game.cell(x, y) == "F"
    await play.close()
    assert load_settings(settings_file)[0].swap_mouse_buttons
    again = TextminesApp(
        GameConfig(seed=1), clock=FakeClock(), settings=load_settings(settings_file)[0]
    )
    pilot = await play.run(again)
    await click_cell(pilot, 4, 4)  # still swapped: left flags the first cell
    assert again.game.cell(4, 4) == "F"


async def test_the_cursor_and_the_pointer_are_recorded_between_moves(play: Play) -> None:
    app, pilot = await play(width=9, height=9, mines=10, size=(100, 32))
    await pilot.press("space")  # the first reveal, in the middle: the clock starts
    await pilot.press("left", "left", "up")
    board = app.board
    await pilot.hover(board, offset=cell_offset(board, 7, 1))
    await pilot.hover(board, offset=cell_offset(board, 7, 1))  # the same cell: once
    cursor = [(a.x, a.y) for a in app.game.actions if a.kind == ActionKind.CURSOR]
    assert cursor == [(3, 4), (2, 4), (2, 3), (7, 1)]


async def test_the_app_keeps_textuals_own_watch(play: Play) -> None:
    """Textual's ``watch`` (one node following another's reactive) works on the app: the
    replay viewer is opened by ``view_replay``, which does not shadow it."""
    app, pilot = await play()
    seen: list[str] = []

    def followed(title: str) -> None:
        seen.append(title)

    app.watch(app, "sub_title", followed, init=False)
    app.sub_title = "followed"
    await pilot.pause()
    assert seen == ["followed"]


@pytest.mark.slow
async def test_a_message_shows_once_when_a_dialog_opens_over_the_game(play: Play) -> None:
    # Issue 34.17: a toast showed twice, dimmed on the game behind the dialog and again on
    # top of it, covering the dialog's buttons.
    from textual.widgets._toast import Toast

    app, pilot = await play(size=(100, 30), notifications=True)
    game_screen = app.screen
    app.notify("Something to read", timeout=30)
    await wait_until(pilot, lambda: len(game_screen.query(Toast)) == 1, "the toast")
    await pilot.press("f1")
    await wait_until(pilot, lambda: len(app.screen.query(Toast)) == 1, "the toast on top")
    assert app.screen is not game_screen and not game_screen.query(Toast)
    await pilot.press("escape")
    await wait_until(pilot, lambda: len(game_screen.query(Toast)) == 1, "the toast back")
    assert app.screen is game_screen


async def test_a_zoom_message_goes_when_a_resize_changes_the_fit(play: Play) -> None:
    # Issue 34.22: "Zoom: cells 2x1 (fit)" stayed on screen after a resize had changed the
    # cells to another size.
    from textual.widgets._toast import Toast

    app, pilot = await play(size=(80, 24), notifications=True)
    await pilot.press("equals_sign")

    def zoom_toasts() -> list[str]:
        return [
            str(toast.render())
            for toast in app.screen.query(Toast)
            if "Zoom" in str(toast.render())
        ]

    await wait_until(pilot, lambda: len(zoom_toasts()) == 1, "the zoom message")
    before = app.board.tile
    await pilot.resize_terminal(200, 60)
    await wait_until(pilot, lambda: app.board.tile != before, "the new fit")
    # At once, not when its two seconds are up.
    await wait_until(pilot, lambda: not zoom_toasts(), "the stale message to go", 1.0)


@pytest.mark.parametrize(
    ("name", "opened"), [("statistics", "StatisticsScreen"), ("controls", "InfoScreen")]
)
async def test_ctrl_p_a_command_and_enter_typed_together_run_that_command(
    play: Play, monkeypatch: pytest.MonkeyPatch, name: str, opened: str
) -> None:
    # Known since session 42: the Enter came while the palette still searched for the text
    # before it, and chose among the matches of a part of it (Ctrl+P "statistics" Enter
    # opened the help), or ran nothing. Searches slowed down here, as on a busy machine.
    import asyncio
    from collections.abc import AsyncIterator

    from textual import events
    from textual.command import Hit, Provider

    search = Provider._search

    async def slow_search(provider: Provider, query: str) -> AsyncIterator[Hit]:
        await asyncio.sleep(0.05)
        async for hit in search(provider, query):
            yield hit

    monkeypatch.setattr(Provider, "_search", slow_search)
    app, pilot = await play(size=(80, 30))
    app.post_message(events.Key("ctrl+p", None))
    read_together(app, *name, "enter")
    await wait_until(
        pilot, lambda: type(app.screen).__name__ == opened, f"the command's dialog ({opened})"
    )
    await pilot.pause(0.2)
    assert [type(screen).__name__ for screen in app.screen_stack[1:]] == [opened]
