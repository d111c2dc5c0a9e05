"""Dealing a no-guess board off the UI thread: a box with the progress, Escape cancels.

A no-guess deal plays candidate layouts through with the solver until one needs no guess;
on big boards that takes seconds. The deal runs on a worker thread, so the screen keeps
drawing and taking keys. Small boards are dealt in a few milliseconds: the box shows itself
only when the deal takes longer than ``SHOW_AFTER``, so they do not flash it.
"""

from __future__ import annotations

import math
import threading
import time
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import ProgressBar, Static
from textual.worker import Worker, WorkerState

from textmines.engine.game import Deal, Game
from textmines.engine.noguess import DealCancelled, DealProgress
from textmines.ui.screens.dialog import Dialog

#: Seconds a deal runs before its box appears.
SHOW_AFTER = 0.25
#: Seconds between repaints of the progress.
REPAINT_EVERY = 0.1


class DealingScreen(Dialog[Deal | None]):
    """Deals the first reveal at ``(x, y)`` of ``game``; dismissed with the deal, or with None
    when the player cancels (Escape or the button), and the game stays ready to deal again."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", show=False, priority=True),
        Binding("q", "app.quit", "Quit", show=False, priority=True),
    ]

    DEFAULT_CSS = """
    DealingScreen { align: center middle; background: transparent; }
    DealingScreen > Vertical {
        width: 64; max-width: 100%; height: auto;
        border: round $primary; background: $surface; padding: 0 1;
    }
    DealingScreen.-hidden > Vertical { display: none; }
    DealingScreen #title { text-style: bold; }
    DealingScreen ProgressBar { margin: 1 0 0 0; }
    DealingScreen ProgressBar, DealingScreen ProgressBar Bar { width: 1fr; }
    DealingScreen Bar > .bar--bar { background: $panel; }
    DealingScreen #detail, DealingScreen #keys { color: $text-muted; }
    """

    def __init__(self, game: Game, x: int, y: int) -> None:
        super().__init__(classes="-hidden")
        self.game, self.x, self.y = game, x, y
        #: Set by the player (Escape) or when the screen goes: the worker stops soon after.
        self.cancel = threading.Event()
        #: The deal failed (a bug, not the player's Escape): dismissed with None all the same.
        self.failed = False
        #: The latest report from the worker thread (one assignment: safe to share).
        self.progress: DealProgress | None = None
        self._began = time.perf_counter()

    def compose(self) -> ComposeResult:
        game = self.game
        with Vertical():
            yield Static(
                f"Dealing a no-guess {game.width}x{game.height} board ({game.mines:,} mines)",
                id="title",
            )
            # The share of the deal's work budget spent: the same on every machine.
            yield ProgressBar(total=1.0, show_eta=False, show_percentage=False)
            yield Static("", id="detail")
            yield Static("Esc cancel (the board stays ready)", id="keys")

    def on_mount(self) -> None:
        self.set_timer(SHOW_AFTER, lambda: self.remove_class("-hidden"))
        self.set_interval(REPAINT_EVERY, self._repaint)
        # A failure is the app's to report (the name says what failed); the box then goes.
        self.run_worker(self._deal, thread=True, name="Dealing the no-guess board")

    def on_unmount(self) -> None:
        self.cancel.set()  # leaving (the app quits): the worker must not keep dealing

    def _deal(self) -> None:
        try:
            deal = self.game.deal(
                self.x, self.y, should_stop=self.cancel.is_set, on_progress=self._report
            )
        except DealCancelled:
            deal = None
        if self.cancel.is_set():
            deal = None  # cancelled as it finished: the player asked for no deal
        # Posted, not called from the thread: a worker must never wait on a closing app.
        self.post_message(self.Dealt(deal))

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        # The deal failed (the app says so): the box goes, and the board stays ready to deal.
        if event.state == WorkerState.ERROR and self.is_attached and self.app.screen is self:
            self.failed = True
            self.dismiss(None)

    def _report(self, progress: DealProgress) -> None:
        self.progress = progress

    class Dealt(Message):
        """The worker is done: the deal, or None when cancelled."""

        def __init__(self, deal: Deal | None) -> None:
            super().__init__()
            self.deal = deal

    def on_dealing_screen_dealt(self, message: Dealt) -> None:
        if self.is_attached and self.app.screen is self:
            self.dismiss(message.deal)

    def _repaint(self) -> None:
        elapsed = time.perf_counter() - self._began
        progress = self.progress
        self.query_one(ProgressBar).update(progress=0.0 if progress is None else progress.work)
        reached = (
            "trying the first layout"
            if progress is None
            # Rounded down: 100% only for a board the solver clears.
            else f"best layout so far: {math.floor(progress.solved * 100)}% solved"
        )
        self.query_one("#detail", Static).update(
            f"{elapsed:.1f} s · {reached}\n"
            "Out of budget: an ordinary board, which may need a guess."
        )

    def action_cancel(self) -> None:
        self.cancel.set()
