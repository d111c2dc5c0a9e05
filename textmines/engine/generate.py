"""Dealing boards: uniform or no-guess, seeded, and honouring the first-click rule.

Only ``random.Random.getrandbits`` is used, never ``sample``/``shuffle``/``randrange``:
the Mersenne Twister bit stream is the one part of ``random`` whose output Python has kept
identical across versions, so a seed and a first click give the same board forever.

``deal_board`` deals either kind; the no-guess search itself is in ``noguess``, which gets
its uniform boards and random draws from here.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from itertools import islice
from typing import TYPE_CHECKING

from textmines.engine.board import MINE, Board, neighbour_indices
from textmines.engine.presets import check_board, effective_first_click

if TYPE_CHECKING:
    from textmines.engine.noguess import DealProgress

__all__ = [
    "DealProgress",
    "clear_first_click",
    "deal_board",
    "place_mines",
    "place_mines_no_guess",
    "protected_cells",
    "random_below",
    "sample_positions",
]


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


def clear_first_click(board: Board, index: int, first_click: str) -> Board:
    """``board`` (laid before its first click) with a first click at ``index`` made to obey
    ``first_click``: each mine on a cell the rule keeps clear moves to the first cell, in
    reading order, that holds no mine and is not kept clear, as the classic game moves a
    first-click mine to the top-left corner; every other mine stays. ``board`` itself when
    no mine is in the way. A board too dense for an opening there gets the safe rule."""
    protected = protected_cells(board.width, board.height, index, first_click)
    cells = board.cells
    moving = [cell for cell in protected if cells[cell] & MINE]
    if not moving:
        return board
    staying = set(board.mine_indices()).difference(moving)
    if board.size - len(protected) - len(staying) < len(moving):
        return clear_first_click(board, index, "safe")  # a board has a safe cell: it fits
    kept_clear = set(protected)
    free = (cell for cell in range(board.size) if cell not in kept_clear and cell not in staying)
    return Board.from_mines(board.width, board.height, [*staying, *islice(free, len(moving))])


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


def place_mines_no_guess(
    width: int,
    height: int,
    mines: int,
    first_index: int,
    rng: random.Random,
    first_click: str = "opening",
    *,
    work_limit: int | None = None,
    time_limit: float | None = None,
    should_stop: Callable[[], bool] | None = None,
    on_progress: Callable[[DealProgress], None] | None = None,
) -> tuple[Board, bool]:
    """A board the solver clears from ``first_index`` without guessing, and ``True``.

    If the work budget (default: ``noguess.work_limit_for`` the size) runs out first, or
    the safety clock ``time_limit`` (seconds; default none, so the same seed gives the
    same board on every machine): the ordinary ``place_mines`` board of the same random
    stream and ``False`` (the board may then need a guess). The first-click rule is kept
    either way. ``should_stop`` is asked often (a few times a second on the largest
    boards): when it returns True, ``DealCancelled`` is raised. ``on_progress`` hears
    after each layout tried.
    """
    # Here, not at the top: the no-guess search is loaded by the first no-guess deal only.
    from textmines.engine.noguess import find_no_guess_board, work_limit_for

    check_board(width, height, mines, first_click)
    return find_no_guess_board(
        partial(place_mines, width, height, mines, first_index, rng, first_click),
        first_index,
        protected_cells(width, height, first_index, first_click),
        partial(random_below, rng),
        work_limit=work_limit_for(width, height) if work_limit is None else work_limit,
        time_limit=time_limit,
        should_stop=should_stop,
        on_progress=on_progress,
    )


def deal_board(
    width: int,
    height: int,
    mines: int,
    first_index: int,
    rng: random.Random,
    first_click: str = "opening",
    no_guess: bool = False,
    *,
    safety_clock: bool = False,
    should_stop: Callable[[], bool] | None = None,
    on_progress: Callable[[DealProgress], None] | None = None,
) -> tuple[Board, bool]:
    """The board of a first click at ``first_index``: uniform (``place_mines``) or, with
    ``no_guess``, one the solver clears without guessing (``place_mines_no_guess``, with
    its default work budget, and with ``safety_clock`` also its safety clock: only for a
    seed nobody chose, whose board need not come again). The flag is False only when a
    no-guess deal fell back to the uniform board. ``should_stop`` and ``on_progress``
    serve the no-guess deal.
    """
    if not no_guess:
        return place_mines(width, height, mines, first_index, rng, first_click), True
    from textmines.engine.noguess import safety_clock_for  # loaded by a no-guess deal only

    return place_mines_no_guess(
        width,
        height,
        mines,
        first_index,
        rng,
        first_click,
        time_limit=safety_clock_for(width, height) if safety_clock else None,
        should_stop=should_stop,
        on_progress=on_progress,
    )
