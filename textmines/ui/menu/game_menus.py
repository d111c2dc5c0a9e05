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
    leaderboard: bool = False,
) -> list[Menu]:
    """Game, Options and Help: every item names an action (and its key, for the label): the
    game screen's (``new_game``), or the app's (``app.help``), as the game's bindings do.

    The check marks are read live when a menu opens: ``config`` is the next game's options,
    ``overlay_on`` and ``autoplaying`` the assistant's state, ``zoom_fit`` whether the cells
    fit the terminal, ``swapped`` whether the mouse buttons are swapped; ``leaderboard``: a
    browser tab whose host keeps a leaderboard (Game > Leaderboard opens its page).
    """

    def is_preset(key: str) -> bool:
        preset = config().preset
        return preset is not None and preset.key == key

    menus = [
        Menu(
            "Game",
            (
                MenuItem("New game", "new_game"),
                MenuItem("Restart this board", "restart"),
                MenuItem("Pause", "pause"),
                SEPARATOR,
                MenuItem("Beginner", "preset('beginner')", checked=partial(is_preset, "beginner")),
                MenuItem(
                    "Intermediate",
                    "preset('intermediate')",
                    checked=partial(is_preset, "intermediate"),
                ),
                MenuItem("Expert", "preset('expert')", checked=partial(is_preset, "expert")),
                MenuItem("Custom...", "custom", checked=lambda: config().preset is None),
                MenuItem("Daily board", "daily"),
                MenuItem("Board info", "board_info"),
                MenuItem("Play a board ID...", "play_board_id"),
                SEPARATOR,
                MenuItem("Statistics", "app.statistics"),
                *((MenuItem("Leaderboard", "app.leaderboard"),) if leaderboard else ()),
                MenuItem("Player name...", "app.player_name"),
                MenuItem("Watch the replay", "watch_replay"),
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
                    "toggle_question_marks",
                    checked=lambda: config().question_marks,
                ),
                SEPARATOR,
                MenuItem(
                    "First click: opening",
                    "first_click('opening')",
                    checked=lambda: config().first_click == "opening",
                ),
                MenuItem(
                    "First click: safe",
                    "first_click('safe')",
                    checked=lambda: config().first_click == "safe",
                ),
                SEPARATOR,
                MenuItem(
                    "Left-click on a number chords",
                    "toggle_left_click_chords",
                    checked=lambda: config().left_click_chords,
                ),
                MenuItem(
                    "Swap mouse buttons",
                    "toggle_swap_mouse_buttons",
                    checked=swapped,
                ),
                MenuItem(
                    "No-guess boards",
                    "toggle_no_guess",
                    checked=lambda: config().no_guess,
                ),
                SEPARATOR,
                MenuItem(
                    "Probability overlay",
                    "toggle_overlay",
                    checked=overlay_on,
                ),
                MenuItem("Autoplay", "autoplay", checked=autoplaying),
                MenuItem("Autoplay faster", "autoplay_pace(-1)"),
                MenuItem("Autoplay slower", "autoplay_pace(1)"),
                SEPARATOR,
                MenuItem("Zoom in", "zoom(1)"),
                MenuItem("Zoom out", "zoom(-1)"),
                MenuItem("Zoom to fit", "zoom_fit", checked=zoom_fit),
                MenuItem("Theme...", "app.choose_theme"),
                MenuItem("Keys...", "app.keys"),
            ),
        ),
        Menu(
            "Help",
            (
                MenuItem("Hint", "hint"),
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
