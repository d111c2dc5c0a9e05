"""Play in a browser: ``textmines --serve`` runs a web server, and every browser tab that opens
it starts its own ``textmines --tab --profile ID`` process: its own game, as that browser's
player.

Every browser is its own player: the page gives it a random profile id in a cookie, and its
statistics, settings, saved game and replays are that profile's folder (``Paths.profile``),
never the terminal's nor another browser's. A game in play when its tab closes, or when the
server stops, is saved there (``TabDriver``), and comes back when that browser opens the page
again; two tabs of one browser each keep their own (``store.saves``).

The server is textual-serve's protocol and page script (``textual.js``: xterm.js and the
websocket to a tab's process, driven by textual-serve's ``AppService``) behind this module's
own web application, because a game server is reachable by more than its player:

- any page open in the player's browser can open a websocket to it, and a game's keys reach
  the statistics (F4, Reset all). A websocket gets a game only when its ``Origin`` is the page's
  own (the Host it asked for) and it carries the secret that this server's page holds (made
  at start, compared in constant time): another site's page can neither pass the origin nor
  read the page to learn the secret.
- a site can rename itself to 127.0.0.1 after its page has loaded (DNS rebinding), and then its
  page *is* same-origin. So every request must name this server by an address, ``localhost``,
  this machine's own name or the name given to ``--host``: a rebinding site's requests name
  the site, and get nothing.
- each tab is a process of ~41 MB: at most ``--max-tabs`` at once, and a websocket beyond it
  is refused before any process starts.
- every address in the page is built from the request (the page names no host but the one it
  was asked for), so that ``--host 0.0.0.0`` works from any machine that can reach it.

See docs/browser.md for who can reach what.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import html
import logging
import os
import secrets
import signal
import socket
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from urllib.parse import quote

from aiohttp import WSCloseCode, web
from aiohttp.typedefs import Middleware
from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

from textmines.leaderboard.store import LeaderboardStore, database_errors
from textmines.store.paths import default_paths
from textmines.web.addresses import games_text, serving_text
from textmines.web.api import LeaderboardApi
from textmines.web.connections import (
    ConnectionGuard,
    connection_limits,
    open_files_limit,
    run_guarded,
)
from textmines.web.forks import ForkServer
from textmines.web.guard import FloodGuard, RefusalLog, host_allowed, host_names, same_origin
from textmines.web.pages import (
    DOWNLOAD_POLICY,
    PAGE,
    STATIC_FILES,
    add_security_headers,
    bounded,
    message_page,
)
from textmines.web.profiles import (
    KNOWN_COOKIE,
    MAX_PROFILES,
    MAX_PROFILES_MB,
    Profiles,
    give_profile,
    host_key,
    profile_of,
)
from textmines.web.tabs import (
    MAX_CELLS,
    START_SLOTS,
    STOP_SECONDS,
    PageMessages,
    StartTurn,
    StartTurns,
    TabService,
    relay,
    server_stopping,
    stop_game,
    tab_arguments,
    tab_command,
    tab_environment,
)

log = logging.getLogger("textmines.serve")

#: Games at once unless ``--max-tabs`` says otherwise: ~330 MB of tab processes at most.
DEFAULT_MAX_TABS = 8


def serve(
    argv: Sequence[str],
    host: str,
    port: int,
    max_tabs: int = DEFAULT_MAX_TABS,
    players: tuple[int, int] = (MAX_PROFILES, MAX_PROFILES_MB),
    database: str | None = None,
) -> None:
    """Serve the game at http://host:port until Ctrl+C, keeping the games of ``players``
    browsers and megabytes at most, and the leaderboard in ``database`` (a PostgreSQL URL;
    None: SQLite in the data folder). Raises ``OSError`` when the address cannot be used (the
    port is taken, the host is not this machine's) or the host's key cannot be made."""
    check_address(host, port)  # before the server announces itself
    _log_to_stderr()
    # Every file and folder the server and its tabs make is the owner's alone (0600, 0700).
    os.umask(0o077)
    profiles, leaderboard = _host_files(default_paths().data_dir, players, database)
    profiles.sweep()
    server = GameServer(
        tab_command(argv),
        host=host,
        max_tabs=max_tabs,
        profiles=profiles,
        tab_argv=tab_arguments(argv),
        leaderboard=LeaderboardApi(
            leaderboard, viewer=lambda request: profiles.read_token(profile_of(request))
        ),
    )
    # What clients get wrong is said as refusals are, never as a traceback per request.
    for name in ("aiohttp.server", "asyncio"):
        logging.getLogger(name).addFilter(FloodGuard(server.refusals))
    per_address, most = connection_limits(max_tabs, open_files_limit())
    guard = ConnectionGuard(server.refusals, per_address=per_address, most=most)
    app = server.application(guard.middleware)

    async def announce(_: web.Application) -> None:
        print(serving_text(host, port, max_tabs), flush=True)

    app.on_startup.append(announce)
    app.on_startup.append(server.stop_on_signals)
    app.on_startup.append(server.start_forks)
    app.on_cleanup.append(server.stop_forks)

    async def close_leaderboard(_: web.Application) -> None:
        leaderboard.close()

    app.on_cleanup.append(close_leaderboard)
    # No access log: the websocket's address carries the secret.
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl+C before the server is up
        asyncio.run(run_guarded(app, host, port, guard, server.stop_requested.wait))


def _log_to_stderr() -> None:
    """The server's lines (and textual-serve's) on stderr, as they are, and only there."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(message)s"))
    for name in ("textmines.serve", "textual-serve"):
        logging.getLogger(name).addHandler(handler)
        logging.getLogger(name).setLevel(logging.INFO)
        logging.getLogger(name).propagate = False


