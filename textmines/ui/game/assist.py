"""The solver at the player's service: hints, the probability overlay and autoplay.

``Assistant`` runs the solver in worker threads of its host (the app) on a snapshot of the
view, so the board never waits for it, and posts what it found to the host as a message
(``Hinted``, ``OverlayReady``, ``MoveFound``; ``Failed`` when the solver raised). It is not
a widget: every widget on the screen costs something on every key press, and this one would
draw nothing. The app decides what to do with a result: it is used only if the game still
shows the view it was computed from; otherwise it is dropped (a newer computation is on its
way). The assistant knows nothing of the app but the worker and message calls of its host.

``AssistController`` is the app's side of it: the hint, overlay and autoplay actions, and
what each result does to the game on the board. The app holds one and delegates to it (the
bindings, the menus and the command palette call the app's actions by name; the results
arrive at the app as messages, Textual dispatching them to DOM nodes only).

The solver is imported in the worker, on first use: most games never need it, and start-up
should not pay.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from textual.dom import DOMNode
from textual.message import Message
from textual.timer import Timer

from textmines.crash import write_crash_log
from textmines.engine import ActionKind, Game
from textmines.engine.view_alphabet import ViewChar
from textmines.ui.game.host import GameHost

if TYPE_CHECKING:
    from textmines.engine.solver import Analysis, Hint, Move
    from textmines.ui.board.board_view import BoardView
    from textmines.ui.game.player_keys import PlayerKeys

#: Seconds between autoplay moves: the paces the > and < keys step through (round numbers, as
#: the status line shows them), and the pace autoplay starts at.
AUTOPLAY_PACES = (0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0)
AUTOPLAY_DELAY = 0.25


class Assistant:
    """Runs the solver off the UI thread, in workers of ``host`` (the game's screen, which
    takes its answers), and reports back there; holds the overlay and autoplay switches and
    the autoplay pace."""

    class Result(Message):
        """Something the solver computed for ``game`` as it showed ``view``."""

        def __init__(self, game: Game, view: str) -> None:
            super().__init__()
            self.game, self.view = game, view

        @property
        def current(self) -> bool:
            """Whether the game still shows the view this was computed from."""
            return self.game.view_text() == self.view

    class Hinted(Result):
        """A safe cell, or the safest; None when every covered cell left is a mine."""

        def __init__(self, game: Game, view: str, hint: Hint | None) -> None:
            super().__init__(game, view)
            self.hint = hint

    class OverlayReady(Result):
        """Every covered cell's chance of a mine."""

        def __init__(self, game: Game, view: str, analysis: Analysis) -> None:
            super().__init__(game, view)
            self.analysis = analysis

    class MoveFound(Result):
        """Autoplay's next reveals, in order: one, or at the fastest pace every certainly
        safe cell at once; none when there is nothing left to do."""

        def __init__(self, game: Game, view: str, moves: Sequence[Move]) -> None:
            super().__init__(game, view)
            self.moves = tuple(moves)

    class Failed(Result):
        """The solver raised ``error`` on this view: a bug of ours, said, never silent."""

        def __init__(self, game: Game, view: str, error: Exception) -> None:
            super().__init__(game, view)
            self.error = error

    def __init__(self, host: DOMNode) -> None:
        self.host = host
        self.overlay_on = False
        self.autoplaying = False
        self.delay = AUTOPLAY_DELAY

    def change_pace(self, steps: int) -> None:
        """Move the delay between autoplay moves ``steps`` paces along ``AUTOPLAY_PACES``
        (negative: faster), from the pace nearest the delay, and no further than its ends."""
        paces = AUTOPLAY_PACES
        here = min(range(len(paces)), key=lambda i: abs(paces[i] - self.delay))
        self.delay = paces[max(0, min(len(paces) - 1, here + steps))]

    def find_hint(self, game: Game) -> None:
        """Look for a safe cell (or the safest); posts ``Hinted``."""
        self._run("hint", _hint, game)

    def compute_overlay(self, game: Game) -> None:
        """Compute every covered cell's chance of a mine; posts ``OverlayReady``."""
        self._run("overlay", _overlay, game)

    @property
    def fastest(self) -> bool:
        """Whether autoplay goes at its fastest pace, where it opens every certain cell of a
        position at once (a big board would take minutes one cell at a time)."""
        return self.delay <= AUTOPLAY_PACES[0]

    def think(self, game: Game) -> None:
        """Find autoplay's next move (at the fastest pace: every certain one); posts
        ``MoveFound``."""
        self._run("autoplay", partial(_next_reveals, all_certain=self.fastest), game)

    def cancel(self, group: str) -> None:
        """Forget the computation of ``group`` under way (its result is not posted)."""
        self.host.workers.cancel_group(self.host, group)

    def _run(self, group: str, job: Callable[[Game, str], Message], game: Game) -> None:
        view = game.view_text()

        def work() -> None:
            try:
                result = job(game, view)
            except Exception as error:  # a worker's error would otherwise vanish
                result = Assistant.Failed(game, view, error)
            worker = _current_worker()
            if worker is None or not worker.is_cancelled:
                self.host.post_message(result)

        self.host.run_worker(work, thread=True, group=group, exclusive=True, exit_on_error=False)


