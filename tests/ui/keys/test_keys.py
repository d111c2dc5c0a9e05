"""Keys your way: the [keys] table and the presets in play, what a bad entry tells the player,
and Options > Keys... to see and change them."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from textual.pilot import Pilot

from tests.helpers import (
    Play,
    clear_all_but_one,
    click_cell,
    read_together,
    wait_until,
)
from textmines.store.settings import Settings, load_settings
from textmines.ui.game.player_keys import key_actions
from textmines.ui.keys.keymap import ENTRY_WARNINGS_SHOWN, KeyMap, resolve
from textmines.ui.menu.menu_screen import MenuScreen
from textmines.ui.screens.info import InfoScreen
from textmines.ui.screens.keys import KeysScreen, KeyTable
from textmines.ui.widgets.status import StatusLine


def cell(app: Any) -> str:
    """The view character of the cell under the cursor ("#" covered, "F" flagged)."""
    x, y = app.board.cursor
    return str(app.game.cell(x, y))


async def test_a_key_from_the_settings_does_the_action_and_the_old_one_stops(play: Play) -> None:
    app, pilot = await play(settings=Settings(keys=(("board.mark", "m"),)), size=(80, 24))
    await pilot.press("f")
    assert cell(app) == "#"
    await pilot.press("m")
    assert cell(app) == "F"


async def test_keys_read_together_run_in_the_order_they_were_typed(play: Play) -> None:
    app, pilot = await play(size=(80, 24))
    read_together(app, "2", "enter")
    await wait_until(pilot, lambda: app.game.width == 16, "the Intermediate board")
    await pilot.pause()
    # Enter opened a cell of the new board, not of the Beginner game it left.
    assert app.game.board is not None
    # F10 then Enter: the menu opens and Enter takes its first item, a new game; no cell of
    # the board under the menu opens.
    app, pilot = await play(size=(80, 24))
    first_game = app.game
    read_together(app, "f10", "enter")
    await wait_until(pilot, lambda: app.game is not first_game, "the menu's new game")
    assert app.game.board is None and first_game.board is None
    assert not isinstance(app.screen, MenuScreen)


@pytest.mark.parametrize(
    ("opens", "closes"),
    [("f1", "escape"), ("f1", "enter"), ("b", "q"), ("t", "t"), ("c", "escape"), ("f4", "q")],
)
async def test_a_key_read_with_the_one_closing_a_dialog_goes_to_the_game(
    opens: str, closes: str, play: Play
) -> None:
    app, pilot = await play(size=(80, 24))
    await pilot.press(opens)
    await wait_until(pilot, lambda: len(app.screen_stack) == 2, f"the dialog {opens} opens")
    read_together(app, closes, "f")
    await wait_until(pilot, lambda: app.game.mines_left == 9, "the flag typed after the close")
    assert len(app.screen_stack) == 1


async def test_a_key_read_with_the_one_closing_the_game_over_box_goes_to_the_new_game(
    play: Play,
) -> None:
    app, pilot = await play(size=(80, 24))
    await pilot.press("space")
    await click_cell(pilot, *clear_all_but_one(app))
    won = app.game
    await wait_until(pilot, lambda: app.screen.query("#new"), "the game-over box")
    read_together(app, "n", "space")
    await wait_until(
        pilot, lambda: app.game is not won and app.game.board is not None, "the new game's cell"
    )
    assert len(app.screen_stack) == 1 and not app.game.status.is_over


async def test_keys_read_with_the_pause_key_do_not_play_on_the_hidden_board(play: Play) -> None:
    app, pilot = await play(size=(80, 24))
    await pilot.press("space")
    start, view = app.board.cursor, app.game.view_text()
    read_together(app, "p", "j", "j", "space")
    await wait_until(pilot, lambda: app.flow.board_hidden, "the pause")
    await pilot.pause()
    assert (app.board.cursor, app.game.view_text()) == (start, view)
    await pilot.press("p", "j")  # back from the pause, the board takes keys again
    assert app.board.cursor == (start[0], start[1] + 1)


async def test_the_numpad_preset_moves_reveals_and_moves_the_board_sizes(play: Play) -> None:
    app, pilot = await play(settings=Settings(key_preset="numpad"), size=(80, 24))
    start = app.board.cursor
    await pilot.press("6", "2")
    assert app.board.cursor == (start[0] + 1, start[1] + 1)
    await pilot.press("0")
    assert cell(app) == "F"
    await pilot.press("3")  # five rows down, not the Expert board
    assert app.config.preset is not None and app.config.preset.key == "beginner"
    await pilot.press("f7")
    assert app.config.preset is not None and app.config.preset.key == "expert"


async def test_a_clash_names_the_file_and_entry_and_the_game_plays(
    tmp_path: Path, play: Play
) -> None:
    path = tmp_path / "settings.toml"
    app, pilot = await play(
        settings=Settings(keys=(("game.hint", "f"),)), settings_path=path, size=(100, 30)
    )
    messages = [notice.message for notice in app.toasts]
    assert any(
        f"{path}: [keys] game.hint = 'f': 'f' is already 'Flag / ?'" in message
        for message in messages
    ), messages
    await pilot.press("f")
    assert cell(app) == "F"


@pytest.mark.slow
async def test_the_game_over_box_takes_the_players_keys_for_what_comes_next(play: Play) -> None:
    from tests.helpers import win_by_clicks
    from textmines.ui.screens.game_over import GameOverScreen

    app, pilot = await play(
        settings=Settings(keys=(("game.new_game", "g"), ("game.restart", "ctrl+r"))), size=(100, 40)
    )
    await win_by_clicks(pilot)
    await pilot.pause()
    assert isinstance(app.screen, GameOverScreen)
    assert "g new" in app.query_one(StatusLine).hints
    await pilot.press("n")  # not the player's key any more
    assert isinstance(app.screen, GameOverScreen)
    await pilot.press("g")
    await pilot.pause()
    assert not isinstance(app.screen, GameOverScreen)
    assert not app.game.status.is_over and app.game.board is None, "a new game"


@pytest.mark.slow
async def test_help_menus_and_hints_show_the_players_keys(play: Play) -> None:
    app, pilot = await play(
        settings=Settings(keys=(("board.mark", "m"), ("game.hint", "ctrl+h"))), size=(100, 40)
    )
    assert "m flag" in app.query_one(StatusLine).hints
    hint_item = next(item for _, item in app.menu_bar.all_items() if item.label == "Hint")
    assert hint_item.key == "Ctrl+H"
    await pilot.press("f1")
    assert isinstance(app.screen, InfoScreen)
    console = Console(record=True, width=100)
    console.print(app.screen.body)
    text = console.export_text()
    assert "Ctrl+H" in text
    assert "f / +" not in text and "m " in text
    assert "Ctrl+P" in text and "Command palette" in text  # issue 34.22: it was missing


async def open_keys(app: Any, pilot: Any) -> KeysScreen:
    app.action_keys()
    await pilot.pause()
    assert isinstance(app.screen, KeysScreen)
    return app.screen


def select(screen: KeysScreen, action_id: str) -> None:
    table = screen.query_one(KeyTable)
    table.move_cursor(row=[action.id for action in screen.actions].index(action_id))


@pytest.mark.slow
async def test_keys_screen_changes_a_key_and_saves_it(tmp_path: Path, play: Play) -> None:
    path = tmp_path / "settings.toml"
    app, pilot = await play(settings_path=path, size=(100, 40))
    screen = await open_keys(app, pilot)
    select(screen, "board.mark")
    await pilot.press("enter", "f2")  # F2 is New game's
    assert "already 'New game'" in str(screen.query_one("#message").render())
    await pilot.press("m")
    await pilot.press("a", "x")  # a adds a key
    assert screen.keymap.keys_for("board.mark") == ("m", "x")
    await pilot.click("#save")
    await pilot.pause()
    assert not isinstance(app.screen, KeysScreen)
    assert tomllib.loads(path.read_text())["keys"] == {"board.mark": "m,x"}
    await pilot.press("x")
    assert cell(app) == "F"
    assert "m flag" in app.query_one(StatusLine).hints


async def test_keys_screen_enter_read_with_an_arrow_waits_for_the_key_of_its_own_row(
    play: Play,
) -> None:
    # Enter then Down typed fast: the key the screen waits for is the row Enter was on, not
    # the row Down went to before Enter was handled.
    app, pilot = await play(size=(100, 40))
    screen = await open_keys(app, pilot)
    select(screen, "game.new_game")
    row = screen.query_one(KeyTable).cursor_row
    read_together(app, "enter", "down")
    await wait_until(pilot, lambda: screen.capturing is not None, "the key to be waited for")
    assert screen.capturing == ("game.new_game", False)
    assert screen.query_one(KeyTable).cursor_row == row + 1


@pytest.mark.slow
async def test_keys_screen_escape_leaves_a_key_and_cancel_changes_nothing(
    tmp_path: Path, play: Play
) -> None:
    path = tmp_path / "settings.toml"
    app, pilot = await play(settings_path=path, size=(100, 40))
    screen = await open_keys(app, pilot)
    select(screen, "game.pause")
    await pilot.press("enter", "escape")
    assert screen.keymap.keys_for("game.pause") == ("p",)
    assert isinstance(app.screen, KeysScreen), "Esc while waiting only stops waiting"
    await pilot.press("enter", "n")  # taken: nothing changes
    await pilot.press("escape", "escape")
    assert not isinstance(app.screen, KeysScreen)
    assert not path.exists()
    assert app.keys.keymap.keys_for("game.pause") == ("p",)


@pytest.mark.slow
async def test_keys_screen_presets_and_delete_go_back_to_the_presets_keys(
    tmp_path: Path,
    play: Play,
) -> None:
    path = tmp_path / "settings.toml"
    app, pilot = await play(
        settings=Settings(keys=(("game.hint", "z"),)), settings_path=path, size=(100, 40)
    )
    screen = await open_keys(app, pilot)
    assert screen.entries == {"game.hint": ("z",)}
    select(screen, "game.hint")
    await pilot.press("delete")
    assert screen.keymap.keys_for("game.hint") == ("i",)
    await pilot.click("#preset-left-handed")
    assert screen.keymap.keys_for("board.up") == ("i", "up")
    assert screen.keymap.keys_for("game.hint") == ("h",)
    await pilot.click("#save")
    await pilot.pause()
    saved = tomllib.loads(path.read_text())
    assert saved["key_preset"] == "left-handed" and "keys" not in saved
    start = app.board.cursor
    await pilot.press("l")
    assert app.board.cursor == (start[0] + 1, start[1])


@pytest.mark.slow
@pytest.mark.parametrize("size", [(80, 24), (120, 40), (100, 60)])
async def test_keys_screen_fits_between_the_menu_bar_and_the_status_line(
    size: tuple[int, int],
    play: Play,
) -> None:
    app, pilot = await play(size=size)
    await pilot.press("alt+o", "end", "enter")
    await pilot.pause()
    assert isinstance(app.screen, KeysScreen)
    box = app.screen.query_one("KeysScreen > Vertical").region
    assert box.y >= 1 and box.bottom <= size[1] - 1, "the menu bar and status line show"
    for selector in ("KeyTable", "#save", "#cancel", "#preset-left-handed"):
        region = app.screen.query_one(selector).region
        assert region.right <= size[0] and region.bottom <= box.bottom, selector


@pytest.mark.slow
async def test_keys_screen_esc_with_changes_asks_before_leaving_them(
    tmp_path: Path, play: Play
) -> None:
    path = tmp_path / "settings.toml"
    app, pilot = await play(settings_path=path, size=(100, 40))
    screen = await open_keys(app, pilot)
    select(screen, "board.mark")
    await pilot.press("enter", "m", "escape")
    assert app.screen is screen, "one Esc does not drop a change"
    message = str(screen.query_one("#message").render())
    assert message == "Your changes are not saved: Save keeps them, Esc again leaves them"
    await pilot.press("escape")
    assert not isinstance(app.screen, KeysScreen) and not path.exists()
    assert app.keys.keymap.keys_for("board.mark") != ("m",)


def test_a_keymap_gives_the_help_the_players_bindings() -> None:
    actions = key_actions()
    keys = {action.id: action.default for action in actions}
    moved = KeyMap(actions, {**keys, "game.pause": ("ctrl+s",)})
    from textmines.ui.keys.game_keys import GAME_KEYS

    bindings = moved.bindings(GAME_KEYS)
    assert any(getattr(b, "key", "") == "ctrl+s" and b.action == "pause" for b in bindings)


@pytest.mark.slow
async def test_keys_screen_refuses_a_key_the_game_over_box_keeps(play: Play) -> None:
    app, pilot = await play(size=(100, 40))
    screen = await open_keys(app, pilot)
    select(screen, "game.custom")
    await pilot.press("enter", "u")  # frees c
    select(screen, "game.restart")
    await pilot.press("enter", "c")
    assert "'Copy the board ID' in the game-over box" in str(screen.query_one("#message").render())
    assert screen.keymap.keys_for("game.restart") == ("r",)


# Issue 34.8: a settings.toml with 50,000 [keys] entries that cannot be used gave one toast
# each, 100% CPU for over ten minutes and a SIGTERM that went unheard; 2,000 took 26 s to
# the first frame. Now they are one warning that says how many and where to look, and the
# entries that can be used still apply.
def toasts(pilot: Pilot[None]) -> list[str]:
    return [str(toast.render()) for toast in pilot.app.screen.query("Toast")]


def write_keys(path: Path, count: int) -> None:
    """``count`` entries for actions that do not exist, and one that works (``i`` hints)."""
    lines = ["[keys]", '"game.hint" = "i"']
    lines += [f'"app.no_such_action_{number}" = "ctrl+{number % 10}"' for number in range(count)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.mark.slow
@pytest.mark.parametrize("count", [2_000, 50_000])
async def test_thousands_of_bad_key_entries_are_one_warning_and_the_game_starts(
    tmp_path: Path, count: int, play: Play
) -> None:
    path = tmp_path / "settings.toml"
    write_keys(path, count)
    settings, warnings = load_settings(path)
    assert warnings == [] and len(settings.keys) == count + 1
    app, pilot = await play(
        settings=settings, settings_path=path, size=(100, 30), notifications=True
    )
    await wait_until(pilot, lambda: toasts(pilot), "the warning")
    (warning,) = toasts(pilot)
    assert f"{path}: {count:,} entries of [keys] cannot be used" in warning
    assert "there is no action 'app.no_such_action_0'" in warning
    assert "Options > Keys shows the keys in effect" in warning
    # The entry that can be used applies, and the game plays.
    assert app.keys.keymap.keys_for("game.hint") == ("i",)
    await pilot.press("space")
    await wait_until(pilot, lambda: app.game.board is not None, "the first reveal")


def test_a_few_bad_entries_are_a_warning_each() -> None:
    overrides = [(f"app.nothing{number}", "x") for number in range(ENTRY_WARNINGS_SHOWN)]
    _, warnings = resolve(key_actions(), "default", overrides)
    assert len(warnings) == ENTRY_WARNINGS_SHOWN
    assert warnings[0] == "settings.toml: [keys] app.nothing0 = 'x': there is no action " + (
        "'app.nothing0' (did you mean 'game.hint'?)"
    )


def test_one_more_is_one_warning_that_counts_every_kind_of_problem() -> None:
    overrides = [
        ("app.nothing", "x"),
        ("game.hint", "escape"),  # kept for closing dialogs
        ("game.pause", "zzz"),  # no such key
        ("game.restart", "f"),  # the flag's key: the clash gives way
    ]
    _, warnings = resolve(key_actions(), "default", overrides, "keys.toml")
    assert warnings == [
        "keys.toml: 4 entries of [keys] cannot be used, and their actions keep their keys. "
        "The first: [keys] app.nothing = 'x': there is no action 'app.nothing' (did you mean "
        "'game.hint'?). Fix or remove them in [keys]; Options > Keys shows the keys in effect."
    ]
