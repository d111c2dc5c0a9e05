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
import ipaddress
import json
import logging
import os
import secrets
import shlex
import socket
import string
import struct
import sys
import textwrap
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from pathlib import Path
from urllib.parse import quote, urlsplit

import textual_serve
from aiohttp import WSCloseCode, WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

from textmines.store.paths import is_profile_id, new_profile_id

#: Options of ``--serve`` itself, which the tabs do not get (each with whether it takes a value).
SERVE_OPTIONS = {"--serve": False, "--host": True, "--port": True, "--max-tabs": True}

#: Games at once unless ``--max-tabs`` says otherwise: ~330 MB of tab processes at most.
DEFAULT_MAX_TABS = 8

#: The page, its script and style (this package's), and the files of textual-serve's that it
#: uses, by the names the page asks for. Nothing else is served: no folder, no listing.
WEB = Path(__file__).with_name("web")
TEXTUAL_STATIC = Path(textual_serve.__file__).parent / "static"
STATIC_FILES = {
    "page.js": WEB / "page.js",
    "page.css": WEB / "page.css",
    "textual.js": TEXTUAL_STATIC / "js" / "textual.js",
    "xterm.css": TEXTUAL_STATIC / "css" / "xterm.css",
    "roboto-mono.ttf": TEXTUAL_STATIC / "fonts" / "RobotoMono-VariableFont_wght.ttf",
}

#: Only this server's own files run in its pages; no other site may frame them (a framed game
#: could be clicked through). Styles may be inline: textual.js adds its own at run time.
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "font-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
    ]
)
#: A downloaded file is the game's (a replay), never a page that could run in this origin.
DOWNLOAD_POLICY = "sandbox; default-src 'none'; frame-ancestors 'none'"

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
#: The size a browser may ask its terminal to be, in cells; beyond it, a bogus size.
MAX_CELLS = 1000
#: Seconds between two lines about refused connections (a flood prints a count, not a flood).
REFUSAL_LOG_SECONDS = 5.0
#: The cookie that names a browser's profile (``Paths.profile``), and how long a browser
#: keeps it (400 days, the most browsers allow; each visit renews it).
PROFILE_COOKIE = "textmines-profile"
PROFILE_COOKIE_SECONDS = 400 * 24 * 3600
#: A cookie beside it that says only that the browser has a profile. The profile's is
#: SameSite=Strict: a browser that follows a link from another site to the page withholds it
#: from that one request (not from the page's websocket). This one is Lax, sent then too:
#: with it, a request without the profile is not given a new one, which would replace it.
KNOWN_COOKIE = "textmines-known"

log = logging.getLogger("textmines.serve")


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


def shell_command(args: Sequence[str]) -> str:
    """``args`` as the shell command textual-serve runs for a tab. On POSIX the shell hands
    its process to the program (``exec``): otherwise a shell waits beside each tab, and
    killing the tab's process would kill the shell and leave the game running."""
    command = shlex.join(args)
    return f"exec {command}" if os.name == "posix" else command


def serve(argv: Sequence[str], host: str, port: int, max_tabs: int = DEFAULT_MAX_TABS) -> None:
    """Serve the game at http://host:port until Ctrl+C. Raises ``OSError`` when the address
    cannot be used (the port is taken, the host is not this machine's)."""
    check_address(host, port)  # before the server announces itself
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(message)s"))
    for name in ("textmines.serve", "textual-serve"):
        logging.getLogger(name).addHandler(handler)
        logging.getLogger(name).setLevel(logging.INFO)
        logging.getLogger(name).propagate = False
    server = GameServer(tab_command(argv), host=host, max_tabs=max_tabs)
    app = server.application()

    async def announce(_: web.Application) -> None:
        print(serving_text(host, port, max_tabs), flush=True)

    app.on_startup.append(announce)
    # No access log: the websocket's address carries the secret.
    web.run_app(app, host=host, port=port, print=None, access_log=None, shutdown_timeout=15)


