"""The player's options: the settings as this run knows them, written when they change, and
the one path by which they reach the game in play and the board.

The settings are the one source of every option. ``GameOptions.apply`` is the one place that
hands question marks, left-click chording and swapped mouse buttons to the game and the board:
it runs whenever the settings change and whenever a game is put on the board, so no option is
copied by hand anywhere else.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from textmines.config import GameConfig, config_from_settings, settings_with_config
from textmines.store.paths import describe_os_error
from textmines.store.settings import Settings, save_changes
from textmines.ui.board.board_view import BoardView
from textmines.ui.game.host import GameHost


class OptionsHost(GameHost, Protocol):
    """What ``GameOptions`` needs of the app, beyond the game, its session and toasts."""

    @property
    def board(self) -> BoardView: ...


class GameOptions:
    """The settings of ``host``'s run: ``known`` is what this run last read or wrote (a save
    writes only what changed since, so two runs at once keep each other's choices); ``path``
    None writes nothing (tests, or a player who cannot save)."""

    def __init__(self, host: OptionsHost, settings: Settings, path: Path | None) -> None:
        self.host = host
        self.known = settings
        self.settings = settings
        self.path = path
        self._warned = False

    @property
    def source(self) -> str:
        """How messages name the settings' file."""
        return str(self.path or "settings.toml")

    @property
    def config(self) -> GameConfig:
        """The next game's board and options: the settings' (a seed never carries over)."""
        return config_from_settings(self.settings)

    def apply(self) -> None:
        """Hand the options that apply at once to the game in play and the board."""
        settings = self.settings
        self.host.game.question_marks = settings.question_marks
        board = self.host.board
        board.left_click_chords = settings.left_click_chords
        board.swap_buttons = settings.swap_mouse_buttons

    def save(self, settings: Settings) -> None:
        """Keep ``settings``, apply them, and write them (atomically) if there is a file."""
        self.settings = settings
        self.apply()
        if self.path is None:
            return
        try:
            # What another run changed meanwhile is kept and becomes this run's too: else
            # the next save would count it as this run's change and write the old value back.
            self.settings = self.known = save_changes(self.path, self.known, settings)
        except OSError as error:
            if self._warned:
                return  # once a session is enough: the choices still apply to this run
            self._warned = True
            self.host.notify(
                f"Settings not saved to {self.path}: {describe_os_error(error)}",
                severity="warning",
                markup=False,
            )

    def change(self, **changes: Any) -> bool:
        """The next game's config changed by ``changes`` (board, rules, options), kept.
        False, with a notice, when the change is not allowed (the config says why)."""
        try:
            config = self.config._replace(**changes).checked()
        except ValueError as error:
            self.host.notify(str(error), severity="warning", markup=False)
            return False
        self.save(settings_with_config(self.settings, config))
        return True

    def toggle(self, option: str, said: str, *, on: str = "on", off: str = "off") -> None:
        """Switch the on/off option ``option`` of the settings and say so (``said`` names it)."""
        value = not getattr(self.settings, option)
        changes: dict[str, Any] = {option: value}
        self.save(self.settings._replace(**changes))
        self.host.notify(f"{said} {on if value else off}.", timeout=2, kind="option")
