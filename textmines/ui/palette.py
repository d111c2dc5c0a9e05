"""The command palette (Ctrl+P): Textual's, closed at most once.

Textual 8's palette runs its command and closes on every Enter it has queued: two Enters in
the same frame (a fast typist, or a key held down) closed it twice, and the second close
popped the screen under it, which ended the app (``ScreenStackError``), or opened the
command's dialog twice. Once this palette has closed it ignores every further Enter.

An Enter read together with the text before it (typed fast, pasted, a macro) came while the
search for that text was still running, and chose among the matches of a part of it: Ctrl+P,
"statistics" and Enter opened the help. Such an Enter now waits for the search to finish.
"""

from __future__ import annotations

import contextlib
from typing import Any

from textual import on
from textual.await_complete import AwaitComplete
from textual.command import CommandPalette
from textual.widgets import Button, Input
from textual.worker import Worker, WorkerCancelled, WorkerFailed


class OnceCommandPalette(CommandPalette):
    """Textual's command palette, which closes (and runs its command) once."""

    #: Set by the first dismiss (MessagePump has a ``_closing`` of its own).
    _dismissed = False

    def dismiss(self, result: Any = None) -> AwaitComplete:
        if self._dismissed:
            done: AwaitComplete = AwaitComplete.nothing()  # type: ignore[no-untyped-call]
            return done
        self._dismissed = True
        return super().dismiss(result)

    @on(Input.Submitted)
    @on(Button.Pressed)
    def _select_or_command(self, event: Input.Submitted | Button.Pressed | None = None) -> None:
        # Textual calls this both as its Enter handler and directly once a command is
        # picked; either way nothing more happens once the palette has closed. An event is
        # handled here only: prevent_default keeps Textual's own handler from running too.
        if event is not None:
            event.prevent_default()
            if self._search() is not None:
                self.call_next(self._select_when_searched)
                return
        if not self._dismissed:
            super()._select_or_command(event)

    def _search(self) -> Worker[Any] | None:
        """The search for the text typed so far, while it runs (Textual's worker)."""
        group = CommandPalette._GATHER_COMMANDS_GROUP
        for worker in self.workers:
            if worker.node is self and worker.group == group and worker.is_running:
                return worker
        return None

    async def _select_when_searched(self) -> None:
        while (search := self._search()) is not None:
            # Cancelled: a later key started another search. Failed: Textual says so.
            with contextlib.suppress(WorkerCancelled, WorkerFailed):
                await search.wait()
        self._select_or_command()
