"""The leaderboard's HTTP API, end to end in one process: a challenge dealt, the game played
with the engine and exported as textmines' .evf, the result submitted, verified and ranked;
each refusal with its status and one line."""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer

from tests.helpers import FakeClock, winning_clicks
from tests.leaderboard.postgres import new_database
from tests.replays.toollib import basevideo_file, centre
from textmines.engine.board_id import parse_board_id
from textmines.leaderboard.store import LeaderboardStore
from textmines.replays.evf import export_evf
from textmines.replays.recording import Recording
from textmines.web.api import LeaderboardApi

pytestmark = pytest.mark.slow  # each submission's replay is read by ms-toollib in a child
NOW = 1_764_547_200_000  # 2025-12-01 00:00 UTC, in ms


class Host:
    """The API on a test server, its clock moved by hand (ms since 1970)."""

    def __init__(self, store: LeaderboardStore) -> None:
        self.now = NOW
        # The browser a page is asked from, as the host knows it by its profile's cookie: here
        # by a header the tests send.
        self.api = LeaderboardApi(
            store, clock=lambda: self.now, viewer=lambda request: request.headers.get("X-Viewer")
        )
        self.url = ""

    async def post(self, path: str, body: Any, token: str | None = None) -> tuple[int, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        async with (
            aiohttp.ClientSession() as session,
            session.post(self.url + path, json=body, headers=headers) as response,
        ):
            return response.status, await response.json()

    async def get(self, path: str, token: str | None = None) -> tuple[int, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        async with (
            aiohttp.ClientSession() as session,
            session.get(self.url + path, headers=headers) as response,
        ):
            if response.content_type == "application/json":
                return response.status, await response.json()
            return response.status, await response.read()


@asynccontextmanager
async def hosting(where: str) -> AsyncIterator[Host]:
    """A host whose leaderboard is at ``where`` (a SQLite file, a PostgreSQL database)."""
    store = LeaderboardStore.open(where)
    running = Host(store)
    app = web.Application()
    app.add_routes(running.api.routes())
    try:
        async with TestServer(app, host="127.0.0.1") as server:
            running.url = f"http://127.0.0.1:{server.port}"
            yield running
    finally:
        store.close()


@pytest.fixture
async def host(tmp_path: Path) -> AsyncIterator[Host]:
    pytest.importorskip("ms_toollib")
    async with hosting(str(tmp_path / "leaderboard.db")) as running:
        yield running


def won(board_id: str, *, leave: int = 0, seconds: float = 1.0) -> str:
    """The base64 of the .evf of a game on ``board_id``, a click every ``seconds``."""
    clock = FakeClock()
    board = parse_board_id(board_id)
    game = board.game(clock=clock)
    clicks = [c for c in winning_clicks(board.board) if not game.is_revealed(*c)]
    for x, y in clicks[: len(clicks) - leave]:
        clock.advance(seconds)
        game.reveal(x, y)
    return base64.b64encode(export_evf(Recording.of(game))).decode()


async def test_a_challenge_played_and_submitted_is_ranked_and_listed(host: Host) -> None:
    status, dealt = await host.post("/api/challenge", {"board": "beginner"})
    assert status == 200 and dealt["date"] is None and not dealt["practice"]
    token = dealt["token"]
    host.now += 60_000
    status, ranked = await host.post(
        "/api/results",
        {"challenge": dealt["challenge"], "replay": won(dealt["board_id"]), "name": "Ann"},
        token,
    )
    assert status == 200, ranked
    assert (ranked["rank"], ranked["of"], ranked["practice"]) == (1, 1, False)
    status, board = await host.get("/api/leaderboard?board=beginner&period=week")
    (entry,) = board["entries"]
    assert (entry["rank"], entry["name"], entry["time_ms"]) == (1, "Ann", ranked["time_ms"])
    assert entry["played_at"] == "2025-12-01T00:01:00+00:00"
    status, replay = await host.get(entry["replay"])
    assert status == 200 and replay[:1] == b"\x04"  # the .evf verified, version 4
    assert "you" not in entry and "yours" not in board, "nobody asked: nobody is 'you'"
    # Asked with a token: the player's own entry is marked, and their best is said apart.
    _, board = await host.get("/api/leaderboard?board=beginner", token)
    assert board["entries"][0]["you"] and board["yours"]["rank"] == 1
    _, other = await host.post("/api/challenge", {"board": "beginner"})
    _, board = await host.get("/api/leaderboard?board=beginner", other["token"])
    assert not board["entries"][0]["you"] and board["yours"] is None
    # The player's own wins, every board, the latest first; without a token, nobody's.
    status, me = await host.get("/api/me", token)
    assert status == 200 and me["name"] == "Ann"
    assert [(w["board"], w["time_ms"], w["replay"]) for w in me["wins"]] == [
        ("beginner", ranked["time_ms"], entry["replay"])
    ]
    assert (await host.get("/api/me", other["token"]))[1]["wins"] == []
    assert (await host.get("/api/me"))[0] == 401


async def refused(host: Host, body: dict[str, Any], token: str | None) -> tuple[int, str]:
    status, answer = await host.post("/api/results", body, token)
    assert set(answer) == {"error"}, answer
    return status, answer["error"]


async def test_each_refusal_has_its_status_and_one_line(host: Host) -> None:
    _, dealt = await host.post("/api/challenge", {"board": "beginner"})
    token, challenge = dealt["token"], dealt["challenge"]
    _, theirs = await host.post("/api/challenge", {"board": "beginner"})
    host.now += 60_000
    replay = won(dealt["board_id"])

    assert (await refused(host, {"challenge": challenge, "replay": replay}, None))[0] == 401
    assert (await refused(host, {"challenge": "nope", "replay": replay}, token))[0] == 404
    status, said = await refused(
        host, {"challenge": theirs["challenge"], "replay": won(theirs["board_id"])}, token
    )
    assert (status, said) == (403, "this challenge was dealt to another player")
    status, said = await refused(
        host, {"challenge": challenge, "replay": won(theirs["board_id"])}, token
    )
    assert (status, said) == (422, "the replay's mines are not those of the board dealt")
    status, said = await refused(
        host, {"challenge": challenge, "replay": won(dealt["board_id"], leave=1)}, token
    )
    assert (status, said) == (422, "the replay does not win the board")
    slow = won(dealt["board_id"], seconds=30.0)  # won in more time than since the deal
    status, said = await refused(host, {"challenge": challenge, "replay": slow}, token)
    assert status == 422 and "but the board was dealt only" in said
    status, said = await refused(host, {"challenge": challenge, "replay": "x" * 800_000}, token)
    assert status == 413
    status, said = await refused(host, {"challenge": challenge, "replay": "not base64!"}, token)
    assert (status, said) == (400, "'replay' is not base64")
    status, said = await refused(
        host, {"challenge": challenge, "replay": base64.b64encode(b"junk").decode()}, token
    )
    assert status == 422 and said.startswith("the replay:")
    assert (await host.post("/api/results", {"challenge": challenge, "replay": replay}, token))[
        0
    ] == 200
    status, said = await refused(host, {"challenge": challenge, "replay": replay}, token)
    assert (status, said) == (409, "this challenge has been submitted already")
    assert (await host.post("/api/challenge", {"board": "custom"}))[0] == 400


async def test_too_many_submissions_in_a_minute_are_refused(host: Host) -> None:
    _, dealt = await host.post("/api/challenge", {"board": "beginner"})
    for _ in range(10):
        await host.post("/api/results", {"challenge": "nope"}, dealt["token"])
    status, said = await refused(host, {"challenge": "nope"}, dealt["token"])
    assert status == 429 and "10 results in the last minute" in said
    host.now += 60_000
    assert (await refused(host, {"challenge": "nope"}, dealt["token"]))[0] == 404


async def test_the_days_second_daily_challenge_is_practice(host: Host) -> None:
    _, first = await host.post("/api/challenge", {"board": "daily"})
    _, second = await host.post("/api/challenge", {"board": "daily"}, first["token"])
    assert first["date"] == "2025-12-01" and not first["practice"] and second["practice"]
    assert first["board_id"] == second["board_id"]
    host.now += 600_000
    status, ranked = await host.post(
        "/api/results",
        {"challenge": second["challenge"], "replay": won(second["board_id"])},
        first["token"],
    )
    assert status == 200 and ranked["practice"] and ranked["rank"] is None
    status, board = await host.get("/api/leaderboard?board=daily&date=2025-12-01")
    assert board["entries"] == []
    assert (await host.get("/api/leaderboard?board=daily&date=12/01"))[0] == 400


@pytest.mark.xdist_group("postgres")
async def test_two_hosts_on_one_postgresql_database_share_one_leaderboard(
    postgres_server: str,
) -> None:
    """A challenge one host dealt is submitted to the other; both list the same ranks."""
    pytest.importorskip("ms_toollib")
    where = new_database(postgres_server, "two_hosts")
    async with hosting(where) as first, hosting(where) as second:
        _, ann = await first.post("/api/challenge", {"board": "expert"})
        _, bob = await second.post("/api/challenge", {"board": "expert"})
        for host in (first, second):
            host.now += 3_600_000
        status, ranked = await second.post(
            "/api/results",
            {"challenge": ann["challenge"], "replay": won(ann["board_id"]), "name": "Ann"},
            ann["token"],
        )
        assert status == 200 and (ranked["rank"], ranked["of"]) == (1, 1), ranked
        status, ranked = await first.post(
            "/api/results",
            {"challenge": bob["challenge"], "replay": won(bob["board_id"], seconds=0.5)},
            bob["token"],
        )
        assert status == 200 and (ranked["rank"], ranked["of"]) == (1, 2), ranked
        boards = [await host.get("/api/leaderboard?board=expert") for host in (first, second)]
        assert boards[0] == boards[1]
        assert [e["name"] for e in boards[0][1]["entries"]] == ["Anonymous", "Ann"]


def basevideo_replay(
    board_id: str,
    folder: Path,
    *,
    first: tuple[int, int] | None = None,
    mine: bool = False,
    other: str | None = None,
) -> str:
    """The base64 of an .evf that ms-toollib's ``BaseVideo`` writes for a game played as mouse
    events (another program's replay, made without textmines): on ``board_id``'s mines (or
    ``other``'s), its first click at the host's cell (or ``first``), then every click that
    clears the board (or, with ``mine``, a click on a mine)."""
    dealt = parse_board_id(board_id)
    board = parse_board_id(other).board if other else dealt.board
    start = first or dealt.first
    cells = [start, *(c for c in winning_clicks(board) if c != start)]
    if mine:
        cells = [
            start,
            next(
                (x, y)
                for y in range(board.height)
                for x in range(board.width)
                if board.is_mine(x, y)
            ),
        ]
    steps: list[tuple[str, int, int]] = []
    for x, y in cells:
        steps += [("wait", 5, 0), ("lc", *centre(x, y)), ("lr", *centre(x, y))]
    path = folder / "basevideo.evf"
    basevideo_file(board, steps, path)
    return base64.b64encode(path.read_bytes()).decode()


async def test_replays_another_program_made_are_verified_by_their_moves_alone(
    host: Host, tmp_path: Path
) -> None:
    """Replays written by ms-toollib's BaseVideo, not by textmines: a win on the board dealt is
    ranked; one on other mines, one that starts elsewhere, one that hits a mine are refused."""
    _, dealt = await host.post("/api/challenge", {"board": "beginner"})
    token, challenge = dealt["token"], dealt["challenge"]
    _, other = await host.post("/api/challenge", {"board": "beginner"})
    host.now += 600_000
    body = {"challenge": challenge}

    forged = basevideo_replay(dealt["board_id"], tmp_path, other=other["board_id"])
    status, said = await refused(host, {**body, "replay": forged}, token)
    assert (status, said) == (422, "the replay's mines are not those of the board dealt")
    board = parse_board_id(dealt["board_id"])
    safe = next(
        (x, y)
        for y in range(board.board.height)
        for x in range(board.board.width)
        if not board.board.is_mine(x, y) and (x, y) != board.first
    )
    elsewhere = basevideo_replay(dealt["board_id"], tmp_path, first=safe)
    status, said = await refused(host, {**body, "replay": elsewhere}, token)
    assert (status, said) == (422, "the replay does not start with the first click the host made")
    lost = basevideo_replay(dealt["board_id"], tmp_path, mine=True)
    status, said = await refused(host, {**body, "replay": lost}, token)
    assert (status, said) == (422, "the replay does not win the board")

    status, ranked = await host.post(
        "/api/results", {**body, "replay": basevideo_replay(dealt["board_id"], tmp_path)}, token
    )
    assert status == 200 and ranked["rank"] == 1, ranked


async def test_the_leaderboard_page_lists_the_best_with_every_name_escaped(host: Host) -> None:
    _, dealt = await host.post("/api/challenge", {"board": "daily"})
    host.now += 3_600_000
    name = "<script>alert(1)</script> & co"
    body = {"challenge": dealt["challenge"], "replay": won(dealt["board_id"]), "name": name}
    assert (await host.post("/api/results", body, dealt["token"]))[0] == 200
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"{host.url}/leaderboard") as response,
    ):
        assert response.status == 200 and response.content_type == "text/html"
        page = await response.text()
    assert "Leaderboard: Daily board of 2025-12-01" in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; co" in page and "<script>" not in page
    assert '<a href="/api/replays/1">.evf</a>' in page and '<a href="?board=expert">' in page
    assert '<a href="/?watch=1">Watch</a>' in page  # in a tab of the game, its viewer
    assert 'class="you"' not in page, "nobody is 'you' to a browser that does not play"
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"{host.url}/leaderboard?board=expert") as response,
    ):
        text = await response.text()
    assert "Leaderboard: Expert, all time" in text and "No win on this board yet." in text
    assert '<a href="?board=expert&amp;period=week">This week</a>' in text


