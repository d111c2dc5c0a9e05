"""Mine placement primitives."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from textmines.engine.generate import place_mines, random_below, sample_positions


def test_random_below_is_pinned_to_the_bit_stream() -> None:
    rng = random.Random(2026)
    assert [random_below(rng, 10) for _ in range(8)] == [
        random_below(r, 10) for r in [random.Random(2026)] for _ in range(8)
    ]
    with pytest.raises(ValueError):
        random_below(rng, 0)


def test_sample_positions_are_distinct_and_in_range() -> None:
    rng = random.Random(1)
    for population, k in [(1, 1), (10, 10), (1000, 3), (1_000_000, 100)]:
        drawn = sample_positions(rng, population, k)
        assert len(drawn) == len(set(drawn)) == k
        assert all(0 <= v < population for v in drawn)
    with pytest.raises(ValueError):
        sample_positions(rng, 3, 4)


def test_placement_is_roughly_uniform() -> None:
    # 4000 boards of 3x3 with one mine, first click safe at the centre: each of the other
    # eight cells should get about 500 mines. A 5-sigma band keeps this test from flaking.
    rng = random.Random(0)
    hits: Counter[int] = Counter()
    for _ in range(4000):
        board = place_mines(3, 3, 1, 4, rng, "safe")
        hits.update(board.mine_indices())
    assert 4 not in hits and len(hits) == 8
    assert all(500 - 5 * 21 < n < 500 + 5 * 21 for n in hits.values())


def test_placement_avoids_the_protected_cells_even_at_full_density() -> None:
    board = place_mines(5, 5, 16, 12, random.Random(3), "opening")
    assert board.mine_count == 16
    assert [i for i in range(25) if i not in board.mine_indices()] == [
        6,
        7,
        8,
        11,
        12,
        13,
        16,
        17,
        18,
    ]