def _current_worker() -> Any:
    from textual.worker import NoActiveWorker, get_current_worker

    try:
        return get_current_worker()
    except NoActiveWorker:
        return None


def _hint(game: Game, view: str) -> Message:
    from textmines.engine.solver import hint  # loaded when first asked for

    return Assistant.Hinted(game, view, hint(view, game.mines))


def _overlay(game: Game, view: str) -> Message:
    from textmines.engine.solver import analyse

    return Assistant.OverlayReady(game, view, analyse(view, game.mines))


def _next_reveals(game: Game, view: str, *, all_certain: bool) -> Message:
    from textmines.engine.solver import next_reveals

    # Only reveals: flags are not needed to play, and flagging a thousand mines one by one on
    # a big board would keep the next reveal waiting for minutes.
    return Assistant.MoveFound(game, view, next_reveals(view, game.mines, all_certain=all_certain))


class AssistFlow(Protocol):
    """What ``AssistController`` needs of the game's flow (``GameFlow``): the clock's holds,
    a deal under way, the status line's modes, and moves made the player's way."""

    @property
    def board_hidden(self) -> bool: ...
    @property
    def clock_held(self) -> bool: ...
    @property
    def dealing(self) -> bool: ...
    def show_modes(self) -> None: ...
    def play(self, kind: ActionKind, x: int, y: int) -> None: ...


class AssistHost(GameHost, Protocol):
    """What ``AssistController`` needs of the app, beyond the game, its session and toasts."""

    @property
    def board(self) -> BoardView: ...
    @property
    def crash_log(self) -> Path | None: ...
    @property
    def flow(self) -> AssistFlow: ...
    @property
    def keys(self) -> PlayerKeys: ...
    def set_timer(self, delay: float, callback: Callable[[], None]) -> Timer: ...


