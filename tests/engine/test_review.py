"""The review of a recorded game (issue 37, engine part): each decision that opened cells is
judged from what the player could see, with the exact solver; checked against ms-toollib's
own probabilities on positions from real play."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from tests.helpers import FakeClock
from textmines.engine.actions import MOVES, ActionKind
from textmines.engine.game import Action, Game, Status
from textmines.engine.review import DecisionKind, Review, review_game
from textmines.engine.solver import analyse, next_move

ms = pytest.importorskip("ms_toollib")


def autoplayed(seed: int, size: tuple[int, int, int] = (16, 16, 40)) -> Game:
    """A game the solver played to its end from an opening at (3, 3)."""
    width, height, mines = size
    clock = FakeClock()
    game = Game(width, height, mines, seed=seed, first_click="opening", clock=clock)
    game.reveal(3, 3)
    while not game.status.is_over:
        clock.advance(0.2)
        move = next_move(game.view_text(), mines)
        game.act(move.kind, move.x, move.y)
    return game


def reviewed(game: Game, extra: Sequence[Action] = ()) -> Review:
    assert game.board is not None
    actions = [*game.actions, *extra]
    return review_game(game.board, actions, question_marks=game.question_marks_at_start)


def position_with_a_choice(seed: int) -> tuple[Game, set[tuple[int, int]], str]:
    """A game stopped where a certain safe cell, a certain mine and an uncertain cell are all
    on the board, its certain cells, and its view."""
    clock = FakeClock()
    game = Game(16, 16, 40, seed=seed, first_click="opening", clock=clock)
    game.reveal(3, 3)
    while not game.status.is_over:
        view = game.view_text()
        analysis = analyse(view, 40)
        uncertain = set(analysis.probabilities) - analysis.safe - analysis.mined
        if analysis.safe and analysis.mined and uncertain:
            return game, set(analysis.safe), view
        clock.advance(0.2)
        move = next_move(view, 40)
        game.act(move.kind, move.x, move.y)
    pytest.skip(f"seed {seed} never had such a position")


def test_a_click_beside_a_certainly_safe_cell_is_an_avoidable_risk_and_names_it() -> None:
    game, safe, view = position_with_a_choice(1)
    analysis = analyse(view, 40)
    risky = min(set(analysis.probabilities) - analysis.safe - analysis.mined)
    review = reviewed(game, [Action(ActionKind.REVEAL, *risky, 99_000)])
    last = review.decisions[-1]
    assert (last.x, last.y) == risky and last.kind is DecisionKind.AVOIDABLE
    assert last.mine_probability == pytest.approx(analysis.probabilities[risky])
    assert last.safe_cell in safe
    assert review.avoidable == 1 and review.luck == pytest.approx(1 - last.mine_probability)


def test_a_click_on_a_certain_mine_is_a_blunder() -> None:
    game, _, view = position_with_a_choice(1)
    mine = min(analyse(view, 40).mined)
    review = reviewed(game, [Action(ActionKind.REVEAL, *mine, 99_000)])
    last = review.decisions[-1]
    assert last.kind is DecisionKind.BLUNDER and last.mine_probability == 1
    # Luck is the odds survived: a blunder has its own count and leaves luck alone.
    assert review.blunders == 1 and review.luck == 1


def test_a_chord_is_judged_by_the_cells_it_opens() -> None:
    # A wrong flag beside a number, then a chord there: the chord opens a certain mine.
    game, _, view = position_with_a_choice(1)
    analysis = analyse(view, 40)
    assert game.board is not None
    board = game.board
    for x, y in sorted(analysis.mined):
        for nx, ny in board.neighbours(x, y):
            number = game.cell(nx, ny)
            if not number.isdigit() or number == "0":
                continue
            around = list(board.neighbours(nx, ny))
            covered = [c for c in around if game.cell(*c) == "#"]
            wrong = [c for c in covered if c not in analysis.mined]
            if int(number) == 1 and len(covered) >= 2 and wrong and (x, y) in covered:
                extra = [
                    Action(ActionKind.MARK, *wrong[0], 99_000),
                    Action(ActionKind.CHORD, nx, ny, 99_100),
                ]
                last = reviewed(game, extra).decisions[-1]
                assert (last.x, last.y) == (nx, ny) and last.kind is DecisionKind.BLUNDER
                # The cell named is the mine the chord opened, not the number chorded.
                assert last.opened == last.cell == (x, y) != (nx, ny)
                return
    pytest.skip("no number with a wrong flag to chord on in this position")


@pytest.mark.parametrize("seed", range(12))
def test_autoplay_never_takes_an_avoidable_risk(seed: int) -> None:
    review = reviewed(autoplayed(seed))
    assert review.avoidable == 0 and review.blunders == 0
    for decision in review.risky:  # a guess is never worse than the safest cell by much
        assert decision.kind is DecisionKind.GUESS
        assert decision.safest <= decision.mine_probability


@pytest.mark.parametrize("seed", range(6))
def test_every_fatal_click_is_the_last_decision_and_judged_as_the_player_saw_it(
    seed: int,
) -> None:
    game = autoplayed(seed)
    review = reviewed(game)
    assert review.status == game.status
    if game.status == Status.LOST:
        fatal = review.decisions[-1]
        assert fatal.kind.risky and fatal.mine_probability < 1
        assert review.forced_loss == (fatal.kind is DecisionKind.GUESS)
    else:
        assert not review.forced_loss
    assert review.decisions[0].kind is DecisionKind.SAFE  # the first click, by the rules


def toollib_board(view: str) -> list[list[int]]:
    """A view as ms-toollib's board: numbers, 10 for what is not open (flags included)."""
    return [[int(c) if c.isdigit() else 10 for c in row] for row in view.splitlines()]


