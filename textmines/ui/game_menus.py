"""The menu bar's model: what the Game, Options and Help menus hold.

Kept apart from the app so the menus read as one table. The command palette lists the same
items (``TextminesApp.get_system_commands``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from textmines.config import GameConfig
from textmines.ui.menu import SEPARATOR, Menu, MenuItem


def game_menus(
    config: Callable[[], GameConfig],
    *,
    overlay_on: Callable[[], bool],
    autoplaying: Callable[[], bool],
    zoom_fit: Callable[[], bool],
    swapped: Callable[[], bool],
) -> list[Menu]:
    """Game, Options and Help: every item names an app action (and its key, for the label).

    The check marks are read live when a menu opens: ``config`` is the next game's options,
    ``overlay_on`` and ``autoplaying`` the assistant's state, ``zoom_fit`` whether the cells
    fit the terminal, ``swapped`` whether the mouse buttons are swapped.
    """

    def is_preset(key: str) -> bool:
        preset = config().preset
        return preset is not None and preset.key == key

    return [
        Menu(
            "Game",
            (
                MenuItem("New game", "app.new_game", "F2"),
                MenuItem("Restart this board", "app.restart", "R"),
                MenuItem("Pause", "app.pause", "P"),
                SEPARATOR,
                MenuItem("Beginner", "app.preset('beginner')", "1", partial(is_preset, "beginner")),
                MenuItem(
                    "Intermediate",
                    "app.preset('intermediate')",
                    "2",
                    partial(is_preset, "intermediate"),
                ),
                MenuItem("Expert", "app.preset('expert')", "3", partial(is_preset, "expert")),
                MenuItem("Custom...", "app.custom", "C", lambda: config().preset is None),
                SEPARATOR,
                MenuItem("Statistics", "app.statistics", "F4"),
                SEPARATOR,
                MenuItem("Quit", "app.quit", "Q"),
            ),
        ),
        Menu(
            "Options",
            (
                MenuItem(
                    "Question marks",
                    "app.toggle_question_marks",
                    "",
                    lambda: config().question_marks,
                ),
                SEPARATOR,
                MenuItem(
                    "First click: opening",
                    "app.first_click('opening')",
                    "",
                    lambda: config().first_click == "opening",
                ),
                MenuItem(
                    "First click: safe",
                    "app.first_click('safe')",
                    "",
                    lambda: config().first_click == "safe",
                ),
                SEPARATOR,
                MenuItem(
                    "Left-click on a number chords",
                    "app.toggle_left_click_chords",
                    "",
                    lambda: config().left_click_chords,
                ),
                MenuItem(
                    "Swap mouse buttons",
                    "app.toggle_swap_mouse_buttons",
                    "",
                    swapped,
                ),
                MenuItem(
                    "No-guess boards",
                    "app.toggle_no_guess",
                    "",
                    lambda: config().no_guess,
                ),
                SEPARATOR,
                MenuItem(
                    "Probability overlay",
                    "app.toggle_overlay",
                    "O",
                    overlay_on,
                ),
                MenuItem("Autoplay", "app.autoplay", "A", autoplaying),
                MenuItem("Autoplay faster", "app.autoplay_pace(0.5)", ">"),
                MenuItem("Autoplay slower", "app.autoplay_pace(2)", "<"),
                SEPARATOR,
                MenuItem("Zoom in", "app.zoom(1)", "]"),
                MenuItem("Zoom out", "app.zoom(-1)", "["),
                MenuItem("Zoom to fit", "app.zoom_fit", "=", zoom_fit),
                MenuItem("Theme...", "app.choose_theme", "T"),
            ),
        ),
        Menu(
            "Help",
            (
                MenuItem("Hint", "app.hint", "I"),
                MenuItem("Controls", "app.help", "F1"),
                MenuItem("About", "app.about", ""),
            ),
        ),
    ]
