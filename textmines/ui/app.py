"""TextminesApp: wires the engine to the screen and owns the actions."""

from __future__ import annotations

import signal
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, date, datetime
from enum import Flag, auto
from functools import cache, partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.driver import Driver
from textual.geometry import Size
from textual.markup import escape as escape_markup
from textual.notifications import Notification, Notify, SeverityLevel
from textual.screen import Screen
from textual.worker import WorkerFailed, get_current_worker

from textmines import __version__
from textmines.config import GameConfig, config_from_settings, settings_with_config
from textmines.crash import crash_message, write_crash_log, write_report
from textmines.engine import PRESETS, ActionKind, Game, Status
from textmines.engine.board_id import MAX_CELLS, BoardId, board_id_of, shared_board_of
from textmines.engine.clock import Clock
from textmines.engine.daily import daily_board, daily_day
from textmines.engine.metrics import game_metrics
from textmines.engine.presets import board_label
from textmines.replays.recording import Recording
from textmines.session import Finish, GameSession, percent_cleared_text
from textmines.store.paths import describe_os_error
from textmines.store.saves import LoadedGame
from textmines.store.settings import Settings, clean_player_name, save_changes
from textmines.store.stats import Outcome, StatsError, StatsStore
from textmines.themes import MinesTheme, load_themes
from textmines.ui.assist import Assistant, AssistController
from textmines.ui.board import MOUSE_CONTROLS, BoardView
from textmines.ui.game_menus import game_menus
from textmines.ui.game_screen import GameScreen
from textmines.ui.header import GameHeader, led_fits
from textmines.ui.keymap import Action, actions, hint_texts, kept_keys, key_label, resolve
from textmines.ui.menu import Menu, MenuBar
from textmines.ui.notice import show_notice
from textmines.ui.numbers import format_seconds, game_details, timer_seconds
from textmines.ui.panel import CHROME, COMPACT_CHROME, SLIM_CHROME, GamePanel
from textmines.ui.quit_signals import QuitSignals
from textmines.ui.replays import ReplayController
from textmines.ui.status import GAME_OVER_HINTS, HINTS, StatusLine
from textmines.ui.theming import ThemedApp
from textmines.ui.tiles import FIT, Tile, fitting_tile, tile_sizes, zoom_index
from textmines.ui.toasts import ToastKinds, place_toasts

if TYPE_CHECKING:
    from textmines.ui.screens.keys import KeyChoice
    from textmines.ui.screens.replay import ReplayScreen
    from textmines.ui.screens.statistics import GroupSection
    from textmines.ui.web_tab import PageClosed

#: Below this the layout cannot show a useful board: a message replaces it.
MIN_WIDTH = 30
MIN_HEIGHT = 8
#: Below this height the board is drawn without its frame.
COMPACT_HEIGHT = 20
#: How often games kept while another program held the statistics are written (seconds).
PENDING_RETRY_SECONDS = 30


class Hold(Flag):
    """What may stop the clock (``TextminesApp.hold_clock``); the clock runs when none does."""

    PLAYER = auto()  # P
    BLUR = auto()  # the terminal lost focus
    COVERED = auto()  # a dialog over the board
    TOO_SMALL = auto()  # a terminal too small for the board
    #: Holds that also hide the board, as pausing does in the classic game.
    HIDING = PLAYER | BLUR


@cache
def bundled_themes() -> dict[str, MinesTheme]:
    """The bundled themes, read once: the app's themes when it is given none."""
    themes, _ = load_themes(None)
    return themes