class AssistController:
    """The hint, the probability overlay and autoplay, for the game on ``app``'s board:
    asks ``assist`` to compute, and uses what it posts back (through the app's handlers)."""

    def __init__(self, app: AssistHost, assist: Assistant) -> None:
        self.app = app
        self.assist = assist

    def _mark_assisted(self) -> None:
        self.app.session.mark_assisted()
        self.app.flow.show_modes()

    def _over_notice(self) -> bool:
        """Say so when the game is over (nothing to help with); True then."""
        app = self.app
        if app.game.status.is_over:
            app.notify(
                f"The game is over: {app.keys.way_to('game.new_game')} for a new one.",
                timeout=3,
                kind="over",
            )
        return app.game.status.is_over

    def _hidden_notice(self) -> bool:
        """Say so when the board is hidden (paused, or the terminal lost focus): no help
        about a board the player cannot see, nor moves on it; True then."""
        app = self.app
        hidden = app.flow.board_hidden
        if hidden:
            app.notify(
                f"The game is paused: {app.keys.way_to('game.pause')} to play on first.",
                timeout=3,
                kind="pause",
            )
        return hidden

    def hint(self) -> None:
        """Show a safe cell, or the safest one with its odds (the game becomes assisted).
        Before the first click every cell is safe: saying so is no help."""
        if self._hidden_notice() or self._first_click_notice("Hint"):
            return
        if not self._over_notice():
            self._mark_assisted()
            self.assist.find_hint(self.app.game)

    def _first_click_notice(self, title: str) -> bool:
        """Before the mines are placed (at the first reveal, away from it), say that any cell
        is safe; True then."""
        game = self.app.game
        if game.board is not None:
            return False
        opens = ", and opens an area around it" if game.first_click == "opening" else ""
        self.app.notify(
            f"Any cell is safe: the first click never hits a mine{opens}.",
            title=title,
            timeout=5,
            kind="hint",
        )
        return True

    def solver_failed(self, event: Assistant.Failed) -> None:
        """A solver bug: stop autoplay and the overlay (each move would fail again), keep the
        details, say so; the game plays on."""
        self.stop_autoplay()
        if self.assist.overlay_on:
            self.overlay_off()
        log = self.app.crash_log
        kept = log is not None and write_crash_log(log, event.error) is None
        details = f" The details are in {log}." if kept else ""
        self.app.notify(
            f"The solver failed on this position ({type(event.error).__name__}); the game "
            f"plays on.{details}",
            severity="error",
            timeout=10,
            markup=False,
            kind="solver",
        )

    def hinted(self, event: Assistant.Hinted) -> None:
        app = self.app
        if event.game is not app.game or not event.current:
            return
        found = event.hint
        if found is None:
            app.notify("Every covered cell left is a mine.", timeout=4, kind="hint")
            return
        app.board.show_hint((found.x, found.y))  # the cursor goes there before the toast
        message = (
            f"This cell is safe: {found.reason}."
            if found.certain
            else "No cell is certainly safe; this one has the best odds "
            f"({found.probability:.0%} chance of a mine)."
        )
        app.notify(message, title="Hint", timeout=5, kind="hint")

    def toggle_overlay(self) -> None:
        """Show every covered cell's mine probability (the game becomes assisted)."""
        if self.assist.overlay_on:
            self.overlay_off()
        elif not self._hidden_notice():
            self.assist.overlay_on = True
            self._first_click_notice("Probabilities")
            self.refresh_overlay()

    def overlay_off(self) -> None:
        self.assist.overlay_on = False
        self.assist.cancel("overlay")
        self.app.board.set_overlay(None)

    def refresh_overlay(self) -> None:
        """Recompute the overlay for the board as it is now (after each move)."""
        if not self.assist.overlay_on:
            return
        game = self.app.game
        if game.status.is_over or game.board is None:
            self.app.board.set_overlay(None)  # over, or nothing to know before the first click
            return
        self._mark_assisted()
        self.assist.compute_overlay(game)

    def overlay_ready(self, event: Assistant.OverlayReady) -> None:
        app = self.app
        if not (self.assist.overlay_on and event.game is app.game and event.current):
            return
        app.board.set_overlay(event.analysis.probabilities)
        if event.analysis.approximate:
            app.notify(
                "The board is too big to compute every probability in time: some are estimates.",
                severity="warning",
                timeout=4,
                kind="overlay",
            )

    def toggle_autoplay(self) -> None:
        """Let the solver play on, move by move; again to stop (the game becomes assisted)."""
        if self.assist.autoplaying:
            self.stop_autoplay("Autoplay stopped.")
        else:
            self.start_autoplay()

    def start_autoplay(self) -> None:
        if self._over_notice():
            return
        self.assist.autoplaying = True
        self._mark_assisted()  # the status line now names autoplay and its pace
        toggle, faster, slower = (
            self.app.keys.control(f"game.{name}")
            for name in ("autoplay", "autoplay_faster", "autoplay_slower")
        )
        stop = f": {toggle} stops it" if toggle else ""
        pace = f", {faster} and {slower} change the pace" if faster and slower else ""
        self.app.notify(f"Autoplay on{stop}{pace}.", timeout=3, kind="autoplay")
        self.autoplay_step()

    def stop_autoplay(self, message: str | None = None) -> None:
        if not self.assist.autoplaying:
            return
        self.assist.autoplaying = False
        self.assist.cancel("autoplay")
        self.app.flow.show_modes()
        if message:
            self.app.notify(message, timeout=3, kind="autoplay")

    def change_pace(self, steps: int) -> None:
        """Autoplay faster (-1) or slower (1): the next pace of ``AUTOPLAY_PACES``. Off, the
        pace is kept for when autoplay starts, and a toast says so."""
        self.assist.change_pace(steps)
        if self.assist.autoplaying:
            self.app.flow.show_modes()  # the pace shows on the status line, not in a toast
            return
        toggle = self.app.keys.control("game.autoplay")
        starts = f" when autoplay starts ({toggle})" if toggle else " when autoplay starts"
        self.app.notify(
            f"Autoplay will make a move every {self.assist.delay:g} s{starts}.",
            timeout=3,
            kind="autoplay",
        )

    def autoplay_step(self) -> None:
        """Autoplay's next move, when it is on and the game can take one."""
        if not self.assist.autoplaying:
            return
        app = self.app
        if app.game.status.is_over:
            self.stop_autoplay()
        elif app.flow.clock_held or app.flow.dealing:
            # Waits for the player to resume (or the dialog to close, the terminal to grow),
            # or for the board being dealt. Not for a shared board's clock, which waits for
            # the first move: autoplay's move starts it.
            app.set_timer(self.assist.delay, self.autoplay_step)
        else:
            self.assist.think(app.game)

    def move_found(self, event: Assistant.MoveFound) -> None:
        if not self.assist.autoplaying:
            return
        app = self.app
        if event.game is not app.game or not event.current:
            app.set_timer(self.assist.delay, self.autoplay_step)  # the player moved: again
            return
        if not event.moves:
            self.stop_autoplay("Autoplay has nothing left to do.")
            return
        for move in event.moves:
            # An earlier reveal's flood may have opened it: a reveal there would chord.
            if app.game.status.is_over or app.game.cell(move.x, move.y) not in ViewChar.OPENABLE:
                continue
            app.board.move_cursor(move.x, move.y)
            app.flow.play(ActionKind.REVEAL, move.x, move.y)
        if app.game.status.is_over:
            self.stop_autoplay()
        else:
            app.set_timer(self.assist.delay, self.autoplay_step)
