"""The .evf export, checked against ms-toollib (Metasweeper's own library): 52 games of the
autoplay and 30 of a random player (wasted clicks, wrong flags, question marks, losses) on every
preset size, each exported, parsed and analysed by the library, which must find the same board,
time, completion and every click count and rate textmines shows.

ms-toollib aborts the whole process on input it dislikes, so it runs in a child process
(tests/replays/toollib.py).
"""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from tests.factories import autoplayed_game, played_game
from tests.replays.toollib import analysed_by_ms_toollib, layout_rows
from textmines.engine.game import Game
from textmines.engine.metrics import GameMetrics, game_metrics
from textmines.replays.evf import EvfInfo, evf_bytes
from textmines.replays.recording import Recording

SIZES = [(30, 16, 99)] * 6 + [(16, 16, 40)] * 8 + [(9, 9, 10)] * 8 + [(8, 8, 10)] * 8
#: Games the autoplay played (its flags and chords too), besides the random player's.
AUTOPLAYED = [(9, 9, 10)] * 30 + [(8, 8, 10)] * 10 + [(16, 16, 40)] * 12


def export(game: Game) -> tuple[bytes, GameMetrics]:
    metrics = game_metrics(game)
    info = EvfInfo(bbbv=metrics.bbbv, won=metrics.won, no_flags=metrics.no_flags)
    return evf_bytes(Recording.of(game), info), metrics


@pytest.mark.slow  # ~1.3 s of CPU
def test_ms_toollib_reads_every_export_as_textmines_measured_it(tmp_path: Path) -> None:
    games = [played_game(*size, seed) for seed, size in enumerate(SIZES)]
    games += [autoplayed_game(*size, seed) for seed, size in enumerate(AUTOPLAYED)]
    files, ours = [], []
    for number, game in enumerate(games):
        data, metrics = export(game)
        path = tmp_path / f"game{number}.evf"
        path.write_bytes(data)
        files.append(path)
        ours.append(metrics)
    assert {m.won for m in ours} == {True, False}, "the sample has won and lost games"
    assert any(m.rqp is None or m.right_clicks > m.right_effective for m in ours)
    for game, metrics, lib in zip(games, ours, analysed_by_ms_toollib(files), strict=True):
        assert game.board is not None
        assert lib["board"] == layout_rows(game.board)
        expected = dict(
            bbbv=metrics.bbbv,
            rtime_ms=metrics.elapsed_ms,
            completed=metrics.won,
            left=metrics.left_clicks,
            right=metrics.right_clicks,
            double=metrics.chord_clicks,
            lce=metrics.left_effective,
            rce=metrics.right_effective,
            dce=metrics.chord_effective,
            solved=metrics.solved_bbbv,
            op=metrics.openings,
            isl=metrics.islands,
        )
        assert {key: lib[key] for key in expected} == expected
        assert lib["ioe"] == pytest.approx(metrics.ioe)
        assert lib["corr"] == pytest.approx(metrics.correctness)
        assert lib["thrp"] == pytest.approx(metrics.throughput)
        if metrics.rqp is not None:
            assert lib["rqp"] == pytest.approx(metrics.rqp)
        # No STNB on 9x9 nor custom boards, as in the library (which gives 0 there).
        assert lib["stnb"] == pytest.approx(metrics.stnb or 0.0)


def test_the_header_says_what_the_game_was() -> None:
    game = played_game(16, 16, 40, 3, first_click="opening")
    data, metrics = export(game)
    version, flags, _options, rows, cols, mines, pixels, mode, bbbv, ms = struct.unpack_from(
        ">BBBBBHBHHI", data
    )
    assert (version, rows, cols, mines, pixels) == (4, 16, 16, 40, 16)
    assert (mode, bbbv, ms) == (4, metrics.bbbv, metrics.elapsed_ms)
    assert bool(flags & 128) == metrics.won and flags & 32  # fair: no help used


def test_a_board_too_big_for_the_format_is_refused() -> None:
    game = Game(300, 20, 10, seed=1)
    game.reveal(0, 0)
    with pytest.raises(ValueError, match="up to 255x255"):
        export(game)


def test_an_unfinished_game_keeps_its_time_after_its_last_move(tmp_path: Path) -> None:
    # Found by a player: a game left 10 s after its last move was reviewed and read back
    # from its .evf as lasting until that move (0.000 s, 3BV/s 0), while the viewer and the
    # statistics said 10 s.
    from tests.helpers import FakeClock
    from textmines.replays.evf import export_evf
    from textmines.replays.foreign import read_replay_file
    from textmines.replays.review_report import review_json, review_of

    clock = FakeClock()
    game = Game(9, 9, 10, seed=5, clock=clock)
    game.reveal(4, 4)
    clock.advance(10)
    recording = Recording.of(game)
    assert recording.elapsed_ms == 10_000
    path = tmp_path / "left.evf"
    path.write_bytes(export_evf(recording))
    back = read_replay_file(path).recording
    for each in (recording, back):
        figures = review_json(each, review_of(each))
        assert figures["time_ms"] == 10_000
        assert figures["metrics"]["bbbv_per_s"] == game_metrics(game).bbbv_per_second > 0
