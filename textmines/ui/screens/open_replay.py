"""Game > Open replay...: ask for a replay file and read it, off the UI thread.

The file is read in a child process (``textmines.replays.foreign``), which takes a moment and
may fail in any way a damaged file can make it fail: the dialog stays, says what is wrong on
its message line, and the game underneath is untouched.

In a browser tab a path is read from the profile's folder and named as the player typed it:
the server's own folders (its account's name among them) are nobody else's business.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Static
from textual.worker import Worker, WorkerState

from textmines.replays.foreign import FORMATS, ForeignReplay, ReplayFileError, read_replay_file
from textmines.ui.screens.dialog import Dialog, dialog_css
from textmines.ui.screens.typed_input import TypedInput


class OpenReplayScreen(Dialog[ForeignReplay | None]):
    """Ask for a replay file; dismisses with the replay read, or ``None`` if cancelled."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel", priority=True)]

    DEFAULT_CSS = dialog_css("OpenReplayScreen", 70)

    def __init__(self, folder: Path | None = None, *, base: Path | None = None) -> None:
        """``folder``: where the path starts (the replays folder). ``base``: the folder a
        path is read from, and shown relative to (a browser tab's profile folder), ``~`` not
        expanded; None: a terminal's path, from the working folder."""
        super().__init__()
        self._folder = folder
        self._base = base

    def _start(self) -> str:
        """The path the box starts with: the replays folder, relative to ``base`` if given."""
        folder, base = self._folder, self._base
        if folder is None:
            return ""
        if base is None:
            return f"{folder}/"
        return f"{folder.relative_to(base).as_posix()}/" if folder.is_relative_to(base) else ""

    def compose(self) -> ComposeResult:
        kinds = ", ".join(FORMATS)
        where = " (a path from your profile's folder)" if self._base is not None else ""
        with Vertical():
            yield Static("[b]Open replay[/b]")
            yield TypedInput(self._start(), placeholder="path of a replay file", id="path")
            yield Static(f"A replay file{where}: {kinds}.", id="message", markup=False)
            with Horizontal():
                yield Button("Open", variant="primary", id="open")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    @on(Button.Pressed, "#open")
    def _open(self) -> None:
        text = self.query_one(Input).value.strip()
        if not text:
            self._say("Type the path of a replay file.", error=True)
            return
        self._say("Reading...", error=False)
        if self._base is None:
            self._read(Path(text).expanduser(), None)
        else:
            self._read(self._base / text, text)

    # An error other than a bad file is the app's to report (the name says what failed).
    @work(thread=True, exclusive=True, name="Reading the replay file")
    def _read(self, path: Path, shown: str | None) -> ForeignReplay | str:
        """The replay in ``path``, or what is wrong with the file (named ``shown``, if
        given). The worker only returns it: a worker that called back into the app would
        wait on it, even as it quits."""
        try:
            return read_replay_file(path, shown=shown)
        except ReplayFileError as error:
            return str(error)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        # Closed once the worker is done: closing from inside it would cancel it.
        if event.state == WorkerState.ERROR:
            # The app's message names the error: the box stops saying "Reading...".
            self._say("The file could not be read: textmines failed on it.", error=True)
            return
        if event.state != WorkerState.SUCCESS:
            return
        result = event.worker.result
        if isinstance(result, str):
            self._say(result, error=True)
        else:
            self.dismiss(result)

    def _say(self, text: str, error: bool) -> None:
        message = self.query_one("#message", Static)
        message.update(text)
        message.set_class(error, "-error")

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
