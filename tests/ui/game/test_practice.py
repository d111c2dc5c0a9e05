"""Practice (issue 46): a game on a board the player has seen (a later try of the day's daily
board, a restart, a game played on from a replay) says so wherever the game does, and never
announces a record."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Static

from tests.factories import played_game
from tests.helpers import FakeClock, Play, click_cell, new_stats, wait_until
from textmines.engine import ActionKind, Board, Game
from textmines.replays.recording import Recording
from textmines.session import GameSession
from textmines.store.stats import Group
from textmines.ui.app import TextminesApp
from textmines.ui.screens.game_end import box_figures, box_title, won_line
from textmines.ui.screens.replay import ReplayScreen

LAYOUT = "*....\n.....\n.....\n.....\n....*"  # 5x5, two mines; (2, 2) opens everything else


def test_the_end_of_a_practice_game_says_practice_and_announces_no_record(
    tmp_path: Path,
) -> None:
    # Issue 46.8: a practice game's end said practice only for a daily board.
    stats = new_stats(tmp_path)
    clock = FakeClock()
    session = GameSession(Game.from_board(Board.from_text(LAYOUT), clock=clock), stats=stats)
    session.practice = True  # played on from a replay
    session.play(ActionKind.REVEAL, 1, 1)
    clock.advance(2)
    finish = session.play(ActionKind.REVEAL, 2, 2).finish
    assert finish is not None and not finish.new_best
    assert box_title(session) == "Custom 5x5/2 (practice) cleared!"
    figures = dict(box_figures(session, finish, recorded=True))
    assert figures["Practice"] == "no record" and "new best" not in figures["Best time"]
    assert "new best" not in won_line(session, finish.metrics, finish)


async def open_viewer(
    play: Play, recording: Recording, clock: FakeClock | None = None, **options: object
) -> tuple[TextminesApp, Pilot[None], ReplayScreen]:
    """textmines started on ``recording`` as a replay file, its viewer on screen."""
    app, pilot = await play(clock, replay=(recording, "game.evf"), size=(100, 35), **options)
    await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the viewer")
    assert isinstance(app.screen, ReplayScreen)
    return app, pilot, app.screen


async def test_play_on_from_a_replays_start_keeps_its_first_click_rule(
    tmp_path: Path, play: Play
) -> None:
    # Issue 46.8: play on from the start of a replay (no click made yet) laid the recorded
    # mines as they were: a first click on one of them lost. The recording's rule (here an
    # opening) holds: the mines in the first click's way move, the others stay. And the
    # practice game's replay did not say practice, nor its number in the statistics.
    recording = Recording.of(played_game(9, 9, 10, 4, first_click="opening"))
    mine = recording.board.mine_indices()[0]
    app, pilot, viewer = await open_viewer(play, recording, stats=new_stats(tmp_path))
    assert viewer.done == 0
    await pilot.press("p")
    await wait_until(pilot, lambda: app.screen is app.screen_stack[0], "the game")
    await click_cell(pilot, mine % 9, mine // 9)
    game = app.game
    assert game.status != "lost" and game.cell(mine % 9, mine // 9) == "0"
    assert game.board is not None and game.board.mine_count == 10
    assert app.session.practice and "Practice" in app.status_line.modes
    board = game.board
    await click_cell(pilot, *next(divmod(m, 9)[::-1] for m in board.mine_indices()))
    assert game.status == "lost"
    await pilot.press("w")  # the box's Replay
    await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the viewer")
    title = str(app.screen.query_one("#title", Static).render())
    assert title.startswith("Game #1: Beginner, lost (practice)")


async def test_play_on_shows_the_time_the_viewer_showed(play: Play) -> None:
    # Issue 46.8: the viewer showed 031, the game played on from there 000 until a move.
    from textmines.ui.widgets.header import GameHeader

    clock = FakeClock()
    recording = Recording.of(played_game(9, 9, 10, 4, first_click="opening"))
    app, pilot, viewer = await open_viewer(play, recording, clock)
    viewer.seek_ms(30_000)  # between two clicks: 30 s into the game
    await pilot.pause()
    assert viewer.query_one(GameHeader).seconds == 31
    await pilot.press("p")
    await wait_until(pilot, lambda: app.screen is app.screen_stack[0], "the game")
    assert app.header.seconds == 31 and app.game.elapsed_ms == 30_000
    clock.advance(10)
    await pilot.pause()
    assert app.header.seconds == 31, "the clock stands at that moment until a move"
    await pilot.press("f")  # a move: the clock runs on from that moment
    clock.advance(1)
    assert app.game.elapsed_ms == 31_000


async def test_a_new_board_chosen_mid_game_says_the_game_was_abandoned(
    tmp_path: Path, play: Play
) -> None:
    # Issue 46.13: 1/2/3 (and n) in the middle of a game recorded it as abandoned without a
    # word, where quitting or another board at the start says so.
    stats = new_stats(tmp_path)
    app, pilot = await play(stats=stats, size=(100, 35))
    await pilot.press("space")  # the first click: a game in play
    await pilot.press("2")
    said = [toast.message for toast in app.toasts]
    assert "The Beginner game in play (" in said[-1]
    assert said[-1].endswith("cleared) was recorded as abandoned.")
    await pilot.press("n")  # a new game before any click: nothing to say
    assert [toast.message for toast in app.toasts] == said
    assert stats.group_stats(Group.for_board(9, 9, 10)).abandoned == 1
