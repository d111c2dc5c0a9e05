"""Presets and the limits of custom boards."""

from __future__ import annotations

import pytest

from textmines.engine import BEGINNER, EXPERT, INTERMEDIATE, PRESETS, Game
from textmines.engine.presets import check_board, effective_first_click, mine_limits, preset_for


def test_presets_are_the_classic_three() -> None:
    assert (BEGINNER.width, BEGINNER.height, BEGINNER.mines) == (9, 9, 10)
    assert (INTERMEDIATE.width, INTERMEDIATE.height, INTERMEDIATE.mines) == (16, 16, 40)
    assert (EXPERT.width, EXPERT.height, EXPERT.mines) == (30, 16, 99)
    assert list(PRESETS) == ["beginner", "intermediate", "expert"]
    assert EXPERT.label == "Expert 30x16/99"
    assert preset_for(16, 16, 40) is INTERMEDIATE
    assert preset_for(16, 16, 41) is None


@pytest.mark.parametrize(
    ("width", "height", "rule", "limits"),
    [
        (9, 9, "opening", (1, 72)),
        (9, 9, "safe", (1, 80)),
        (1000, 1000, "opening", (1, 999_991)),
        (1, 10, "opening", (1, 1)),
        (3, 3, "opening", (1, 8)),  # too small for an opening: safe rule
        (1, 2, "opening", (1, 1)),
        (2, 1, "safe", (1, 1)),
    ],
)
def test_mine_limits(width: int, height: int, rule: str, limits: tuple[int, int]) -> None:
    assert mine_limits(width, height, rule) == limits


def test_small_boards_fall_back_to_the_safe_rule() -> None:
    assert effective_first_click(3, 3, "opening") == "safe"
    assert effective_first_click(2, 5, "opening") == "opening"
    game = Game(3, 3, 8, seed=1)
    game.reveal(1, 1)
    assert game.status == "won"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((0, 9, 1), "width must be between 1 and 1000, not 0"),
        ((1001, 9, 1), "width must be between 1 and 1000, not 1001"),
        ((9, 0, 1), "height must be between 1 and 1000, not 0"),
        ((1, 1, 1), "at least 2 cells"),
        (
            (9, 9, 0),
            "mines must be between 1 and 72 on a 9x9 board with the opening first click, not 0",
        ),
        ((9, 9, 73), "between 1 and 72"),
        ((9, 9, 9.5), "mines must be a whole number"),
        (("9", 9, 5), "width must be a whole number"),
    ],
)
def test_out_of_range_values_say_the_allowed_range(args: tuple, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        check_board(*args)
    with pytest.raises(ValueError, match=message):
        Game(*args)


def test_safe_rule_allows_all_but_one_cell() -> None:
    check_board(9, 9, 80, "safe")
    with pytest.raises(ValueError, match="between 1 and 80"):
        check_board(9, 9, 81, "safe")


def test_unknown_first_click_rule() -> None:
    with pytest.raises(ValueError, match="'opening' or 'safe'"):
        Game(9, 9, 10, first_click="anywhere")


def test_bad_seed() -> None:
    with pytest.raises(ValueError, match="seed must be a whole number of 0 or more"):
        Game(9, 9, 10, seed=-1)
