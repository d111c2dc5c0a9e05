"""The keys of the game: every binding the game's screen and the app have, in the one order
the help and the keys screen list them. The game's screen owns those that act on the game
(``GameScreen``); the app those that work over any screen (``TextminesApp``): help, the menus,
statistics, themes and quitting.

An id names where its action lives: ``game.`` for the game screen's actions (a new game, a
hint, the zoom...), ``app.`` for the app's (help, the menus, statistics, themes, quitting),
as ``board.`` does for the board's own keys. They are the names the player's ``[keys]``
entries use (docs/keys.md); the ``app.`` names the game's actions had before are still read
(``keymap.OLD_IDS``).
"""

from __future__ import annotations

from dataclasses import replace

from textual.binding import Binding

#: Every binding of the game, in the order the help and the keys screen list them.
GAME_KEYS: list[Binding] = [
    Binding("f2,n", "new_game", "New game", id="game.new_game"),
    Binding("r", "restart", "Restart this board", show=False, id="game.restart"),
    Binding("1", "preset('beginner')", "Beginner", show=False, id="game.beginner"),
    Binding("2", "preset('intermediate')", "Intermediate", show=False, id="game.intermediate"),
    Binding("3", "preset('expert')", "Expert", show=False, id="game.expert"),
    Binding("c", "custom", "Custom board", show=False, id="game.custom"),
    Binding("p", "pause", "Pause / resume", id="game.pause"),
    Binding("t", "choose_theme", "Theme", show=False, id="app.theme"),
    Binding("i", "hint", "Hint", show=False, id="game.hint"),
    Binding("o", "toggle_overlay", "Probability overlay", show=False, id="game.overlay"),
    Binding("a", "autoplay", "Autoplay on / off", show=False, id="game.autoplay"),
    Binding(
        "greater_than_sign",
        "autoplay_pace(-1)",
        "Autoplay faster",
        show=False,
        id="game.autoplay_faster",
    ),
    Binding(
        "less_than_sign",
        "autoplay_pace(1)",
        "Autoplay slower",
        show=False,
        id="game.autoplay_slower",
    ),
    Binding("f4", "statistics", "Statistics", show=False, id="app.statistics"),
    Binding("w", "watch_replay", "Watch the replay", show=False, id="game.watch_replay"),
    Binding("b", "board_info", "Board info and ID", show=False, id="game.board_info"),
    Binding("d", "daily", "Daily board", show=False, id="game.daily"),
    Binding("f1,question_mark", "help", "Help", id="app.help"),
    Binding("f10", "menu", "Menu", id="app.menu"),
    Binding(
        "right_square_bracket,ctrl+plus,ctrl+equals_sign",
        "zoom(1)",
        "Zoom in",
        show=False,
        id="game.zoom_in",
    ),
    Binding(
        "left_square_bracket,ctrl+minus", "zoom(-1)", "Zoom out", show=False, id="game.zoom_out"
    ),
    Binding("equals_sign,ctrl+0", "zoom_fit", "Zoom to fit", show=False, id="game.zoom_fit"),
    Binding("alt+g", "menu(0)", "Game menu", show=False, id="app.menu_game"),
    Binding("alt+o", "menu(1)", "Options menu", show=False, id="app.menu_options"),
    Binding("alt+h", "menu(2)", "Help menu", show=False, id="app.menu_help"),
    Binding("q,ctrl+c", "quit", "Quit", id="app.quit", priority=False),
]

#: The actions of the app's own bindings; the rest are the game screen's.
_APP_ACTIONS = frozenset({"choose_theme", "statistics", "help", "menu", "quit"})


def _on_app(binding: Binding) -> bool:
    return binding.action.partition("(")[0] in _APP_ACTIONS


def _in_order(binding: Binding) -> Binding:
    action = f"app.{binding.action}" if _on_app(binding) else binding.action
    return replace(binding, action=action, priority=True)


#: The bindings that work over any screen (``TextminesApp.BINDINGS``).
APP_KEYS = [binding for binding in GAME_KEYS if _on_app(binding)]
#: The bindings of the game's screen (``GameScreen.BINDINGS``): every key of the game, the
#: app's included; under a dialog they stop. Priority bindings, as the board's are: the app
#: runs each as its key arrives, so keys read together (typed fast, or pasted) run in the order
#: they were typed. Without it a key of the screen's waited for the board to pass it up, and
#: a board key read with it ran first: F10 then Enter opened a cell, then the menu.
SCREEN_KEYS = [_in_order(binding) for binding in GAME_KEYS]

#: The end-of-game box's bindings (``GameOverScreen.BINDINGS``), here so that the player's keys
#: can be checked against them at start without loading the box. The game's ids: the player's
#: keys for a new game, a restart and the replay (the status line names them) work there too.
#: Priority bindings: a key read with the one that closes the box goes to the game (n then
#: Space: a new game, and its first cell opened).
GAME_OVER_KEYS: list[Binding] = [
    Binding("n,f2", "choose('new')", "Play again", show=False, id="game.new_game", priority=True),
    Binding("r", "choose('restart')", "Restart", show=False, id="game.restart", priority=True),
    Binding(
        "w",
        "choose('replay')",
        "Watch the replay",
        show=False,
        id="game.watch_replay",
        priority=True,
    ),
    Binding("d", "details", "Details", show=False, priority=True),
    Binding("c", "copy_id", "Copy the board ID", show=False, priority=True),
    Binding("escape,q", "choose(None)", "Close", show=False, priority=True),
    Binding("left", "app.focus_previous", "Previous button", show=False, priority=True),
    Binding("right", "app.focus_next", "Next button", show=False, priority=True),
]
