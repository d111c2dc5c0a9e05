"""The tab processes of ``textmines --serve``: each browser tab's game is a ``textmines --tab``
process, started in turns, fed what its page sends, and ended (killed if it hangs) when its
page goes."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import shlex
import sys
from asyncio.subprocess import Process
from collections.abc import AsyncIterable, AsyncIterator, Awaitable, Sequence
from importlib.metadata import version
from typing import Any, Final, cast

from aiohttp import WSMessage, WSMsgType, web
from textual_serve.app_service import AppService

from textmines.store.paths import LEADERBOARD_VARIABLE, PROFILE_VARIABLE, WATCH_VARIABLE
from textmines.web.forks import ForkServer

log = logging.getLogger("textmines.serve")


#: Options of ``--serve`` itself, which the tabs do not get (each with whether it takes a value).
SERVE_OPTIONS = {
    "--serve": False,
    "--host": True,
    "--port": True,
    "--max-tabs": True,
    "--max-players": True,
    "--max-players-mb": True,
    "--database": True,
}


#: Seconds a tab's process has to end after its websocket closes, before it is killed: a
#: process that hangs must not hold one of the tabs for ever.
STOP_SECONDS = 10.0


#: Tab processes starting at once (Python, Textual's imports, the first frame: a few hundred
#: ms of one CPU each). Tabs opened together take turns: with every one of them sharing the
#: CPUs, all would draw their boards together, late; in turns the first ones are up at once
#: and the last no later (issue 35.9: ten processes at once on two cores drew their
#: first frames after 3.4 s, median; in turns after 1.5-2.3 s).
START_SLOTS = max(1, os.cpu_count() or 1)


#: Seconds a starting process holds its turn at most: one that never draws must not stall
#: the tabs behind it.
START_SECONDS = 5.0


#: Messages a page may send while its game waits its turn to start (a resize, the first
#: keys); past them, its websocket is read no further until the game has started.
WAITING_MESSAGES = 1000


#: The size a browser may ask its terminal to be, in cells; beyond it, a bogus size.
MAX_CELLS = 1000


def tab_arguments(argv: Sequence[str]) -> list[str]:
    """The command line of one tab: ``argv`` without the server's own options, plus ``--tab``
    (board, seed, theme and the other options apply to every tab)."""
    kept, skip = ["--tab"], False
    for arg in argv:
        if skip:
            skip = False
            continue
        name, has_value, _ = arg.partition("=")
        if name in SERVE_OPTIONS:
            skip = SERVE_OPTIONS[name] and not has_value
            continue
        kept.append(arg)
    return kept


def tab_command(argv: Sequence[str]) -> str:
    """The shell command each tab runs (this Python, this textmines)."""
    return shell_command([sys.executable, "-m", "textmines", *tab_arguments(argv)])


def tab_environment(
    width: int,
    height: int,
    profile: str | None = None,
    leaderboard: str | None = None,
    watch: int | None = None,
) -> dict[str, str]:
    """The environment of a tab's process: this server's, with what textual-serve gives the
    apps it starts (Textual's web driver, true colour, the terminal's size), the browser's
    profile (``PROFILE_VARIABLE``: not on its command line, which any user can read) and
    where the host keeps its leaderboard (``TEXTMINES_LEADERBOARD``: a file, or a database's
    URL that may hold a password), and the leaderboard entry whose replay it shows first
    (``TEXTMINES_WATCH``: the page's ``?watch=ID``)."""
    environment = dict(os.environ)
    environment.update(
        TEXTUAL_DRIVER="textual.drivers.web_driver:WebDriver",
        TEXTUAL_FPS="60",
        TEXTUAL_COLOR_SYSTEM="truecolor",
        TERM_PROGRAM="textual",
        TERM_PROGRAM_VERSION=version("textual-serve"),
        COLUMNS=str(width),
        ROWS=str(height),
    )
    environment.pop(PROFILE_VARIABLE, None)
    environment.pop(LEADERBOARD_VARIABLE, None)
    environment.pop(WATCH_VARIABLE, None)
    if watch is not None and leaderboard is not None:
        environment[WATCH_VARIABLE] = str(watch)
    if profile is not None:
        environment[PROFILE_VARIABLE] = profile
    if leaderboard is not None:
        environment[LEADERBOARD_VARIABLE] = leaderboard
    return environment


class TabService(AppService):
    """textual-serve's service for one tab's game, whose process is forked by the fork server
    when there is one (``argv``), else started as the program ``command``; the browser's
    profile goes in its environment.

    It replaces two of ``AppService``'s private methods, ``_build_environment`` and
    ``_open_app_process`` (and sets ``_process`` and ``_stdin`` as the latter does):
    pyproject.toml bounds textual-serve to the release tested (``tests/web/``)."""

    def __init__(
        self,
        command: str,
        *,
        argv: Sequence[str],
        profile: str,
        forks: ForkServer | None,
        leaderboard: str | None = None,
        watch: int | None = None,
        **service: Any,
    ) -> None:
        super().__init__(command, **service)
        self._argv = list(argv)
        self._profile = profile
        self._forks = forks
        self._leaderboard = leaderboard
        self._watch = watch
        #: The game left on a signal (its "exit" said which: ``TabDriver.write_meta``).
        self.ended_on_signal = False

    async def on_meta(self, data: bytes) -> None:
        with contextlib.suppress(ValueError, AttributeError):
            meta = json.loads(data)
            self.ended_on_signal = meta.get("type") == "exit" and "signal" in meta
        await super().on_meta(data)

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        return tab_environment(width, height, self._profile, self._leaderboard, self._watch)

    async def _open_app_process(self, width: int = 80, height: int = 24) -> Process:
        environment = self._build_environment(width, height)
        process: Any = None
        if self._forks is not None:
            try:
                process = await self._forks.spawn(self._argv, environment)
            except OSError as error:
                log.warning("textmines: the fork server failed (%s): a tab started anew", error)
        if process is None:
            process = await asyncio.create_subprocess_shell(
                self.command,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                env=environment,
            )
        self._process = process
        self._stdin = process.stdin
        return cast(Process, process)


def shell_command(args: Sequence[str]) -> str:
    """``args`` as the shell command textual-serve runs for a tab. On POSIX the shell hands
    its process to the program (``exec``): otherwise a shell waits beside each tab, and
    killing the tab's process would kill the shell and leave the game running."""
    command = shlex.join(args)
    return f"exec {command}" if os.name == "posix" else command


class StartTurns:
    """Tab processes take turns to start: at most ``slots`` at once (``START_SLOTS``)."""

    def __init__(self, slots: int) -> None:
        self._free = slots
        self._waiting: list[StartTurn] = []

    def turn(self) -> StartTurn:
        """A tab's turn: ``wait()`` for it before starting its process, ``done()`` once the
        process draws (or the tab ends)."""
        return StartTurn(self)

    def _ask(self, turn: StartTurn) -> None:
        if self._free:
            self._free -= 1
            turn._given()
        else:
            self._waiting.append(turn)

    def _give_back(self, turn: StartTurn) -> None:
        if turn in self._waiting:  # it never had its turn
            self._waiting.remove(turn)
            return
        if self._waiting:
            self._waiting.pop(0)._given()
        else:
            self._free += 1


class StartTurn:
    """One tab's turn to start its process (see ``StartTurns``)."""

    def __init__(self, turns: StartTurns) -> None:
        self._turns = turns
        self._has_turn = asyncio.Event()
        self._asked = self._over = False
        self._limit: asyncio.TimerHandle | None = None

    async def wait(self) -> None:
        """Until it is this tab's turn. The turn ends by itself after ``START_SECONDS``."""
        self._asked = True
        self._turns._ask(self)
        await self._has_turn.wait()

    def _given(self) -> None:
        self._has_turn.set()
        self._limit = asyncio.get_running_loop().call_later(START_SECONDS, self.done)

    def done(self) -> None:
        """The process has started (it draws), or the tab has ended: the next one's turn.
        Only the first call counts."""
        if self._over:
            return
        self._over = True
        if self._limit is not None:
            self._limit.cancel()
        if self._asked:
            self._turns._give_back(self)


class PageMessages:
    """What a page sends over its websocket, read from the moment it opens: kept while its
    game waits its turn to start (at most ``WAITING_MESSAGES``: then reading waits too), and
    the page's going (``gone``) is seen at once, not once its game has started."""

    def __init__(self, websocket: web.WebSocketResponse) -> None:
        self._websocket = websocket
        self._queue: asyncio.Queue[WSMessage | None] = asyncio.Queue(WAITING_MESSAGES)
        #: The page has gone: its websocket closed (or broke).
        self.gone = asyncio.Event()
        self._reading = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        try:
            async for message in self._websocket:
                await self._queue.put(message)
        finally:
            self.gone.set()
            with contextlib.suppress(asyncio.QueueFull):
                self._queue.put_nowait(None)

    async def wait_for(self, turn: Awaitable[None]) -> bool:
        """Wait for ``turn`` unless the page goes first: whether it is still there."""
        waiting = asyncio.ensure_future(turn)
        going = asyncio.ensure_future(self.gone.wait())
        try:
            await asyncio.wait({waiting, going}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (waiting, going):
                task.cancel()
        return not self.gone.is_set()

    async def __aiter__(self) -> AsyncIterator[WSMessage]:
        while True:
            if self.gone.is_set() and self._queue.empty():
                return
            message = await self._queue.get()
            if message is None:
                return
            yield message

    def stop(self) -> None:
        self._reading.cancel()


async def relay(
    messages: AsyncIterable[WSMessage], websocket: web.WebSocketResponse, game: AppService
) -> None:
    """Pass what the page sends (textual.js's messages: JSON lists) to the game, until the page
    goes. A message that is not one of them is dropped, whatever is wrong with it (100,000
    nested ``[`` are a RecursionError, not a ValueError)."""
    async for message in messages:
        if message.type != WSMsgType.TEXT:
            continue
        try:
            envelope = json.loads(message.data)
        except Exception:  # anything a page may send: it must not end the game
            continue
        match envelope:
            case ["stdin", str(keys)]:
                await game.send_bytes(keys.encode("utf-8"))
            case ["resize", {"width": int(width), "height": int(height)}]:
                await game.set_terminal_size(
                    min(max(width, 1), MAX_CELLS), min(max(height, 1), MAX_CELLS)
                )
            case ["ping", str(stamp)]:
                await websocket.send_json(["pong", stamp])
            case ["blur"]:
                await game.blur()
            case ["focus"]:
                await game.focus()


#: How long a page's close waits for the server to see the signal its game left on (the
#: same one, to the whole process group): a loaded machine may run the game's end first.
SIGNAL_GRACE: Final = 1.0


async def server_stopping(stopped: asyncio.Event, ended_on_signal: bool) -> bool:
    """Whether the server is stopping, as a game ends: at once if it is; when the game left
    on a signal, once the server has had ``SIGNAL_GRACE`` seconds to see the same signal."""
    if stopped.is_set() or not ended_on_signal:
        return stopped.is_set()
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stopped.wait(), SIGNAL_GRACE)
    return stopped.is_set()


async def stop_game(game: AppService) -> None:
    """Ask the game to end as a closed tab's does, and wait until its process has ended: its
    place among the tabs is its memory, free only then."""
    # AppService keeps its process to itself, and its stop() waits for the game without end:
    # a game that hangs is killed here so that its place comes back.
    process: asyncio.subprocess.Process | None = getattr(game, "_process", None)

    async def ended() -> None:
        await game.stop()
        if process is not None:
            await process.wait()

    # Not wait_for: cancelling stop() does not stop it (textual-serve's reader swallows the
    # cancellation and the wait goes on); the kill is what ends it.
    ending = asyncio.ensure_future(ended())
    done, _ = await asyncio.wait({ending}, timeout=STOP_SECONDS)
    if not done and process is not None and process.returncode is None:
        log.warning(
            "textmines: a tab did not end within %g s of its page closing: killed", STOP_SECONDS
        )
        with contextlib.suppress(ProcessLookupError):
            process.kill()
    await ending
