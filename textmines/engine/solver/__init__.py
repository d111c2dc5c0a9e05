"""Exact mine probabilities, certain moves, hints and the autoplay policy.

The solver reads only what the player sees (the view text) and the total mine count, so it
can never use hidden information.

Method
------
1. Every revealed number gives a constraint: the covered cells around it hold exactly
   ``number - known mines`` mines. Trivial constraints (none left, or all left) are
   propagated first; this alone finds most certain moves and splits the frontier.
2. Frontier cells (covered cells next to a number) with the same set of constraints form
   groups, and groups linked by constraints form components; each component's layouts are
   counted by mine count with a dynamic programme over its groups. Long thin frontiers,
   the usual Minesweeper case, keep its states few, so this is polynomial where plain
   enumeration is exponential.
3. Components and the *interior* (covered cells next to no number) are combined over
   their mine counts with the global total, in exact integers.
4. A budget of work (``engine.work``), never the clock, bounds the counting. A component
   past it gets a local estimate, its certain cells still come from step 1, and the
   analysis is marked ``approximate``. The guess has a budget of its own (``GUESS_WORK``),
   so the same view gets the same guess on an idle machine and on a busy one.
5. With no certain move left, the guessing policy looks one move ahead, or searches the
   end game exactly when few cells are undecided.

Flags are not trusted: a flag is the player's claim, and the solver treats a flagged cell
as covered. A correct flag costs nothing (the solver proves the mine itself and lists it in
``flag_probabilities`` with probability 1); a wrong one cannot mislead it.

Modules, each with one job (each imports only those above it):

* ``view``: the view text parsed (``View``, ``parse_view``);
* ``model``: the numbers' constraints after trivial propagation (step 1);
* ``counting``: components and their layout counts (step 2);
* ``analysis``: ``Analysis``, ``analyse``, ``analyse_view`` (steps 3 and 4);
* ``endgame``: the exact end-game search;
* ``guessing``: ``best_guess`` and its look-ahead;
* ``autoplay``: ``hint``, ``next_move``, ``first_click``.
"""

from textmines.engine.solver.analysis import (
    ANALYSIS_WORK,
    Analysis,
    Move,
    analyse,
    analyse_view,
    certain_cells,
    certain_cells_of,
    probabilities,
)
from textmines.engine.solver.autoplay import (
    FIRST_CLICK,
    Hint,
    first_click,
    hint,
    next_move,
    next_reveals,
)
from textmines.engine.solver.endgame import ENDGAME_CELLS, ENDGAME_LAYOUTS, endgame_guess
from textmines.engine.solver.guessing import (
    GUESS_SLACK,
    GUESS_WORK,
    PROGRESS_WEIGHT,
    best_guess,
    progress_chance,
)
from textmines.engine.solver.model import AnalysisStopped
from textmines.engine.solver.view import Cell, View, parse_view

__all__ = [
    "ANALYSIS_WORK",
    "ENDGAME_CELLS",
    "ENDGAME_LAYOUTS",
    "FIRST_CLICK",
    "GUESS_SLACK",
    "GUESS_WORK",
    "PROGRESS_WEIGHT",
    "Analysis",
    "AnalysisStopped",
    "Cell",
    "Hint",
    "Move",
    "View",
    "analyse",
    "analyse_view",
    "best_guess",
    "certain_cells",
    "certain_cells_of",
    "endgame_guess",
    "first_click",
    "hint",
    "next_move",
    "next_reveals",
    "parse_view",
    "probabilities",
    "progress_chance",
]