async def test_the_leaderboard_page_marks_the_row_and_best_of_the_browser_that_asks(
    host: Host,
) -> None:
    tokens, ranks = [], []
    for name in ("Ann", "Bob"):
        _, dealt = await host.post("/api/challenge", {"board": "beginner"})
        host.now += 600_000
        body = {"challenge": dealt["challenge"], "replay": won(dealt["board_id"]), "name": name}
        status, ranked = await host.post("/api/results", body, dealt["token"])
        assert status == 200
        tokens.append(dealt["token"])
        ranks.append(ranked["rank"])
    bob_rank = ranks[1]  # 1 or 2: each was dealt a board of its own, at random

    async def page(viewer: str, query: str = "?board=beginner&period=week") -> str:
        async with (
            aiohttp.ClientSession() as session,
            session.get(f"{host.url}/leaderboard{query}", headers={"X-Viewer": viewer}) as got,
        ):
            return await got.text()

    bob = await page(tokens[1])
    assert "Leaderboard: Beginner, this week" in bob and "<strong>This week</strong>" in bob
    assert "<h2>Your latest wins</h2>" in bob and "<tr><td>Beginner</td><td>" in bob
    assert f"<p>Bob: #{bob_rank} in " in bob
    assert f'<tr class="you"><td>{bob_rank}</td><td>Bob</td>' in bob
    assert bob.count('class="you"') == 1
    assert "<p>Ann: not on this board yet.</p>" in await page(tokens[0], "?board=expert")
    stranger = await page("not a token")
    assert "not on this board" not in stranger and "Your latest wins" not in stranger
