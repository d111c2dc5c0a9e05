"""The game on the board, from its start to its end: every move goes through
``GameFlow.play`` to the session (``GameSession.play``), and what changed is redrawn; the
clock's holds, the header, the status line and the end-of-game box follow the game.

``GameFlow`` does the work for the game's screen (``GameScreen``), whose bindings and actions
call it, and for the assistant (``AssistController``), which plays through it too.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from textual.app import App
from textual.geometry import Size
from textual.screen import Screen

from textmines.config import GameConfig, settings_with_config
from textmines.engine import ActionKind, Board, Game, Status
from textmines.engine.clock import Clock
from textmines.engine.daily import daily_board, daily_day
from textmines.engine.presets import check_first_click
from textmines.session import EndResult, GameSession, percent_cleared_text
from textmines.store.saves import LoadedGame
from textmines.store.stats import Outcome, StatsError
from textmines.ui.board.board_view import BoardView
from textmines.ui.drawing.numbers import game_details, timer_seconds
from textmines.ui.game.assist import Assistant, AssistController
from textmines.ui.game.clock_holds import ClockHolds, Hold
from textmines.ui.game.host import GameHost
from textmines.ui.game.options import GameOptions
from textmines.ui.game.player_keys import PlayerKeys
from textmines.ui.game.replays import ReplayController
from textmines.ui.game.zoom import COMPACT_HEIGHT
from textmines.ui.screens.game_end import box_figures, box_title, won_line
from textmines.ui.widgets.cover import show_cover
from textmines.ui.widgets.header import GameHeader, digits_for
from textmines.ui.widgets.panel import GamePanel
from textmines.ui.widgets.status import StatusLine

if TYPE_CHECKING:
    from textmines.engine.board_id import BoardId
    from textmines.engine.game import Deal
    from textmines.replays.recording import Recording
    from textmines.store.stats import StatsStore
    from textmines.ui.game.reviewer import Reviewer

#: Below this the layout cannot show a useful board: a message replaces it.
MIN_WIDTH = 30
MIN_HEIGHT = 8


def _on_board(config: GameConfig, size: tuple[int, int, int], first_click: str) -> GameConfig:
    """``config`` on a board of ``size`` (that of a board ID, the daily board or a resumed
    game), for the next new games: with the player's first-click rule where it deals that
    board, else with the rule the board came with (a dense board deals with ``safe`` only)."""
    board = config.with_board(*size)
    try:
        return board.checked()
    except ValueError:
        return board._replace(first_click=first_click)


class FlowHost(GameHost, Protocol):
    """What ``GameFlow`` needs of the app: its widgets, options, statistics and screens."""

    header: GameHeader
    board: BoardView
    status_line: StatusLine
    options: GameOptions
    assist: Assistant
    assist_control: AssistController
    replays: ReplayController
    save_path: Path | None
    clock: Clock
    keys: PlayerKeys
    sub_title: str

    @property
    def stats(self) -> StatsStore | None:
        """The statistics database, opened when first read; None: games are not recorded."""

    @property
    def screen_stack(self) -> list[Screen[Any]]: ...
    @property
    def app(self) -> App[Any]: ...
    def apply_zoom(self, size: Size | None = None) -> None: ...
    def push_screen(self, screen: Any, callback: Any = None) -> object: ...
    def call_after_refresh(self, callback: Callable[[], object]) -> bool: ...


class GameFlow:
    """The session of the game on ``host``'s board, and everything that follows its moves."""

    def __init__(self, host: FlowHost) -> None:
        self.host = host
        self.holds = ClockHolds()
        self.session: GameSession
        # (too small, compact) as last applied; None: not yet.
        self._size_state: tuple[bool, bool] | None = None
        self._reviewer: Reviewer | None = None
        #: Told of each game that ends, once recorded (``textmines --challenge``; a browser
        #: tab's leaderboard); the words it returns, if any, are a toast.
        self.finished: Callable[[GameSession], object] | None = None

    @property
    def game(self) -> Game:
        """The game on the board."""
        return self.session.game

    # ------------------------------------------------------------------ new games
    def new_game(self, config: GameConfig) -> Game:
        return Game(
            config.width,
            config.height,
            config.mines,
            seed=config.seed,
            first_click=config.first_click,
            question_marks=config.question_marks,
            no_guess=config.no_guess,
            clock=self.host.clock,
        )

    def game_of(self, shared: BoardId) -> Game:
        return shared.game(
            question_marks=self.host.options.config.question_marks, clock=self.host.clock
        )

    def session_for(self, game: Game) -> GameSession:
        return GameSession(game, stats=self._stats, save_path=self.host.save_path)

    def _stats(self) -> StatsStore | None:
        # A session reads the statistics when its game ends: the first frame does not wait.
        return self.host.stats

    def first_session(
        self, config: GameConfig, resumed: LoadedGame | None, shared: BoardId | None, daily: bool
    ) -> GameSession:
        """The resumed game (its board becomes the settings' for this run), else the shared
        board or today's daily board, else a new game from ``config``: a --seed applies to the
        first game only."""
        today = daily_day(datetime.now(UTC))
        options = self.host.options
        if resumed is None and daily:
            shared = daily_board(today)
        if resumed is None and shared is not None:
            size = shared.board.width, shared.board.height, shared.board.mine_count
            board = _on_board(config, size, shared.first_click)
            options.settings = settings_with_config(options.settings, board)
            session = self.session_for(self.game_of(shared))
            if daily:
                self.mark_daily(session, today)
            return session
        if resumed is None:
            session = self.session_for(self.new_game(config))
            session.dealt_at_random = config.seed is None
            return session
        game = resumed.game
        board = _on_board(config, (game.width, game.height, game.mines), game.first_click)
        options.settings = settings_with_config(options.settings, board)
        return GameSession.resume(resumed, stats=self._stats, save_path=self.host.save_path)

    def mark_daily(self, session: GameSession, day: date) -> None:
        """``session`` plays ``day``'s daily board: the first try counts, later ones are
        practice (statistics that cannot be read: the try counts, as nothing says otherwise)."""
        session.daily = day
        stats = self.host.stats
        try:
            session.practice = stats is not None and stats.daily_counted(day.isoformat())
        except StatsError:
            session.practice = False

    def start(self, game: Game) -> None:
        """Put ``game`` on the board and reset the header, status and pause.

        The game it replaces, if in play, is recorded as abandoned.
        """
        host = self.host
        self._abandon()
        host.assist_control.stop_autoplay()
        self.session = self.session_for(game)
        host.options.apply()
        host.sub_title = host.options.config.label
        # A new game is not paused; what covers the board (a dialog, a small terminal) still
        # holds its clock once it starts.
        self.hold_clock(Hold.PLAYER | Hold.BLUR, False)
        host.board.show_new_game()
        host.apply_zoom()
        self.show_state()
        host.assist_control.refresh_overlay()

    def _abandon(self) -> None:
        """Record the game in play as abandoned, and say so (a new game, another board, the
        daily board or a restart leaves it, as quitting would)."""
        old = self.session
        in_play = old.touched and old.can_be_saved  # started, not over, not recorded yet
        what = f"The {old.group.label}{' practice' if old.practice else ''} game in play"
        progress = percent_cleared_text(old.game)
        notice = old.abandon()
        if notice is not None:
            self.host.notify(notice, severity="warning", markup=False)
        elif in_play and self.host.stats is not None:
            said = f"{what} ({progress} cleared) was recorded as abandoned."
            self.host.notify(said, timeout=4, kind="abandoned", markup=False)

    def new(self) -> None:
        """A new board of the current size, dealt at random (a seed never carries over)."""
        config = self.host.options.config
        self.start(self.new_game(config))
        self.session.dealt_at_random = config.seed is None

    def restart(self) -> None:
        """The same mines again, with the same first click made, the same rules and ID (a
        board not yet dealt is simply dealt again). A daily board stays the day's (a practice
        try). A win on a board whose mines the player saw sets no record."""
        from textmines.engine.board_id import shared_board_of  # a restart only

        old = self.session
        shared = shared_board_of(old.game)
        if shared is None and (laid := old.game.board) is not None:
            # Mines laid with no first click an ID can name (a practice game from a replay's
            # start, not yet clicked): the same mines, no click made, the first-click rule
            # kept (the mines in the first click's way move).
            self.start(self._same_mines(laid, old.game))
            self.session.restarted = True
            self.show_modes()
            return
        if shared is None:
            game = old.game
            board = self.host.options.config.with_board(game.width, game.height, game.mines)
            config = board._replace(
                seed=game.seed,
                first_click=game.first_click,
                no_guess=game.no_guess,
            )
            self.start(self.new_game(config))
            self.session.dealt_at_random = old.dealt_at_random  # nothing seen: no board yet
            return
        self.start(self.game_of(shared))
        self.session.restarted = old.restarted or old.touched
        if old.daily is not None:
            self.mark_daily(self.session, old.daily)
        self.show_modes()

    def _same_mines(self, board: Board, game: Game) -> Game:
        question_marks = self.host.options.config.question_marks
        again = Game.from_board(board, question_marks=question_marks, clock=self.host.clock)
        again.first_click, again.no_guess = game.first_click, game.no_guess
        again.keep_first_click_rule()
        return again

    def daily(self) -> None:
        """Today's daily board (UTC): Expert, no guessing needed, the same for everyone. The
        probability overlay does not come along: it would make the day's try assisted before
        the player has looked at the board."""
        host = self.host
        today = daily_day(datetime.now(UTC))
        if host.assist.overlay_on:
            host.assist_control.overlay_off()
            host.notify(
                f"Probability overlay off for the daily board ({host.keys.control('game.overlay')} "
                "turns it on again, and makes the try assisted).",
                timeout=5,
                kind="overlay",
            )
        self.start(self.game_of(daily_board(today)))
        self.mark_daily(self.session, today)
        self.show_modes()

    def play_on(self, recording: Recording, done: int, at_ms: int = 0) -> None:
        """A practice game from the moment ``done`` actions into ``recording``, game time
        ``at_ms`` (the viewer's): the same mines, the clicks so far made, the clock standing
        at that moment until the next move. Practice (the player has seen how it went):
        never a record, and it has its own recording, from the start of the game it
        continues. From the start (no click made yet) the recording's first-click rule
        still holds: a first click never loses (the mines in its way move)."""
        host = self.host
        game = Game.replayed(
            recording.board,
            recording.actions[:done],
            question_marks=recording.question_marks,
            clock=host.clock,
        )
        if game.first_reveal is None:
            game.first_click = check_first_click(recording.first_click)
            game.keep_first_click_rule()
        else:
            game.clock.set_elapsed(max(at_ms, game.elapsed_ms))
        game.clock.hold_until_move(begun=game.first_reveal is not None)
        self.start(game)
        self.session.played_on_from = len(game.actions)
        self.session.practice = True
        self.session.mark_assisted()
        self.show_modes()
        host.notify(
            "Practice from this moment: the same mines, your clicks so far. It sets no record.",
            timeout=5,
        )

    # ------------------------------------------------------------------ moves
    def play(self, kind: ActionKind, x: int, y: int) -> None:
        """Make one move, whoever asks (keys, mouse, autoplay): through the session, then
        redraw what changed. A first reveal that must deal a no-guess board deals it first."""
        host = self.host
        if kind == ActionKind.REVEAL and self.game.needs_deal(x, y):
            self._deal_then_reveal(x, y)
            return
        host.board.show_hint(None)
        played = self.session.play(kind, x, y)
        if not played.change:  # after the end every move is empty: nothing to show
            return
        host.board.refresh_rows(played.change.rows())
        if played.started and played.change.cell_count > 1:
            host.board.show_opening(x, y, played.change.bounds())
        self.show_state(played.finish)
        host.assist_control.refresh_overlay()
        if played.started and self.game.no_guess_failed:
            host.notify(
                "No no-guess board could be made at this density in time: this board may "
                "need a guess.",
                severity="warning",
                timeout=8,
            )
        finish = played.finish
        if finish is None:
            return
        if self.finished is not None:
            said = self.finished(self.session)
            if isinstance(said, str) and said:
                host.notify(said, timeout=8, markup=False)
        if finish.notice is not None:
            host.notify(finish.notice, severity="warning", markup=False)
        self._show_game_over(finish)
        self.review_pending()  # the game just recorded, for the statistics

    def review_pending(self) -> None:
        """Review the recorded games that have no review yet, in the background (the
        ``Reviewer``, loaded when first asked: seconds after the start, or at a game's end)."""
        stats = self.host.stats
        if stats is None:
            return
        if self._reviewer is None:
            from textmines.ui.game.reviewer import Reviewer

            self._reviewer = Reviewer(self.host.app, stats)
        self._reviewer.review_pending()

    @property
    def dealing(self) -> bool:
        """Whether a no-guess board is being dealt (its box takes the keys meanwhile)."""
        from textmines.ui.screens.dealing import DealingScreen

        return any(isinstance(screen, DealingScreen) for screen in self.host.screen_stack)

    def _deal_then_reveal(self, x: int, y: int) -> None:
        """Deal a no-guess board off the UI thread, then make the first reveal at ``(x, y)``."""
        from textmines.ui.screens.dealing import DealingScreen

        if self.dealing:
            return
        game = self.game

        def dealt(deal: Deal | None) -> None:
            if game is not self.game or box.failed:
                return  # another game started meanwhile, or the failure was said
            if deal is None:
                self.host.notify(
                    "No-guess deal cancelled: reveal again to deal, or turn off Options > "
                    "No-guess boards for an ordinary board.",
                    kind="deal",
                )
                return
            game.accept_deal(deal)
            self.play(ActionKind.REVEAL, x, y)

        box = DealingScreen(game, x, y)
        self.host.push_screen(box, dealt)

    def _show_game_over(self, finish: EndResult) -> None:
        """The end-of-game box: how it went, then play again, restart or look at the board."""
        from textmines.ui.screens.game_over import Choice, GameOverScreen

        host, game = self.host, self.game

        def chosen(choice: Choice) -> None:
            if choice == "new":
                self.new()
            elif choice == "restart":
                self.restart()
            elif choice == "replay":
                host.replays.watch()

        panel = host.screen_stack[0].query_one(GamePanel)
        figures = box_figures(self.session, finish, recorded=host.stats is not None)
        # The panel's place now, each time the box is placed: a resize moves and zooms it.
        box = GameOverScreen(
            game.status == Status.WON,
            box_title(self.session),
            figures,
            beside=lambda: panel.region,
            details=game_details(finish.metrics),
        )
        from textmines.engine.board_id import board_id_of  # a game's end only
        from textmines.replays.recording import Recording

        box.board_id = board_id_of(game)
        box.board = game.board
        box.on_face = host.header.face_at_screen
        box.recording = Recording.of(game)  # reviewed by the solver while the box is up
        box.judged_from = self.session.played_on_from
        host.push_screen(box, chosen)

    # ------------------------------------------------------------------ what is shown
    def show_state(self, finish: EndResult | None = None) -> None:
        """The header, the status line and its hints, for the game as it is."""
        game, host = self.game, self.host
        header = host.header
        header.counter_digits = digits_for(game.mines)
        header.mines_left = game.mines_left
        header.seconds = timer_seconds(game.elapsed_ms, game.clock.started)
        header.set_face({Status.WON: "won", Status.LOST: "lost"}.get(game.status, "normal"))
        status = host.status_line
        if game.status == Status.WON:
            # Worked out once when the game ended; again only to redraw the line later.
            from textmines.engine.metrics import game_metrics  # not at start: a won game only

            metrics = finish.metrics if finish is not None else game_metrics(game)
            status.show(won_line(self.session, metrics, finish), Outcome.WON)
        elif game.status == Status.LOST:
            status.show(f"Boom - {percent_cleared_text(game)} cleared", Outcome.LOST)
        else:
            status.show(f"{game.safe_left} safe left · {percent_cleared_text(game)} cleared")
        # Over, the board takes no moves: the hints offer what comes next.
        status.set_hints(
            host.keys.hints(game.status.is_over, host.options.settings.swap_mouse_buttons)
        )
        self.show_modes()

    def show_modes(self) -> None:
        """Name on the status line what changes the game: no-guess, autoplay, assisted."""
        game, session, assist = self.game, self.session, self.host.assist
        modes: list[str] = []
        if game.no_guess:
            modes.append("No-guess (fell back)" if game.no_guess_failed else "No-guess")
        if assist.autoplaying:
            modes.append(f"Autoplay {assist.delay:g} s")
        if session.assisted:
            modes.append("Assisted")
        elif session.restarted:
            modes.append("Restarted")
        # Every practice game says so (a restart, a played-on replay, a later daily try).
        if session.daily is not None:
            practice = ", practice" if session.practice else ""
            modes.append(f"Daily {session.daily.isoformat()}{practice}")
        elif session.practice:
            modes.append("Practice")
        self.host.status_line.show_modes(modes)

    def tick(self) -> None:
        game = self.game
        # A reactive: repaints only when the number changes.
        self.host.header.seconds = timer_seconds(game.elapsed_ms, game.clock.started)

    # ------------------------------------------------------------------ the clock's holds
    @property
    def board_hidden(self) -> bool:
        """Whether a pause (P, or the terminal losing focus) hides the board."""
        return self.holds.board_hidden

    @property
    def clock_held(self) -> bool:
        """Whether anything holds the clock (see ``hold_clock``)."""
        return self.holds.clock_held

    def hold_clock(self, reason: Hold, held: bool) -> None:
        """Stop the clock for ``reason`` (or let go of it): it runs only when nothing holds it.

        ``PLAYER`` (P) and ``BLUR`` (the terminal lost focus) also hide the board, as pausing
        does in the classic game; a dialog over the board (``COVERED``) or a terminal too small
        for it (``TOO_SMALL``) only stop the clock.
        """
        board = self.host.board
        was_hidden = board.hidden
        if self.holds.set(reason, held, self.game.clock):
            resume = f"Paused - {self.host.keys.way_to('game.pause')} to resume"
            self._show_paused(resume if self.holds.board_hidden else None)
        board.hidden = self.holds.board_out_of_sight
        if was_hidden and not board.hidden and board.is_attached:
            # Back in sight (resumed, or the terminal large enough again), the board has the
            # keys, at once: those read with the resume key are its own. Textual took its focus
            # as it hid it.
            board.screen.set_focus(board)
        self.tick()

    def pause(self) -> None:
        """Hide the board and stop the clock, or resume."""
        if self.board_hidden:
            self.hold_clock(Hold.HIDING, False)
        elif self.game.status == Status.PLAYING:
            self.hold_clock(Hold.PLAYER, True)
        else:
            self.host.notify("Nothing to pause: the clock is not running.", timeout=2, kind="pause")

    def blurred(self) -> None:
        """The terminal lost the focus: a game in play pauses, as it does in the classic game."""
        if self.game.status == Status.PLAYING and not self.game.clock.paused:
            self.hold_clock(Hold.BLUR, True)

    def _show_paused(self, message: str | None, *, waited: bool = False) -> None:
        """The paused box takes the board's place in the panel, under the header, and its
        size: the panel keeps its shape while the board is hidden (None: it goes)."""
        screen = self.host.screen_stack[0]  # the game's screen, even under a dialog
        board = self.host.board
        width, height = board.outer_size
        width += board.styles.margin.width  # a narrow board's room for the header (Zoom)
        if message is not None and not (width and height) and not waited:
            # Not laid out yet (a resumed game pauses before the first frame): once it is,
            # if the game is still paused then.
            def later() -> None:
                if self.board_hidden:
                    self._show_paused(message, waited=True)

            self.host.call_after_refresh(later)
            return
        size = (width, height) if width and height else None
        show_cover(screen, "paused", message, parent=screen.query_one(GamePanel), size=size)

    def check_size(self, size: Size) -> None:
        """A terminal too small for any board: a message stands in for it, and the clock
        stops; a short one: the board drops its frame (every row counts)."""
        width, height = size
        too_small = width < MIN_WIDTH or height < MIN_HEIGHT
        compact = height < COMPACT_HEIGHT
        if (too_small, compact) == self._size_state:
            return
        self._size_state = (too_small, compact)
        screen = self.host.screen_stack[0]
        message = f"Terminal too small: textmines needs at least {MIN_WIDTH}x{MIN_HEIGHT}."
        show_cover(screen, "too-small", message if too_small else None)
        self.hold_clock(Hold.TOO_SMALL, too_small)
        screen.set_class(compact, "-compact")
