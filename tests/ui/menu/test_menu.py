"""Pilot tests for the menu bar: what the player sees and what the app ends up doing."""

from __future__ import annotations

from typing import ClassVar

import pytest
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from tests.helpers import Play
from textmines.ui.menu.items import SEPARATOR, Menu, MenuItem
from textmines.ui.menu.menu_bar import MenuBar
from textmines.ui.menu.menu_screen import MenuScreen


class Dialog(ModalScreen[None]):
    def compose(self) -> ComposeResult:
        yield Label("dialog")


class Board(Static):
    def on_click(self) -> None:
        assert isinstance(self.app, MenuApp)
        self.app.done.append("board-click")


class MenuApp(App[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f10", "open_menu", "Menu"),
        Binding("n", "record('key-n')", "New"),
        Binding("x", "record('key-x')", "Other"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.done: list[str] = []
        self.selected: list[str] = []
        self.sound = True

    def compose(self) -> ComposeResult:
        game = Menu(
            "Game",
            (
                MenuItem("New", "app.record('new')", "F2"),
                SEPARATOR,
                MenuItem("Beginner", "app.record('beginner')"),
                MenuItem("Expert", "app.record('expert')", "3"),
                MenuItem.separator(),
                MenuItem("Quit", "app.record('quit')", "Ctrl+Q"),
            ),
        )
        options = Menu(
            "Options",
            (
                MenuItem("Sound", "app.toggle_sound", checked=lambda: self.sound),
                MenuItem("Dialog", "app.dialog"),
            ),
        )
        help_menu = Menu("Help", (MenuItem("About", "app.record('about')"),))
        yield MenuBar([game, options, help_menu])
        yield Board("board " * 40, id="board")

    def action_record(self, name: str) -> None:
        self.done.append(name)

    def action_toggle_sound(self) -> None:
        self.sound = not self.sound

    def action_dialog(self) -> None:
        self.push_screen(Dialog())

    def action_open_menu(self) -> None:
        self.query_one(MenuBar).open_menu()

    def on_menu_bar_item_selected(self, message: MenuBar.ItemSelected) -> None:
        self.selected.append(message.action)


def menu_screen(app: App[None]) -> MenuScreen | None:
    screen = app.screen
    return screen if isinstance(screen, MenuScreen) else None


def dropdown_text(app: App[None]) -> str:
    screen = menu_screen(app)
    assert screen is not None
    dropdown = screen.dropdown
    return "\n".join(dropdown.render_line(y).text for y in range(dropdown.size.height))


def title_offset(title: str) -> tuple[int, int]:
    # Titles are laid out as " Game  Options  Help "; click inside the word.
    return (" Game  Options  Help ".index(title) + 1, 0)


async def test_bar_shows_titles(play: Play) -> None:
    app = MenuApp()
    await play.run(app)
    bar = app.query_one(MenuBar)
    assert bar.region.height == 1 and bar.region.y == 0
    assert bar.render_line(0).text.rstrip() == " Game  Options  Help"
    assert bar.title_x(1) == len(" Game ")
    assert bar.title_at(len(" Game  Opt"), 0) == 1


async def test_click_title_opens_menu(play: Play) -> None:
    app = MenuApp()
    pilot = await play.run(app)
    await pilot.click(MenuBar, offset=title_offset("Options"))
    assert menu_screen(app) is not None
    assert "Sound" in dropdown_text(app)
    assert "Beginner" not in dropdown_text(app)


async def test_f10_opens_first_menu_and_shows_every_item(play: Play) -> None:
    app = MenuApp()
    pilot = await play.run(app)
    await pilot.press("f10")
    text = dropdown_text(app)
    for label in ("New", "Beginner", "Expert", "Quit", "F2", "Ctrl+Q"):
        assert label in text
    lines = text.splitlines()
    assert len(lines) == 6
    assert set(lines[1].strip()) <= {"─", "━", "-"} and lines[1].strip()
    assert lines[0].rstrip().endswith("F2")
    assert app.query_one(MenuBar).active == 0


async def test_f10_closes_open_menu(play: Play) -> None:
    app = MenuApp()
    pilot = await play.run(app)
    await pilot.press("f10")
    await pilot.press("f10")
    assert menu_screen(app) is None
    assert app.done == []


async def test_enter_runs_action_and_closes(play: Play) -> None:
    app = MenuApp()
    pilot = await play.run(app)
    await pilot.press("f10", "enter")
    await pilot.pause()
    assert app.done == ["new"]
    assert app.selected == ["app.record('new')"]
    assert menu_screen(app) is None
    assert app.query_one(MenuBar).active is None


async def test_down_and_up_skip_separators(play: Play) -> None:
    app = MenuApp()
    pilot = await play.run(app)
    await pilot.press("f10", "down", "enter")
    await pilot.pause()
    assert app.done == ["beginner"]
    await pilot.press("f10", "down", "down", "down", "enter")
    await pilot.pause()
    assert app.done == ["beginner", "quit"]
    await pilot.press("f10", "down", "down", "down", "up", "enter")
    await pilot.pause()
    assert app.done == ["beginner", "quit", "expert"]


async def test_click_item_runs_it(play: Play) -> None:
    app = MenuApp()
    pilot = await play.run(app)
    await pilot.press("f10")
    screen = menu_screen(app)
    assert screen is not None
    dropdown = screen.dropdown
    row = next(y for y, line in enumerate(dropdown_text(app).splitlines()) if "Expert" in line)
    # Click offsets count from the border box, the rows above from the content: +1 for the top.
    await pilot.click(dropdown, offset=(4, row + 1))
    await pilot.pause()
    assert app.done == ["expert"]
    assert menu_screen(app) is None


async def test_escape_closes_without_running(play: Play) -> None:
    app = MenuApp()
    pilot = await play.run(app)
    await pilot.press("f10", "down", "escape")
    await pilot.pause()
    assert menu_screen(app) is None
    assert app.done == [] and app.selected == []


async def test_click_outside_closes_and_does_not_reach_the_game(play: Play) -> None:
    app = MenuApp()
    pilot = await play.run(app, size=(80, 24))
    await pilot.click("#board", offset=(60, 0))
    assert app.done == ["board-click"]
    await pilot.press("f10")
    await pilot.click(offset=(60, 1))  # on the board, beside the drop-down
    await pilot.pause()
    assert menu_screen(app) is None
    assert app.done == ["board-click"]


async def test_click_other_title_switches_and_same_title_closes(play: Play) -> None:
    app = MenuApp()
    pilot = await play.run(app)
    await pilot.press("f10")
    await pilot.click(offset=title_offset("Help"))
    assert "About" in dropdown_text(app)
    await pilot.click(offset=title_offset("Help"))
    await pilot.pause()
    assert menu_screen(app) is None


async def test_with_a_menu_open_pointing_at_another_title_opens_its_menu(play: Play) -> None:
    # Found by a player: desktop menu bars switch on hover once one menu is open.
    app = MenuApp()
    pilot = await play.run(app)
    await pilot.press("f10")
    screen = menu_screen(app)
    assert screen is not None and screen.index == 0
    await pilot.hover(offset=title_offset("Help"))
    await pilot.pause()
    assert screen.index == 2 and "About" in dropdown_text(app)
    await pilot.hover(offset=(1, 5))  # away from the bar: the menu stays as it is
    await pilot.pause()
    assert screen.index == 2


async def test_left_right_switch_menus_with_wrapping(play: Play) -> None:
    app = MenuApp()
    pilot = await play.run(app)
    await pilot.press("f10", "right")
    assert "Sound" in dropdown_text(app)
    await pilot.press("right")
    assert "About" in dropdown_text(app)
    await pilot.press("right")
    assert "Beginner" in dropdown_text(app)
    await pilot.press("left")
    assert "About" in dropdown_text(app)
    screen = menu_screen(app)
    assert screen is not None
    help_x = " Game  Options  Help ".index(" Help")
    assert screen.dropdown.region.x == help_x
    await pilot.press("enter")
    await pilot.pause()
    assert app.done == ["about"]


async def test_checked_item_is_read_live(play: Play) -> None:
    app = MenuApp()
    pilot = await play.run(app)
    await pilot.click(offset=title_offset("Options"))
    sound = dropdown_text(app).splitlines()[0]
    assert sound.lstrip().startswith("✓ Sound")
    await pilot.press("enter")  # toggles sound off
    await pilot.pause()
    assert app.sound is False
    await pilot.click(offset=title_offset("Options"))
    sound = dropdown_text(app).splitlines()[0]
    assert "✓" not in sound and "Sound" in sound
    # Unchecked items keep the same column so labels stay aligned.
    assert sound.index("Sound") == dropdown_text(app).splitlines()[1].index("Dialog")


async def test_keys_do_not_reach_app_while_open(play: Play) -> None:
    app = MenuApp()
    pilot = await play.run(app)
    await pilot.press("f10", "n", "x")
    await pilot.pause()
    assert app.done == []
    assert menu_screen(app) is not None
    await pilot.press("escape", "n")
    assert app.done == ["key-n"]


async def test_action_may_push_a_screen(play: Play) -> None:
    app = MenuApp()
    pilot = await play.run(app)
    await pilot.click(offset=title_offset("Options"))
    await pilot.press("down", "enter")
    await pilot.pause()
    assert isinstance(app.screen, Dialog)
    assert not any(isinstance(screen, MenuScreen) for screen in app.screen_stack)


async def test_small_terminal_does_not_crash(play: Play) -> None:
    app = MenuApp()
    pilot = await play.run(app, size=(80, 24))
    await pilot.press("f10")
    await pilot.resize_terminal(40, 12)
    await pilot.pause()
    screen = menu_screen(app)
    assert screen is not None
    assert screen.dropdown.region.right <= 40
    await pilot.resize_terminal(20, 5)
    await pilot.pause()
    await pilot.press("down", "down", "down", "enter")
    await pilot.pause()
    assert app.done == ["quit"]


@pytest.mark.slow
async def test_long_menu_scrolls_in_tiny_terminal(play: Play) -> None:
    items = tuple(MenuItem(f"Item {n}", f"app.record('{n}')") for n in range(30))

    class LongApp(MenuApp):
        def compose(self) -> ComposeResult:
            yield MenuBar([Menu("Long", items)])

    app = LongApp()
    pilot = await play.run(app, size=(40, 12))
    await pilot.press("f10")
    screen = menu_screen(app)
    assert screen is not None
    assert screen.dropdown.region.bottom <= 12
    await pilot.press(*["down"] * 29, "enter")
    await pilot.pause()
    assert app.done == ["29"]


async def test_all_items_skips_separators(play: Play) -> None:
    app = MenuApp()
    await play.run(app)
    listed = [(title, item.label) for title, item in app.query_one(MenuBar).all_items()]
    await play.close()
    assert listed == [
        ("Game", "New"),
        ("Game", "Beginner"),
        ("Game", "Expert"),
        ("Game", "Quit"),
        ("Options", "Sound"),
        ("Options", "Dialog"),
        ("Help", "About"),
    ]


def test_separator_helpers() -> None:
    assert MenuItem.separator() is SEPARATOR
    assert SEPARATOR.is_separator
    assert not MenuItem("New", "game.new_game").is_separator


@pytest.mark.slow
async def test_alt_letters_open_the_menus_and_pause_is_in_the_game_menu(play: Play) -> None:
    from textmines.ui.menu.menu_screen import MenuScreen

    app, pilot = await play(size=(100, 30))
    await pilot.press("alt+o")
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, MenuScreen) and screen.menu.title == "Options"
    await pilot.press("alt+h")
    assert screen.menu.title == "Help"
    await pilot.press("alt+g")
    labels = [item.label for item in screen.menu.items]
    assert screen.menu.title == "Game" and "Pause" in labels
    await pilot.press("escape")
    options = next(menu for menu in app.menu_bar.menus if menu.title == "Options")
    assert "Pause" not in [item.label for item in options.items]


async def test_every_game_menu_item_runs_the_action_its_key_runs(play: Play) -> None:
    """An item names its action as the game's bindings do: the game screen's (``new_game``)
    or the app's (``app.help``), and shows the player's key for it."""
    from textmines.ui.keys.game_keys import GAME_KEYS

    app, _ = await play(size=(100, 30))
    bound = {binding.action: binding for binding in GAME_KEYS}
    for _title, item in app.menu_bar.all_items():
        owner, _, action = item.action.rpartition(".")
        name = action.partition("(")[0]
        where = app if owner == "app" else app.game_screen
        assert owner in ("", "app") and hasattr(where, f"action_{name}"), item
        binding = bound.get(action)
        assert item.key == (app.first_key(binding.id or "") if binding else ""), item
    items = {item.label: item for _title, item in app.menu_bar.all_items()}
    assert (items["New game"].key, items["Controls"].key, items["Hint"].key) == ("F2", "F1", "i")


async def test_a_browser_tab_on_a_host_with_a_leaderboard_links_to_its_page(
    play: Play, monkeypatch: pytest.MonkeyPatch
) -> None:
    from textmines.ui.app import TextminesApp

    app, _ = await play(size=(100, 30))
    labels = [item.label for _title, item in app.menu_bar.all_items()]
    assert "Leaderboard" not in labels, "a terminal has no host"
    monkeypatch.setattr(TextminesApp, "is_web", property(lambda self: True))
    monkeypatch.setenv("TEXTMINES_LEADERBOARD", "/srv/textmines/leaderboard.db")
    opened: list[tuple[str, bool]] = []
    app, _ = await play(size=(100, 30))
    monkeypatch.setattr(app, "open_url", lambda url, new_tab=True: opened.append((url, new_tab)))
    items = {item.label: item for _title, item in app.menu_bar.all_items()}
    await app.game_screen.run_action(items["Leaderboard"].action)
    assert opened == [("/leaderboard", True)]