class TextminesApp(ThemedApp):
    """The game."""

    CSS_PATH = "app.tcss"
    TITLE = "textmines"
    #: The quit signals' handlers, once the app runs (``_catch_quit_signals``).
    _quit_signals: QuitSignals | None = None

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f2,n", "new_game", "New game", id="app.new_game"),
        Binding("r", "restart", "Restart this board", show=False, id="app.restart"),
        Binding("1", "preset('beginner')", "Beginner", show=False, id="app.beginner"),
        Binding("2", "preset('intermediate')", "Intermediate", show=False, id="app.intermediate"),
        Binding("3", "preset('expert')", "Expert", show=False, id="app.expert"),
        Binding("c", "custom", "Custom board", show=False, id="app.custom"),
        Binding("p", "pause", "Pause / resume", id="app.pause"),
        Binding("t", "choose_theme", "Theme", show=False, id="app.theme"),
        Binding("i", "hint", "Hint", show=False, id="app.hint"),
        Binding("o", "toggle_overlay", "Probability overlay", show=False, id="app.overlay"),
        Binding("a", "autoplay", "Autoplay on / off", show=False, id="app.autoplay"),
        Binding(
            "greater_than_sign",
            "autoplay_pace(-1)",
            "Autoplay faster",
            show=False,
            id="app.autoplay_faster",
        ),
        Binding(
            "less_than_sign",
            "autoplay_pace(1)",
            "Autoplay slower",
            show=False,
            id="app.autoplay_slower",
        ),
        Binding("f4", "statistics", "Statistics", show=False, id="app.statistics"),
        Binding("w", "watch_replay", "Watch the replay", show=False, id="app.watch_replay"),
        Binding("b", "board_info", "Board info and ID", show=False, id="app.board_info"),
        Binding("d", "daily", "Daily board", show=False, id="app.daily"),
        Binding("f1,question_mark", "help", "Help", id="app.help"),
        Binding("f10", "menu", "Menu", id="app.menu"),
        Binding(
            "right_square_bracket,ctrl+plus,ctrl+equals_sign",
            "zoom(1)",
            "Zoom in",
            show=False,
            id="app.zoom_in",
        ),
        Binding(
            "left_square_bracket,ctrl+minus", "zoom(-1)", "Zoom out", show=False, id="app.zoom_out"
        ),
        Binding("equals_sign,ctrl+0", "zoom_fit", "Zoom to fit", show=False, id="app.zoom_fit"),
        Binding("alt+g", "menu(0)", "Game menu", show=False, id="app.menu_game"),
        Binding("alt+o", "menu(1)", "Options menu", show=False, id="app.menu_options"),
        Binding("alt+h", "menu(2)", "Help menu", show=False, id="app.menu_help"),
        Binding("q,ctrl+c", "quit", "Quit", id="app.quit", priority=False),
    ]

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
        save_path: Path | None = None,
        resumed: LoadedGame | None = None,
        autoplay: bool = False,
        crash_log: Path | None = None,
        replay: tuple[Recording, str] | None = None,
        replays_dir: Path | None = None,
        board_id: BoardId | None = None,
        daily: bool = False,
    ) -> None:
        super().__init__(themes if themes is not None else bundled_themes(), theme)
        #: A recording to watch as soon as the app starts (``--replay``), and its title.
        self._replay_at_start = replay
        #: Where replays exported from the viewer go; None: nowhere (tests).
        self.replays_dir = replays_dir
        #: The board to start on (``--game ID``), its first click made; or today's daily board.
        self._board_id_at_start = board_id
        self._daily_at_start = daily
        self.clock = clock
        # The options of the next game live in the settings only (``config`` derives from
        # them); a board chosen on the command line joins them for this run, written only
        # when the player changes an option.
        first = config or GameConfig()
        #: The settings as this run last read or wrote them: a save writes only what changed
        #: since (``save_changes``), so two runs at once keep each other's choices.
        self._settings_known = settings or Settings()
        self.settings = settings_with_config(self._settings_known, first)
        # None: nothing is written (tests, or a player who cannot save).
        self.settings_path = settings_path
        self._startup_warnings = [*warnings, *self._use_keys(self.settings)]
        # None: games are not recorded; the statistics screen then shows ``stats_notice``.
        self.stats = stats
        self.stats_notice = stats_notice
        self.save_path = save_path
        self.crash_log = crash_log
        #: After an unexpected error: the line to show the player once the screen is gone.
        self.crash_report: str | None = None
        #: What the player must still be told once the screen is gone (a save problem).
        self.exit_message: str | None = None
        self._settings_warned = False
        self.session = self._first_session(first, resumed)
        self._build_widgets()
        self._autoplay_at_start = autoplay
        self._init_screen_state()

    def _init_screen_state(self) -> None:
        """What the app keeps of the screen as it is: sizes applied, holds, toasts."""
        # (too small, compact) as last applied; None: not yet.
        self._size_state: tuple[bool, bool] | None = None
        #: Whether the panel gives its frame's top and bottom edges to the LED header (_tile_for).
        self._slim_panel = False
        #: Why the clock is stopped, if it is (see ``hold_clock``).
        self._holds = Hold(0)
        #: The kind of each toast shown with one (see ``notify``).
        self._toast_kinds = ToastKinds()

    def _build_widgets(self) -> None:
        """The game's widgets, kept at hand: they live as long as the app."""
        self.menu_bar = MenuBar(self.menus(), id="menubar")
        glyphs = self.mines_theme.glyphs
        self.header = GameHeader(glyphs.faces, ascii=glyphs.ascii, id="header")
        self.board = BoardView(
            lambda: self.session.game,
            glyphs=glyphs,
            left_click_chords=self.config.left_click_chords,
            on_move=self.play,
            on_pointer=lambda x, y: self.session.point(x, y),
            on_press=lambda x, y: self.session.press(x, y),
        )
        self.board.swap_buttons = self.settings.swap_mouse_buttons
        self.status_line = StatusLine(id="status")
        self.assist = Assistant(self)
        self.assist_control = AssistController(self, self.assist)
        self.replays = ReplayController(self)

    def _first_session(self, config: GameConfig, resumed: LoadedGame | None) -> GameSession:
        """The resumed game (its board becomes the settings' for this run), else a new game
        from ``config``: a --seed applies to the first game only."""
        today = daily_day(datetime.now(UTC))
        if resumed is None and self._daily_at_start:
            self._board_id_at_start = daily_board(today)
        if resumed is None and self._board_id_at_start is not None:
            shared = self._board_id_at_start
            board = config.with_board(
                shared.board.width, shared.board.height, shared.board.mine_count
            )
            self.settings = settings_with_config(self.settings, board)
            session = self._session(self._game_of(shared))
            if self._daily_at_start:
                self._mark_daily(session, today)
            return session
        if resumed is None:
            return self._session(self._new_game(config))
        game = resumed.game
        board = config.with_board(game.width, game.height, game.mines)
        self.settings = settings_with_config(self.settings, board)
        return GameSession.resume(resumed, stats=self.stats, save_path=self.save_path)

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
        return GameScreen(on_resize=self.apply_zoom)

    def compose(self) -> ComposeResult:
        # Few widgets on purpose: Textual's cost per key press grows with their number.
        yield self.menu_bar
        # The zoom for the terminal as it is, before the first layout: no second pass.
        self.apply_zoom()
        ascii = self.mines_theme.glyphs.ascii
        classes = " ".join(
            name for name, on in (("-ascii", ascii), ("-slim", self._slim_panel)) if on
        )
        with GamePanel(id="panel", classes=classes):
            yield self.header
            yield self.board
        yield self.status_line

    def on_mount(self) -> None:
        if self._replay_at_start is not None:
            # textmines --replay FILE: the viewer is the whole run; closing it ends textmines,
            # back to the shell (the game under it was never played: nothing to save).
            self.view_replay(*self._replay_at_start, closed=self.exit)
        for warning in self._startup_warnings:
            self.notify(warning, title="textmines", severity="warning", timeout=10, markup=False)
        self.set_interval(0.25, self._tick)
        self._show_game_state()
        self._check_size()
        if self.session.saved:
            # Resumed: the clock waits until the player has had a look.
            self.hold_clock(Hold.PLAYER, True)
        if self.session.saved and self._replay_at_start is None:  # not over the viewer
            self.notify(
                f"Your last game is back, paused. Press {self.key_for('app.pause')} to play on.",
                timeout=6,
            )
        if self._autoplay_at_start:
            self.assist_control.start_autoplay()
        self._catch_quit_signals()
        if self.stats is not None:
            self.set_interval(PENDING_RETRY_SECONDS, self._retry_pending)

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
        the same text: five presses of a key leave one toast, not five over the board.

        It goes to the corner of the screen farthest from the board's cursor.
        """
        for shown in self._toast_kinds.replaced(self._notifications, message, title, kind):
            self._unnotify(shown, refresh=False)
        notification = Notification(
            message,
            title,
            severity,
            self.NOTIFICATION_TIMEOUT if timeout is None else timeout,
            markup=markup,
        )
        self._toast_kinds.keep(notification, kind, self._notifications)
        place_toasts(self.screen, self.board, self.header)
        self.post_message(Notify(notification))

    def _withdraw(self, kind: str) -> None:
        """Take the toast of ``kind`` off the screen, if one is shown (it no longer holds)."""
        for shown in self._toast_kinds.of_kind(self._notifications, kind):
            self._unnotify(shown)

    def _catch_quit_signals(self) -> None:
        """Closing the terminal, kill, kill -INT: the game is saved, and the process ends
        soon after, with a driver that can stop waiting for a terminal that is gone
        (``textmines.ui.terminal``)."""
        self._quit_signals = QuitSignals(
            self._quit_on_signal,
            lambda: self.session.can_be_saved,
            self.crash_log,
            watch=not self.is_headless,  # a test's app: never end the test's process
        )
        self._quit_signals.install(getattr(self._driver, "leave", None))

    def on_unmount(self) -> None:
        if self._quit_signals is not None:
            self._quit_signals.restore()

    def _quit_on_signal(self, signal_number: int = signal.SIGTERM) -> None:
        try:
            # No one to ask: a game that cannot be saved is recorded as abandoned, or kept.
            left = self.session.leave()
        finally:
            if self._quit_signals is not None:
                self._quit_signals.kept()
        if left.saved:
            self.exit_message = self.session.saved_beside or self.exit_message
        elif left.in_play:
            self.exit_message = left.said
            if self.crash_log is not None:
                # The terminal may be gone, and the message with it: the log keeps where the
                # game went.
                name = signal.Signals(signal_number).name
                write_report(self.crash_log, f"textmines ended on {name}: {left.said}")
        # A process stopped by a signal says so in its status, as shells expect (128 + n).
        self.exit(return_code=128 + signal_number)

    def on_page_closed(self, _: PageClosed) -> None:
        """A browser's tab closed, or the server stopped: no one to ask. The game in play is
        saved in the browser's profile (it comes back when that browser opens the page
        again); one that cannot be is recorded as abandoned, or kept (``GameSession.leave``)."""
        left = self.session.leave()
        if left.in_play and not left.saved:
            self.exit_message = left.said  # to the server's output: the page is gone
            if self.crash_log is not None:
                write_report(self.crash_log, f"textmines: a browser's page closed: {left.said}")
        self.exit()

    def _retry_pending(self) -> None:
        """Write the games kept while another program held the statistics (only then does
        this touch the database: a wait of at most its busy timeout)."""
        if self.stats is not None and self.stats.pending:
            notice = self.stats.retry_pending()
            if notice is not None:
                self.notify(notice, severity="warning", markup=False, kind="stats-pending")

    def _handle_exception(self, error: Exception) -> None:
        # Textual's one exit for an exception nothing handled (pinned by a test): save the game
        # in play first, put the traceback in the crash log, and leave the player one line
        # instead of a screenful of locals. A background job's failure is not worth the game.
        if isinstance(error, WorkerFailed):
            self._worker_failed(error)
            return
        if self.crash_report is None:
            self.crash_report = self._save_after_crash(error)
        super()._handle_exception(error)
        self._exit_renderables.clear()

    def _worker_failed(self, failed: WorkerFailed) -> None:
        """A background job (a worker) raised: Textual hands its error over wrapped in
        ``WorkerFailed``, which was never raised and has no traceback of its own, so the
        crash log gets the job's own error. The player is told what failed; the game plays
        on."""
        error = failed.error
        # Called from inside the worker's task: it is the current worker, and its name says
        # what it was doing, for the player.
        try:
            what = get_current_worker().name
        except Exception:  # Textual's NoActiveWorker, or another Textual
            what = ""
        log = self.crash_log
        problem = write_crash_log(log, error) if log is not None else None
        if log is None:
            details = ""
        elif problem is not None:
            details = f" The details could not be written to {log} ({problem})."
        else:
            details = f" Details: {log} (please attach it to a bug report)."
        self.notify(
            f"{what or 'A background job'} failed ({type(error).__name__}: {error}); the game "
            f"plays on.{details}",
            severity="error",
            timeout=15,
            markup=False,
            kind="worker",
        )

    def _save_after_crash(self, error: BaseException) -> str:
        try:
            left = self.session.leave()
        except Exception as save_error:  # the save must not hide the first error
            saved = f"Your game could not be saved ({type(save_error).__name__}: {save_error})."
        else:
            if not left.in_play:
                saved = "No game was in play."
            elif left.saved:
                saved = "Your game was saved and comes back next time."
            else:
                saved = left.said
        problem = write_crash_log(self.crash_log, error) if self.crash_log is not None else None
        return crash_message(error, self.crash_log, problem, saved)

    def menus(self) -> list[Menu]:
        """The menu bar's model; the command palette is built from it too."""
        return game_menus(
            lambda: self.config,
            overlay_on=lambda: self.assist.overlay_on,
            autoplaying=lambda: self.assist.autoplaying,
            zoom_fit=lambda: self.settings.zoom == FIT,
            swapped=lambda: self.settings.swap_mouse_buttons,
            key_for=self.key_for,
        )

    @classmethod
    def key_actions(cls) -> tuple[Action, ...]:
        """Every action a key can be given: the game's bindings, then the board's."""
        return actions([("Game", cls.BINDINGS), ("Board", BoardView.BINDINGS)])

    def key_for(self, action: str) -> str:
        """The player's first key for app action ``action`` (``app.hint``), written as the help
        screen writes it; "" for an action without a key."""
        name = action.removeprefix("app.")
        for binding in self.BINDINGS:
            if isinstance(binding, Binding) and binding.action == name and binding.id:
                return self.first_key(binding.id)
        return ""

    def first_key(self, binding_id: str) -> str:
        """The player's first key for the binding ``binding_id`` (``app.autoplay_faster``),
        written as the help screen writes it; "" when it has none."""
        keys = self.keymap.keys_for(binding_id)
        return key_label(keys[0]) if keys else ""

    def _use_keys(self, settings: Settings) -> list[str]:
        """Put the player's keys in effect: the preset and the [keys] entries of ``settings``
        over the bindings' own keys. Returns a warning for each entry that cannot be used."""
        from textmines.ui.screens.game_over import GameOverScreen

        self.keymap, warnings = resolve(
            self.key_actions(),
            settings.key_preset,
            settings.keys,
            str(self.settings_path or "settings.toml"),
            kept_keys([("the game-over box", GameOverScreen.BINDINGS)]),
        )
        self.set_keymap(self.keymap.textual())
        #: The status hints with these keys: while a game is played, and once it is over.
        self._hints = {
            False: hint_texts(self.keymap, HINTS),
            True: hint_texts(self.keymap, GAME_OVER_HINTS),
        }
        return warnings

    def action_keys(self) -> None:
        """Options > Keys...: see every action's keys, change them, save them."""
        from textmines.ui.screens.keys import KeysScreen

        self.push_screen(KeysScreen(self.keymap, self.settings.key_preset), self._keys_chosen)

    def _keys_chosen(self, choice: KeyChoice | None) -> None:
        if choice is None:
            return
        self._save_settings(replace(self.settings, key_preset=choice.preset, keys=choice.entries))
        self._use_keys(self.settings)  # the screen lets no bad entry through
        self.menu_bar.menus = tuple(self.menus())
        self._show_game_state()
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
            yield SystemCommand(item.label, help_text, partial(self.run_action, item.action))
        for name, theme in self.themes.items():
            origin = "bundled" if theme.bundled else f"from {theme.source}"
            # The palette reads titles as markup; names and paths come from the player's files.
            yield SystemCommand(
                f"Theme: {escape_markup(name)}",
                escape_markup(f"Switch to the {origin} theme"),
                partial(self.action_theme, name),
            )

    # ------------------------------------------------------------------ game flow
    def _new_game(self, config: GameConfig) -> Game:
        return Game(
            config.width,
            config.height,
            config.mines,
            seed=config.seed,
            first_click=config.first_click,
            question_marks=config.question_marks,
            no_guess=config.no_guess,
            clock=self.clock,
        )

    def _game_of(self, shared: BoardId) -> Game:
        return shared.game(question_marks=self.config.question_marks, clock=self.clock)

    def action_daily(self) -> None:
        """Today's daily board (UTC): Expert, no guessing needed, the same for everyone. The
        probability overlay does not come along: it would make the day's try assisted before
        the player has looked at the board."""
        today = daily_day(datetime.now(UTC))
        if self.assist.overlay_on:
            self.assist_control.overlay_off()
            self.notify(
                f"Probability overlay off for the daily board ({self.key_for('app.overlay')} "
                "turns it on again, and makes the try assisted).",
                timeout=5,
                kind="overlay",
            )
        self.start(self._game_of(daily_board(today)))
        self._mark_daily(self.session, today)
        self.show_modes()

    def _mark_daily(self, session: GameSession, day: date) -> None:
        """``session`` plays ``day``'s daily board: the first try counts, later ones are
        practice (statistics that cannot be read: the try counts, as nothing says otherwise)."""
        session.daily = day
        try:
            session.practice = self.stats is not None and self.stats.daily_counted(day.isoformat())
        except StatsError:
            session.practice = False

    def action_board_info(self) -> None:
        """What the board in play is, with its ID to share."""
        from textmines.ui.screens.board_id import BoardInfoScreen

        game = self.game
        rule = "opening" if game.first_click == "opening" else "safe"
        kind = ", no-guess" if game.no_guess else ""
        label = board_label(game.width, game.height, game.mines)
        description = f"{label}, first click {rule}{kind}"
        if game.board is None:
            why = "none yet: the mines are placed at the first reveal, so play one first"
        else:
            why = f"none: boards over {MAX_CELLS:,} cells have no ID (it would be too long)"
        self.push_screen(BoardInfoScreen(description, board_id_of(game), why))

    def action_play_board_id(self) -> None:
        """Ask for a board ID and play it."""
        from textmines.ui.screens.board_id import PlayBoardIdScreen

        def chosen(shared: BoardId | None) -> None:
            if shared is not None:
                self.start(self._game_of(shared))

        self.push_screen(PlayBoardIdScreen(), chosen)

    def _session(self, game: Game) -> GameSession:
        return GameSession(game, stats=self.stats, save_path=self.save_path)

    @property
    def game(self) -> Game:
        """The game on the board."""
        return self.session.game

    def start(self, game: Game) -> None:
        """Put ``game`` on the board and reset the header, status and pause.

        The game it replaces, if in play, is recorded as abandoned.
        """
        notice = self.session.abandon()
        if notice is not None:
            self.notify(notice, severity="warning", markup=False)
        self.assist_control.stop_autoplay()
        self.session = self._session(game)
        self.sub_title = self.config.label
        # A new game is not paused; what covers the board (a dialog, a small terminal) still
        # holds its clock once it starts.
        self.hold_clock(Hold.PLAYER | Hold.BLUR, False)
        self.board.show_new_game()
        self.apply_zoom()
        self._show_game_state()
        self.assist_control.refresh_overlay()

    def _show_game_state(self, finish: Finish | None = None) -> None:
        game = self.game
        header = self.header
        header.counter_digits = max(3, len(str(game.mines)))
        header.mines_left = game.mines_left
        header.seconds = timer_seconds(game.elapsed_ms, game.clock.started)
        header.set_face({Status.WON: "won", Status.LOST: "lost"}.get(game.status, "normal"))
        status = self.status_line
        if game.status == Status.WON:
            # Worked out once when the game ended; again only to redraw the line later.
            m = finish.metrics if finish is not None else game_metrics(game)
            message = (
                f"Cleared in {format_seconds(game.elapsed_ms)} - 3BV {m.bbbv} - "
                f"{m.bbbv_per_second:.2f} 3BV/s"
            )
            # An assisted or restarted win says so in the modes; no record to announce.
            if finish is not None and finish.new_best:
                message += " - new best time!"
                previous = finish.previous_best
                if previous is not None:
                    message += f" (was {format_seconds(previous.time_ms)})"
            status.show(message, Outcome.WON)
        elif game.status == Status.LOST:
            status.show(f"Boom - {percent_cleared_text(game)} cleared", Outcome.LOST)
        else:
            status.show(f"{game.safe_left} safe left · {percent_cleared_text(game)} cleared")
        # Over, the board takes no moves: the hints offer what comes next.
        status.set_hints(self._hints[game.status.is_over])
        self.show_modes()

    def show_modes(self) -> None:
        """Name on the status line what changes the game: no-guess, autoplay, assisted."""
        game, modes = self.game, []
        if game.no_guess:
            modes.append("No-guess (fell back)" if game.no_guess_failed else "No-guess")
        if self.assist.autoplaying:
            modes.append(f"Autoplay {self.assist.delay:g} s")
        if self.session.assisted:
            modes.append("Assisted")
        elif self.session.restarted:
            modes.append("Restarted")
        if self.session.daily is not None:
            practice = ", practice" if self.session.practice else ""
            modes.append(f"Daily {self.session.daily.isoformat()}{practice}")
        self.status_line.show_modes(modes)

    def _tick(self) -> None:
        game = self.game
        # A reactive: repaints only when the number changes.
        self.header.seconds = timer_seconds(game.elapsed_ms, game.clock.started)

    def play(self, kind: ActionKind, x: int, y: int) -> None:
        """Make one move, whoever asks (keys, mouse, autoplay): through the session, then
        redraw what changed. A first reveal that must deal a no-guess board deals it first."""
        if kind == ActionKind.REVEAL and self.game.needs_deal(x, y):
            self._deal_then_reveal(x, y)
            return
        self.board.show_hint(None)
        played = self.session.play(kind, x, y)
        if not played.change:  # after the end every move is empty: nothing to show
            return
        self.board.refresh_rows(played.change.rows())
        if played.started and len(played.change) > 1:
            self.board.show_opening(x, y, played.change.bounds())
        self._show_game_state(played.finish)
        self.assist_control.refresh_overlay()
        if played.started and self.game.no_guess_failed:
            self.notify(
                "No no-guess board could be made at this density in time: this board may "
                "need a guess.",
                severity="warning",
                timeout=8,
            )
        finish = played.finish
        if finish is None:
            return
        if finish.notice is not None:
            self.notify(finish.notice, severity="warning", markup=False)
        self._show_game_over(finish)

    @property
    def dealing(self) -> bool:
        """Whether a no-guess board is being dealt (its box takes the keys meanwhile)."""
        from textmines.ui.screens.dealing import DealingScreen

        return any(isinstance(screen, DealingScreen) for screen in self.screen_stack)

    def _deal_then_reveal(self, x: int, y: int) -> None:
        """Deal a no-guess board off the UI thread, then make the first reveal at ``(x, y)``."""
        from textmines.engine.game import Deal
        from textmines.ui.screens.dealing import DealingScreen

        if self.dealing:
            return
        game = self.game

        def dealt(deal: Deal | None) -> None:
            if game is not self.game or box.failed:
                return  # another game started meanwhile, or the failure was said
            if deal is None:
                self.notify(
                    "No-guess deal cancelled: reveal again to deal, or turn off Options > "
                    "No-guess boards for an ordinary board.",
                    kind="deal",
                )
                return
            game.accept_deal(deal)
            self.play(ActionKind.REVEAL, x, y)

        box = DealingScreen(game, x, y)
        self.push_screen(box, dealt)

    def _show_game_over(self, finish: Finish) -> None:
        """The end-of-game box: how it went, then play again, restart or look at the board."""
        from textmines.ui.screens.game_over import Choice, GameOverScreen

        game = self.game
        won = game.status == Status.WON
        label = self.session.group.label
        if self.session.daily is not None:
            practice = " (practice)" if self.session.practice else ""
            label = f"Daily {self.session.daily.isoformat()}{practice}"
        title = f"{label} cleared!" if won else f"Boom! {label} lost"

        def chosen(choice: Choice) -> None:
            if choice == "new":
                self.action_new_game()
            elif choice == "restart":
                self.action_restart()
            elif choice == "replay":
                self.action_watch_replay()

        panel = self.query_one(GamePanel)
        figures = self._game_over_figures(finish)
        details = game_details(finish.metrics)
        # The panel's place now, each time the box is placed: a resize moves and zooms it.
        box = GameOverScreen(won, title, figures, beside=lambda: panel.region, details=details)
        box.board_id = board_id_of(game)
        box.board = game.board
        box.on_face = self.header.face_at_screen
        self.push_screen(box, chosen)

    def _game_over_figures(self, finish: Finish) -> list[tuple[str, str]]:
        game, m = self.game, finish.metrics
        won = game.status == Status.WON
        figures = [("Time", format_seconds(game.elapsed_ms))]
        if won:
            figures += [("3BV", f"{m.bbbv}"), ("3BV/s", f"{m.bbbv_per_second:.2f}")]
        else:
            figures += [
                ("3BV", f"{m.solved_bbbv} of {m.bbbv} solved"),
                ("Cleared", percent_cleared_text(game)),
            ]
        previous = finish.previous_best
        best = format_seconds(previous.time_ms) if previous is not None else "none yet"
        if self.stats is None:
            best = "not kept this session"
        elif finish.new_best:
            best = f"{format_seconds(game.elapsed_ms)}, new best!" + (
                f" (was {best})" if previous is not None else ""
            )
        figures.append(("Best time", best))
        if won and not self.session.sets_records and self.stats is not None:
            figures.append(("Assisted" if self.session.assisted else "Restarted", "no record"))
        return figures

    @on(BoardView.PressChanged)
    def _press_changed(self, event: BoardView.PressChanged) -> None:
        if not self.game.status.is_over:
            self.header.set_face("pressed" if event.pressed else "normal")

    @on(GameHeader.SmileyClicked)
    def _smiley_clicked(self) -> None:
        self.action_new_game()

    # ------------------------------------------------------------------ replays
    # The controller does the work (textmines.ui.replays); the actions and the handlers of
    # the screens' messages stay here, where Textual finds them by name.
    def action_watch_replay(self) -> None:
        """Watch the game just played (or the one in play, so far); before a first reveal,
        the last recorded game."""
        self.replays.watch()

    def action_open_replay(self) -> None:
        """Ask for a replay file (another program's, or an export) and watch it."""
        self.replays.open()

    def view_replay(
        self, recording: Recording, title: str, closed: Callable[[], object] | None = None
    ) -> None:
        """Open the replay viewer on ``recording``; then ``closed``, if given."""
        self.replays.view(recording, title, closed)

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

    # ------------------------------------------------------------------ actions
    def action_new_game(self) -> None:
        """A new board of the current size."""
        self.start(self._new_game(self.config))

    def action_restart(self) -> None:
        """The same mines again, with the same first click made, the same rules and ID (a
        board not yet dealt is simply dealt again). A daily board stays the day's (a practice
        try). A win on a board whose mines the player saw sets no record."""
        old = self.session
        shared = shared_board_of(old.game)
        if shared is None:
            game = old.game
            config = replace(
                self.config.with_board(game.width, game.height, game.mines),
                seed=game.seed,
                first_click=game.first_click,
                no_guess=game.no_guess,
            )
            self.start(self._new_game(config))
            return
        self.start(self._game_of(shared))
        self.session.restarted = old.restarted or old.touched
        if old.daily is not None:
            self._mark_daily(self.session, old.daily)
        self.show_modes()

    def set_options(self, **changes: Any) -> bool:
        """The one path for an option: the next game's config, settings.toml, and the game in
        play for what applies at once (question marks, left-click chording). False, with a
        notice, when the change is not allowed (the config says why)."""
        try:
            config = replace(self.config, **changes)
        except ValueError as error:
            self.notify(str(error), severity="warning", markup=False)
            return False
        self._save_settings(settings_with_config(self.settings, config))
        self.game.question_marks = config.question_marks
        self.board.left_click_chords = config.left_click_chords
        return True

    @property
    def config(self) -> GameConfig:
        """The next game's board and options: the settings' (a seed never carries over)."""
        return config_from_settings(self.settings)

    def _save_settings(self, settings: Settings) -> None:
        """Keep ``settings`` and write them (atomically) unless the app has no settings file."""
        self.settings = settings
        if self.settings_path is None:
            return
        try:
            # What another run changed meanwhile is kept and becomes this run's too: else
            # the next save would count it as this run's change and write the old value back.
            self.settings = self._settings_known = save_changes(
                self.settings_path, self._settings_known, self.settings
            )
        except OSError as error:
            if self._settings_warned:
                return  # once a session is enough: the choices still apply to this run
            self._settings_warned = True
            self.notify(
                f"Settings not saved to {self.settings_path}: {describe_os_error(error)}",
                severity="warning",
                markup=False,
            )

    def action_preset(self, key: str) -> None:
        """Start a Beginner, Intermediate or Expert game."""
        self._new_board(*PRESETS[key].size)

    def _new_board(self, width: int, height: int, mines: int) -> None:
        """Start a game on another board, kept as the board of the next games."""
        if self.set_options(width=width, height=height, mines=mines):
            self.action_new_game()

    # The screens below are imported when first opened: start-up does not pay for them.
    def action_custom(self) -> None:
        """Ask for a custom board, then start it."""
        from textmines.ui.screens.custom import CustomBoardScreen

        def chosen(result: tuple[int, int, int] | None) -> None:
            if result is not None:
                self._new_board(*result)

        c = self.config
        self.push_screen(CustomBoardScreen(c.width, c.height, c.mines, c.first_click), chosen)

    def action_toggle_question_marks(self) -> None:
        """Switch question marks on or off (also in the running game)."""
        self.set_options(question_marks=not self.config.question_marks)
        state = "on" if self.config.question_marks else "off"
        self.notify(f"Question marks {state}.", timeout=2)

    def action_first_click(self, rule: str) -> None:
        """Choose the first-click rule; it applies from the next game."""
        if self.set_options(first_click=rule):
            self.notify(f"First click: {rule} (from the next game).", timeout=2)

    def action_toggle_swap_mouse_buttons(self) -> None:
        """Left flags and right reveals, or back; kept in the settings."""
        swap = not self.settings.swap_mouse_buttons
        self._save_settings(replace(self.settings, swap_mouse_buttons=swap))
        self.board.swap_buttons = swap
        state = "left flags, right reveals" if swap else "left reveals, right flags"
        self.notify(f"Mouse buttons: {state}.", timeout=2, kind="option")

    def action_toggle_left_click_chords(self) -> None:
        """Whether a left click on a revealed number chords."""
        self.set_options(left_click_chords=not self.config.left_click_chords)
        state = "on" if self.config.left_click_chords else "off"
        self.notify(f"Left-click chording {state}.", timeout=2)

    def action_choose_theme(self) -> None:
        """Pick a theme from a list; it applies at once, mid-game included."""
        from textmines.ui.screens.themes import ThemeScreen

        def chosen(name: str | None) -> None:
            if name is not None:
                self.action_theme(name)

        self.push_screen(ThemeScreen(self.themes, self.mines_theme.name), chosen)

    def action_change_theme(self) -> None:
        # Textual's "Theme" command opens our picker, which shows the board in each theme.
        self.action_choose_theme()

    def action_theme(self, name: str) -> None:
        """Switch to the theme called ``name`` (theme_applied remembers it)."""
        theme = self.themes.get(name)
        if theme is None:
            self.notify(f"There is no theme called {name!r}.", severity="warning", markup=False)
            return
        self.use_theme(theme)

    def theme_applied(self, theme: MinesTheme) -> None:
        """Restyle what CSS does not (glyphs and faces), keep the game, remember the choice."""
        self.board.set_glyphs(theme.glyphs, self._tile_for(theme.glyphs.cell_width)[0])
        self.header.set_faces(theme.glyphs.faces, theme.glyphs.ascii)
        self.query_one(GamePanel).set_class(theme.glyphs.ascii, "-ascii")
        if theme.name != self.settings.theme:
            self._save_settings(replace(self.settings, theme=theme.name))

    # ------------------------------------------------------------------ the assistant
    # The controller does the work (textmines.ui.assist); the actions stay here, where the
    # bindings, the menus and the command palette call them by name, and so do the solver's
    # messages, which Textual dispatches to DOM nodes only.
    def action_hint(self) -> None:
        """Show a safe cell, or the safest one with its odds (the game becomes assisted)."""
        self.assist_control.hint()

    def action_toggle_overlay(self) -> None:
        """Show every covered cell's mine probability (the game becomes assisted)."""
        self.assist_control.toggle_overlay()

    def action_autoplay(self) -> None:
        """Let the solver play on, move by move; again to stop (the game becomes assisted)."""
        self.assist_control.toggle_autoplay()

    def action_autoplay_pace(self, steps: int) -> None:
        """Autoplay faster (-1) or slower (1)."""
        self.assist_control.change_pace(steps)

    @on(Assistant.Failed)
    def _solver_failed(self, event: Assistant.Failed) -> None:
        self.assist_control.solver_failed(event)

    @on(Assistant.Hinted)
    def _hinted(self, event: Assistant.Hinted) -> None:
        self.assist_control.hinted(event)

    @on(Assistant.OverlayReady)
    def _overlay_ready(self, event: Assistant.OverlayReady) -> None:
        self.assist_control.overlay_ready(event)

    @on(Assistant.MoveFound)
    def _move_found(self, event: Assistant.MoveFound) -> None:
        self.assist_control.move_found(event)

    def action_toggle_no_guess(self) -> None:
        """Boards that never need a guess, from the next game."""
        self.set_options(no_guess=not self.config.no_guess)
        state = "on" if self.config.no_guess else "off"
        self.notify(f"No-guess boards {state} (from the next game).", timeout=3)

    def action_pause(self) -> None:
        """Hide the board and stop the clock, or resume."""
        if self.board_hidden:
            self.hold_clock(Hold.HIDING, False)
        elif self.game.status == Status.PLAYING:
            self.hold_clock(Hold.PLAYER, True)
        else:
            self.notify("Nothing to pause: the clock is not running.", timeout=2, kind="pause")

    @property
    def board_hidden(self) -> bool:
        """Whether a pause (P, or the terminal losing focus) hides the board."""
        return bool(self._holds & Hold.HIDING)

    @property
    def clock_held(self) -> bool:
        """Whether anything holds the clock (see ``hold_clock``)."""
        return bool(self._holds)

    def hold_clock(self, reason: Hold, held: bool) -> None:
        """Stop the clock for ``reason`` (or let go of it): it runs only when nothing holds it.

        ``PLAYER`` (P) and ``BLUR`` (the terminal lost focus) also hide the board, as pausing
        does in the classic game; a dialog over the board (``COVERED``) or a terminal too small
        for it (``TOO_SMALL``) only stop the clock.
        """
        was_hidden = self.board_hidden
        if held:
            self._holds |= reason
        else:
            self._holds &= ~reason
        if self._holds:
            self.game.clock.pause()
        else:
            self.game.clock.resume()
        hidden = self.board_hidden
        if hidden != was_hidden:
            resume = f"Paused - press {self.key_for('app.pause')} to resume"
            self._show_notice("paused", resume if hidden else None)
            if not hidden:
                self.board.focus()
        self._tick()

    @on(GameScreen.Covered)
    def _game_screen_covered(self, event: GameScreen.Covered) -> None:
        self.hold_clock(Hold.COVERED, event.covered)

    def on_app_blur(self) -> None:
        if self.game.status == Status.PLAYING and not self.game.clock.paused:
            self.hold_clock(Hold.BLUR, True)

    def action_menu(self, index: int = 0) -> None:
        """Open the menu bar (F10), or one menu (Alt+G, Alt+O, Alt+H)."""
        self.menu_bar.open_menu(index)

    def action_help(self) -> None:
        """Show every control."""
        from textmines.ui.screens.help import controls_table
        from textmines.ui.screens.info import InfoScreen

        # The palette's key is Textual's own binding, not one of the game's: listed too.
        palette = Binding(
            self.COMMAND_PALETTE_BINDING, "command_palette", "Command palette: any command by name"
        )
        table = controls_table(
            [
                ("Game", [*self.keymap.bindings(self.BINDINGS), palette]),
                ("Board", self.keymap.bindings(BoardView.BINDINGS)),
            ],
            MOUSE_CONTROLS,
        )
        self.push_screen(InfoScreen("Controls", table))

    def action_about(self) -> None:
        """Version and credits."""
        from textmines.ui.screens.info import InfoScreen

        text = Text.assemble(
            (f"textmines {__version__}\n", "bold"),
            "Minesweeper for the terminal, built on Textual.\n",
            "Boards: Beginner 9x9/10, Intermediate 16x16/40, Expert 30x16/99, or custom.",
        )
        self.push_screen(InfoScreen("About", text))

    def action_statistics(self) -> None:
        """Played, won, streaks and best times, one tab per board."""
        from textmines.ui.screens.statistics import StatisticsScreen

        if isinstance(self.screen, StatisticsScreen):
            return  # F4 again: the screen's own binding closes it
        self._retry_pending()  # games kept while the database was busy belong in the figures
        notice = self.stats_notice or "Statistics are not recorded in this session."
        self.push_screen(
            StatisticsScreen(
                self.stats,
                None if self.stats is not None else notice,
                initial_group=self.session.group,
                player=clean_player_name(self.settings.player_name),
            )
        )

    def action_player_name(self) -> None:
        """Game > Player name...: the name over the statistics (in a browser, whose
        profile this is)."""
        from textmines.ui.screens.player_name import PlayerNameScreen

        def chosen(name: str | None) -> None:
            if name is not None and name != self.settings.player_name:
                self._save_settings(replace(self.settings, player_name=name))
                said = f"Player name: {name}." if name else "No player name."
                self.notify(said, timeout=3, markup=False)

        screen = PlayerNameScreen(self.settings.player_name, in_browser=self.is_web)
        self.push_screen(screen, chosen)

    async def action_quit(self) -> None:
        """Save a game in play (it comes back next time), then leave. When it cannot be
        saved the player is told and chooses: keep playing, or quit anyway (exit status 1;
        the game is recorded as abandoned, or kept where it can be, and the player is told
        which, ``GameSession.leave``)."""
        notice = self.session.save(abandon_on_failure=False)
        if notice is None and self.is_web:
            self._offer_play_on()
            return
        if notice is None:
            self.exit_message = self.session.saved_beside
            self.exit()
            return
        from textmines.ui.screens.confirm import ConfirmScreen

        # Only what is sure now: whether the statistics can be written shows when they are.
        fate = (
            "textmines records it as abandoned or, if it cannot, keeps it where it can and "
            "says where"
            if self.stats is not None
            else "textmines keeps it where it can and says where, or says that it could not"
        )
        message = f"{notice}\n\nIf you quit now, this game cannot be played on from here: {fate}."

        def chosen(quit_anyway: bool | None) -> None:
            if quit_anyway:
                left = self.session.leave()  # the save is tried once more
                self.exit_message = self.session.saved_beside if left.saved else left.said
                self.exit(return_code=0 if left.saved else 1)

        self.push_screen(
            ConfirmScreen(
                message,
                title="Your game cannot be saved",
                confirm_label="Quit anyway",
                cancel_label="Keep playing",
            ),
            chosen,
        )

    def _offer_play_on(self) -> None:
        """Quit in a browser's tab: a page has no shell to go back to, and the page left
        dead would only offer to start again. Closing the tab is how a page is left, and it
        keeps the game; so the saved game stays on the page, and the player chooses."""
        from textmines.ui.screens.confirm import ConfirmScreen

        if self.session.can_be_saved:  # in play, and saved by action_quit
            title, back = "Your game is saved", "Play on"
            text = (
                "Close this tab whenever you like: this browser gets the game back when it "
                "opens this page again."
            )
            if self.session.saved_beside:
                text += " (Another tab saved its game first: this one comes back after it.)"
        else:
            title, back = "No game in play", "Back"
            text = (
                "There is nothing to save. Close this tab whenever you like: your statistics "
                "and settings stay with this browser."
            )

        def chosen(new_game: bool | None) -> None:
            if new_game:
                self.action_new_game()

        self.push_screen(
            ConfirmScreen(text, title=title, confirm_label="New game", cancel_label=back),
            chosen,
        )

    # ------------------------------------------------------------------ size
    def on_resize(self, event: events.Resize) -> None:
        self._check_size(event.size)
        # On top, the game screen fits the zoom when it gets the new size (GameScreen.on_resize):
        # fitting it now would lay the board out once more at the old size. Under a dialog it
        # gets no Resize, so fit it now, for when it shows again.
        if not isinstance(self.screen, GameScreen):
            self.apply_zoom(event.size)

    # ------------------------------------------------------------------ zoom
    def _tile_for(self, cell_width: int, size: Size | None = None) -> tuple[Tile, bool, bool]:
        """The tile the zoom setting gives the game in play in a terminal of ``size``;
        whether the header has the room for LED digits (two rows to spare, and the width
        of the two displays and the face); and whether the panel's frame gives up its top
        and bottom edges for them (``SLIM_CHROME``).

        On raised tiles, LED digits win over the frame's two edges, never over the tile: a
        player of the classic game knows the panel by its red counters either side of the
        face, and its board by the size of its tiles. The frame's top and bottom rows say the
        least (its sides and the sunken board and header stay): a Beginner board whose 6x3
        tiles fill a 1280x720 page's 142x34 exactly, or Expert's 3x2 in 120x40, gets its LED
        digits so."""
        sizes = tile_sizes(cell_width)
        width, height = size or self.size
        compact = height < COMPACT_HEIGHT
        chrome_x, chrome_y = COMPACT_CHROME if compact else CHROME
        # The menu bar and the status line take a row each.
        room = (width - chrome_x, height - 2 - chrome_y)
        board = (self.game.width, self.game.height)
        index = zoom_index(sizes, self.settings.zoom)
        if index is None:
            index = fitting_tile(sizes, board, room)
        tile = sizes[index]
        if compact:
            return tile, False, False
        if led_fits(self.game, tile, room):
            return tile, True, False
        # Raised tiles only: one-row tiles are the compact board, whose one-row header
        # matches it.
        slim_room = (width - SLIM_CHROME[0], height - 2 - SLIM_CHROME[1])
        slim = tile.rows > 1 and led_fits(self.game, tile, slim_room)
        return tile, slim, slim

    def apply_zoom(self, size: Size | None = None) -> None:
        """Draw the board at the size the zoom setting gives (fit: the terminal's), with LED
        digits in the header where they fit."""
        tile, led, slim = self._tile_for(self.mines_theme.glyphs.cell_width, size)
        if (tile, led, slim) == (self.board.tile, self.header.led, self._slim_panel):
            return
        self.header.set_led(led)
        self._slim_panel = slim
        if tile != self.board.tile:
            self.board.set_tile(tile)
            self._withdraw("zoom")  # "Zoom: cells 2x1" would now be wrong
        if self.board.is_mounted:
            # The game's screen's, even under a dialog (a resize with the game-over box up).
            panel = self.screen_stack[0].query_one(GamePanel)
            panel.set_class(slim, "-slim")
            panel.resized()

    def action_zoom(self, step: int) -> None:
        """One tile size larger (1) or smaller (-1), from the size on screen; kept."""
        sizes = tile_sizes(self.mines_theme.glyphs.cell_width)
        index = sizes.index(self.board.tile) if self.board.tile in sizes else 0
        tile = sizes[max(0, min(len(sizes) - 1, index + step))]
        self._set_zoom(str(tile))

    def action_zoom_fit(self) -> None:
        """Back to the largest size at which the whole board fits; kept."""
        self._set_zoom(FIT)

    def _set_zoom(self, zoom: str) -> None:
        if zoom != self.settings.zoom:
            self._save_settings(replace(self.settings, zoom=zoom))
        self.apply_zoom()
        fit = " (fit to the terminal)" if zoom == FIT else ""
        self.notify(f"Zoom: cells {self.board.tile}{fit}", timeout=2, kind="zoom")

    def _check_size(self, size: Size | None = None) -> None:
        width, height = size or self.size
        too_small = width < MIN_WIDTH or height < MIN_HEIGHT
        # In a short terminal every row counts: the board drops its frame.
        compact = height < COMPACT_HEIGHT
        if (too_small, compact) == self._size_state:
            return
        self._size_state = (too_small, compact)
        message = f"Terminal too small: textmines needs at least {MIN_WIDTH}x{MIN_HEIGHT}."
        self._show_notice("too-small", message if too_small else None)
        self.hold_clock(Hold.TOO_SMALL, too_small)
        self.screen_stack[0].set_class(compact, "-compact")

    def _show_notice(self, name: str, message: str | None, *, waited: bool = False) -> None:
        """Show (or with None remove) a message that stands in for the board."""
        screen = self.screen_stack[0]  # the game's screen, even under a dialog
        if name != "paused":
            show_notice(screen, name, message)
            return
        # The paused box takes the board's place in the panel, under the header, and its
        # size: the panel keeps its shape while the board is hidden.
        width, height = self.board.outer_size
        if message is not None and not (width and height) and not waited:
            # Not laid out yet (a resumed game pauses before the first frame): once it is,
            # if the game is still paused then.
            def later() -> None:
                if self.board_hidden:
                    self._show_notice(name, message, waited=True)

            self.call_after_refresh(later)
            return
        size = (width, height) if width and height else None
        show_notice(screen, name, message, parent=screen.query_one(GamePanel), size=size)
