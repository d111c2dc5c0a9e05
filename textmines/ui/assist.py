"""The solver at the player's service: hints, the probability overlay and autoplay.

``Assistant`` runs the solver in worker threads of its host (the app) on a snapshot of the
view, so the board never waits for it, and posts what it found to the host as a message
(``Hinted``, ``OverlayReady``, ``MoveFound``; ``Failed`` when the solver raised). It is not
a widget: every widget on the screen costs something on every key press, and this one would
draw nothing. The app decides what to do with a result: it is used only if the game still
shows the view it was computed from; otherwise it is dropped (a newer computation is on its
way). The assistant knows nothing of the app but the worker and message calls of its host.

The solver is imported in the worker, on first use: most games never need it, and start-up
should not pay.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from textual.dom import DOMNode
from textual.message import Message

from textmines.engine import Game

if TYPE_CHECKING:
    from textmines.engine.solver import Analysis, Hint, Move

#: Seconds between autoplay moves: the paces the > and < keys step through (round numbers, as
#: the status line shows them), and the pace autoplay starts at.
AUTOPLAY_PACES = (0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0)
AUTOPLAY_DELAY = 0.25


class Assistant:
    """Runs the solver off the UI thread and reports back to ``host``; holds the overlay
    and autoplay switches and the autoplay pace."""

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
