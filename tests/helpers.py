"""What the tests share: a clock they move by hand, apps on seeded boards and the runs of
them a test plays (``Play``, the ``play`` fixture), clicks on cells, and waiting for a condition
instead of for a fixed time.

Import from here (``from tests.helpers import ...``); conftest files only declare fixtures.
"""

from __future__ import annotations

import asyncio
import contextvars
import fcntl
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractAsyncContextManager, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pytest
    from textual.app import App
    from textual.pilot import Pilot

    from textmines.engine import Board
    from textmines.store.stats import StatsStore
    from textmines.ui.app import TextminesApp
    from textmines.ui.board.board_view import BoardView
    from textmines.ui.widgets.header import GameHeader

__all__ = [
    "FakeClock",
    "Play",
    "cell_offset",
    "clear_all_but_one",
    "click_cell",
    "face_span",
    "launch_in_pty",
    "make_app",
    "new_stats",
    "read_together",
    "read_until",
    "refuse_statistics_writes",
    "scaled",
    "settle",
    "wait_until",
    "win_by_clicks",
    "winning_clicks",
]


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


#: The bundled themes in the order every list shows them: classic first, then by name.
BUNDLED_THEMES = ("classic", "ascii", "colorblind", "dark", "high-contrast", "light")


def make_app(
    clock: FakeClock | None = None, *, theme: str | None = None, **options: object
) -> TextminesApp:
    """An app on a seeded board with a clock the test controls (and a bundled theme).

    ``options`` naming a GameConfig field set up the board; the others go to the app.
    """
    from textmines.config import GameConfig
    from textmines.ui.app import TextminesApp, bundled_themes

    names = set(GameConfig._fields)
    config = {key: value for key, value in options.items() if key in names}
    config.setdefault("seed", 1)
    mines_theme = bundled_themes()[theme] if theme is not None else None
    return TextminesApp(
        GameConfig(**config),  # type: ignore[arg-type]
        clock=clock or FakeClock(),
        theme=mines_theme,
        **{key: value for key, value in options.items() if key not in names},  # type: ignore[arg-type]
    )


class Play:
    """The ``play`` fixture (tests/ui/conftest.py): runs apps for one test and closes them after
    it, as ``async with app.run_test() as pilot`` would at the end of the test.

    ``app, pilot = await play(clock, size=(100, 30), width=30, ...)`` runs ``make_app(clock,
    ...)`` in a terminal of ``size`` (80x24 unless told; ``notifications=True`` shows toasts);
    ``pilot = await play.run(app)`` runs an app the test built itself; ``await play.close()``
    closes them all before the test looks at what closing leaves (a save, a file written).
    Whatever failed in an app is raised as it closes.
    """

    def __init__(self) -> None:
        self._running: list[tuple[contextvars.Context, AbstractAsyncContextManager[Any]]] = []

    async def __call__(
        self,
        clock: FakeClock | None = None,
        *,
        size: tuple[int, int] = (80, 24),
        notifications: bool = False,
        theme: str | None = None,
        **options: object,
    ) -> tuple[TextminesApp, Pilot[None]]:
        app = make_app(clock, theme=theme, **options)
        return app, await self.run(app, size=size, notifications=notifications)

    async def run(
        self, app: App[Any], *, size: tuple[int, int] = (80, 24), notifications: bool = False
    ) -> Pilot[Any]:
        # run_test sets Textual's context variables (the active app) as it starts and resets
        # them as it ends, which must happen in the same context: it starts and ends in a
        # context of its own, and the test gets its variables, as inside ``async with``.
        running = app.run_test(size=size, notifications=notifications)
        context = contextvars.copy_context()
        pilot = await asyncio.create_task(running.__aenter__(), context=context)
        self._running.append((context, running))
        for variable, value in context.items():
            variable.set(value)
        return pilot  # type: ignore[no-any-return]

    async def close(self) -> None:
        """Close the apps still running, the last started first (all of them, whatever fails)."""
        if not self._running:
            return
        context, running = self._running.pop()
        try:
            await asyncio.create_task(running.__aexit__(None, None, None), context=context)
        finally:
            await self.close()


def new_stats(folder: Path) -> StatsStore:
    """Fresh statistics in ``folder`` (``stats.db``), opened without a notice."""
    from textmines.store.stats import open_stats

    store, notices = open_stats(folder / "stats.db")
    assert store is not None and not notices
    return store


def cell_offset(board: BoardView, x: int, y: int) -> tuple[int, int]:
    """Offset of cell (x, y) relative to the board widget, for Pilot mouse calls."""
    gutter_x = board.content_region.x - board.region.x
    gutter_y = board.content_region.y - board.region.y
    cols, rows = board.tile
    return (
        gutter_x + x * cols + cols - 1 - int(board.scroll_offset.x),
        gutter_y + y * rows - int(board.scroll_offset.y),
    )


async def click_cell(
    pilot: Pilot[None], x: int, y: int, *, button: int = 1, control: bool = False, times: int = 1
) -> None:
    from textmines.ui.board.board_view import BoardView

    board = pilot.app.query_one(BoardView)
    await pilot.click(
        BoardView, cell_offset(board, x, y), button=button, control=control, times=times
    )
    await pilot.pause()


def face_span(header: GameHeader) -> tuple[int, int]:
    """(first column, end column) of the face on its middle row, relative to the header, as
    the mouse finds it (``GameHeader.face_at_screen``)."""
    region = header.content_region
    row = region.y + header.piece_rows // 2
    on = [x for x in range(region.width) if header.face_at_screen(region.x + x, row)]
    return on[0], on[-1] + 1


