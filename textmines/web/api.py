"""The leaderboard's HTTP API on the ``--serve`` host (JSON; an error is ``{"error": "..."}``
with a 4xx status), for scripts and for ``textmines --challenge``:

- ``POST /api/challenge`` ``{"board": "daily" | "beginner" | "intermediate" | "expert"}``
  with the player's token (``Authorization: Bearer TOKEN``; without one, a new player, whose
  token comes in the answer): a board the host deals, ``{"challenge", "board_id", "date",
  "practice"}``;
- ``POST /api/results`` ``{"challenge", "replay": base64 of textmines' .evf export, "name"}``
  with the token: the replay verified on that board (``leaderboard.verify``) and ranked,
  ``{"rank", "of", "time_ms", "bbbv_per_s", "practice"}``; or 401 (no player), 403 (not your
  challenge), 404 (no such challenge), 409 (submitted already), 413 (too large), 422 (the
  replay does not prove a win on the board), 429 (too many);
- ``GET /api/leaderboard?board=daily&date=YYYY-MM-DD`` or ``?board=expert&period=all|week|day``:
  each player's best, ``{"board", "date", "period", "entries": [{"rank", "name", "time_ms",
  "bbbv", "bbbv_per_s", "played_at", "replay": "/api/replays/ID"}]}``; with the player's
  token, each entry says whether it is theirs (``"you"``), and ``"yours"`` is their best there
  with its rank however far down (null: none);
- ``GET /api/me`` with the token: the player's name and ranked wins, latest first
  (``{"name", "wins": [{"board", "date", "time_ms", "bbbv", "bbbv_per_s", "played_at",
  "replay"}]}``);
- ``GET /api/replays/ID``: an entry's replay, the .evf file that was verified.

See docs/leaderboard.md.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import html
import time
from collections import defaultdict, deque
from collections.abc import Callable
from datetime import UTC, date, datetime
from typing import Any, Final

from aiohttp import web

from textmines.engine.board_id import parse_board_id
from textmines.engine.daily import daily_day
from textmines.leaderboard.boards import BOARD_KINDS, BoardKind, Dealt, deal, kind_named
from textmines.leaderboard.store import Challenge, Entry, LeaderboardStore, Player, Win
from textmines.leaderboard.verify import Refused, verify
from textmines.replays.foreign import ReplayFileError, read_bytes_as_replay
from textmines.replays.recording import Recording
from textmines.web.pages import notice_html

#: The largest replay a submission may carry (an Expert game's .evf is a few kilobytes; an
#: hour of a human's play some 200 kB).
MAX_REPLAY_BYTES: Final = 512 * 1024
#: Submissions a player, and an address, may make in a minute.
PER_PLAYER_A_MINUTE: Final = 10
PER_ADDRESS_A_MINUTE: Final = 30
_PERIODS: Final = {"all": None, "week": 7 * 86_400_000, "day": 86_400_000}
_PERIOD_WORDS: Final = {"all": "all time", "week": "this week", "day": "today"}


def error(status: int, message: str) -> web.Response:
    return web.json_response({"error": message}, status=status)


class LeaderboardApi:
    """The API's handlers over ``store``; ``clock`` gives the time in ms since 1970."""

    def __init__(
        self,
        store: LeaderboardStore,
        *,
        clock: Callable[[], int] = lambda: time.time_ns() // 1_000_000,
        viewer: Callable[[web.Request], str | None] = lambda request: None,
    ) -> None:
        self.store = store
        self._clock = clock
        #: The leaderboard token of the browser a request comes from, if it plays here (its
        #: profile's): the page marks that player's row.
        self._viewer = viewer
        self._recent: dict[str, deque[int]] = defaultdict(deque)

    def routes(self) -> list[web.RouteDef]:
        return [
            web.get("/leaderboard", self.page),
            web.post("/api/challenge", self.challenge),
            web.post("/api/results", self.results),
            web.get("/api/leaderboard", self.leaderboard),
            web.get("/api/replays/{entry}", self.replay),
            web.get("/api/me", self.me),
        ]

    # ------------------------------------------------------------------------- handlers

    async def challenge(self, request: web.Request) -> web.Response:
        body = await _json(request)
        kind = body.get("board") if isinstance(body, dict) else None
        if kind not in BOARD_KINDS:
            return error(400, f"'board' must be one of {', '.join(BOARD_KINDS)}")
        now = self._clock()
        player, token = self._player(request), None
        if player is None:
            player, token = self.store.new_player("", now)
        dealt = deal(kind, _today(now))
        issued = self.store.issue(player, dealt, now)
        answer: dict[str, Any] = {
            "challenge": issued.id,
            "board_id": issued.board_id,
            "date": None if issued.day is None else issued.day.isoformat(),
            "practice": not issued.counted,
        }
        if token is not None:
            answer["token"] = token
        return web.json_response(answer)

    async def results(self, request: web.Request) -> web.Response:
        player = self._player(request)
        if player is None:
            return error(401, "no player: send the token POST /api/challenge gave you")
        now = self._clock()
        busy = self._too_many(player, request, now)
        if busy is not None:
            return error(429, busy)
        body = await _json(request)
        if not isinstance(body, dict):
            return error(400, "send a JSON object")
        challenge = self.store.challenge(str(body.get("challenge", "")))
        if challenge is None:
            return error(404, "no such challenge: ask for one with POST /api/challenge")
        try:
            replay = _replay_bytes(body.get("replay"))
            recording = await _read_evf(replay)
            verified = verify(
                recording, _dealt(challenge), since_issued_ms=now - challenge.issued_ms
            )
            if isinstance(body.get("name"), str) and body["name"].strip():
                player = self.store.rename(player, body["name"])
            ranked = self.store.submit(challenge, player, verified, replay, now)
        except Refused as refused:
            return error(refused.status, str(refused))
        return web.json_response(
            {
                "rank": ranked.rank,
                "of": ranked.of,
                "time_ms": verified.time_ms,
                "bbbv_per_s": round(verified.bbbv_per_s, 3),
                "practice": ranked.rank is None,
            }
        )

    async def leaderboard(self, request: web.Request) -> web.Response:
        kind = request.query.get("board", "")
        if kind not in BOARD_KINDS:
            return error(400, f"'board' must be one of {', '.join(BOARD_KINDS)}")
        now = self._clock()
        day, period = None, None
        if kind == "daily":
            try:
                day = date.fromisoformat(request.query.get("date") or _today(now).isoformat())
            except ValueError:
                return error(400, "'date' must be YYYY-MM-DD")
        else:
            period = request.query.get("period", "all")
            if period not in _PERIODS:
                return error(400, "'period' must be all, week or day")
        player = self._player(request)
        entries, yours = self._standings(kind_named(kind), day, period or "all", player, now)
        return web.json_response(
            {
                "board": kind,
                "date": None if day is None else day.isoformat(),
                "period": period,
                "entries": [_entry_json(e, player) for e in entries],
                **({"yours": _entry_json(yours, player)} if player is not None else {}),
            }
        )

    async def page(self, request: web.Request) -> web.Response:
        """The leaderboard as a page: a board's table (a preset's of a period), links to the
        others, the replays, and the viewer's own row and best (a browser that plays here)."""
        kind = request.query.get("board", "daily")
        kind = kind if kind in BOARD_KINDS else "daily"
        period = request.query.get("period", "all")
        period = period if period in _PERIODS and kind != "daily" else "all"
        now = self._clock()
        day = _today(now) if kind == "daily" else None
        token = self._viewer(request)
        viewer = None if token is None else self.store.player(token)
        entries, yours = self._standings(kind_named(kind), day, period, viewer, now)
        title = f"Daily board of {day}" if day else f"{kind.capitalize()}, {_PERIOD_WORDS[period]}"
        wins = [] if viewer is None else self.store.wins_of(viewer, limit=10)
        content = "\n".join(
            (
                _links(kind, period),
                _yours_line(viewer, yours),
                _table(entries, viewer),
                _wins_table(wins),
                '<p class="small">Only wins a replay proves, on boards this host dealt.</p>',
                '<p><a href="/">Play</a></p>',
            )
        )
        body = notice_html(f"Leaderboard: {title}", content, body_class="message leaderboard")
        return web.Response(
            text=body, content_type="text/html", headers={"Cache-Control": "no-store"}
        )

    async def me(self, request: web.Request) -> web.Response:
        """The asking player (their token): their name and their ranked wins, latest first."""
        player = self._player(request)
        if player is None:
            return error(401, "no player: send your token (Authorization: Bearer TOKEN)")
        wins = self.store.wins_of(player)
        return web.json_response(
            {
                "name": player.name,
                "wins": [
                    {
                        "board": win.kind,
                        "date": None if win.day is None else win.day.isoformat(),
                        **_figures(win),
                    }
                    for win in wins
                ],
            }
        )

    async def replay(self, request: web.Request) -> web.Response:
        entry = request.match_info["entry"]
        data = self.store.replay(int(entry)) if entry.isdigit() and len(entry) < 19 else None
        if data is None:
            return error(404, "no such replay")
        return web.Response(
            body=data,
            content_type="application/octet-stream",
            headers={"Content-Disposition": f'attachment; filename="textmines-{entry}.evf"'},
        )

    # -------------------------------------------------------------------------- helpers

    def _standings(
        self, kind: BoardKind, day: date | None, period: str, player: Player | None, now: int
    ) -> tuple[list[Entry], Entry | None]:
        """Each player's best on ``kind`` (``day``'s daily board, or a preset's of ``period``
        up to ``now``), and ``player``'s own best there however far down, if asked."""
        span = _PERIODS[period]
        since = 0 if span is None else now - span
        entries = self.store.leaderboard(kind, day=day, since_ms=since)
        if player is None:
            return entries, None
        return entries, self.store.best_of(player, kind, day=day, since_ms=since)

    def _player(self, request: web.Request) -> Player | None:
        scheme, _, token = request.headers.get("Authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            return None
        return self.store.player(token.strip())

    def _too_many(self, player: Player, request: web.Request, now: int) -> str | None:
        """Why a submission now is one too many (a minute's worth per player and address)."""
        limits = (
            (f"player {player.id}", PER_PLAYER_A_MINUTE, "you have"),
            (f"address {request.remote}", PER_ADDRESS_A_MINUTE, "your address has"),
        )
        for key, most, who in limits:
            recent = self._recent[key]
            while recent and now - recent[0] >= 60_000:
                recent.popleft()
            if len(recent) >= most:
                return f"{who} sent {most} results in the last minute: wait a little"
        for key, _, _ in limits:
            self._recent[key].append(now)
        return None


def _entry_json(entry: Entry | None, player: Player | None) -> dict[str, Any] | None:
    """An entry as the API gives it; ``you``: whether it is the asking player's (a request
    with a token)."""
    if entry is None:
        return None
    return {
        "rank": entry.rank,
        "name": entry.name,
        **_figures(entry),
        **({"you": entry.player_id == player.id} if player is not None else {}),
    }


def _figures(win: Entry | Win) -> dict[str, Any]:
    """What the API says of any ranked win: its figures, when, and where its replay is."""
    return {
        "time_ms": win.time_ms,
        "bbbv": win.bbbv,
        "bbbv_per_s": round(win.bbbv_per_s, 3),
        "played_at": _moment(win.played_ms),
        "replay": f"/api/replays/{win.entry_id}",
    }


async def _json(request: web.Request) -> Any:
    try:
        return await request.json()
    except ValueError:
        return None


def _links(kind: str, period: str) -> str:
    """The links to the other boards, and for a preset to its other periods."""

    def link(href: str, words: str, here: bool) -> str:
        return f"<strong>{words}</strong>" if here else f'<a href="{href}">{words}</a>'

    boards = " ".join(link(f"?board={k}", k.capitalize(), k == kind) for k in BOARD_KINDS)
    if kind == "daily":
        return f'<p class="boards">{boards}</p>'
    periods = " ".join(
        link(f"?board={kind}&amp;period={p}", _PERIOD_WORDS[p].capitalize(), p == period)
        for p in _PERIODS
    )
    return f'<p class="boards">{boards}</p><p class="boards">{periods}</p>'


def _yours_line(viewer: Player | None, yours: Entry | None) -> str:
    """What the page says of the viewer's own best ("" for a browser that does not play)."""
    if viewer is None:
        return ""
    if yours is None:
        return f"<p>{html.escape(viewer.name)}: not on this board yet.</p>"
    return f"<p>{html.escape(viewer.name)}: #{yours.rank} in {yours.time_ms / 1000:.3f} s.</p>"


def _wins_table(wins: list[Win]) -> str:
    """The viewer's latest ranked wins ("" for none, or a browser that does not play)."""
    if not wins:
        return ""
    rows = "".join(f"<tr><td>{_board_words(w)}</td>{_figure_cells(w)}</tr>" for w in wins)
    table = _html_table(("Board", "Time", "3BV", "3BV/s", "Played", "Replay"), rows, "wins")
    return f"<h2>Your latest wins</h2>{table}"


def _board_words(win: Win) -> str:
    return f"Daily {win.day}" if win.day is not None else win.kind.capitalize()


_YOU_ROW: Final = ' class="you"'


def _table(entries: list[Entry], viewer: Player | None = None) -> str:
    """The entries as an HTML table, every name escaped (a name is anybody's text); the
    viewer's row marked."""
    if not entries:
        return "<p>No win on this board yet.</p>"
    mine = -1 if viewer is None else viewer.id
    rows = "".join(
        f"<tr{_YOU_ROW if e.player_id == mine else ''}><td>{e.rank}</td>"
        f"<td>{html.escape(e.name)}</td>{_figure_cells(e)}</tr>"
        for e in entries
    )
    return _html_table(("#", "Player", "Time", "3BV", "3BV/s", "Played", "Replay"), rows, "ranks")


def _figure_cells(win: Entry | Win) -> str:
    """The cells of a ranked win's figures, its day, and the links to its replay (watched in
    a tab of the game, or downloaded)."""
    return (
        f"<td>{win.time_ms / 1000:.3f} s</td><td>{win.bbbv}</td><td>{win.bbbv_per_s:.3f}</td>"
        f"<td>{_moment(win.played_ms)[:10]}</td>"
        f'<td><a href="/?watch={win.entry_id}">Watch</a> '
        f'<a href="/api/replays/{win.entry_id}">.evf</a></td>'
    )


def _html_table(names: tuple[str, ...], rows: str, kind: str) -> str:
    head = "<tr>" + "".join(f"<th>{name}</th>" for name in names) + "</tr>"
    return f'<div class="table {kind}"><table>{head}{rows}</table></div>'


def _replay_bytes(given: object) -> bytes:
    if not isinstance(given, str) or not given:
        raise Refused("'replay' must be the base64 of a .evf file", 400)
    if len(given) > (MAX_REPLAY_BYTES * 4) // 3 + 4:
        raise Refused(f"the replay is larger than {MAX_REPLAY_BYTES // 1024} kB", 413)
    try:
        return base64.b64decode(given, validate=True)
    except (binascii.Error, ValueError):
        raise Refused("'replay' is not base64", 400) from None


async def _read_evf(data: bytes) -> Recording:
    """``data`` read as an .evf file by ms-toollib, in a child process (``replays.foreign``)."""

    def read() -> Recording:
        try:
            return read_bytes_as_replay(data, "replay.evf", shown="the replay").recording
        except ReplayFileError as problem:
            raise Refused(str(problem)) from None

    return await asyncio.get_running_loop().run_in_executor(None, read)


def _dealt(challenge: Challenge) -> Dealt:
    return Dealt(challenge.kind, parse_board_id(challenge.board_id), challenge.day)


def _today(now_ms: int) -> date:
    """The day whose daily board is played at ``now_ms`` (the engine's: UTC)."""
    return daily_day(datetime.fromtimestamp(now_ms / 1000, UTC))


def _moment(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).isoformat(timespec="seconds")
