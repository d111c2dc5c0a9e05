"""The menu bar's model: what the Game, Options and Help menus hold.

Kept apart from the app so the menus read as one table. The command palette lists the same
items (``TextminesApp.get_system_commands``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from textmines.config import GameConfig
from textmines.ui.menu.items import SEPARATOR, Menu, MenuItem


def game_menus(
    config: Callable[[], GameConfig],
    *,
    overlay_on: Callable[[], bool],
    autoplaying: Callable[[], bool],
    zoom_fit: Callable[[], bool],
    swapped: Callable[[], bool],
    key_for: Callable[[str], str] = lambda action: "",
) -> list[Menu]:
    """Game, Options and Help: every item names an app action (and its key, for the label).

    The check marks are read live when a menu opens: ``config`` is the next game's options,
    ``overlay_on`` and ``autoplaying`` the assistant's state, ``zoom_fit`` whether the cells
    fit the terminal, ``swapped`` whether the mouse buttons are swapped.
    """

    def is_preset(key: str) -> bool:
        preset = config().preset
        return preset is not None and preset.key == key

    menus = [
        Menu(
            "Game",
            (
                MenuItem("New game", "game.new_game"),
                MenuItem("Restart this board", "game.restart"),
                MenuItem("Pause", "game.pause"),
                SEPARATOR,
                MenuItem(
                    "Beginner", "game.preset('beginner')", checked=partial(is_preset, "beginner")
                ),
                MenuItem(
                    "Intermediate",
                    "game.preset('intermediate')",
                    checked=partial(is_preset, "intermediate"),
                ),
                MenuItem("Expert", "game.preset('expert')", checked=partial(is_preset, "expert")),
                MenuItem("Custom...", "game.custom", checked=lambda: config().preset is None),
                MenuItem("Daily board", "game.daily"),
                MenuItem("Board info", "game.board_info"),
                MenuItem("Play a board ID...", "game.play_board_id"),
                SEPARATOR,
                MenuItem("Statistics", "app.statistics"),
                MenuItem("Player name...", "app.player_name"),
                MenuItem("Watch the replay", "game.watch_replay"),
                MenuItem("Open replay...", "app.open_replay"),
                SEPARATOR,
                MenuItem("Quit", "app.quit"),
            ),
        ),
        Menu(
            "Options",
            (
                MenuItem(
                    "Question marks",
                    "game.toggle_question_marks",
                    checked=lambda: config().question_marks,
                ),
                SEPARATOR,
                MenuItem(
                    "First click: opening",
                    "game.first_click('opening')",
                    checked=lambda: config().first_click == "opening",
                ),
                MenuItem(
                    "First click: safe",
                    "game.first_click('safe')",
                    checked=lambda: config().first_click == "safe",
                ),
                SEPARATOR,
                MenuItem(
                    "Left-click on a number chords",
                    "game.toggle_left_click_chords",
                    checked=lambda: config().left_click_chords,
                ),
                MenuItem(
                    "Swap mouse buttons",
                    "game.toggle_swap_mouse_buttons",
                    checked=swapped,
                ),
                MenuItem(
                    "No-guess boards",
                    "game.toggle_no_guess",
                    checked=lambda: config().no_guess,
                ),
                SEPARATOR,
                MenuItem(
                    "Probability overlay",
                    "game.toggle_overlay",
                    checked=overlay_on,
                ),
                MenuItem("Autoplay", "game.autoplay", checked=autoplaying),
                MenuItem("Autoplay faster", "game.autoplay_pace(-1)"),
                MenuItem("Autoplay slower", "game.autoplay_pace(1)"),
                SEPARATOR,
                MenuItem("Zoom in", "game.zoom(1)"),
                MenuItem("Zoom out", "game.zoom(-1)"),
                MenuItem("Zoom to fit", "game.zoom_fit", checked=zoom_fit),
                MenuItem("Theme...", "app.choose_theme"),
                MenuItem("Keys...", "app.keys"),
            ),
        ),
        Menu(
            "Help",
            (
                MenuItem("Hint", "game.hint"),
                MenuItem("Controls", "app.help"),
                MenuItem("About", "app.about"),
            ),
        ),
    ]
    # Each item shows the key bound to its action, as the help screen writes it.
    return [
        Menu(
            menu.title,
            tuple(
                item if item is SEPARATOR else item._replace(key=key_for(item.action))
                for item in menu.items
            ),
        )
        for menu in menus
    ]