def _host_files(
    data_dir: Path, players: tuple[int, int], database: str | None
) -> tuple[Profiles, LeaderboardStore]:
    """The browsers' profiles (at most ``players``: profiles and MB) and the leaderboard (in
    ``database``, else SQLite in ``data_dir``); ``HostFilesError`` when either cannot be
    used."""
    most, megabytes = players
    try:
        profiles = Profiles(
            data_dir, host_key(data_dir), max_profiles=most, max_bytes=megabytes * 1024 * 1024
        )
    except OSError as error:
        raise HostFilesError(f"{error} ({data_dir})") from error
    where = database or str(data_dir / "leaderboard.db")
    try:
        leaderboard = LeaderboardStore.open(where)
    except (OSError, *database_errors()) as error:  # type: ignore[misc]
        shown = "the --database" if database else where
        raise HostFilesError(f"the leaderboard at {shown}: {error}".strip()) from error
    return profiles, leaderboard


def _connected(request: web.Request) -> bool:
    """Whether the request's connection is still open (a websocket's close is seen only once
    it is read)."""
    transport = request.transport
    return transport is not None and not transport.is_closing()


class AddressError(OSError):
    """The server cannot listen where it was asked to (the port is taken, the host is not
    this machine's)."""


class HostFilesError(OSError):
    """The host's own files cannot be used: its key, its leaderboard."""


