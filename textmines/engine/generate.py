"""Mine placement: uniform, seeded, and honouring the first-click rule.

Only ``random.Random.getrandbits`` is used, never ``sample``/``shuffle``/``randrange``:
the Mersenne Twister bit stream is the one part of ``random`` whose output Python has kept
identical across versions, so a seed and a first click give the same board forever.
"""

from __future__ import annotations

import random

from textmines.engine.board import Board, neighbour_indices
from textmines.engine.presets import check_board, effective_first_click


def random_below(rng: random.Random, n: int) -> int:
    """A uniform integer in ``range(n)`` from the raw bit stream (rejection sampling)."""
    if n <= 0:
        raise ValueError(f"random_below needs a positive bound, not {n}")
    bits = n.bit_length()
    value = rng.getrandbits(bits)
    while value >= n:
        value = rng.getrandbits(bits)
    return value


def sample_positions(rng: random.Random, population: int, k: int) -> list[int]:
    """``k`` distinct integers from ``range(population)``, uniformly.

    A partial Fisher-Yates shuffle whose swaps live in a dict, so the cost is O(k) in time
    and memory whatever the population.
    """
    if not 0 <= k <= population:
        raise ValueError(f"cannot draw {k} positions from {population}")
    swapped: dict[int, int] = {}
    chosen: list[int] = []
    for i in range(k):
        j = i + random_below(rng, population - i)
        chosen.append(swapped.get(j, j))
        swapped[j] = swapped.get(i, i)
    return chosen


def protected_cells(width: int, height: int, index: int, first_click: str) -> list[int]:
    """The cells that must stay mine-free for a first click at ``index``, ascending."""
    if effective_first_click(width, height, first_click) == "opening":
        return sorted([index, *neighbour_indices(index, width, height)])
    return [index]


def place_mines(
    width: int,
    height: int,
    mines: int,
    first_index: int,
    rng: random.Random,
    first_click: str = "opening",
) -> Board:
    """A uniformly random board whose first click at ``first_index`` obeys the rule."""
    check_board(width, height, mines, first_click)
    protected = protected_cells(width, height, first_index, first_click)
    positions = sample_positions(rng, width * height - len(protected), mines)
    flags = bytearray(width * height)
    for position in positions:
        # Position p is the p-th cell that is not protected: step over the protected ones.
        index = position
        for skipped in protected:
            if skipped <= index:
                index += 1
            else:
                break
        flags[index] = 1
    return Board.from_flags(width, height, bytes(flags))
