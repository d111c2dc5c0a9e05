"""Replays from the game: watch the game just played or a stored one, open a replay file,
export one as an .evf file.

``ReplayController`` does the work for the app, which holds one and delegates to it: the
app keeps the actions the bindings and the menus call by name, and the handlers of the
viewer's and the statistics screen's messages (Textual dispatches them to DOM nodes only).
"""

from __future__ import annotations

import contextlib
import errno
import io
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Protocol, TypeVar

from textual.screen import Screen

from textmines.store.paths import describe_os_error
from textmines.store.stats import StatsError
from textmines.ui.game.host import GameHost

if TYPE_CHECKING:
    from textmines.replays.foreign import ForeignReplay
    from textmines.replays.recording import Recording
    from textmines.store.stats import (
        StatsStore,
        StoredReplay,  # the figures load with their first reader
    )
    from textmines.themes import MinesTheme

ScreenResult = TypeVar("ScreenResult")


class ReplayHost(GameHost, Protocol):
    """What ``ReplayController`` needs of the app, beyond the game, its session and toasts."""

    @property
    def stats(self) -> StatsStore | None: ...
    @property
    def replays_dir(self) -> Path | None: ...
    @property
    def mines_theme(self) -> MinesTheme: ...
    @property
    def is_web(self) -> bool: ...
    def deliver_binary(
        self,
        path_or_file: BinaryIO,
        *,
        save_filename: str | None = None,
        mime_type: str | None = None,
    ) -> str | None: ...
    def clear_notifications(self) -> None: ...
    def run_worker(
        self,
        work: Callable[[], object],
        *,
        thread: bool = ...,
        exclusive: bool = ...,
        group: str = ...,
    ) -> object: ...
    def call_from_thread(
        self, callback: Callable[..., object], *args: Any, **kwargs: Any
    ) -> Any: ...
    def push_screen(
        self,
        screen: Screen[ScreenResult],
        callback: Callable[[ScreenResult | None], None] | None = None,
    ) -> object: ...