def check_address(host: str, port: int) -> None:
    """Raise ``AddressError`` when a server cannot listen at ``host:port``: the host names no
    address of this machine, or the port is taken."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server does
            probe.bind(address)
    except OSError as error:
        raise AddressError(error.errno, error.strerror) from error


# ---------------------------------------------------------------------------- the web server


class GameServer:
    """The web application: the page, its files, downloads, and one game process per
    websocket that passes the checks (see the module's docstring)."""

    def __init__(
        self,
        command: str,
        *,
        host: str,
        max_tabs: int,
        profiles: Profiles,
        tab_argv: Sequence[str] | None = None,
        leaderboard: LeaderboardApi | None = None,
        secret: str | None = None,
        start_slots: int | None = None,
    ) -> None:
        self.command = command
        #: A tab's arguments, for the fork server (None: every tab runs ``command``).
        self.tab_argv = None if tab_argv is None else list(tab_argv)
        self.forks: ForkServer | None = None
        #: The leaderboard's HTTP API (``web/api.py``), when the host keeps one.
        self.leaderboard = leaderboard
        #: Where the leaderboard is, for the tabs (which rank their daily wins themselves).
        self.leaderboard_at = None if leaderboard is None else leaderboard.store.where
        self.max_tabs = max_tabs
        self.profiles = profiles
        self._starting = StartTurns(START_SLOTS if start_slots is None else start_slots)
        self.secret = secret or secrets.token_urlsafe(32)
        self.names = host_names(host)
        self.tabs = 0  # games being played, and processes still ending
        #: A signal has asked the server to stop.
        self.stopping = False
        self.stop_requested = asyncio.Event()
        self._sockets: set[web.WebSocketResponse] = set()
        self._endings: set[asyncio.Future[None]] = set()  # kept: a task nobody holds may go
        self._downloads = DownloadManager()
        #: Says each refusal, a flood of them summed up (``FloodGuard`` writes to it too).
        self.refusals = RefusalLog()

    def application(self, *outer: Middleware) -> web.Application:
        """The web application; ``outer`` middlewares come first (the connections' guard)."""
        app = web.Application(middlewares=[*outer, self._check_host])
        app.add_routes(
            [
                web.get("/", self._page),
                web.get("/ws/{secret}", self._play),
                web.get("/static/{name}", self._static),
                web.get("/download/{key}", self._download),
                *(self.leaderboard.routes() if self.leaderboard is not None else ()),
            ]
        )
        app.on_response_prepare.append(add_security_headers)
        app.on_shutdown.append(self._close_games)
        return app

    # A rebinding site's requests name the site: nothing is served to them, not even the page
    # (which holds the secret).
    @web.middleware
    async def _check_host(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        if not host_allowed(request.headers.get("Host", ""), self.names):
            self.refusals.note(f"refused a request for the host {request.headers.get('Host')!r}")
            raise web.HTTPMisdirectedRequest(
                text="This server answers only to this machine's addresses and names.\n"
            )
        return await handler(request)

    async def _page(self, request: web.Request) -> web.Response:
        if self.tabs >= self.max_tabs:
            return message_page(
                503,
                "Every game is taken",
                f"This server plays at most {games_text(self.max_tabs)} at once, and "
                f"{'it is' if self.max_tabs == 1 else 'all of them are'} being played. "
                "Close one (or ask whoever started textmines to allow more with --max-tabs), "
                "then try again.",
            )
        scheme = "wss" if request.secure else "ws"
        page = PAGE.substitute(
            websocket_url=html.escape(f"{scheme}://{request.host}/ws/{self.secret}"),
            font_size=bounded(request.query.get("fontsize"), 16, 6, 48),
            max_tabs=self.max_tabs,
        )
        # Never cached: a page kept from before a restart would hold the old secret.
        response = web.Response(
            text=page, content_type="text/html", headers={"Cache-Control": "no-store"}
        )
        profile = self._issued(request)
        if profile is None and KNOWN_COOKIE not in request.cookies:
            # A browser new to this server, or one that forgot: a new player, if there is room.
            no_room = self.profiles.room_for(None)
            if no_room is not None:
                self.refusals.note(f"refused a new player: {no_room}")
                return message_page(
                    503,
                    "No room for new players",
                    f"This server cannot keep the games of a new player: {no_room}. Players "
                    "who have played here before can still play. Whoever runs it can allow "
                    "more (--max-players, --max-players-mb).",
                )
            profile = self.profiles.new_id()
        if profile is not None:
            give_profile(response, profile)
        return response

    def _issued(self, request: web.Request) -> str | None:
        """The profile the request's cookie names, if this host issued it."""
        profile = profile_of(request)
        return profile if self.profiles.issued(profile) else None

    async def _static(self, request: web.Request) -> web.FileResponse:
        path = STATIC_FILES.get(request.match_info["name"])
        if path is None:
            raise web.HTTPNotFound()
        return web.FileResponse(path)

    async def _download(self, request: web.Request) -> web.StreamResponse:
        """A file a tab delivers (an exported replay), to the tab that asked for it: its key
        is a random one the game sent that tab alone."""
        key = request.match_info["key"]
        try:
            download = await self._downloads.get_download_metadata(key)
        except KeyError:
            raise web.HTTPNotFound() from None
        response = web.StreamResponse()
        content_type = download.mime_type
        if download.encoding:
            content_type += f"; charset={download.encoding}"
        response.headers["Content-Type"] = content_type
        disposition = "inline" if download.open_method == "browser" else "attachment"
        # Quoted as RFC 6266 says: a name with spaces, quotes or semicolons stays one name.
        response.headers["Content-Disposition"] = (
            f"{disposition}; filename*=UTF-8''{quote(download.file_name)}"
        )
        response.headers["Content-Security-Policy"] = DOWNLOAD_POLICY
        await response.prepare(request)
        async for chunk in self._downloads.download(key):
            await response.write(chunk)
        await response.write_eof()
        return response

    async def _play(self, request: web.Request) -> web.WebSocketResponse:
        """A game for the page's websocket, or an HTTP refusal before any process starts."""
        self._check_room(request)
        websocket = web.WebSocketResponse(heartbeat=15)
        if not websocket.can_prepare(request).ok:
            raise web.HTTPBadRequest(text="A game is played over a websocket.\n")
        profile = self._issued(request)
        if profile is None:
            # The page gave none (it had reason to think the browser had one, or the browser
            # keeps no cookies), or one this host never issued: a new player, told in the
            # websocket's answer.
            profile = self.profiles.new_id()
            give_profile(websocket, profile)
        # Counted before the first await: a flood of upgrades at once cannot all see room.
        self.tabs += 1
        turn = self._starting.turn()
        # A page on a touch screen says so: the tab's words speak of taps, not keys.
        touch = request.query.get("touch") == "1"
        # A leaderboard's "Watch" link (/?watch=ID): the tab shows that entry's replay first.
        watch = request.query.get("watch", "")
        entry = int(watch) if watch.isdigit() and len(watch) < 19 else None
        game = self._game(websocket, profile, turn, touch=touch, watch=entry)
        opened = False
        messages: PageMessages | None = None
        try:
            await websocket.prepare(request)
            self._sockets.add(websocket)
            width = bounded(request.query.get("width"), 80, 1, MAX_CELLS)
            height = bounded(request.query.get("height"), 24, 1, MAX_CELLS)
            messages = PageMessages(websocket)
            # A page gone while it waited its turn gets no process and no folder.
            if await messages.wait_for(turn.wait()) and _connected(request):
                opened = self._open_profile(profile)
            if opened:
                await game.start(width, height)
                await relay(messages, websocket, game)
        finally:
            if messages is not None:
                messages.stop()
            turn.done()
            self._sockets.discard(websocket)
            # The place is the game's until its process has ended. A closed connection can
            # cancel this handler: the ending goes on in a task of its own all the same.
            ending = asyncio.ensure_future(self._end(game, profile if opened else None))
            self._endings.add(ending)
            ending.add_done_callback(self._ended)
            await asyncio.shield(ending)
        return websocket

    def _check_room(self, request: web.Request) -> None:
        """Refuse (an HTTP error) a websocket that gets no game: not this server's page, every
        tab taken, no room for a new player."""
        refusal = self.refusal(request)
        if refusal is not None:
            self.refusals.note(f"refused a game: {refusal}")
            raise web.HTTPForbidden(text=f"No game: {refusal}.\n")
        busy = None
        if self.tabs >= self.max_tabs:
            busy = f"every tab is taken ({self.max_tabs} at most)"
        else:
            busy = self.profiles.room_for(self._issued(request))
        if busy is not None:
            self.refusals.note(f"refused a game: {busy}")
            raise web.HTTPServiceUnavailable(
                text=f"No game: {busy}.\n", headers={"Retry-After": "10"}
            )

    def _open_profile(self, profile: str) -> bool:
        try:
            self.profiles.open(profile)
        except OSError as error:
            log.error("textmines: a browser's profile cannot be made: %s", error)
            return False
        return True

    async def _end(self, game: AppService, profile: str | None) -> None:
        """Wait for the game's process to end; then its profile (``None``: none was opened)
        is closed: removed if the visit kept nothing."""
        await stop_game(game)
        if profile is not None:
            self.profiles.close(profile)

    def _game(
        self,
        websocket: web.WebSocketResponse,
        profile: str,
        turn: StartTurn,
        *,
        touch: bool,
        watch: int | None = None,
    ) -> TabService:
        async def close() -> None:  # the game has quit (or saved and ended as the server stops)
            # A signal to the whole group (a closed terminal) reaches the server and the game
            # alike, and a loaded machine may run the game's end before the server's handler.
            if await server_stopping(self.stop_requested, game.ended_on_signal):
                await websocket.close(code=WSCloseCode.GOING_AWAY, message=b"server stopped")
            else:
                await websocket.close()

        async def write_bytes(data: bytes) -> None:
            turn.done()  # the game draws: it has started
            await websocket.send_bytes(data)

        touched = " --touch" if touch else ""
        game = TabService(
            self.command + touched,
            argv=[*(self.tab_argv or ()), *touched.split()],
            profile=profile,
            forks=self.forks,
            leaderboard=self.leaderboard_at,
            watch=watch,
            write_bytes=write_bytes,
            write_str=websocket.send_str,
            close=close,
            download_manager=self._downloads,
        )
        return game

    async def start_forks(self, _: web.Application) -> None:
        """Start the fork server the tabs are forked from (where the system can fork)."""
        if self.tab_argv is not None:
            self.forks = await ForkServer.start(tab_environment(80, 24))

    async def stop_forks(self, _: web.Application) -> None:
        if self.forks is not None:
            await self.forks.close()

    async def stop_on_signals(self, _: web.Application) -> None:
        """Ctrl+C, kill, and a closed terminal (SIGHUP, which went unhandled: the server died
        at once, and its pages said that their games had ended) stop the server alike. The
        tabs' games are told that the server stopped, even those whose process has already
        saved and ended on the same signal (one process group)."""
        loop = asyncio.get_running_loop()
        for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            loop.add_signal_handler(number, self._stop)

    def _stop(self) -> None:
        self.stopping = True
        self.stop_requested.set()

    def _ended(self, ending: asyncio.Future[None]) -> None:
        self._endings.discard(ending)
        self.tabs -= 1

    def refusal(self, request: web.Request) -> str | None:
        """Why a websocket request gets no game, or None when it may have one."""
        origin, host = request.headers.get("Origin"), request.headers.get("Host", "")
        if not same_origin(origin, host):
            return f"it comes from {origin!r}, not from this server's page ({host!r})"
        given = request.match_info.get("secret", "").encode()
        if not hmac.compare_digest(given, self.secret.encode()):
            return "it does not carry this server's secret (a page from before a restart?)"
        return None

    async def _close_games(self, _: web.Application) -> None:
        """On Ctrl+C: close every websocket, so that each game ends as a closed tab's does,
        and wait for their processes to end."""
        await asyncio.gather(
            *(
                websocket.close(code=WSCloseCode.GOING_AWAY, message=b"server stopped")
                for websocket in list(self._sockets)
            ),
            return_exceptions=True,
        )
        deadline = time.monotonic() + STOP_SECONDS + 1
        while self.tabs and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
