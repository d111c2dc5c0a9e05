"""The game review where a player sees it (issue 37): the end-of-game box says in one line
how the clicks went, once the solver has reviewed them, without holding the box up."""

from __future__ import annotations

import re

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from tests.helpers import Play, clear_all_but_one, click_cell, wait_until
from textmines.ui.app import TextminesApp
from textmines.ui.screens.confirm import ConfirmScreen
from textmines.ui.screens.replay import ReplayScreen


async def lose(pilot: Pilot[None], app: TextminesApp) -> None:
    """The first click, then a click on a mine: lost."""
    await pilot.press("space")
    board = app.game.board
    assert board is not None
    mine = next((x, y) for y in range(9) for x in range(9) if board.is_mine(x, y))
    await click_cell(pilot, *mine)
    assert app.game.status == "lost"


def review_line(app: object) -> str:
    from textual.app import App

    assert isinstance(app, App)
    lines = app.screen.query("#review")
    if not lines or not lines.first(Static).display:
        return ""
    return str(lines.first(Static).render())


@pytest.mark.slow
async def test_the_box_says_how_a_won_games_clicks_went(play: Play) -> None:
    app, pilot = await play(size=(100, 30))
    await pilot.press("space")
    await click_cell(pilot, *clear_all_but_one(app))
    assert app.game.status == "won"
    assert app.screen.query_one("#new").has_focus, "the box takes keys at once"
    await wait_until(pilot, lambda: review_line(app) != "", "the review line")
    assert "avoidable risk" in review_line(app)


@pytest.mark.slow
async def test_the_box_names_the_click_that_lost(play: Play) -> None:
    app, pilot = await play(size=(100, 30))
    await lose(pilot, app)
    await wait_until(pilot, lambda: review_line(app) != "", "the review line")
    assert review_line(app).startswith("Lost on ")


# ---------------------------------------------------------------------------- play on
@pytest.mark.slow
async def test_play_on_from_a_moment_of_the_replay_of_a_game_just_played(play: Play) -> None:
    from tests.helpers import FakeClock
    from textmines.engine.actions import MOVES
    from textmines.ui.screens.replay import ReplayScreen

    clock = FakeClock()
    app, pilot = await play(clock, size=(100, 35))
    await pilot.press("space")
    board = app.game.board
    assert board is not None
    mine = next((x, y) for y in range(9) for x in range(9) if board.is_mine(x, y))
    clock.advance(5)
    await click_cell(pilot, *mine)  # lost
    first_view = None
    await pilot.press("w")  # the box's Replay
    await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the viewer")
    viewer = app.screen
    assert isinstance(viewer, ReplayScreen)
    await pilot.press("end", "p")  # over at the end: nothing to play on
    assert app.screen is viewer and any("game is over" in n.message for n in app.toasts)
    await pilot.press("home")
    while viewer.done < len(viewer.recording.actions) and not any(
        a.kind in MOVES for a in viewer.recording.actions[: viewer.done]
    ):
        await pilot.press("right")  # to just after the first click
    first_view = viewer.game.view_text()
    await pilot.press("p")
    await wait_until(pilot, lambda: app.screen is app.screen_stack[0], "the game")
    game = app.game
    assert game.status == "playing" and game.view_text() == first_view
    assert game.board is not None and game.board.mine_indices() == board.mine_indices()
    assert app.session.practice and app.session.assisted and not app.session.sets_records
    assert "Practice" in app.status_line.modes
    elapsed = game.elapsed_ms
    clock.advance(30)
    assert game.elapsed_ms == elapsed, "the clock stands at that moment until a move"
    # The clicks it was played on from are the other game's: its review leaves them out
    # (issue 46.7).
    assert app.session.played_on_from == len(game.actions) > 0
    await click_cell(pilot, *mine)
    from textmines.ui.screens.game_over import GameOverScreen

    await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen), "the box")
    assert isinstance(app.screen, GameOverScreen)
    assert app.screen.judged_from == app.session.played_on_from


async def test_the_replay_of_the_game_in_play_does_not_play_on_and_throw_it_away(
    play: Play,
) -> None:
    # W then P during a game: P started a practice game from the viewer's moment and recorded
    # the game in play as abandoned, without a word.
    app, pilot = await play()
    await pilot.press("space")
    game, view = app.game, app.game.view_text()
    await pilot.press("w")
    await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the viewer")
    await pilot.press("p")
    assert isinstance(app.screen, ReplayScreen)
    assert any("the game in play" in toast.message for toast in app.toasts)
    await pilot.press("escape")
    await wait_until(pilot, lambda: not isinstance(app.screen, ReplayScreen), "the game")
    assert app.game is game and app.game.view_text() == view and not app.session.practice


async def test_play_on_from_a_replay_file_keeps_textmines_running(play: Play) -> None:
    from tests.factories import played_game
    from textmines.replays.recording import Recording
    from textmines.ui.screens.replay import ReplayScreen

    won = played_game(9, 9, 10, 4)
    recording = Recording.of(won)
    app, pilot = await play(replay=(recording, "game.evf"), size=(100, 35))
    await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the viewer")
    await pilot.press("right", "right", "p")
    await wait_until(pilot, lambda: app.screen is app.screen_stack[0], "the game")
    assert app.return_code is None and app.is_running
    assert app.game.board is not None
    assert app.game.board.mine_indices() == recording.board.mine_indices()
    assert app.session.practice
    # This run keeps the saved game of the last: quitting asks, and says the game is lost.
    await pilot.press("f", "q")
    await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
    await pilot.press("enter")  # Keep playing has the focus
    await wait_until(pilot, lambda: app.screen is app.screen_stack[0], "the game again")
    assert app.is_running
    await pilot.press("q")
    await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
    await pilot.press("left", "enter")
    await wait_until(pilot, lambda: app.return_code is not None, "textmines to end")
    assert app.return_code == 0
    assert app.exit_message == "This session does not save games: the game was not kept."