@pytest.mark.slow  # ms-toollib beside: ~0.15 s of CPU a seed
@pytest.mark.parametrize("seed", range(4))
def test_each_risky_decisions_probability_is_ms_toollibs(seed: int) -> None:
    game = autoplayed(seed)
    assert game.board is not None
    replay = Game.from_board(game.board, question_marks=False)
    review = reviewed(game)
    risky = {(d.t_ms, d.x, d.y): d for d in review.risky}
    checked = 0
    for action in game.actions:
        if action.kind in (ActionKind.REVEAL, ActionKind.CHORD) and replay.board is not None:
            decision = risky.get((action.t_ms, action.x, action.y))
            if decision is not None:
                view = replay.view_text()
                odds, _ = ms.cal_probability_onboard(toollib_board(view), 40.0)
                assert decision.mine_probability == pytest.approx(odds[action.y][action.x])
                closed = [
                    odds[y][x]
                    for y, row in enumerate(view.splitlines())
                    for x, char in enumerate(row)
                    if not char.isdigit()
                ]
                assert decision.safest == pytest.approx(min(closed))
                checked += 1
        if action.kind in MOVES:
            replay.act(action.kind, action.x, action.y)
    assert checked == len(risky)


@pytest.mark.slow  # 0.5-0.7 s of CPU a seed
@pytest.mark.parametrize("seed", range(3))
def test_what_the_numbers_near_a_cell_prove_safe_the_whole_board_proves_too(seed: int) -> None:
    # The review's cheap first look must never call a risky click safe: every cell it
    # proves safe, the whole position's exact analysis proves safe, at every reach.
    from textmines.engine.solver.analysis import safe_by_numbers_near
    from textmines.engine.solver.view import parse_view

    game = autoplayed(seed, (30, 16, 99))
    assert game.board is not None
    replay = Game.from_board(game.board, question_marks=False)
    proved_any = 0
    for turn, action in enumerate(game.actions[1:60]):
        # Every other position: a move apart, two positions share most of their numbers.
        if turn % 2 == 0:
            view_text = replay.view_text()
            view = parse_view(view_text)
            analysis = analyse(view_text, 99)
            unknown = [(x, y) for (x, y) in analysis.probabilities]
            indices = [y * view.width + x for x, y in unknown]
            for reach in (1, 3, 5):
                proved = safe_by_numbers_near(view, indices, reach)
                assert {(i % view.width, i // view.width) for i in proved} <= analysis.safe
                proved_any += len(proved)
        replay.act(action.kind, action.x, action.y)
    assert proved_any, "the check proved nothing: it checked nothing"


def test_a_first_click_on_a_mine_of_a_laid_board_is_a_guess_not_a_safe_click() -> None:
    # Found by a player's hunt: practice from a replay's start, the first click on a mine;
    # the review said "No guesses" and "Lost on a forced 0% guess".
    from textmines.engine.board import Board
    from textmines.replays.review_report import fatal_words

    board = Board.from_text("*....\n.....\n.....\n.....\n....*")
    game = Game.from_board(board, clock=FakeClock())
    game.reveal(0, 0)
    review = reviewed(game)
    assert review.status == Status.LOST and review.guesses == 1
    (decision,) = review.decisions
    assert decision.kind is DecisionKind.GUESS and decision.mine_probability == 2 / 25
    assert fatal_words(decision) == "a forced 8% guess at row 1, column 1"


def played(layout: str, *moves: tuple[ActionKind, int, int]) -> Review:
    """The review of ``moves`` made on the board ``layout`` (question marks off)."""
    from textmines.engine.board import Board

    board = Board.from_text(layout)
    actions = [Action(kind, x, y, 1000 * n) for n, (kind, x, y) in enumerate(moves)]
    return review_game(board, actions, question_marks=False)


def test_a_guess_the_certainly_safe_cells_could_not_change_is_forced_not_avoidable() -> None:
    # Issue 46.1: a wrong flag on a certainly safe cell, (0, 2), and a 50/50 at (3, 0) /
    # (3, 1) that the flagged cell's number cannot decide. The review said "avoidable
    # risk" and did not count the loss as forced.
    #   ....   001#
    #   ...*   013#
    #   ..**   F1##
    flag, reveal = ActionKind.FLAG, ActionKind.REVEAL
    review = played("....\n...*\n..**", (flag, 0, 2), (reveal, 0, 1), (reveal, 3, 1))
    fatal = review.decisions[-1]
    assert review.status == Status.LOST and fatal.kind is DecisionKind.GUESS
    assert fatal.mine_probability == pytest.approx(0.5) and fatal.safest == pytest.approx(0.5)
    assert review.forced_loss and review.avoidable == 0 and review.guesses == 1
    # The safe cell left is still named (a guess taken early), under the player's flag.
    assert fatal.safe_cell == (0, 2) and fatal.safe_cell_flagged


def test_a_risk_the_certainly_safe_cells_would_have_changed_is_avoidable() -> None:
    # The flagged cell (1, 0) is certainly safe, and its number (1) would have shown
    # where the mine beside it is: clicking (2, 0) first was an avoidable 1-in-3 risk.
    #   ..*.   0F##
    #   ...*   12##
    #   *...   ####
    flag, reveal = ActionKind.FLAG, ActionKind.REVEAL
    review = played("..*.\n...*\n*...", (flag, 1, 0), (reveal, 0, 0), (reveal, 2, 0))
    fatal = review.decisions[-1]
    assert fatal.kind is DecisionKind.AVOIDABLE and not review.forced_loss
    assert fatal.mine_probability == pytest.approx(1 / 3) and fatal.safest == 0
    assert fatal.safe_cell == (1, 0) and fatal.safe_cell_flagged
    assert review.luck == pytest.approx(2 / 3)


def test_a_review_stops_where_its_work_budget_ends_and_says_so() -> None:
    game = autoplayed(2)
    assert game.board is not None
    whole = review_game(game.board, game.actions, question_marks=False)
    assert whole.complete and whole.reviewed_ms == game.actions[-1].t_ms
    cut = review_game(game.board, game.actions, question_marks=False, work=2_000)
    assert not cut.complete and cut.decisions == whole.decisions[: len(cut.decisions)]
    assert len(cut.decisions) < len(whole.decisions) and not cut.forced_loss
    assert cut.reviewed_ms <= whole.reviewed_ms


def test_a_review_asked_to_stop_stops() -> None:
    from textmines.engine.solver import AnalysisStopped

    game = autoplayed(2)
    assert game.board is not None
    with pytest.raises(AnalysisStopped):
        review_game(game.board, game.actions, question_marks=False, stop=lambda: True)


def test_the_clicks_a_practice_game_was_played_on_from_are_not_judged() -> None:
    # Issue 46.7: the review of a game played on from another player's replay judged their
    # clicks (their first click among them) as the player's.
    game = autoplayed(2)
    assert game.board is not None
    whole = review_game(game.board, game.actions, question_marks=False)
    later = whole.decisions[len(whole.decisions) // 2].index
    own = review_game(game.board, game.actions, question_marks=False, judged_from=later)
    assert own.decisions == tuple(d for d in whole.decisions if d.index >= later)
    assert own.status == whole.status