def check_address(host: str, port: int) -> None:
    """Raise ``OSError`` when a server cannot listen at ``host:port``: the host names no
    address of this machine, or the port is taken."""
    family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server does
        probe.bind(address)


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
        secret: str | None = None,
        start_slots: int | None = None,
    ) -> None:
        self.command = command
        self.max_tabs = max_tabs
        self._starting = StartTurns(START_SLOTS if start_slots is None else start_slots)
        self.secret = secret or secrets.token_urlsafe(32)
        self.names = host_names(host)
        self.tabs = 0  # games being played, and processes still ending
        self._sockets: set[web.WebSocketResponse] = set()
        self._endings: set[asyncio.Future[None]] = set()  # kept: a task nobody holds may go
        self._downloads = DownloadManager()
        self._refusals = RefusalLog()

    def application(self) -> web.Application:
        app = web.Application(middlewares=[self._check_host])
        app.add_routes(
            [
                web.get("/", self._page),
                web.get("/ws/{secret}", self._play),
                web.get("/static/{name}", self._static),
                web.get("/download/{key}", self._download),
            ]
        )
        app.on_response_prepare.append(_add_security_headers)
        app.on_shutdown.append(self._close_games)
        return app

    # A rebinding site's requests name the site: nothing is served to them, not even the page
    # (which holds the secret).
    @web.middleware
    async def _check_host(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        if not host_allowed(request.headers.get("Host", ""), self.names):
            self._refusals.note(f"refused a request for the host {request.headers.get('Host')!r}")
            raise web.HTTPMisdirectedRequest(
                text="This server answers only to this machine's addresses and names.\n"
            )
        return await handler(request)

    async def _page(self, request: web.Request) -> web.Response:
        if self.tabs >= self.max_tabs:
            return message_page(
                503,
                "Every game is taken",
                f"This server plays at most {_games(self.max_tabs)} at once, and "
                f"{'it is' if self.max_tabs == 1 else 'all of them are'} being played. "
                "Close one (or ask whoever started textmines to allow more with --max-tabs), "
                "then try again.",
            )
        scheme = "wss" if request.secure else "ws"
        page = PAGE.substitute(
            websocket_url=html.escape(f"{scheme}://{request.host}/ws/{self.secret}"),
            font_size=_bounded(request.query.get("fontsize"), 16, 6, 48),
            max_tabs=self.max_tabs,
        )
        # Never cached: a page kept from before a restart would hold the old secret.
        response = web.Response(
            text=page, content_type="text/html", headers={"Cache-Control": "no-store"}
        )
        profile = profile_of(request)
        if profile is None and KNOWN_COOKIE not in request.cookies:
            profile = new_profile_id()  # a browser new to this server, or one that forgot
        if profile is not None:
            give_profile(response, profile)
        return response

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
        refusal = self.refusal(request)
        if refusal is not None:
            self._refusals.note(f"refused a game: {refusal}")
            raise web.HTTPForbidden(text=f"No game: {refusal}.\n")
        if self.tabs >= self.max_tabs:
            self._refusals.note(f"refused a game: every tab is taken ({self.max_tabs} at most)")
            raise web.HTTPServiceUnavailable(
                text=f"No game: every tab is taken ({self.max_tabs} at most).\n",
                headers={"Retry-After": "10"},
            )
        websocket = web.WebSocketResponse(heartbeat=15)
        if not websocket.can_prepare(request).ok:
            raise web.HTTPBadRequest(text="A game is played over a websocket.\n")
        profile = profile_of(request)
        if profile is None:
            # The page gave none (it had reason to think the browser had one, or the browser
            # keeps no cookies): a new player, told in the websocket's answer.
            profile = new_profile_id()
            give_profile(websocket, profile)
        # Counted before the first await: a flood of upgrades at once cannot all see room.
        self.tabs += 1
        turn = self._starting.turn()
        game = self._game(websocket, profile, turn)
        try:
            await websocket.prepare(request)
            self._sockets.add(websocket)
            width = _bounded(request.query.get("width"), 80, 1, MAX_CELLS)
            height = _bounded(request.query.get("height"), 24, 1, MAX_CELLS)
            await turn.wait()
            if not websocket.closed:
                await game.start(width, height)
                await relay(websocket, game)
        finally:
            turn.done()
            self._sockets.discard(websocket)
            # The place is the game's until its process has ended. A closed connection can
            # cancel this handler: the ending goes on in a task of its own all the same.
            ending = asyncio.ensure_future(_stop(game))
            self._endings.add(ending)
            ending.add_done_callback(self._ended)
            await asyncio.shield(ending)
        return websocket

    def _game(self, websocket: web.WebSocketResponse, profile: str, turn: StartTurn) -> AppService:
        async def close() -> None:  # the game has quit
            await websocket.close()

        async def write_bytes(data: bytes) -> None:
            turn.done()  # the game draws: it has started
            await websocket.send_bytes(data)

        return AppService(
            # The id is 32 hex digits (profile_of): nothing in it the shell could read.
            f"{self.command} --profile={profile}",
            write_bytes=write_bytes,
            write_str=websocket.send_str,
            close=close,
            download_manager=self._downloads,
        )

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


def profile_of(request: web.Request) -> str | None:
    """The profile id the request's cookie names, if it is one exactly as this server makes
    them (anything else is no profile: a cookie is the browser's, and may say anything)."""
    given = request.cookies.get(PROFILE_COOKIE, "")
    return given if is_profile_id(given) else None


def give_profile(response: web.StreamResponse, profile: str) -> None:
    """The cookies that keep ``profile`` in the browser: the id, sent by the browser with
    this server's own requests alone (Strict) and read by no script (HttpOnly: the id is all
    it takes to play as that browser); and ``KNOWN_COOKIE``, which holds nothing secret."""
    for name, value, same_site in ((PROFILE_COOKIE, profile, "Strict"), (KNOWN_COOKIE, "1", "Lax")):
        response.set_cookie(
            name,
            value,
            max_age=PROFILE_COOKIE_SECONDS,
            path="/",
            httponly=True,
            samesite=same_site,
        )


async def relay(websocket: web.WebSocketResponse, game: AppService) -> None:
    """Pass what the page sends (textual.js's messages: JSON lists) to the game, until the page
    goes. A message that is not one of them is dropped."""
    async for message in websocket:
        if message.type != WSMsgType.TEXT:
            continue
        try:
            envelope = json.loads(message.data)
        except ValueError:
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


async def _stop(game: AppService) -> None:
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


async def _add_security_headers(_: web.Request, response: web.StreamResponse) -> None:
    headers = response.headers
    headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    headers.setdefault("X-Content-Type-Options", "nosniff")
    headers.setdefault("Referrer-Policy", "no-referrer")


def _bounded(text: str | None, default: int, low: int, high: int) -> int:
    try:
        value = int(text) if text is not None else default
    except ValueError:
        value = default
    return min(max(value, low), high)


class RefusalLog:
    """Says each refused connection, but a flood of them as one line every few seconds."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._last = -REFUSAL_LOG_SECONDS
        self._quiet = 0

    def note(self, text: str) -> None:
        now = self._clock()
        if now - self._last < REFUSAL_LOG_SECONDS:
            self._quiet += 1
            return
        more = f" (and {self._quiet} more refused since the last line)" if self._quiet else ""
        log.warning("textmines: %s%s", text, more)
        self._last, self._quiet = now, 0


def _template(name: str) -> string.Template:
    return string.Template((WEB / name).read_text(encoding="utf-8"))


PAGE = _template("page.html")
MESSAGE = _template("message.html")


def message_page(status: int, title: str, text: str) -> web.Response:
    """A page that says why there is no game."""
    body = MESSAGE.substitute(title=html.escape(title), text=html.escape(text))
    return web.Response(
        status=status,
        text=body,
        content_type="text/html",
        headers={"Cache-Control": "no-store", "Retry-After": "10"},
    )


# ------------------------------------------------------------------ who may ask, from where


def host_names(host: str) -> frozenset[str]:
    """The names (as well as any address) a request may call this server by: ``localhost``,
    this machine's name (and its ``.local`` form), and ``host`` if it is a name."""
    names = {"localhost"}
    machine = socket.gethostname().lower().rstrip(".")
    if machine:
        names.add(machine)
        if "." not in machine:
            names.add(f"{machine}.local")
    if not _is_address(host):
        names.add(host.lower().rstrip("."))
    return frozenset(names)


def host_allowed(header: str, names: frozenset[str]) -> bool:
    """Whether a request's Host header names this server: an address (a rebinding site can
    only ever send its own name), or one of ``names``."""
    try:
        parts = urlsplit(f"//{header}")
        _ = parts.port  # a port that is not a number raises
    except ValueError:
        return False
    if parts.hostname is None or parts.path or parts.query or parts.fragment:
        return False
    if "@" in parts.netloc:
        return False
    return _is_address(parts.hostname) or parts.hostname.rstrip(".") in names


def same_origin(origin: str | None, host: str) -> bool:
    """Whether a browser's ``Origin`` is the page this server sent for ``host`` (a browser
    always sends it with a websocket; any other program is not a page)."""
    if origin is None:
        return False
    host = host.lower()
    return origin.lower() in (f"http://{host}", f"https://{host}")


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return False
    return True


# ----------------------------------------------------------------------- what to tell the player


def serving_text(host: str, port: int, max_tabs: int) -> str:
    """What ``--serve`` says when it starts: where to play, and, when other machines can
    reach it, that they can and what that gives them."""
    listening = _listening_address(host, port)
    lines: list[str]
    if listening.is_loopback:
        lines = [f"textmines: play at {_url(host, port)} (this machine only)."]
    elif listening.is_unspecified:
        others = [
            address
            for address in interface_addresses(ipv6=listening.version == 6)
            if not address.is_loopback
        ]
        lines = ["textmines: serving on every address of this machine:"]
        lines.append(f"  on this machine:     {_url('127.0.0.1', port)}")
        if others:
            shown = ", ".join(_url(str(address), port) for address in others)
            lines.append(f"  from other machines: {shown}")
        else:
            lines.append("  (this machine has no network address other than its own loopback)")
    else:
        lines = [f"textmines: play at {_url(host, port)}"]
    if not listening.is_loopback:
        lines.append(network_warning(port, max_tabs))
    lines.append(f"At most {_games(max_tabs)} at once (--max-tabs). Ctrl+C stops.")
    return "\n".join(lines)


def network_warning(port: int, max_tabs: int) -> str:
    """What anyone who can reach the port can do: play, as a player of their own, with this
    account's reach to replay files."""
    return textwrap.fill(
        f"WARNING: anyone who can reach this machine at port {port} can play here "
        f"({_games(max_tabs)} at once), with no password: each browser as a player of its "
        "own (its statistics, settings and saved game, in your data folder; yours are out "
        "of its reach), and any of them can open replay files anywhere this account can "
        "read (Game > Open replay). The traffic is plain HTTP: whoever sees it can play as "
        "that browser. Serve beyond 127.0.0.1 only on a network whose people you trust.",
        width=88,
        subsequent_indent="  ",
    )


def _games(count: int) -> str:
    return f"{count} game" if count == 1 else f"{count} games"


def _url(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def _listening_address(host: str, port: int) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    """The address a server at ``host`` listens on (the one ``check_address`` bound)."""
    address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][4][0]
    return ipaddress.ip_address(str(address).split("%")[0])


def interface_addresses(
    *, ipv6: bool = False
) -> list[ipaddress.IPv4Address | ipaddress.IPv6Address]:
    """This machine's own addresses, asked of the system alone (no name looked up, nothing
    sent): IPv4, and IPv6 too when ``ipv6``. Link-local addresses are left out (a browser
    needs the interface named to use them)."""
    found: list[ipaddress.IPv4Address | ipaddress.IPv6Address] = list(_ipv4_addresses())
    if ipv6:
        found += _ipv6_addresses()
    unique = dict.fromkeys(address for address in found if not address.is_link_local)
    return sorted(unique, key=lambda address: (address.version, address.is_loopback, address))


def _ipv4_addresses() -> Iterator[ipaddress.IPv4Address]:
    if sys.platform.startswith("linux"):
        import fcntl

        # SIOCGIFADDR: each interface's IPv4 address, as `ip addr` reads it.
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            for _, name in socket.if_nameindex():
                request = struct.pack("256s", name.encode()[:15])
                try:
                    answer = fcntl.ioctl(probe.fileno(), 0x8915, request)
                except OSError:
                    continue  # an interface without an IPv4 address
                yield ipaddress.IPv4Address(answer[20:24])
        return
    # Elsewhere: the address that would carry traffic to the outside. Connecting a UDP socket
    # only chooses a route; nothing is sent (192.0.2.1 is a documentation address).
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))
        except OSError:
            return
        yield ipaddress.IPv4Address(probe.getsockname()[0])


def _ipv6_addresses() -> list[ipaddress.IPv6Address]:
    try:
        lines = Path("/proc/net/if_inet6").read_text().splitlines()
    except OSError:
        return []
    return [ipaddress.IPv6Address(int(line.split()[0], 16)) for line in lines if line.strip()]
