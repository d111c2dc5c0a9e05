"""``textmines --challenge URL`` against a real ``--serve`` host: the board it deals played
(by a stand-in for the app, with the engine), the win submitted and ranked; the host's token
kept owner-only; a win the host could not get kept and sent by ``--retry``, once."""

from __future__ import annotations

import stat
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest

from tests.helpers import FakeClock, winning_clicks
from tests.web.served import Served, served
from textmines.cli import main
from textmines.leaderboard.client import HostClient, Unreachable, host_folder
from textmines.session import GameSession
from textmines.store.paths import default_paths

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("serve")]


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    pytest.importorskip("ms_toollib")
    with served(tmp_path_factory.mktemp("host")) as running:
        yield running


class PlayingApp:
    """Stands in for TextminesApp: plays the board it is given with the engine, a click every
    5 ms, as fast as the real clock goes (a host refuses a game longer than the time since it
    dealt the board), winning unless told to leave a click out; tells ``finished`` of it."""

    leave: ClassVar[int] = 0
    crash_report: str | None = None
    exit_message: str | None = None
    return_code: int | None = None

    def __init__(self, config: object, **options: Any) -> None:
        self.options = options
        self.stats_keeper = type("Keeper", (), {"close": lambda self: None})()

    def run(self) -> None:
        board = self.options["board_id"]
        clock = FakeClock()
        game = board.game(clock=clock)
        clicks = [c for c in winning_clicks(board.board) if not game.is_revealed(*c)]
        for x, y in clicks[: len(clicks) - PlayingApp.leave]:
            time.sleep(0.005)
            clock.advance(0.005)
            game.reveal(x, y)
        self.options["finished"](GameSession(game))


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A terminal's data folder, its app the stand-in."""
    import textmines.ui.app

    monkeypatch.setenv("TEXTMINES_HOME", str(tmp_path))
    monkeypatch.setattr(textmines.ui.app, "TextminesApp", PlayingApp)
    PlayingApp.leave = 0
    return tmp_path


def test_a_challenge_played_in_the_terminal_is_submitted_and_ranked(
    host: Served, terminal: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = host.url().rstrip("/")
    assert main(["--challenge", url, "--beginner"]) == 0
    said = capsys.readouterr().out
    assert said.startswith("#") and " on beginner, in " in said, said
    token = host_folder(terminal, url) / "token"
    assert stat.S_IMODE(token.stat().st_mode) == 0o600
    assert HostClient(url, host_folder(terminal, url)).pending() == [], "sent, not kept"
    # The same terminal is the same player: its token is sent, no new one comes.
    kept = token.read_text()
    # Without an address: settings.toml's [host] url (as the statistics' Leaderboard tab).
    settings_file = default_paths().settings_file
    settings_file.parent.mkdir(parents=True, exist_ok=True)
    settings_file.write_text(f'[host]\nurl = "{url}"\n', encoding="utf-8")
    assert main(["--challenge"]) == 0  # today's daily board
    assert "on today's daily (" in capsys.readouterr().out
    assert token.read_text() == kept


def test_a_game_not_won_is_not_submitted(
    host: Served, terminal: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    PlayingApp.leave = 1
    assert main(["--challenge", host.url(), "--expert"]) == 0
    assert "No win on the board the host dealt: nothing to submit." in capsys.readouterr().out


def test_a_win_the_host_cannot_get_is_kept_and_sent_once_by_retry(
    host: Served, terminal: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = host.url().rstrip("/")
    folder = host_folder(terminal, url)
    client = HostClient(url, folder)
    dealt = client.challenge("intermediate")
    # The win is kept before it is sent; here the host is gone when it is sent.
    kept = client.keep(dealt["challenge"], b"not an evf")
    with pytest.raises(Unreachable):
        HostClient("http://127.0.0.1:9", folder).submit(kept)
    assert client.pending() == [kept]
    assert main(["--challenge", url, "--retry"]) == 0
    said = capsys.readouterr().out
    assert "The host refused the win: the replay:" in said, said  # answered: not sent again
    assert client.pending() == []
    assert main(["--challenge", url, "--retry"]) == 0
    assert f"No win waiting for {url}." in capsys.readouterr().out


def test_an_unreachable_host_deals_no_board(
    terminal: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--challenge", "http://127.0.0.1:9", "--expert"])
    assert exit_info.value.code == 1
    assert "cannot be reached" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--retry"], "--retry goes with --challenge URL"),
        (["--challenge"], "which host? Give its address (--challenge http://HOST:PORT), or set"),
        (["--challenge", "club.example"], "'club.example' is not an http:// or https://"),
        (["--challenge", "http://h:x"], "--challenge: Port could not be cast"),
        (["--challenge", "http://h", "--game", "9x9-10-o4.4-x"], "it goes with none of --game"),
        (["--challenge", "http://h", "--seed", "3"], "plays the board its host deals"),
        (["--challenge", "http://h", "--serve"], "plays the board its host deals"),
    ],
)
def test_what_goes_with_challenge(
    args: list[str], said: str, terminal: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(args)
    assert exit_info.value.code == 2 and said in capsys.readouterr().err


def test_a_host_in_the_settings_that_is_no_address_is_named_when_it_is_asked_for(
    terminal: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings_file = default_paths().settings_file
    settings_file.parent.mkdir(parents=True, exist_ok=True)
    settings_file.write_text('[host]\nurl = "club"\n', encoding="utf-8")
    with pytest.raises(SystemExit) as exit_info:
        main(["--challenge"])
    said = capsys.readouterr().err
    assert exit_info.value.code == 2 and "which host?" in said
    assert "(now: " in said and "[host] url 'club' is not an address like" in said


class WatchingApp(PlayingApp):
    """Stands in for TextminesApp: keeps the replay it was given to watch."""

    watched: ClassVar[list[Any]] = []

    def run(self) -> None:
        WatchingApp.watched.append(self.options["replay"])


def test_an_entrys_replay_is_watched_from_its_address(
    host: Served,
    terminal: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    import json
    import urllib.request

    import textmines.ui.app

    url = host.url().rstrip("/")
    assert main(["--challenge", url, "--intermediate"]) == 0
    with urllib.request.urlopen(f"{url}/api/leaderboard?board=intermediate") as response:
        entry = json.loads(response.read())["entries"][0]
    monkeypatch.setattr(textmines.ui.app, "TextminesApp", WatchingApp)
    assert main(["--replay", url + entry["replay"]]) == 0
    recording, title = WatchingApp.watched[-1]
    assert recording.game().status.name == "WON" and recording.elapsed_ms == entry["time_ms"]
    assert title.startswith(entry["replay"].rsplit("/", 1)[1] + ".evf")
    with pytest.raises(SystemExit) as exit_info:
        main(["--replay", f"{url}/api/replays/999999"])
    assert exit_info.value.code == 1
    assert "the host answered 404: no such replay" in capsys.readouterr().err