class ReplayController:
    """Watching, opening and exporting replays for ``app``."""

    def __init__(self, app: ReplayHost, play_on: Callable[[Recording, int, int], None]) -> None:
        self.app = app
        #: Starts a practice game from a recording's moment (the number of actions done, and
        #: the game time in ms the viewer showed).
        self.play_on = play_on

    def watch(self) -> None:
        """Watch the game just played (or the one in play, so far); before a first reveal,
        the last recorded game."""
        from textmines.records import replay_title
        from textmines.replays.recording import Recording  # loaded by a replay, not the start

        session = self.app.session
        game = session.game
        if game.board is not None and game.actions:
            # Its number, once recorded: what --review and --export-replay ask for.
            number = session.game_number if session.recorded else None
            title = replay_title(
                session.group.label, game.status.value, number=number, practice=session.practice
            )
            self.view(Recording.of(game), title, in_play=not game.status.is_over)
        else:
            self.watch_stored(None)

    def watch_stored(self, game_id: int | None) -> None:
        """Watch recorded game ``game_id`` of the statistics (None: the last one)."""
        from textmines.records import stored_title

        found = self._stored_recording(game_id)
        if found is not None:
            recording, stored = found
            self.view(recording, stored_title(stored, recording))

    def export_stored(self, game_id: int | None) -> None:
        """Recorded game ``game_id`` of the statistics as a new .evf file."""
        stored = self._stored_recording(game_id)
        if stored is not None:
            self.export(*stored)

    def export(self, recording: Recording, stored: StoredReplay | None = None) -> None:
        """``recording`` as a new .evf file in the replays folder, with the times and the
        number of the game ``stored`` in the statistics, if it is one."""
        from textmines.records import stored_evf
        from textmines.replays.evf import export_evf

        app, folder = self.app, self.app.replays_dir
        if folder is None:
            app.notify("Replays are not saved in this session.", kind="replay")
            return
        stamp = time.strftime("%Y%m%d-%H%M%S")
        name = f"textmines-{stored.game_id}" if stored is not None else f"textmines-{stamp}"
        target = folder / f"{name}.evf"
        try:
            data = stored_evf(stored) if stored is not None else export_evf(recording)
        except ValueError as error:
            app.notify(f"Not exported: {error}", severity="warning", kind="replay")
            return
        if app.is_web:  # played in a browser: the browser downloads it too
            app.deliver_binary(
                io.BytesIO(data), save_filename=target.name, mime_type="application/octet-stream"
            )
            # The server's folder means nothing to the player: the download is what they get.
            app.notify(
                f"{target.name} sent to your browser's downloads.", kind="replay", markup=False
            )
            with contextlib.suppress(OSError):  # a copy kept with the games, where it can be
                _write_once(target, data)
            return
        try:
            written, already = _write_once(target, data)
        except OSError as error:
            message = f"Not exported: {target}: {describe_os_error(error)}"
            app.notify(message, severity="error", kind="replay", markup=False)
        else:
            said = f"Already exported: {written}" if already else f"Replay written to {written}"
            app.notify(said, kind="replay", markup=False)

    def _stored_recording(self, game_id: int | None) -> tuple[Recording, StoredReplay] | None:
        """Recorded game ``game_id`` (None: the last game with a recording) from the
        statistics; None, and a toast saying why, if there is none."""
        from textmines.replays.recording import Recording, RecordingError  # see watch

        stats = self.app.stats
        try:
            stored = None if stats is None else stats.stored_replay(game_id)
            if stored is None and game_id is None:
                self.app.notify("No game to watch yet: play one first.", kind="replay")
                return None
            if stored is None:
                raise RecordingError("it was recorded before textmines kept recordings")
            return Recording.decode(stored.data), stored
        except (StatsError, RecordingError) as error:
            self.app.notify(f"No replay of that game: {error}", severity="warning", kind="replay")
            return None

    def watch_remote(self, url: str, title: str) -> None:
        """Download the replay at ``url`` (a leaderboard entry's) and watch it, titled
        ``title``; a toast says why when it cannot be had. The download is a thread's: the
        screen never waits for the network."""
        from textmines.leaderboard.client import Unreachable, read_remote_replay
        from textmines.replays.foreign import ReplayFileError

        app = self.app
        app.notify(f"Downloading the replay of {title}...", timeout=2, kind="replay", markup=False)

        def fetch() -> None:
            try:
                replay = read_remote_replay(url)
            except (Unreachable, ValueError, ReplayFileError) as error:
                said = f"No replay of {title}: {error}"
                app.call_from_thread(
                    app.notify, said, severity="warning", kind="replay", markup=False
                )
                return
            app.call_from_thread(self.view, replay.recording, f"Leaderboard {title}")

        app.run_worker(fetch, thread=True, exclusive=True, group="remote-replay")

    def open(self) -> None:
        """Ask for a replay file (another program's, or an export) and watch it."""
        from textmines.replays.foreign import replay_title
        from textmines.ui.screens.open_replay import OpenReplayScreen

        def opened(replay: ForeignReplay | None) -> None:
            if replay is not None:
                self.view(replay.recording, replay_title(replay))

        folder = self.app.replays_dir
        # In a browser tab the replays folder is the profile's (``Paths``): paths are read
        # from the profile's folder and named from there, never the server's own path.
        base = None
        if self.app.is_web:
            base = folder.parent if folder is not None else Path()
        self.app.push_screen(OpenReplayScreen(folder, base=base), opened)

    def view(
        self,
        recording: Recording,
        title: str,
        closed: Callable[[], object] | None = None,
        *,
        in_play: bool = False,
    ) -> None:
        """Open the replay viewer on ``recording`` (``in_play``: of the game in play, which
        it cannot play on from); the clock holds meanwhile. The game's toasts stay behind, and
        the viewer's go with it; then ``closed``, if given."""
        from textmines.ui.screens.replay import ReplayScreen

        def gone(done: int | None) -> None:
            self.app.clear_notifications()
            if done is not None:  # the game goes on from the viewer's moment: its run too
                self.play_on(recording, done, viewer.at_ms)
            elif closed is not None:
                closed()

        self.app.clear_notifications()
        glyphs = self.app.mines_theme.glyphs
        viewer = ReplayScreen(recording, title, glyphs, in_play=in_play)
        self.app.push_screen(viewer, gone)


def _write_once(target: Path, data: bytes) -> tuple[Path, bool]:
    """Write ``data`` to ``target``, or beside it (``name-2.evf``, ``name-3.evf``...) when a
    file of that name holds something else: a game's number comes back after the statistics
    are reset. The file written, or the one that held ``data`` already, and whether it did."""
    for copy in range(1, _MAX_COPIES + 1):
        path = target if copy == 1 else target.with_name(f"{target.stem}-{copy}{target.suffix}")
        try:
            _write_new(path, data)
        except FileExistsError:
            if _holds(path, data):
                return path, True
        else:
            return path, False
    raise FileExistsError(errno.EEXIST, f"{_MAX_COPIES} files of that name already", str(target))


#: The most files ``_write_once`` tries for one name.
_MAX_COPIES = 100


def _holds(path: Path, data: bytes) -> bool:
    """Whether the file at ``path`` holds exactly ``data``."""
    try:
        return path.stat().st_size == len(data) and path.read_bytes() == data
    except OSError:
        return False


def _write_new(target: Path, data: bytes) -> None:
    """Write ``data`` to a new file ``target``, its folder made if need be; FileExistsError
    if there is one already."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("xb") as file:
        file.write(data)
