"""What the review says in words and in JSON (issue 46, items 1-5): forced is forced, a
chord names the cell it opened, one count of blunders everywhere, cells a player can find."""

from __future__ import annotations

from pathlib import Path

import pytest

from textmines.engine.actions import ActionKind
from textmines.engine.board import Board
from textmines.engine.game import Action
from textmines.engine.review import Decision, DecisionKind, Review, review_game
from textmines.replays.recording import Recording
from textmines.replays.review_report import (
    box_line,
    cell_name,
    fatal_words,
    review_json,
    review_summary,
    review_text,
)

FLAG, REVEAL, CHORD = ActionKind.FLAG, ActionKind.REVEAL, ActionKind.CHORD


def played(layout: str, *moves: tuple[ActionKind, int, int]) -> tuple[Recording, Review]:
    """A recording of ``moves`` on ``layout`` and its review."""
    board = Board.from_text(layout)
    actions = tuple(Action(kind, x, y, 1000 * n) for n, (kind, x, y) in enumerate(moves))
    recording = Recording(board, actions, actions[-1].t_ms, question_marks=False)
    return recording, review_game(board, actions, question_marks=False)


def test_cells_are_named_from_the_top_left_corner_counting_from_one() -> None:
    assert cell_name((0, 0)) == "row 1, column 1"
    assert cell_name((7, 4)) == "row 5, column 8"


def test_a_forced_loss_is_called_forced_and_names_the_flagged_safe_cell_that_would_not_help() -> (
    None
):
    # A 50/50 at (3, 0) / (3, 1); (0, 2) is certainly safe under the player's wrong flag.
    recording, review = played("....\n...*\n..**", (FLAG, 0, 2), (REVEAL, 0, 1), (REVEAL, 3, 1))
    line = box_line(review)
    assert line == (
        "Lost on a forced 50/50 at row 2, column 4; row 3, column 1 (under your flag) was"
        " certainly safe but would not have changed the odds"
    )
    assert "avoidable 50%" not in review_text(recording, review, "Game")
    data = review_json(recording, review)["review"]
    assert data["forced_loss"] is True and data["avoidable"] == 0
    fatal = data["decisions"][-1]
    assert fatal["safe_cell"] == [0, 2] and fatal["safe_cell_flagged"] is True


def test_an_avoidable_loss_names_the_safe_cell_as_a_player_finds_it() -> None:
    _, review = played("..*.\n...*\n*...", (FLAG, 1, 0), (REVEAL, 0, 0), (REVEAL, 2, 0))
    assert box_line(review) == (
        "Lost on an avoidable 33% risk at row 1, column 3; row 1, column 2 (under your flag) was"
        " certainly safe"
    )


def test_a_chord_names_the_cell_it_opened_in_the_text_and_the_json() -> None:
    # The first click opens the bottom rows; a wrong flag on (0, 0), then a chord on the 1 at
    # (0, 1) opens (1, 0), certainly the mine.
    #   .*.   F##
    #   ...   111
    #   ...   000
    recording, review = played(".*.\n...\n...", (REVEAL, 0, 2), (FLAG, 0, 0), (CHORD, 0, 1))
    fatal = review.decisions[-1]
    assert fatal.kind is DecisionKind.BLUNDER
    assert (fatal.x, fatal.y) == (0, 1) and fatal.cell == (1, 0)
    assert fatal_words(fatal) == (
        "a blunder: the chord on row 2, column 1 opened row 1, column 2 was certainly a mine"
    )
    decision = review_json(recording, review)["review"]["decisions"][-1]
    assert (decision["x"], decision["y"], decision["opened"]) == (0, 1, [1, 0])
    text = review_text(recording, review, "Game")
    assert "the chord on row 2, column 1 opened row 1, column 2: 100% of a mine" in text
    # Mid-line, "no guesses" is not capitalised.
    assert review_summary(review).endswith(
        "was certainly a mine - no guesses - no avoidable risk - 1 blunder"
    )


def test_a_loss_on_a_chord_names_the_chord_and_the_cell_it_opened_in_the_box() -> None:
    # Found by a player's look at issue 46: the box named only the certainly safe cell, as
    # if it were the cell lost on. A chord on the 1 at (2, 2) with the right flag opens
    # (1, 1), a mine, at 1 in 3:
    #   ..*   ###
    #   .*.   ###
    #   ...   #F1
    _, review = played("..*\n.*.\n...", (REVEAL, 2, 2), (FLAG, 1, 2), (CHORD, 2, 2))
    assert box_line(review) == (
        "Lost on a forced 33% guess: the chord on row 3, column 3 opened row 2, column 2"
    )


def test_blunders_are_counted_apart_from_avoidable_risks_and_left_out_of_luck() -> None:
    guess = Decision(1000, 0, 0, DecisionKind.GUESS, 0.5, 0.5)
    blunder = Decision(2000, 1, 1, DecisionKind.BLUNDER, 1.0, 0.0, (2, 2))
    review = Review((guess, blunder))
    assert review.luck == pytest.approx(0.5) and review.avoidable == 0 and review.blunders == 1
    assert review_summary(review) == "1 guess (50%) - luck 50% - no avoidable risk - 1 blunder"


@pytest.mark.slow  # ms-toollib in a child process
@pytest.mark.parametrize(
    ("layout", "flag", "opened", "clicked", "verdict"),
    [
        # The 50/50 no certainly safe cell could change: forced.
        (
            "....\n...*\n..**",
            (0, 2),
            (0, 1),
            (3, 1),
            "Lost on a forced 50/50 at row 2, column 4; row 3, column 1",
        ),
        # The flagged safe cell's number would have shown the mine: avoidable.
        (
            "..*.\n...*\n*...",
            (1, 0),
            (0, 0),
            (2, 0),
            "Lost on an avoidable 33% risk at row 1, column 3; row 1, col",
        ),
    ],
)
def test_a_game_played_in_ms_toollibs_own_game_is_judged_the_same(
    tmp_path: Path,
    layout: str,
    flag: tuple[int, int],
    opened: tuple[int, int],
    clicked: tuple[int, int],
    verdict: str,
) -> None:
    # Issue 46.1 from real play: the clicks as mouse events in ms-toollib's BaseVideo (a
    # right click flags the safe cell, a left click opens, a left click on the mine), its
    # .evf file read as the app reads any replay file.
    from tests.replays.toollib import basevideo_file, centre
    from textmines.replays.foreign import read_replay_file

    steps: list[tuple[str, int, int]] = []
    for cell, (press, release) in (
        (flag, ("rc", "rr")),
        (opened, ("lc", "lr")),
        (clicked, ("lc", "lr")),
    ):
        steps += [(press, *centre(*cell)), (release, *centre(*cell))]
    path = tmp_path / "game.evf"
    basevideo_file(Board.from_text(layout), steps, path)
    recording = read_replay_file(path).recording
    review = review_game(
        recording.board, recording.actions, question_marks=recording.question_marks
    )
    assert box_line(review).startswith(verdict), box_line(review)
    assert review.forced_loss == ("forced" in verdict)
