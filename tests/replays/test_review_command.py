"""``textmines --review GAME|FILE [--json]`` (issue 37): a recorded game or another program's
replay file, every figure, and each decision judged by the exact solver."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.cli.test_cli import recorded_games
from tests.replays.toollib import basevideo_file, centre
from textmines.cli import main
from textmines.engine.board import Board

ms = pytest.importorskip("ms_toollib")

#: The documented JSON shape, key by key (scripts rely on it).
METRICS = [
    "bbbv",
    "solved_bbbv",
    "clicks",
    "left_clicks",
    "right_clicks",
    "chord_clicks",
    "effective_clicks",
    "ioe",
    "correctness",
    "throughput",
    "rqp",
    "stnb",
    "bbbv_per_s",
    "zini",
    "hzini",
]


def a_library_game(path: Path) -> dict[str, object]:
    """A Beginner game played in ms-toollib's own BaseVideo: the opening, every safe cell in
    reading order, each clicked with the left button; saved as .evf."""
    mines = [0, 8, 20, 33, 41, 50, 62, 70, 72, 80]
    board = Board.from_mines(9, 9, mines)
    steps: list[tuple[str, int, int]] = []
    for index in [40, *(i for i in range(81) if i not in mines and i != 40)]:
        x, y = index % 9, index // 9
        steps += [("lc", *centre(x, y)), ("lr", *centre(x, y))]
    return basevideo_file(board, steps, path)


def test_review_of_a_replay_file_prints_the_documented_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.evf"
    figures = a_library_game(path)
    assert main(["--review", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data) == ["board", "won", "time_ms", "metrics", "review"]
    assert data["board"] == {"width": 9, "height": 9, "mines": 10} and data["won"] is True
    assert list(data["metrics"]) == METRICS
    assert data["metrics"]["bbbv"] == figures["bbbv"]
    assert data["metrics"]["clicks"] == figures["cl"]
    review = data["review"]
    assert list(review) == [
        "decisions",
        "guesses",
        "avoidable",
        "blunders",
        "luck",
        "forced_loss",
        "complete",
        "reviewed_ms",
    ]
    keys = ["t_ms", "x", "y", "kind", "mine_probability", "safest"]
    keys += ["opened", "safe_cell", "safe_cell_flagged"]
    assert review["decisions"] and all(list(d) == keys for d in review["decisions"])
    assert review["decisions"][0]["kind"] == "safe"
    # Found by a player: the first decision's odds came as 0 where the others' were 0.0.
    odds = [d[key] for d in review["decisions"] for key in ("mine_probability", "safest")]
    assert all(isinstance(value, float) for value in odds)
    # The player opened safe cells in reading order, not by the numbers: each risky one is
    # judged from what could be seen (some were not yet decided).
    kinds = {d["kind"] for d in review["decisions"]}
    assert kinds <= {"safe", "guess", "avoidable"}
    assert review["avoidable"] == sum(d["kind"] == "avoidable" for d in review["decisions"])
    assert 0 < review["luck"] <= 1


@pytest.mark.slow  # ~0.2 s of CPU
def test_review_of_a_recorded_game_in_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("TEXTMINES_HOME", str(tmp_path))
    games = recorded_games(tmp_path)
    assert main(["--review", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    game = games[0]
    assert out[0].startswith(f"Game 1: 16x16/40, {game.status.value} after ")
    assert "luck" in out[1]
    assert any(line.split()[:1] == ["ioe"] for line in out)
    assert main(["--review", "last", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["board"]["mines"] == 40
    # A practice game says so (found by a player's look at issue 46).
    from tests.factories import played_game
    from textmines.records import record_for
    from textmines.store.stats import open_stats

    store, _ = open_stats(tmp_path / "stats.db")
    assert store is not None
    with store:
        game, moment = played_game(9, 9, 10, 3), datetime.now(UTC)
        outcome = game.status.value
        record = record_for(
            game, outcome=outcome, started_at=moment, ended_at=moment, assisted=False
        )
        assert store.record(replace(record, practice=True)) is None
    assert main(["--review", "last"]) == 0
    assert capsys.readouterr().out.startswith("Game 4 (practice): 9x9/10, ")


@pytest.mark.parametrize(
    ("argv", "status", "message"),
    [
        (["--review", "9"], 2, "there is no game 9 in the statistics"),
        (["--review", "3"], 2, "game 3 has no recording"),
        (["--review", "nothing.avf"], 2, "nothing.avf"),
        (["--json"], 2, "--json goes with --review"),
    ],
)
def test_review_says_what_is_wrong_in_one_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    status: int,
    message: str,
) -> None:
    monkeypatch.setenv("TEXTMINES_HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    recorded_games(tmp_path)
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == status
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


@pytest.mark.slow  # ~0.2 s of CPU
async def test_play_on_from_a_moment_of_an_evf_file_made_by_ms_toollib(tmp_path: Path) -> None:
    from tests.helpers import make_app, wait_until
    from textmines.replays.foreign import read_replay_file
    from textmines.ui.screens.replay import ReplayScreen

    path = tmp_path / "game.evf"
    a_library_game(path)
    replay = read_replay_file(path)
    app = make_app(replay=(replay.recording, "game.evf"))
    async with app.run_test(size=(100, 35)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the viewer")
        viewer = app.screen
        assert isinstance(viewer, ReplayScreen)
        viewer.go_to(len(replay.recording.actions) // 2)
        shown = viewer.game.view_text()
        await pilot.press("p")
        await wait_until(pilot, lambda: app.screen is app.screen_stack[0], "the game")
        assert app.game.view_text() == shown and app.game.status == "playing"
        assert app.session.practice and not app.session.sets_records
        assert app.return_code is None