# ---------------------------------------------------------------------------- the viewer
@pytest.mark.slow
async def test_the_viewer_marks_the_risky_clicks_and_goes_from_one_to_the_next(play: Play) -> None:
    from textmines.engine.review import DecisionKind
    from textmines.ui.screens.replay import ProgressLine, ReplayScreen

    app, pilot = await play(size=(100, 35))
    await lose(pilot, app)  # a risky click, the last one
    await pilot.press("w")
    await wait_until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the viewer")
    viewer = app.screen
    assert isinstance(viewer, ReplayScreen)
    await wait_until(pilot, lambda: viewer.review is not None, "the review")
    assert viewer.review is not None
    fatal = viewer.review.decisions[-1]
    assert fatal.kind is not DecisionKind.SAFE
    bar = str(viewer.query_one(ProgressLine).render())
    assert "◆" in bar, bar
    await pilot.press("home", "full_stop")  # the next risky click: the fatal one
    assert viewer.done == fatal.index, "the moment before it"
    # The words take the figures' line, where a toast covered the bar and its marks
    # (issue 46.16), and name the cell as a player finds it; the cell it opened is marked.
    said = str(viewer.query_one("#figures", Static).render())
    assert re.match(r"(Guess|Avoidable risk|Blunder)\b", said), said
    assert f"row {fatal.cell[1] + 1}, column {fatal.cell[0] + 1}" in said
    assert viewer.board.hint == fatal.cell and not app.toasts
    # Words wider than the screen are cut there: they gave the screen a scroll bar that
    # hid the progress bar (found by a player's look at 100x35).
    viewer.say("A risky click's words, " * 20)
    await pilot.pause()
    assert not viewer.show_horizontal_scrollbar and not viewer.show_vertical_scrollbar
    assert str(viewer.query_one("#figures", Static).render()).rstrip().endswith("…")
    await pilot.press("o")  # the odds of that moment
    await wait_until(pilot, lambda: viewer.board.overlay is not None, "the odds")
    assert viewer.board.overlay is not None
    assert viewer.board.overlay[(fatal.x, fatal.y)] == fatal.mine_probability
    await pilot.press("o")
    assert viewer.board.overlay is None
    await pilot.press("right")  # another moment: the figures again
    assert "3BV" in str(viewer.query_one("#figures", Static).render())


@pytest.mark.slow
async def test_closing_the_viewer_stops_its_review(
    play: Play, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 46.20: the review of a big board ran on at 90% of a core after the viewer had
    # closed (and kept the app from quitting). A review that runs until it is told to stop:
    import threading
    import time

    from textmines.engine.solver import AnalysisStopped
    from textmines.replays import review_report

    real = review_report.review_of
    running, stopped = threading.Event(), threading.Event()

    def endless(recording: object, stop: object = None) -> object:
        if stop is None:  # the end-of-game box's own review: as it is
            return real(recording)  # type: ignore[arg-type]
        running.set()
        for _ in range(1000):  # ten seconds at most: never a thread left running
            if stop():  # type: ignore[operator]
                stopped.set()
                break
            time.sleep(0.01)
        raise AnalysisStopped

    app, pilot = await play(size=(100, 35))
    await lose(pilot, app)
    monkeypatch.setattr(review_report, "review_of", endless)
    await pilot.press("w")
    await wait_until(pilot, running.is_set, "the viewer's review under way")
    await pilot.press("escape")
    await wait_until(pilot, stopped.is_set, "the review stopped")
    assert not isinstance(app.screen, ReplayScreen)


# ---------------------------------------------------------------------------- statistics
@pytest.mark.slow
async def test_a_recorded_game_is_reviewed_and_the_statistics_show_it(
    tmp_path: object, play: Play
) -> None:
    from pathlib import Path

    from tests.helpers import new_stats
    from textmines.store.stats import Group

    assert isinstance(tmp_path, Path)
    stats = new_stats(tmp_path)
    app, pilot = await play(stats=stats, size=(120, 40))
    await pilot.press("space")
    await click_cell(pilot, *clear_all_but_one(app))
    assert app.game.status == "won"
    group = Group.for_board(9, 9, 10)
    await wait_until(
        pilot, lambda: stats.group_stats(group).review is not None, "the game's review"
    )
    review = stats.group_stats(group).review
    assert review is not None and review.reviewed == 1 and review.forced_losses == 0
    await pilot.press("escape", "f4")
    await wait_until(pilot, lambda: "Reviewed games" in statistics_text(app), "the figures")
    assert "Average luck" in statistics_text(app)
    # Blunders are a count of their own, as --review gives them (issue 46.3).
    assert "Blunders a game" in statistics_text(app)


def statistics_text(app: object) -> str:
    from textual.app import App

    assert isinstance(app, App)
    return " ".join(str(widget.render()) for widget in app.screen.query(Static))
