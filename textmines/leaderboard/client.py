"""A terminal's side of a host's leaderboard (``textmines --challenge URL``): its identity on
that host, the challenges it asks for, and the wins it submits, kept until the host has them.

Each host the terminal plays for has a folder of its own in the data folder
(``hosts/<a hash of the host's address>``, owner-only): the token the host issued (0600), and
``pending/``, the wins not yet submitted (the network or the host was down). A win is written
there before it is sent and removed once the host has answered for it (ranked, or refused:
a refused one is said and not sent again), so none is lost and none is sent twice
(``--retry`` sends what is left).
"""

from __future__ import annotations

import base64
import hashlib
import json
import urllib.error
import urllib.request
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final
from urllib.parse import urlencode, urlsplit

from textmines.store.paths import read_token, write_atomic

if TYPE_CHECKING:
    from textmines.replays.foreign import ForeignReplay

#: Seconds a request to the host may take.
TIMEOUT: Final = 20.0


class Unreachable(Exception):
    """The host cannot be reached (no network, the host down): what happened, in a line."""


@dataclass(frozen=True, slots=True)
class Answer:
    """The host's answer to a submission: its HTTP status and its JSON."""

    status: int
    body: dict[str, Any]

    @property
    def refusal(self) -> str | None:
        return None if self.status == 200 else str(self.body.get("error", self.status))


def host_folder(data_dir: Path, url: str) -> Path:
    """The folder of what this terminal keeps for the host at ``url``."""
    parts = urlsplit(url)
    origin = f"{parts.scheme}://{parts.netloc}".lower()
    return data_dir / "hosts" / hashlib.sha256(origin.encode()).hexdigest()[:24]


class HostClient:
    """The host at ``url`` (``http://HOST:PORT``), as this terminal knows it in ``folder``."""

    def __init__(self, url: str, folder: Path) -> None:
        self.url = url.rstrip("/")
        self.folder = folder

    # ----------------------------------------------------------------------------- identity

    @property
    def token(self) -> str | None:
        return read_token(self.folder / "token")

    def _keep_token(self, token: str) -> None:
        self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        write_atomic(self.folder / "token", token.encode("ascii"))  # a new file is 0600

    # --------------------------------------------------------------------------- requests

    def challenge(self, board: str) -> dict[str, Any]:
        """A board the host deals (``POST /api/challenge``); its new token kept, if any.
        Raises ``Unreachable``, or ``ValueError`` with the host's refusal."""
        answer = self._post("/api/challenge", {"board": board})
        if answer.refusal is not None:
            raise ValueError(answer.refusal)
        if "token" in answer.body:
            self._keep_token(str(answer.body["token"]))
        return answer.body

    def keep(self, challenge: str, replay: bytes, name: str = "") -> Path:
        """Write the win of ``challenge`` (its .evf) to be submitted: before any is sent."""
        pending = self.folder / "pending"
        pending.mkdir(mode=0o700, parents=True, exist_ok=True)
        path = pending / f"{hashlib.sha256(challenge.encode()).hexdigest()[:24]}.json"
        body = {
            "challenge": challenge,
            "replay": base64.b64encode(replay).decode(),
            **({"name": name} if name else {}),
        }
        write_atomic(path, json.dumps(body).encode("utf-8"))  # a new file is 0600
        return path

    def pending(self) -> list[Path]:
        return sorted((self.folder / "pending").glob("*.json"))

    def submit(self, path: Path) -> Answer:
        """Send the win kept at ``path``; once the host has answered (ranked, or refused for
        good), it is removed. Raises ``Unreachable`` (then it stays, for ``--retry``)."""
        body = json.loads(path.read_text(encoding="utf-8"))
        answer = self._post("/api/results", body)
        if answer.status < 500 and answer.status != 429:  # answered for good
            path.unlink(missing_ok=True)
        return answer

    def leaderboard(
        self, board: str, *, period: str = "all", day: date | None = None
    ) -> dict[str, Any]:
        """The host's leaderboard of ``board`` (``GET /api/leaderboard``: the daily board of
        ``day``, today's without one, or a preset's best of ``period``), this terminal's
        entries marked ``you`` and its own best in ``yours``. Raises ``Unreachable``, or
        ``ValueError`` with the host's answer."""
        asked = {"board": board}
        if board == "daily" and day is not None:
            asked["date"] = day.isoformat()
        elif board != "daily":
            asked["period"] = period
        return self._get(f"/api/leaderboard?{urlencode(asked)}")

    def me(self) -> dict[str, Any]:
        """This terminal's player on the host (``GET /api/me``): its name and ranked wins,
        latest first. Raises ``Unreachable``, or ``ValueError`` saying why there are none."""
        if self.token is None:
            raise ValueError(
                "You have not played for this host yet: textmines --challenge deals you a board"
            )
        return self._get("/api/me")

    def _get(self, path: str) -> dict[str, Any]:
        """The host's answer to ``GET path``; ``ValueError`` saying a refusal."""
        answer = self._request(urllib.request.Request(self.url + path))
        if answer.refusal is not None:
            raise ValueError(f"the host answered {answer.status}: {answer.refusal}")
        return answer.body

    def _post(self, path: str, body: dict[str, Any]) -> Answer:
        request = urllib.request.Request(
            self.url + path,
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        return self._request(request)

    def _request(self, request: urllib.request.Request) -> Answer:
        """``request`` sent with this terminal's token, if it has one; the host's answer."""
        if self.token is not None:
            request.add_header("Authorization", f"Bearer {self.token}")
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
                return Answer(response.status, _json(response.read()))
        except urllib.error.HTTPError as refused:
            return Answer(refused.code, _json(refused.read()))
        except (urllib.error.URLError, OSError) as error:
            reason = getattr(error, "reason", error)
            raise Unreachable(f"{self.url} cannot be reached ({reason})") from None


#: The largest replay ``download_replay`` takes (a host submits at most 512 kB).
MAX_DOWNLOAD: Final = 1024 * 1024


def download_replay(url: str) -> bytes:
    """The .evf file at ``url`` (a leaderboard entry's, ``http://HOST/api/replays/ID``).
    Raises ``Unreachable``, or ``ValueError`` saying what the host answered."""
    if urlsplit(url).scheme not in ("http", "https"):
        raise ValueError(f"not an http:// or https:// address: {url}")
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT) as response:
            data: bytes = response.read(MAX_DOWNLOAD + 1)
    except urllib.error.HTTPError as refused:
        said = _json(refused.read()).get("error", refused.reason)
        raise ValueError(f"the host answered {refused.code}: {said}") from None
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise Unreachable(f"{url} cannot be reached ({reason})") from None
    if len(data) > MAX_DOWNLOAD:
        raise ValueError(f"the replay is larger than {MAX_DOWNLOAD // 1024} kB")
    return data


def read_remote_replay(url: str) -> ForeignReplay:
    """The replay at ``url`` (``download_replay``), read as a replay file is. Raises
    ``Unreachable``, ``ValueError`` (the host's answer) or ``ReplayFileError`` (no replay)."""
    from textmines.replays.foreign import read_bytes_as_replay

    data = download_replay(url)
    name = url.rstrip("/").rsplit("/", 1)[-1] or "replay"
    return read_bytes_as_replay(data, f"{name}.evf", shown=url)


def _json(data: bytes) -> dict[str, Any]:
    try:
        value = json.loads(data)
    except ValueError:
        return {"error": "the host's answer is not JSON"}
    return value if isinstance(value, dict) else {"error": "the host's answer is not an object"}