async def win_by_clicks(
    pilot: Pilot[None], clock: FakeClock | None = None, seconds: float = 0
) -> None:
    """Start the game with Space, let ``seconds`` of game time pass on ``clock``, then win it:
    every reveal but one through the app, the last one a real click."""
    await pilot.press("space")
    if clock is not None:
        clock.advance(seconds)
    await click_cell(pilot, *clear_all_but_one(pilot.app))  # type: ignore[arg-type]


def clear_all_but_one(app: TextminesApp) -> tuple[int, int]:
    """Make every winning reveal but one through ``app.play`` (the path keys, clicks and
    autoplay all take) and return the cell of the last one, for the test to win with a real
    key or click. The game must have started (the board is dealt)."""
    from textmines.engine import ActionKind

    game = app.game
    board = game.board
    assert board is not None, "start the game first: the board is dealt on the first reveal"
    left = [cell for cell in winning_clicks(board) if game.cell(*cell) in "#?"]
    for cell in left[:-1]:
        app.flow.play(ActionKind.REVEAL, *cell)
    assert not game.status.is_over and left, "the first reveal left nothing to do"
    return left[-1]


def winning_clicks(board: Board) -> list[tuple[int, int]]:
    """One cell of each opening (a zero: its flood opens the whole of it) and every number
    that borders no zero: the reveals that clear ``board``, none undone by another's flood."""
    cells = [(x, y) for y in range(board.height) for x in range(board.width)]
    safe = [c for c in cells if not board.is_mine(*c)]
    zeros = {c for c in safe if board.number(*c) == 0}

    def around(x: int, y: int) -> list[tuple[int, int]]:
        return [(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]

    clicks, seen = [], set()
    for start in sorted(zeros, key=lambda c: (c[1], c[0])):
        if start in seen:
            continue
        clicks.append(start)
        todo = [start]
        seen.add(start)
        while todo:
            for n in around(*todo.pop()):
                if n in zeros and n not in seen:
                    seen.add(n)
                    todo.append(n)
    clicks += [c for c in safe if c not in zeros and not zeros.intersection(around(*c))]
    return clicks


def scaled(count: int) -> int:
    """``count`` in the default run, ten times as many under HYPOTHESIS_PROFILE=thorough:
    for tests that sample games in a loop of their own rather than through hypothesis."""
    from hypothesis import settings

    return max(1, count * settings().max_examples // 100)


def launch_in_pty(
    home: Path, *args: str, size: tuple[int, int] | None = None, controlling: bool = False
) -> tuple[subprocess.Popen[bytes], int]:
    """The real program (``python -m textmines ARGS``, data under ``home``) in a new
    pseudo-terminal and session; returns the process and our side of the terminal.

    ``size`` (columns, lines) sets the terminal's size. With ``controlling`` the terminal is
    the session's controlling terminal: closing our side hangs it up, and the kernel sends
    SIGHUP (and SIGCONT), as when a terminal window is closed.
    """
    env = {**os.environ, "TEXTMINES_HOME": str(home), "TERM": "xterm-256color"}
    env.pop("TEXTUAL", None)
    main, child = pty.openpty()
    if size is not None:
        columns, lines = size
        fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))
    os.set_blocking(main, False)

    def controlling_terminal() -> None:
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)  # the child's stdin is the pty

    process = subprocess.Popen(
        [sys.executable, "-m", "textmines", *args],
        stdin=child,
        stdout=child,
        stderr=child,
        env=env,
        start_new_session=True,
        preexec_fn=controlling_terminal if controlling else None,
    )
    os.close(child)
    return process, main


def read_until(main: int, text: bytes, seconds: float, drained: bytes = b"") -> bytes:
    """What the program drew (after ``drained``) until ``text`` shows or ``seconds`` pass."""
    deadline = time.monotonic() + seconds
    while text not in drained and time.monotonic() < deadline:
        if select.select([main], [], [], 0.2)[0]:
            drained += os.read(main, 65536)
    return drained


def refuse_statistics_writes(monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on the statistics cannot be written (their folder refuses the database's WAL
    file, say; root ignores permissions, so a test cannot make a folder refuse it); reading
    them still works."""
    import sqlite3

    from textmines.store.stats import store as store_module

    real = store_module.transaction

    @contextmanager
    def refusing(connection: sqlite3.Connection, begin: str) -> Iterator[sqlite3.Connection]:
        if begin != "BEGIN":
            raise sqlite3.OperationalError("unable to open database file")
        with real(connection, begin) as opened:
            yield opened

    monkeypatch.setattr(store_module, "transaction", refusing)


async def settle(pilot: Pilot[None]) -> None:
    """Let the worker threads (solver, deals) finish and their results reach the screen."""
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def wait_until(
    pilot: Pilot[None], condition: Callable[[], object], what: str, seconds: float = 10.0
) -> None:
    """Let the app run until ``condition()`` holds; fails naming ``what`` after ``seconds``."""
    step = 0.02
    for _ in range(int(seconds / step)):
        if condition():
            return
        await pilot.pause(step)
    raise AssertionError(f"still waiting after {seconds:g} s for {what}")


#: The characters of the named keys ``read_together`` sends (a one-letter key is its own).
_CHARACTERS = {"enter": "\r", "escape": "\x1b", "space": " ", "tab": "\t"}


def read_together(app: App[Any], *keys: str) -> None:
    """``keys`` as a terminal delivers keys typed fast or pasted: in one read, all in the app's
    queue before any of them is handled (``Pilot.press`` waits for each)."""
    from textual import events

    for key in keys:
        character = key if len(key) == 1 else _CHARACTERS.get(key)
        app.post_message(events.Key(key, character))
