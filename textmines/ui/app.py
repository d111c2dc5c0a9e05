"""TextminesApp: start-up, the screen stack, quitting, crashes and signals, the keys and the
settings. The game itself is played on ``GameScreen``, whose actions ask the controllers
(``GameFlow``, ``Zoom``, ``GameOptions``, ``AssistController``, ``ReplayController``)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache, partial
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual import events
from textual.app import ComposeResult, SystemCommand
from textual.binding import BindingType
from textual.driver import Driver
from textual.geometry import Size
from textual.notifications import Notification, Notify, SeverityLevel
from textual.screen import Screen
from textual.worker import WorkerFailed, get_current_worker

from textmines import collector
from textmines.config import GameConfig, settings_with_config
from textmines.crash import background_failure_message
from textmines.engine import Game
from textmines.engine.clock import Clock
from textmines.session import GameSession
from textmines.store.paths import LEADERBOARD_VARIABLE
from textmines.store.saves import LoadedGame
from textmines.store.settings import Settings, clean_player_name
from textmines.themes import MinesTheme, load_themes
from textmines.ui.board.board_view import BoardView
from textmines.ui.board.tiles import FIT
from textmines.ui.game.assist import Assistant, AssistController
from textmines.ui.game.clock_holds import Hold
from textmines.ui.game.flow import GameFlow
from textmines.ui.game.game_screen import GameControls, GameScreen
from textmines.ui.game.options import GameOptions
from textmines.ui.game.player_keys import PlayerKeys
from textmines.ui.game.replays import ReplayController
from textmines.ui.game.zoom import Zoom
from textmines.ui.keys.game_keys import APP_KEYS
from textmines.ui.leaving import LeaveController
from textmines.ui.menu.game_menus import game_menus
from textmines.ui.menu.items import Menu
from textmines.ui.menu.menu_bar import MenuBar
from textmines.ui.stats_keeper import StatsKeeper
from textmines.ui.textual_private import (
    add_notification,
    forget_exit_renderables,
    notifications,
    on_app_thread,
    remove_notification,
)
from textmines.ui.theming import ThemedApp
from textmines.ui.toasts import ToastKinds, place_toasts
from textmines.ui.widgets.header import GameHeader
from textmines.ui.widgets.panel import GamePanel
from textmines.ui.widgets.status import StatusLine

if TYPE_CHECKING:
    from textmines.engine.board_id import BoardId
    from textmines.leaderboard.client import HostClient
    from textmines.replays.recording import Recording
    from textmines.store.stats import StatsStore
    from textmines.ui.screens.keys import KeyChoice
    from textmines.ui.screens.leaderboard_view import LeaderboardView
    from textmines.ui.screens.replay import ReplayScreen
    from textmines.ui.screens.statistics import GroupSection
    from textmines.ui.web_tab import PageClosed


@cache
def bundled_themes() -> Mapping[str, MinesTheme]:
    """The bundled themes (each read from its file once, when first needed): the app's themes
    when it is given none."""
    themes, _ = load_themes(None)
    return themes


class TextminesApp(ThemedApp):
    """The game."""

    CSS_PATH = "app.tcss"
    TITLE = "textmines"
    # The game's own bindings are the game screen's (``GameScreen.BINDINGS``); these work over
    # it and over every dialog.
    BINDINGS: ClassVar[list[BindingType]] = list(APP_KEYS)

    def __init__(
        self,
        config: GameConfig | None = None,
        *,
        clock: Clock = time.monotonic,
        settings: Settings | None = None,
        settings_path: Path | None = None,
        warnings: Sequence[str] = (),
        themes: Mapping[str, MinesTheme] | None = None,
        theme: MinesTheme | None = None,
        stats: StatsStore | None = None,
        stats_notice: str | None = None,
        stats_db: Path | None = None,
        save_path: Path | None = None,
        resumed: LoadedGame | None = None,
        autoplay: bool = False,
        crash_log: Path | None = None,
        replay: tuple[Recording, str] | None = None,
        replays_dir: Path | None = None,
        board_id: BoardId | None = None,
        daily: bool = False,
        touch: bool = False,
        finished: Callable[[GameSession], object] | None = None,
        data_dir: Path | None = None,
    ) -> None:
        super().__init__(themes if themes is not None else bundled_themes(), theme)
        #: A recording to watch as soon as the app starts (``--replay``), and its title.
        self._replay_at_start = replay
        #: Where replays exported from the viewer go; None: nowhere (tests).
        self.replays_dir = replays_dir
        self.data_dir = data_dir  # what it knows of hosts (``leaderboard.client``); None: none
        self.clock = clock
        # The options of the next game live in the settings only (``config`` derives from
        # them); a board chosen on the command line joins them for this run, written only
        # when the player changes an option.
        first = config or GameConfig()
        self.options = GameOptions(self, settings or Settings(), settings_path)
        self.options.settings = settings_with_config(self.options.settings, first)
        # A browser tab on a touch screen: the status line's hints and the toasts speak of taps.
        self.keys = PlayerKeys(self, touch=touch)
        warnings = [*warnings, *self.keys.use(self.settings, self.options.source)]
        self._startup_warnings: list[str] | None = warnings  # None once shown (``warn``)
        self.save_path = save_path
        self.crash_log = crash_log
        #: After an unexpected error: the line to show the player once the screen is gone.
        self.crash_report: str | None = None
        #: What the player must still be told once the screen is gone (a save problem).
        self.exit_message: str | None = None
        self.flow = GameFlow(self)
        # Told of each game that ends (``textmines --challenge`` submits its win).
        self.flow.finished = finished
        # Given open (``stats``), or opened once the first frame is on screen (``stats_db``).
        self.stats_keeper = StatsKeeper(
            self, stats=stats, notice=stats_notice, path=stats_db, review=self.flow.review_pending
        )
        self.flow.session = self.flow.first_session(first, resumed, board_id, daily)
        self._build_widgets()
        self._autoplay_at_start = autoplay
        #: The kind of each toast shown with one (see ``notify``).
        self._toast_kinds = ToastKinds()

    def _build_widgets(self) -> None:
        """The game's widgets and controllers, kept at hand: they live as long as the app."""
        self.menu_bar = MenuBar(self.menus(), id="menubar")
        glyphs = self.mines_theme.glyphs
        self.header = GameHeader(glyphs.faces, ascii=glyphs.ascii, id="header")
        self.board = BoardView(
            lambda: self.session.game,
            glyphs=glyphs,
            on_move=self.flow.play,
            on_pointer=lambda x, y: self.session.note_cursor(x, y),
            on_press=lambda x, y: self.session.note_press(x, y),
        )
        self.options.apply()
        self.status_line = StatusLine(id="status")
        self.assist = Assistant(self)
        self.assist_control = AssistController(self, self.assist)
        self.replays = ReplayController(self, self.flow.play_on)
        self.zoom = Zoom(self)
        self.leaving = LeaveController(self, self.flow.new)

    @property
    def session(self) -> GameSession:
        """The session of the game on the board."""
        return self.flow.session

    @property
    def game(self) -> Game:
        """The game on the board."""
        return self.flow.session.game

    @property
    def settings(self) -> Settings:
        """The player's settings as this run has them."""
        return self.options.settings

    @property
    def config(self) -> GameConfig:
        """The next game's board and options: the settings' (a seed never carries over)."""
        return self.options.config

    @property
    def game_screen(self) -> GameScreen:
        """The game's screen, at the bottom of the stack (under any dialog)."""
        screen = self.screen_stack[0]
        assert isinstance(screen, GameScreen)
        return screen

    # ------------------------------------------------------------------ layout
    def get_driver_class(self) -> type[Driver]:
        driver = super().get_driver_class()
        if driver.__module__ == "textual.drivers.linux_driver":
            # Textual's, safe for a terminal that goes away (see textmines.ui.terminal).
            from textmines.ui.terminal import TerminalDriver

            return TerminalDriver
        if driver.__module__ == "textual.drivers.web_driver":
            # A browser's tab: a closed page saves the game (see textmines.ui.web_tab).
            from textmines.ui.web_tab import TabDriver

            return TabDriver
        return driver

    def get_default_screen(self) -> Screen[None]:
        controls = GameControls(
            self.flow, self.zoom, self.options, self.assist_control, self.replays
        )
        screen = GameScreen(controls)
        self.assist.host = screen  # the solver's workers and answers are the game screen's
        return screen

    def compose(self) -> ComposeResult:
        # Few widgets on purpose: Textual's cost per key press grows with their number.
        yield self.menu_bar
        # The zoom for the terminal as it is, before the first layout: no second pass.
        self.apply_zoom()
        with GamePanel(id="panel"):
            yield self.header
            yield self.board
        yield self.status_line

    def apply_zoom(self, size: Size | None = None) -> None:
        """Fit the board's tiles and header to the terminal (``Zoom.apply``)."""
        self.zoom.apply(size)

    def on_mount(self) -> None:
        self.call_after_refresh(self._after_first_frame)
        if self._replay_at_start is not None:
            # textmines --replay FILE: the viewer is the whole run; closing it ends textmines,
            # back to the shell (the game under it was never played: nothing to save).
            self.replays.view(*self._replay_at_start, closed=self.exit)
        warnings, self._startup_warnings = self._startup_warnings or [], None
        self.warn(warnings)
        self.set_interval(0.25, self.flow.tick)
        self.flow.show_state()
        self.flow.check_size(self.size)
        if self.session.saved:
            # Resumed: the clock waits until the player has had a look.
            self.flow.hold_clock(Hold.PLAYER, True)
        if self.session.saved and self._replay_at_start is None:  # not over the viewer
            way = self.keys.way_to("game.pause")  # "press p", "tap the board"
            self.notify(
                f"Your last game is back, paused. {way[:1].upper()}{way[1:]} to play on.",
                timeout=6,
            )
        if self._autoplay_at_start:
            self.assist_control.start_autoplay()
        # Closing the terminal, kill, kill -INT: the game is saved, and the process ends soon
        # after, with a driver that can stop waiting for a terminal that is gone.
        self.leaving.catch_signals(getattr(self._driver, "leave", None), watch=not self.is_headless)

    def _after_first_frame(self) -> None:
        collector.started()  # see textmines.collector
        self.stats_keeper.after_first_frame()

    @property
    def stats(self) -> StatsStore | None:
        """The statistics database (``StatsKeeper``); None: games are not recorded."""
        return self.stats_keeper.store

    def warn(self, warnings: list[str]) -> None:
        """Warnings for the player: toasts, the first ones once the screen is up."""
        if self._startup_warnings is not None:
            self._startup_warnings.extend(warnings)
            return
        for warning in warnings:
            self.notify(warning, title="textmines", severity="warning", timeout=10, markup=False)

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
        kind: str | None = None,
    ) -> None:
        """A toast that replaces, rather than stacks on, the last one of its ``kind`` or with
        the same text: five presses of a key leave one toast, not five over the board. It goes
        to the corner of the screen farthest from the board's cursor. Shown at once, not a
        message later (but from a worker's thread), so that one right after it replaces it."""
        for shown in self._toast_kinds.replaced(notifications(self), message, title, kind):
            remove_notification(self, shown, refresh=False)
        timeout = self.NOTIFICATION_TIMEOUT if timeout is None else timeout
        notification = Notification(message, title, severity, timeout, markup=markup)
        self._toast_kinds.keep(notification, kind, notifications(self))
        place_toasts(self.screen, self.board, self.header)
        if not on_app_thread(self):
            self.post_message(Notify(notification))
            return
        add_notification(self, notification)

    @property
    def toasts(self) -> list[Notification]:
        """The toasts on screen now (or waiting for the screen to show them), oldest first."""
        return list(notifications(self))

    def withdraw(self, kind: str) -> None:
        """Take the toast of ``kind`` off the screen, if one is shown (it no longer holds)."""
        for shown in self._toast_kinds.of_kind(notifications(self), kind):
            remove_notification(self, shown, refresh=True)

    def on_unmount(self) -> None:
        self.leaving.release_signals()

    def on_page_closed(self, _: PageClosed) -> None:
        """A browser's tab closed, or the server stopped (``LeaveController.page_closed``)."""
        self.leaving.page_closed()

    def _handle_exception(self, error: Exception) -> None:
        # Textual's one exit for an exception nothing handled (pinned by a test): save the game
        # in play first, put the traceback in the crash log, and leave the player one line
        # instead of a screenful of locals. A background job's failure is not worth the game.
        if isinstance(error, WorkerFailed):
            self._worker_failed(error)
            return
        if self.crash_report is None:
            self.crash_report = self.leaving.after_crash(error)
        super()._handle_exception(error)
        forget_exit_renderables(self)

    def _worker_failed(self, failed: WorkerFailed) -> None:
        """A background job (a worker) raised: Textual hands its error over wrapped in
        ``WorkerFailed``, which was never raised and has no traceback of its own, so the
        crash log gets the job's own error. The player is told what failed; the game plays
        on."""
        # Called from inside the worker's task: it is the current worker, and its name says
        # what it was doing, for the player.
        try:
            what = get_current_worker().name
        except Exception:  # Textual's NoActiveWorker, or another Textual
            what = ""
        message = background_failure_message(what, failed.error, self.crash_log, public=self.is_web)
        self.notify(message, severity="error", timeout=15, markup=False, kind="worker")

    def menus(self) -> list[Menu]:
        """The menu bar's model; the command palette is built from it too."""
        return game_menus(
            lambda: self.config,
            overlay_on=lambda: self.assist.overlay_on,
            autoplaying=lambda: self.assist.autoplaying,
            zoom_fit=lambda: self.settings.zoom == FIT,
            swapped=lambda: self.settings.swap_mouse_buttons,
            key_for=self.keys.key_for,
            leaderboard=self.is_web and bool(os.environ.get(LEADERBOARD_VARIABLE)),
        )

    def action_leaderboard(self) -> None:
        """Game > Leaderboard (a browser tab on a host that keeps one): its page, in a new
        browser tab."""
        self.open_url("/leaderboard", new_tab=True)

    def first_key(self, binding_id: str) -> str:
        """The player's first key for the binding ``binding_id`` (``PlayerKeys.first_key``)."""
        return self.keys.first_key(binding_id)

    def action_keys(self) -> None:
        """Options > Keys...: see every action's keys, change them, save them."""
        from textmines.ui.screens.keys import KeysScreen

        self.push_screen(KeysScreen(self.keys.keymap, self.settings.key_preset), self._keys_chosen)

    def _keys_chosen(self, choice: KeyChoice | None) -> None:
        if choice is None:
            return
        self.options.save(self.settings._replace(key_preset=choice.preset, keys=choice.entries))
        # The screen lets no bad entry through.
        self.keys.use(self.settings, self.options.source)
        self.menu_bar.menus = tuple(self.menus())
        self.flow.show_state()
        self.notify("Keys saved: the help, the menus and the hints show them.", timeout=4)

    def action_command_palette(self) -> None:
        """Textual's palette (Ctrl+P), made to close once however fast Enter is pressed, and
        opened over the game only: its commands start games and open dialogs, which must not
        happen under a dialog (the keys screen waiting for a key, say)."""
        from textmines.ui.palette import OnceCommandPalette

        if self.use_command_palette and len(self.screen_stack) == 1:
            self.push_screen(OnceCommandPalette(id="--command-palette"))

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        for title, item in self.menu_bar.all_items():
            help_text = f"{title} menu" + (f" ({item.key})" if item.key else "")
            yield SystemCommand(
                item.label, help_text, partial(self.run_action, item.action, self.game_screen)
            )

    def theme_applied(self, theme: MinesTheme) -> None:
        """Restyle what CSS does not (glyphs and faces), keep the game, remember the choice."""
        self.board.set_glyphs(theme.glyphs, self.zoom.tile_for(theme.glyphs.cell_width)[0])
        self.header.set_faces(theme.glyphs.faces, theme.glyphs.ascii)
        if theme.name != self.settings.theme:
            self.options.save(self.settings._replace(theme=theme.name))

    # ------------------------------------------------------------------ replays
    # The controller does the work (textmines.ui.game.replays); the handlers of the screens'
    # messages stay here, where Textual finds them by name.
    def action_open_replay(self) -> None:
        """Ask for a replay file (another program's, or an export) and watch it."""
        self.replays.open()

    # Handlers by name (on_<widget>_<message>): their screens load only when first opened.
    def on_group_section_watch_replay(self, event: GroupSection.WatchReplay) -> None:
        """A best time's replay, from the statistics screen."""
        self.replays.watch_stored(event.game_id)

    def on_replay_screen_export(self, event: ReplayScreen.Export) -> None:
        """The replay on screen as a new .evf file in the replays folder."""
        self.replays.export(event.recording)

    def on_group_section_export_replay(self, event: GroupSection.ExportReplay) -> None:
        """A best time as a new .evf file, from the statistics screen."""
        self.replays.export_stored(event.game_id)

    def action_menu(self, index: int = 0) -> None:
        """Open the menu bar (F10), or one menu (Alt+G, Alt+O, Alt+H)."""
        self.menu_bar.open_menu(index)

    def action_help(self) -> None:
        """Show every control."""
        from textmines.ui.screens.info import InfoScreen

        table = self.keys.controls_table(self.COMMAND_PALETTE_BINDING)
        self.push_screen(InfoScreen("Controls", table))

    def action_about(self) -> None:
        """Version and credits."""
        from textmines.ui.screens.info import about_screen

        self.push_screen(about_screen())

    def action_statistics(self) -> None:
        """Played, won, streaks and best times, one tab per board."""
        from textmines.ui.screens.statistics import StatisticsScreen

        if isinstance(self.screen, StatisticsScreen):
            return  # F4 again: the screen's own binding closes it
        self.stats_keeper.retry_pending()  # games kept while it was busy belong in the figures
        notice = self.stats_keeper.notice or "Statistics are not recorded in this session."
        self.push_screen(
            StatisticsScreen(
                self.stats,
                None if self.stats is not None else notice,
                initial_group=self.session.group,
                player=clean_player_name(self.settings.player_name),
                leaderboard=self._host_client(),
            )
        )

    def _host_client(self) -> HostClient | None:
        """The host of settings.toml's ``[host] url``, whose leaderboard the statistics show
        (in a terminal: a browser tab's host has its own page, Game > Leaderboard)."""
        url = self.settings.host_url
        if not url or self.data_dir is None or self.is_web:
            return None
        from textmines.leaderboard.client import HostClient, host_folder

        return HostClient(url, host_folder(self.data_dir, url))

    def on_leaderboard_view_watch_replay(self, event: LeaderboardView.WatchReplay) -> None:
        """A leaderboard entry's replay, from the statistics' Leaderboard tab."""
        self.replays.watch_remote(event.url, event.title)

    def action_player_name(self) -> None:
        """Game > Player name...: the name over the statistics (in a browser, whose
        profile this is)."""
        from textmines.ui.screens.player_name import PlayerNameScreen

        def chosen(name: str | None) -> None:
            if name is not None and name != self.settings.player_name:
                self.options.save(self.settings._replace(player_name=name))
                said = f"Player name: {name}." if name else "No player name."
                self.notify(said, timeout=3, markup=False)

        screen = PlayerNameScreen(self.settings.player_name, in_browser=self.is_web)
        self.push_screen(screen, chosen)

    async def action_quit(self) -> None:
        """Save a game in play, then leave, or ask first (``LeaveController.quit``)."""
        self.leaving.quit()

    # ------------------------------------------------------------------ size and focus
    def on_resize(self, event: events.Resize) -> None:
        self.flow.check_size(event.size)
        # On top, the game screen fits the zoom when it gets the new size (GameScreen.on_resize):
        # fitting it now would lay the board out once more at the old size. Under a dialog it
        # gets no Resize, so fit it now, for when it shows again.
        if not isinstance(self.screen, GameScreen):
            self.apply_zoom(event.size)

    def on_app_blur(self) -> None:
        self.flow.blurred()
