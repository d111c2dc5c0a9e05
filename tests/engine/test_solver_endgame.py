"""The end game's listing of layouts (``fitting_layouts``) against brute force."""

from __future__ import annotations

import random

from tests.engine.test_solver import brute_force_layouts, random_position
from tests.helpers import scaled
from textmines.engine.solver.endgame import fitting_layouts, walk_order
from textmines.engine.solver.model import build_model
from textmines.engine.solver.view import parse_view


def test_the_layouts_listed_constraint_by_constraint_are_every_fitting_layout() -> None:
    rng = random.Random(5)
    checked = 0
    while checked < scaled(25):
        position = random_position(rng, max_layouts=2000)
        if position is None:
            continue
        text, mines = position
        view = parse_view(text)
        model = build_model(view, mines)
        cells = [
            i
            for i, c in enumerate(view.text)
            if c in "#?F" and i not in model.safe and i not in model.mined
        ]
        assert sorted(walk_order(model, cells)) == list(range(len(cells)))
        layouts = fitting_layouts(model, cells, 10_000)
        assert layouts is not None
        _, _, expected = brute_force_layouts(text, mines)
        # The brute force places every unknown cell; the listing only the undecided ones.
        position_of = {c: i for i, c in enumerate(cells)}
        want = {sum(1 << position_of[c] for c in layout if c in position_of) for layout in expected}
        assert set(layouts) == want and len(layouts) == len(want), text
        checked += 1
