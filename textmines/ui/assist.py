"""The solver at the player's service: hints, the probability overlay and autoplay.

The solver runs in worker threads on a snapshot of the view, so the board never waits for it.
It is imported there, on first use: most games never need it, and start-up should not pay.
A result is used only if the game still shows the view it was computed from; otherwise it is
dropped (a newer computation is on its way). Any of the three marks the game as assisted, so
it never enters the best times.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from textmines.engine import ActionKind, Game

if TYPE_CHECKING:
    from textmines.engine.solver import Analysis, Hint, Move
    from textmines.ui.app import TextminesApp

#: Seconds between autoplay moves: the default, and the limits of the < and > keys.
AUTOPLAY_DELAY = 0.25
AUTOPLAY_FASTEST = 0.02
AUTOPLAY_SLOWEST = 2.0


class Assistant:
    """Owns the overlay and autoplay state of one app; the app's actions call it."""

    def __init__(self, app: TextminesApp) -> None:
        self.app = app
        self.overlay_on = False
        self.autoplaying = False
        self.delay = AUTOPLAY_DELAY

    # ------------------------------------------------------------------ shared
    def _snapshot(self) -> tuple[Game, str]:
        game = self.app.game
        return game, game.view_text()

    def _current(self, game: Game, view: str) -> bool:
        """Whether the game on the board still shows ``view``."""
        return game is self.app.game and game.view_text() == view

    def _mark_assisted(self) -> None:
        self.app.session.mark_assisted()
        self.app.show_modes()

    def _run(self, group: str, work: partial[None]) -> None:
        self.app.run_worker(work, thread=True, group=group, exclusive=True, exit_on_error=False)

    # ------------------------------------------------------------------ hint
    def hint(self) -> None:
        """Find a safe cell (or the safest) and show it."""
        game, view = self._snapshot()
        if game.status.is_over:
            self.app.notify("The game is over: press N for a new one.", timeout=3, kind="over")
            return
        self._mark_assisted()
        self._run("hint", partial(self._find_hint, game, view))

    def _find_hint(self, game: Game, view: str) -> None:
        from textmines.engine.solver import hint  # loaded when first asked for

        found = hint(view, game.mines)
        self.app.call_from_thread(self._show_hint, game, view, found)

    def _show_hint(self, game: Game, view: str, found: Hint | None) -> None:
        if not self._current(game, view):
            return
        if found is None:
            self.app.notify("Every covered cell left is a mine.", timeout=4, kind="hint")
            return
        self.app.board.show_hint((found.x, found.y))  # the cursor goes there before the toast
        if found.certain:
            message = "This cell is safe."
        else:
            message = (
                f"No cell is certainly safe; this one has the best odds "
                f"({found.probability:.0%} chance of a mine)."
            )
        self.app.notify(message, title="Hint", timeout=5, kind="hint")

    # ------------------------------------------------------------------ overlay
    def toggle_overlay(self) -> None:
        self.overlay_on = not self.overlay_on
        if self.overlay_on:
            self.refresh_overlay()  # marks the game as assisted
        else:
            self.app.board.set_overlay(None)

    def refresh_overlay(self) -> None:
        """Recompute the overlay for the board as it is now (after each move)."""
        if not self.overlay_on:
            return
        game, view = self._snapshot()
        if game.status.is_over:
            self.app.board.set_overlay(None)
            return
        self._mark_assisted()
        self._run("overlay", partial(self._compute_overlay, game, view))

    def _compute_overlay(self, game: Game, view: str) -> None:
        from textmines.engine.solver import analyse

        analysis = analyse(view, game.mines)
        self.app.call_from_thread(self._show_overlay, game, view, analysis)

    def _show_overlay(self, game: Game, view: str, analysis: Analysis) -> None:
        if self.overlay_on and self._current(game, view):
            self.app.board.set_overlay(analysis.probabilities)
            if analysis.approximate:
                self.app.notify(
                    "The board is too big to compute every probability in time: some are "
                    "estimates.",
                    severity="warning",
                    timeout=4,
                    kind="overlay",
                )

    # ------------------------------------------------------------------ autoplay
    def toggle_autoplay(self) -> None:
        if self.autoplaying:
            self.stop_autoplay("Autoplay stopped.")
        else:
            self.start_autoplay()

    def start_autoplay(self) -> None:
        if self.app.game.status.is_over:
            self.app.notify("The game is over: press N for a new one.", timeout=3, kind="over")
            return
        self.autoplaying = True
        self._mark_assisted()  # the status line now names autoplay and its pace
        self.app.notify(
            "Autoplay on: A stops it, < and > change the pace.", timeout=3, kind="autoplay"
        )
        self._step()

    def stop_autoplay(self, message: str | None = None) -> None:
        if not self.autoplaying:
            return
        self.autoplaying = False
        self.app.workers.cancel_group(self.app, "autoplay")
        self.app.show_modes()
        if message:
            self.app.notify(message, timeout=3, kind="autoplay")

    def change_pace(self, factor: float) -> None:
        """Multiply the delay between moves by ``factor`` (within the limits)."""
        self.delay = min(AUTOPLAY_SLOWEST, max(AUTOPLAY_FASTEST, self.delay * factor))
        self.app.show_modes()  # the pace shows on the status line, not in a toast

    def _step(self) -> None:
        if not self.autoplaying:
            return
        game, view = self._snapshot()
        if game.status.is_over:
            self.stop_autoplay()
            return
        if game.paused or self.app.dealing:
            # Waits for the player to resume, or for the board being dealt.
            self.app.set_timer(self.delay, self._step)
            return
        self._run("autoplay", partial(self._think, game, view))

    def _think(self, game: Game, view: str) -> None:
        from textmines.engine.solver import next_move

        # Only reveals: flags are not needed to play, and flagging a thousand mines one by one
        # on a big board would keep the next reveal waiting for minutes.
        move = next_move(view, game.mines, flag_mines=False)
        self.app.call_from_thread(self._play, game, view, move)

    def _play(self, game: Game, view: str, move: Move | None) -> None:
        if not self.autoplaying:
            return
        if not self._current(game, view):
            self.app.set_timer(self.delay, self._step)  # the player moved: think again
            return
        if move is None:
            self.stop_autoplay("Autoplay has nothing left to do.")
            return
        self.app.board.move_cursor(move.x, move.y)
        self.app.play(ActionKind.REVEAL, move.x, move.y)
        if game.status.is_over:
            self.stop_autoplay()
        else:
            self.app.set_timer(self.delay, self._step)
