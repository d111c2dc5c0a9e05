"""The solver: exact probabilities against brute force, certain moves, hints, autoplay."""

from __future__ import annotations

import functools
import itertools
import math
import random
import time
from collections.abc import Iterator
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.helpers import scaled
from textmines.engine import Board, Game
from textmines.engine.board import neighbour_indices
from textmines.engine.solver import (
    GUESS_SLACK,
    Analysis,
    AnalysisStopped,
    Hint,
    Move,
    analyse,
    analyse_view,
    best_guess,
    endgame_guess,
    first_click,
    hint,
    next_move,
    parse_view,
    probabilities,
    progress_chance,
)
from textmines.engine.work import WorkBudget

Cell = tuple[int, int]


def analyse_game(game: Game) -> Analysis:
    """``analyse`` on a game's current view and mine count (the solver never sees a Game)."""
    return analyse(game.view_text(), game.mines)


def plenty() -> WorkBudget:
    """A budget of work no test position reaches."""
    return WorkBudget(10**12)


def brute_force(view: str, mines: int) -> dict[Cell, Fraction]:
    """Mine probabilities by trying every placement of the mines on the unknown cells."""
    w, unknown, layouts = brute_force_layouts(view, mines)
    assert layouts, "the test position has no layout"
    hits = dict.fromkeys(unknown, 0)
    for placed in layouts:
        for j in placed:
            hits[j] += 1
    return {(i % w, i // w): Fraction(hits[i], len(layouts)) for i in unknown}


def brute_force_layouts(view: str, mines: int) -> tuple[int, list[int], list[set[int]]]:
    """The view's width, its unknown cells (indices) and every placement of the mines on
    them that fits the numbers."""
    rows = view.splitlines()
    w, h = len(rows[0]), len(rows)
    text = "".join(rows)
    unknown = [i for i, c in enumerate(text) if c in "#?F"]
    known = sum(c in "*X" for c in text)

    def around(i: int) -> list[int]:
        y, x = divmod(i, w)
        return [
            yy * w + xx
            for yy in range(max(0, y - 1), min(h, y + 2))
            for xx in range(max(0, x - 1), min(w, x + 2))
            if (yy, xx) != (y, x)
        ]

    numbers = [(around(i), int(c)) for i, c in enumerate(text) if c.isdigit()]
    layouts = []
    for combo in itertools.combinations(unknown, mines - known):
        placed = set(combo)
        if all(sum(j in placed or text[j] in "*X" for j in cells) == n for cells, n in numbers):
            layouts.append(placed)
    return w, unknown, layouts


def assert_matches_brute_force(view: str, mines: int) -> Analysis:
    expected = brute_force(view, mines)
    # The solver stops on work, not on the clock, so a busy machine cannot make a small
    # position approximate; the budget is endless here all the same (exactness is checked).
    analysis = analyse(view, mines, work=10**12)
    got = {**analysis.probabilities, **analysis.flag_probabilities}
    assert set(got) == set(expected)
    for cell, p in expected.items():
        assert got[cell] == pytest.approx(float(p), abs=1e-12), (view, mines, cell)
        is_safe = cell in analysis.safe or cell in analysis.wrong_flags
        assert is_safe == (p == 0), (view, cell)
        if cell in analysis.probabilities:
            assert (cell in analysis.mined) == (p == 1), (view, cell)
    assert not analysis.approximate
    return analysis


def small_guess_positions(
    rng: random.Random, tries: int, max_layouts: int
) -> Iterator[tuple[str, int, Analysis]]:
    """Of ``tries`` random positions, those small enough to brute-force where a guess is
    due (nothing certainly safe): the view, the mines and the analysis."""
    for _ in range(tries):
        position = random_position(rng, max_layouts)
        if position is None:
            continue
        text, mines = position
        analysis = analyse(text, mines)
        if not analysis.safe and analysis.probabilities:
            yield text, mines, analysis


def random_position(rng: random.Random, max_layouts: int = 20_000) -> tuple[str, int] | None:
    """A position met in a random game on a small board: a first click, then some safe
    reveals and marks; ``None`` when it is over or too big to brute-force."""
    w, h = rng.randint(3, 8), rng.randint(3, 6)
    mines = rng.randint(1, max(1, w * h // 3))
    rule = rng.choice(["opening", "safe"])
    if mines > w * h - (9 if rule == "opening" else 1):
        return None
    game = Game(w, h, mines, seed=rng.getrandbits(32), first_click=rule)
    game.reveal(rng.randrange(w), rng.randrange(h))
    board = game.board
    assert board is not None
    for _ in range(rng.randint(0, 6)):
        if game.status.is_over:
            return None
        x, y = rng.randrange(w), rng.randrange(h)
        if rng.random() < 0.25:
            game.toggle_mark(x, y)
        elif not board.is_mine(x, y):
            game.reveal(x, y)
    if game.status.is_over:
        return None
    view = game.view_text()
    unknown = sum(view.count(c) for c in "#?F")
    if math.comb(unknown, mines) > max_layouts:
        return None
    return view, mines


@pytest.mark.slow  # brute force: ~0.7 s of CPU
def test_probabilities_match_brute_force_on_random_games() -> None:
    rng = random.Random(2024)
    checked = 0
    nontrivial = 0
    while checked < scaled(150):
        position = random_position(rng)
        if position is None:
            continue
        analysis = assert_matches_brute_force(*position)
        checked += 1
        nontrivial += any(0 < p < 1 for c, p in analysis.probabilities.items())
    assert nontrivial > checked // 3  # the sample is not all solved positions


@given(st.integers(0, 2**32 - 1))
def test_probabilities_match_brute_force_hypothesis(seed: int) -> None:
    position = random_position(random.Random(seed), max_layouts=5_000)
    if position is not None:
        assert_matches_brute_force(*position)


def view_of(layout: str, reveals: list[Cell], marks: list[Cell] | None = None) -> tuple[str, int]:
    """The view after marking then revealing cells on a fixed layout, and its mine count."""
    game = Game.from_board(Board.from_text(layout))
    for x, y in marks or []:
        game.toggle_mark(x, y)
    for x, y in reveals:
        game.reveal(x, y)
    return game.view_text(), game.mines


HAND_MADE = [
    # A 1-2-1 against a wall: the 2 is flanked by two mines.
    view_of("*.*\n...\n...", [(1, 2)]),
    # Numbers with covered cells on two sides.
    view_of("*..\n...\n..*", [(2, 0)]),
    # A row of 1s under four covered cells, the global count deciding between patterns.
    view_of("*..*\n....\n....", [(1, 2)]),
    view_of("..*.\n....\n*...", [(3, 2), (0, 0)]),
    # A flag (trusted or not, the cell is unknown) and a question mark.
    view_of("*.*.\n....\n....", [(3, 2)], [(0, 0), (1, 0), (1, 0)]),
    # After a loss: shown mines count as mines, W (a wrong flag) is a safe cell.
    view_of("*.*.\n....\n....", [(3, 2), (2, 0)], [(0, 0), (3, 0)]),
    view_of("*..\n.*.\n...", [(2, 2), (2, 1), (0, 0)], [(1, 0)]),
]


@pytest.mark.parametrize(("view", "mines"), HAND_MADE)
def test_hand_made_positions(view: str, mines: int) -> None:
    assert_matches_brute_force(view, mines)


def test_flags_are_not_trusted_but_reported() -> None:
    view, mines = view_of("*.*.\n....\n....", [(3, 2)], [(0, 0), (1, 0), (1, 0)])
    assert view == "F?##\n1211\n0000"
    analysis = analyse(view, mines)
    assert set(analysis.probabilities) == {(1, 0), (2, 0), (3, 0)}
    assert analysis.flag_probabilities == {(0, 0): 1.0}
    assert analysis.mined == {(2, 0)}
    assert analysis.safe == {(1, 0), (3, 0)}
    # The same position with a wrong flag: the solver proves it safe.
    analysis = analyse("#F##\n1211\n0000", 2)
    assert analysis.wrong_flags == {(1, 0)}
    assert analysis.mined == {(0, 0), (2, 0)}


def test_global_count_decides() -> None:
    # (0, 0) is a mine; column 3 is safe (next to zeros); nine cells touch no number.
    view = "#10####\n110####\n000####"
    for mines in (1, 2, 5, 10):
        analysis = assert_matches_brute_force(view, mines)
        assert analysis.mined >= {(0, 0)}
        assert analysis.interior_probability == pytest.approx((mines - 1) / 9)
        assert analysis.probabilities[(5, 1)] == pytest.approx((mines - 1) / 9)
    assert analyse(view, 1).safe == {(x, y) for x in range(3, 7) for y in range(3)}
    assert analyse(view, 10).mined == {(0, 0)} | {(x, y) for x in range(4, 7) for y in range(3)}
    with pytest.raises(ValueError, match="mine count"):
        analyse(view, 11)


@pytest.mark.parametrize(
    ("view", "mines", "message"),
    [
        ("", 1, "empty"),
        ("##\n#", 1, "row 2"),
        ("#a\n##", 1, "'a'"),
        ("111\n1#1\n111", 0, "mine count"),
        ("100\n000\n000", 0, "cannot be satisfied"),
        ("2#\n00", 1, "inconsistent"),
        ("1#\n3#", 1, "inconsistent"),
    ],
)
def test_bad_views_raise(view: str, mines: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        analyse(view, mines)


@pytest.mark.slow  # ~0.5 s of CPU
def test_certain_moves_are_never_wrong() -> None:
    """Play many games by the solver and check every certain cell against the board."""
    rng = random.Random(7)
    checked = 0
    for _ in range(scaled(30)):
        w, h = rng.randint(5, 16), rng.randint(5, 12)
        mines = rng.randint(1, (w * h) // 4)
        game = Game(w, h, mines, seed=rng.getrandbits(32))
        game.reveal(*first_click(w, h))
        board = game.board
        assert board is not None
        while not game.status.is_over:
            view = game.view_text()
            analysis = analyse(view, mines)
            for x, y in analysis.safe:
                assert not board.is_mine(x, y)
            for x, y in analysis.mined:
                assert board.is_mine(x, y)
            checked += len(analysis.safe) + len(analysis.mined)
            move = next_move(view, mines)
            assert move is not None
            if move.kind == "flag":
                assert board.is_mine(move.x, move.y)
                game.toggle_mark(move.x, move.y)
            else:
                if move.probability == 0.0:
                    assert not board.is_mine(move.x, move.y)
                game.reveal(move.x, move.y)
    assert checked > 400


@pytest.mark.slow  # ~0.2 s of CPU
def test_large_board_without_overflow() -> None:
    # 160,000 cells, 24,000 mines: the layout counts run far past a float's range (about
    # 10**26000), as on 1000x1000 boards, at a sixth of the time.
    side, mines = 400, 24_000
    game = Game(side, side, mines, seed=3)
    game.reveal(side // 2, side // 2)
    board = game.board
    assert board is not None
    rng = random.Random(1)
    opened = 0
    while opened < 6:
        x, y = rng.randrange(side), rng.randrange(side)
        if board.number(x, y) == 0 and not board.is_mine(x, y) and not game.is_revealed(x, y):
            game.reveal(x, y)
            opened += 1
    analysis = analyse_game(game)
    probs = analysis.probabilities
    assert len(probs) == game.view_text().count("#")
    assert all(0.0 <= p <= 1.0 for p in probs.values())
    assert sum(probs.values()) == pytest.approx(mines, rel=1e-9)
    assert analysis.interior_probability is not None
    assert 0.1 < analysis.interior_probability < 0.2
    for x, y in analysis.safe:
        assert not board.is_mine(x, y)
    for x, y in analysis.mined:
        assert board.is_mine(x, y)


def long_frontier_view() -> tuple[str, int]:
    """A row of 1s under a long covered row: one component with very many layouts."""
    width = 60
    return "#" * width + "\n" + "1" * width + "\n" + "0" * width, 20


def test_the_work_budget_gives_an_approximation_not_a_freeze() -> None:
    view, mines = long_frontier_view()
    start = time.process_time()  # CPU, not wall: the suite shares the cores
    analysis = analyse(view, mines, work=0)
    assert time.process_time() - start < 1.0
    assert analysis.approximate
    assert all(0.0 <= p <= 1.0 for p in analysis.probabilities.values())
    exact = analyse(view, mines)
    assert not exact.approximate


def test_a_big_component_is_exact_and_fast() -> None:
    # 1s under a 60-cell row and 2s over a wall: the dynamic programme stays small.
    view = "#" * 60 + "\n" + "1" * 60 + "\n" + "0" * 60
    start = time.process_time()  # CPU, not wall: the suite shares the cores
    analysis = analyse(view, 20)
    assert time.process_time() - start < 0.5
    assert not analysis.approximate
    # Any layout has one mine in every run of three: columns 0, 3, 6, ... are forced
    # by the ends; with 20 mines in 60 cells exactly one pattern fits.
    assert sum(analysis.probabilities.values()) == pytest.approx(20)
    assert len(analysis.mined) == 20


def test_probabilities_function_and_game_wrapper() -> None:
    game = Game(9, 9, 10, seed=5)
    game.reveal(4, 4)
    assert probabilities(game.view_text(), 10) == analyse_game(game).probabilities
    assert set(probabilities(game.view_text(), 10)) == {
        (x, y) for y in range(9) for x in range(9) if game.cell(x, y) in "#?"
    }


# ---------------------------------------------------------------------- API shape
def test_first_click_is_three_three_clamped() -> None:
    assert first_click(30, 16) == (3, 3)
    assert first_click(2, 9) == (1, 3)
    blank = "\n".join(["#" * 30] * 16)
    move = next_move(blank, 99)
    assert move == Move("reveal", 3, 3, pytest.approx(99 / 480))
    assert hint(blank, 99) == Hint(3, 3, pytest.approx(99 / 480), False)
    assert next_move("##\n##", 1) == Move("reveal", 1, 1, 0.25)


def test_hint_and_next_move() -> None:
    assert hint("00\n00", 0) is None
    assert next_move("00\n00", 0) is None
    view = "#10\n#21\n###"  # from the layout "*..\n...\n..*" after a click at (2, 0)
    analysis = analyse(view, 2)
    assert analysis.safe == {(0, 2)}
    assert analysis.mined == frozenset()
    assert analysis.probabilities[(0, 0)] == 0.5
    assert analysis.certain_moves() == [Move("reveal", 0, 2, 0.0)]
    assert hint(view, 2) == Hint(
        0, 2, 0.0, True, "the numbers around it, taken together, leave no room for a mine there"
    )
    assert next_move(view, 2) == Move("reveal", 0, 2, 0.0)
    # Only certain mines left: flag them one by one; nothing to reveal or hint.
    view = "#10\n121\n01#"
    assert analyse(view, 2).certain_moves() == [Move("flag", 0, 0, 1.0), Move("flag", 2, 2, 1.0)]
    assert next_move(view, 2) == Move("flag", 0, 0, 1.0)
    assert next_move("F10\n121\n01#", 2) == Move("flag", 2, 2, 1.0)
    assert next_move(view, 2, flag_mines=False) is None
    assert hint(view, 2) is None


def guess_positions(count: int) -> list[tuple[str, int]]:
    """Positions of Expert games played by the solver where no cell is certain."""
    out = []
    seed = 0
    while len(out) < count:
        game = Game(30, 16, 99, seed=seed)
        seed += 1
        game.reveal(*first_click(30, 16))
        while not game.status.is_over:
            analysis = analyse_game(game)
            if analysis.safe:
                for x, y in analysis.safe:
                    game.reveal(x, y)
                continue
            out.append((game.view_text(), 99))
            x, y = best_guess(game.view_text(), analysis)
            game.reveal(x, y)
    return out[:count]


def free_guesses(view_text: str, analysis: Analysis) -> set[Cell]:
    """The guesses ``best_guess`` takes before its look-ahead, whatever their risk."""
    from textmines.engine.solver.guessing import (
        WhenMined,
        pseudo_fifty_fifty,
        region_guess,
        twin_cells,
    )
    from textmines.engine.solver.model import build_model

    view = parse_view(view_text)
    base = build_model(view, analysis.mines)
    when_mined = WhenMined(view, base)
    searched = (endgame_guess(view, analysis.mines, plenty()), region_guess(view, base, plenty()))
    return {
        *(cell for cell in searched if cell is not None),
        *pseudo_fifty_fifty(view, analysis, base, plenty(), when_mined),
        *twin_cells(view, analysis, base, plenty(), when_mined),
    }


@pytest.mark.slow  # ~0.45 s of CPU
@pytest.mark.usefixtures("unhurried")
def test_guesses_are_among_the_safest() -> None:
    for view, mines in guess_positions(scaled(5)):
        analysis = analyse(view, mines)
        cell = best_guess(view, analysis)
        lowest = min(analysis.probabilities.values())
        # A riskier cell only when it costs nothing: the exact search of the end game or of
        # a sealed-off region wins more often with it, or it is one of a 50/50 (plain or
        # chained) that no safe reveal can ever break.
        assert analysis.probabilities[cell] <= lowest + GUESS_SLACK or cell in free_guesses(
            view, analysis
        )
        assert cell not in analysis.mined
        assert hint(view, mines) == Hint(*cell, analysis.probabilities[cell], False)
        move = next_move(view, mines, flag_mines=False)
        assert move == Move("reveal", *cell, analysis.probabilities[cell])
        assert 0.0 <= progress_chance(view, mines, cell) <= 1.0


def test_guess_on_a_forced_choice() -> None:
    assert best_guess("#1\n11", analyse("#1\n11", 1)) == (0, 0)
    with pytest.raises(ValueError):
        best_guess("11\n11", analyse("11\n11", 0))


def test_analyse_game_uses_the_view_only() -> None:
    # Two layouts that look the same after the same click get the same answer.
    a = Game.from_board(Board.from_text("*.*\n...\n..."))
    b = Game.from_board(Board.from_text("*.*\n...\n..."))
    a.reveal(1, 2)
    b.reveal(1, 2)
    assert analyse_game(a).probabilities == analyse_game(b).probabilities


@pytest.mark.slow  # ~0.2 s of CPU
@pytest.mark.usefixtures("unhurried")
def test_the_end_game_search_stops_on_a_budget_of_work(monkeypatch: pytest.MonkeyPatch) -> None:
    # Only the search's budget of positions (and the guess's work) can end it, never the clock:
    # so the same position gets the same guess however busy the machine is. A blank 5x4 board with 2
    # mines takes 13,708 positions to search to the end.
    from textmines.engine.solver import endgame

    blank = parse_view("\n".join(["#####"] * 4))
    assert endgame.ENDGAME_NODES < 13_708
    assert endgame_guess(blank, 2, plenty()) is None
    monkeypatch.setattr(endgame, "ENDGAME_NODES", 14_000)
    assert endgame_guess(blank, 2, plenty()) == (0, 0)


def test_end_game_search_takes_the_informative_cell() -> None:
    # One mine in three cells in a row: an end cell wins 2 layouts of 3 (its number tells
    # the other two apart), the middle one only 1 (it always shows 1, leaving a 50/50).
    assert endgame_guess(parse_view("###"), 1, plenty()) == (0, 0)
    assert best_guess("###", analyse("###", 1)) in {(0, 0), (2, 0)}
    # Too many undecided cells: no exact search.
    assert endgame_guess(parse_view("#" * 30 + "\n" + "#" * 30), 5, plenty()) is None


def optimal_wins(view: str, mines: int) -> dict[Cell, int]:
    """Per unflagged covered cell, the layouts won by revealing it first and then playing
    at best, by a plain game-tree search over every layout (no pruning)."""
    rows = view.splitlines()
    w, h = len(rows[0]), len(rows)
    text = "".join(rows)
    unknown = [i for i, c in enumerate(text) if c in "#?F"]
    around = [set(neighbour_indices(i, w, h)) for i in range(w * h)]
    numbers = [(around[i], int(c)) for i, c in enumerate(text) if c.isdigit()]
    layouts = frozenset(
        frozenset(combo)
        for combo in itertools.combinations(unknown, mines)
        if all(len(cells & set(combo)) == n for cells, n in numbers)
    )

    def reveal(group: frozenset[frozenset[int]], revealed: frozenset[int], cell: int) -> int:
        parts: dict[int, set[frozenset[int]]] = {}
        for layout in group:
            if cell not in layout:
                parts.setdefault(len(around[cell] & layout), set()).add(layout)
        return sum(best(frozenset(part), revealed | {cell}) for part in parts.values())

    @functools.cache
    def best(group: frozenset[frozenset[int]], revealed: frozenset[int]) -> int:
        if len(group) == 1:
            return 1
        cells = [c for c in unknown if c not in revealed and any(c not in g for g in group)]
        return max(reveal(group, revealed, c) for c in cells)

    return {
        (i % w, i // w): reveal(layouts, frozenset(), i)
        for i in unknown
        if text[i] != "F" and any(i not in layout for layout in layouts)
    }


@pytest.mark.slow  # ~0.6 s of CPU
def test_the_end_game_search_finds_the_best_guess_by_brute_force() -> None:
    # The search prunes (a cell that cannot beat the best so far is not searched to the
    # end) and memoises; a plain game tree over every layout must agree with its choice.
    rng = random.Random(17)
    checked = 0
    while checked < scaled(40):
        position = random_position(rng, max_layouts=90)
        if position is None:
            continue
        view, mines = position
        analysis = analyse(view, mines)
        if analysis.safe or not analysis.probabilities:
            continue  # the end game is asked only when nothing is certainly safe
        cell = endgame_guess(parse_view(view), mines, plenty())
        if cell is None:
            continue
        wins = optimal_wins(view, mines)
        assert wins[cell] == max(wins.values()), (view, mines, cell, wins)
        checked += 1


@pytest.mark.slow  # ~0.4 s of CPU
def test_approximate_analysis_keeps_certain_cells_certain() -> None:
    """Big components estimated, small ones exact: safe/mined must still be true."""
    rng = random.Random(99)
    approximated = 0
    for _ in range(150):
        position = random_position(rng)
        if position is None:
            continue
        view, mines = position
        truth = brute_force(view, mines)
        for limit in (0, 1, 2):
            analysis = analyse_view(parse_view(view), mines, max_groups=limit, work=plenty())
            approximated += analysis.approximate
            for cell in analysis.safe | analysis.wrong_flags:
                assert truth[cell] == 0, (view, mines, limit, cell)
            for cell in analysis.mined:
                assert truth[cell] == 1, (view, mines, limit, cell)
            assert all(0.0 <= p <= 1.0 for p in analysis.probabilities.values())
    assert approximated > 50


def test_an_analysis_can_be_stopped_part_way() -> None:
    # The no-guess generator stops the solver at its deal's time box (issue 18 item 11):
    # reading a 1000x1000 view takes seconds before the counting's own time box starts.
    game = Game(200, 200, 6000, seed=3)
    game.reveal(100, 100)
    view = parse_view(game.view_text())
    asked: list[bool] = []

    def stop_on_second_question() -> bool:
        asked.append(True)
        return len(asked) > 1

    with pytest.raises(AnalysisStopped):
        analyse_view(view, game.mines, stop=stop_on_second_question)
    assert len(asked) == 2
    never = analyse_view(view, game.mines, stop=lambda: False)
    plain = analyse_view(view, game.mines)
    assert (never.safe, never.mined, never.probabilities) == (
        plain.safe,
        plain.mined,
        plain.probabilities,
    )


def assert_probe_agrees(text: str, mines: int, index: int) -> None:
    """``analyse_probe`` (the look-ahead's shortcut: the position's model plus the probed
    cell's constraints) tells what a full analysis of the view with each number tells."""
    from textmines.engine.solver.analysis import analyse_probe
    from textmines.engine.solver.model import build_model

    view = parse_view(text)
    base = build_model(view, mines)
    for number in range(len(view.unknown_neighbours(index)) + 1):
        probe = replace(view, text=f"{view.text[:index]}{number}{view.text[index + 1 :]}")
        try:
            full = analyse_view(probe, mines, work=plenty())
        except ValueError:
            with pytest.raises(ValueError):
                analyse_probe(view, base, index, number, plenty())
            continue
        outcome = analyse_probe(view, base, index, number, plenty())
        assert outcome.log_layouts == pytest.approx(full.log_layouts)
        assert outcome.progress == bool(full.safe)
        assert outcome.safe_cells == min(2, len(full.safe))
        if not full.safe:  # with progress the next move is safe, whatever the risks
            undecided = sorted(p for c, p in full.probabilities.items() if c not in full.mined)
            assert outcome.next_risk == pytest.approx(undecided[0] if undecided else 0.0)
            second = undecided[1] if len(undecided) > 1 else outcome.next_risk
            assert outcome.second_risk == pytest.approx(second)


@given(st.integers(0, 2**32 - 1))
def test_the_look_ahead_probe_agrees_with_a_full_analysis(seed: int) -> None:
    rng = random.Random(seed)
    position = random_position(rng, max_layouts=5_000)
    if position is not None:
        text, mines = position
        unknown = [i for i, c in enumerate(text.replace("\n", "")) if c in "#?"]
        if unknown:
            assert_probe_agrees(text, mines, rng.choice(unknown))


def test_the_probe_leaves_a_flagged_interior_out_as_the_full_analysis_does() -> None:
    # Found by review: every interior cell flagged made a risk (or progress) of its own.
    text = "####1#\n12##21\n##2###\n###2#F\n12###F\n##1#FF"
    for index, c in enumerate(text.replace("\n", "")):
        if c == "#":
            assert_probe_agrees(text, 7, index)


def test_certain_cells_keeps_the_trivially_decided_cells_apart_from_the_interior() -> None:
    from textmines.engine.solver import certain_cells

    assert certain_cells(parse_view("1###"), 1) == ({2, 3}, {1})


@given(st.integers(0, 2**32 - 1))
def test_certain_cells_of_the_numbers_agree_with_certain_cells_of_the_view(seed: int) -> None:
    # The no-guess generator hands the solver its numbers' constraints, not a view: the
    # cells it proves must be those a player looking at the view could prove.
    from textmines.engine.board import neighbour_indices
    from textmines.engine.solver import certain_cells, certain_cells_of

    position = random_position(random.Random(seed), max_layouts=10**9)
    if position is None:
        return
    text, mines = position
    view = parse_view(text)
    flat = view.text
    unknown = [i for i, c in enumerate(flat) if c in "#?F"]
    numbers = []
    for i, c in enumerate(flat):
        if c.isdigit():
            cells = [n for n in neighbour_indices(i, view.width, view.height) if n in unknown]
            if cells:
                numbers.append((cells, int(c)))
    safe, mined = certain_cells_of(numbers, lambda: unknown, len(unknown), mines)
    # A flag is the player's claim, not a number: certain_cells leaves flagged cells out of
    # the cells to open, and the generator has no flags.
    view_safe, view_mined = certain_cells(view, mines)
    flagged = {i for i in unknown if flat[i] == "F"}
    assert (safe - flagged, mined) == (view_safe, view_mined)


@pytest.mark.parametrize(
    ("view", "mines", "cell", "reason"),
    [
        # One number settles it: its mine is certain, so its other cells are safe.
        ("01#\n01#\n01#", 1, (2, 0), "the 1 to its left already touches 1 certain mine"),
        ("121\n###", 2, (1, 1), "the 1 up and to its left already touches 1 certain mine"),
        # Two numbers together (the subset rule): no single one has all its mines known.
        ("11#\n###", 1, (2, 0), "the numbers around it, taken together, leave no room"),
        # Away from the numbers, the mine counter decides.
        ("1##\n###\n###", 1, (2, 0), "the mine counter leaves no mine for the cells away"),
    ],
)
def test_a_certain_hint_says_why_the_cell_is_safe(
    view: str, mines: int, cell: Cell, reason: str
) -> None:
    found = hint(view, mines)
    assert found is not None and found.certain
    assert (found.x, found.y) == cell
    assert found.reason.startswith(reason)


@pytest.mark.slow  # ~0.35 s of CPU
@given(st.integers(0, 2**32 - 1))
def test_a_hint_prefers_a_safe_cell_one_number_explains(seed: int) -> None:
    from textmines.engine.solver.autoplay import number_reason, proven_mines, why_safe

    position = random_position(random.Random(seed))
    if position is None:
        return
    text, mines = position
    found = hint(text, mines)
    if found is None or not found.certain:
        return
    analysis = analyse(text, mines)
    view = parse_view(text)
    proven = proven_mines(analysis)
    simple = [c for c in analysis.safe if number_reason(view, proven, c) is not None]
    assert found.reason == why_safe(view, analysis, (found.x, found.y))
    assert (number_reason(view, proven, (found.x, found.y)) is not None) == bool(simple)


def test_the_end_game_never_guesses_a_flagged_cell() -> None:
    # Found by the hint's property test: the end-game search took the player's flag at (1, 2)
    # for its guess; the hint and autoplay's next move then failed in their workers (a
    # KeyError), so no hint showed and autoplay stopped moving without a word.
    view = "#####\n#####\n#F2##\n12F21\n01110\n00000"
    found = hint(view, 4)
    assert found is not None and view.splitlines()[found.y][found.x] == "#"
    move = next_move(view, 4, flag_mines=False)
    assert move is not None and view.splitlines()[move.y][move.x] == "#"


def test_a_cell_with_no_covered_neighbour_shows_nothing_new() -> None:
    # Revealing (0, 0) shows the 1's mine is at (2, 0): no cell becomes safe. The
    # look-ahead took its number (0 unknown neighbours mined) for an opening zero.
    assert progress_chance("#1#", 1, (0, 0)) == 0.0


@pytest.mark.slow  # ~0.35 s of CPU
def test_a_sealed_off_part_is_played_at_its_best_by_brute_force() -> None:
    # A part of the frontier that touches no other unknown cell and holds the same mines in
    # every layout is independent of the rest: its best cell is a best first move of the
    # whole position, as a plain game tree over every layout finds.
    from textmines.engine.solver.endgame import region_guess
    from textmines.engine.solver.model import build_model

    rng = random.Random(23)
    checked = 0
    for view, mines, _ in small_guess_positions(rng, scaled(6000), 200):
        parsed = parse_view(view)
        cell = region_guess(parsed, build_model(parsed, mines), plenty())
        if cell is None:
            continue
        wins = optimal_wins(view, mines)
        assert wins[cell] == max(wins.values()), (view, mines, cell, wins)
        checked += 1
        if checked == scaled(15):
            break
    assert checked >= scaled(15)


def test_a_part_whose_mine_count_varies_is_not_played_apart() -> None:
    from textmines.engine.solver.endgame import region_guess
    from textmines.engine.solver.model import build_model

    def guess(text: str, mines: int) -> Cell | None:
        view = parse_view(text)
        return region_guess(view, build_model(view, mines), plenty())

    assert guess("#1#", 1) in {(0, 0), (2, 0)}  # one mine in two cells, alone
    # One mine in the middle or one at each end: the part's count depends on the rest.
    assert guess("#1#1#", 2) is None
    assert guess("#1#1#" + "####", 3) is None  # and (4, 0) touches the cells beyond


def test_an_unbreakable_fifty_fifty_is_found() -> None:
    from textmines.engine.solver.guessing import pseudo_fifty_fifty
    from textmines.engine.solver.model import build_model

    # The pair on top holds one mine; the mines at the right end touch only one of the two
    # and the 3 touches both, so no number will ever tell them apart.
    view = parse_view("##*\n13*")
    found = pseudo_fifty_fifty(view, analyse("##*\n13*", 3), build_model(view, 3), plenty())
    assert sorted(found) == [(0, 0), (1, 0)]


def mirrored(block: set[int], cell: int, layouts: list[set[int]], w: int, h: int) -> bool:
    """Whether ``block`` mirrors every layout with a mine on ``cell`` (its mines moved to
    the block's other cells) into a layout too, one in which every cell outside the block
    that could be revealed shows the same number."""
    around = [set(neighbour_indices(i, w, h)) for i in range(w * h)]
    every = {frozenset(p) for p in layouts}
    for placed in (frozenset(p) for p in layouts if cell in p):
        inside = placed & block
        if 2 * len(inside) != len(block):
            return False
        mirror = (placed - block) | (block - inside)
        if mirror not in every or any(
            len(around[n] & placed) != len(around[n] & mirror)
            for n in range(w * h)
            if n not in block and n not in placed
        ):
            return False
    return True


@pytest.mark.slow  # ~0.5 s of CPU
def test_a_pseudo_fifty_fifty_loses_only_layouts_already_half_lost() -> None:
    # Each cell reported lies in a pair or a 2x2 block that mirrors every layout with a
    # mine on the cell (the block's mines moved to its other cells) into a layout with the
    # cell safe, one that every cell outside the block that could be revealed sees the same
    # number in: no play can tell the two apart before it reveals a cell of the block. By
    # brute force on small positions.
    import textmines.engine.solver.guessing as guessing
    from textmines.engine.solver.model import build_model

    rng = random.Random(29)
    found = 0
    for text, mines, analysis in small_guess_positions(rng, scaled(3000), 3_000):
        view = parse_view(text)
        cells = guessing.pseudo_fifty_fifty(view, analysis, build_model(view, mines), plenty())
        if not cells:
            continue
        w, _, layouts = brute_force_layouts(text, mines)
        h = len(text.splitlines())
        for x, y in cells:
            blocks = [
                {y * w + x, by * w + bx}
                for bx, by in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1))
                if 0 <= bx < w and 0 <= by < h
            ] + [
                {by * w + bx, by * w + bx + 1, (by + 1) * w + bx, (by + 1) * w + bx + 1}
                for bx in (x - 1, x)
                for by in (y - 1, y)
                if 0 <= bx < w - 1 and 0 <= by < h - 1
            ]
            cell = y * w + x
            assert any(mirrored(b, cell, layouts, w, h) for b in blocks), (text, (x, y))
            found += 1
    assert found >= scaled(10)


def half_lost(cell: int, layouts: list[set[int]], w: int, h: int) -> bool:
    """Whether every layout with a mine on ``cell`` can be paired, each with its own, with a
    layout where ``cell`` is safe that no safe reveal tells apart (every cell safe in both
    shows the same number): a play wins at most one layout of each pair."""
    around = [neighbour_indices(i, w, h) for i in range(w * h)]

    def numbers(placed: set[int]) -> tuple[int, ...]:
        return tuple(
            -1 if i in placed else sum(n in placed for n in around[i]) for i in range(w * h)
        )

    def alike(one: tuple[int, ...], other: tuple[int, ...]) -> bool:
        return all(a == b for a, b in zip(one, other, strict=True) if a >= 0 and b >= 0)

    mined = [numbers(p) for p in layouts if cell in p]
    clear = [numbers(p) for p in layouts if cell not in p]
    partner: dict[int, int] = {}

    def pair(i: int, tried: set[int]) -> bool:  # an augmenting path (Kuhn's matching)
        for j, other in enumerate(clear):
            if j not in tried and alike(mined[i], other):
                tried.add(j)
                if j not in partner or pair(partner[j], tried):
                    partner[j] = i
                    return True
        return False

    return all(pair(i, set()) for i in range(len(mined)))


@pytest.mark.slow  # ~0.45 s of CPU
def test_a_chained_fifty_fifty_loses_only_layouts_already_half_lost() -> None:
    # A cell reported by twin_cells is mined only in layouts paired, one to one, with
    # layouts where it is safe that no safe reveal tells apart. By brute force.
    from textmines.engine.solver.guessing import twin_cells
    from textmines.engine.solver.model import build_model

    rng = random.Random(31)
    found = 0
    for text, mines, analysis in small_guess_positions(rng, scaled(3000), 400):
        view = parse_view(text)
        cells = twin_cells(view, analysis, build_model(view, mines), plenty())
        if not cells:
            continue
        w, _, layouts = brute_force_layouts(text, mines)
        for x, y in cells:
            assert half_lost(y * w + x, layouts, w, view.height), (text, (x, y))
            found += 1
    assert found >= scaled(10)


def test_a_chain_of_links_along_a_wall_is_a_fifty_fifty() -> None:
    from textmines.engine.solver.guessing import twin_cells
    from textmines.engine.solver.model import build_model

    # Two mines: one in each pair on top, and the 1 between the pairs says one of its two
    # neighbours is a mine, so the mines are on the 1st and 4th cells or the 2nd and 5th.
    # No number will tell those apart, yet neither pair is a 50/50 alone (the top 1 touches
    # one cell of each pair).
    text = "##1##\n11111\n00000"
    view = parse_view(text)
    found = twin_cells(view, analyse(text, 2), build_model(view, 2), plenty())
    assert set(found) == {(0, 0), (1, 0), (3, 0), (4, 0)}
    # A flag is only a claim, but it is never the guess.
    flagged = "F#1##\n11111\n00000"
    view = parse_view(flagged)
    found = twin_cells(view, analyse(flagged, 2), build_model(view, 2), plenty())
    assert set(found) == {(1, 0), (3, 0), (4, 0)}


@pytest.mark.slow  # brute force: ~0.2 s of CPU
@given(st.integers(0, 2**32 - 1))
def test_what_a_mine_would_decide_matches_brute_force(seed: int) -> None:
    """With a mine assumed on a cell, the cells certainly safe and certainly mined are those
    that are so in every layout with that mine."""
    from textmines.engine.solver.analysis import decided_with
    from textmines.engine.solver.model import build_model

    rng = random.Random(seed)
    position = random_position(rng, max_layouts=5_000)
    if position is None:
        return
    text, mines = position
    _, unknown, layouts = brute_force_layouts(text, mines)
    view = parse_view(text)
    base = build_model(view, mines)
    for index in rng.sample(unknown, min(3, len(unknown))):
        with_mine = [placed for placed in layouts if index in placed]
        if not with_mine:
            with pytest.raises(ValueError):
                decided_with(view, base, [([index], 1)], plenty())
            continue
        safe, mined = decided_with(view, base, [([index], 1)], plenty())
        assert safe == {j for j in unknown if not any(j in p for p in with_mine)}
        assert mined == {j for j in unknown if all(j in p for p in with_mine)}


@pytest.mark.parametrize(
    ("text", "mines", "index"),
    [
        # Found by CI's random examples: a flagged interior cell counted as a second safe
        # cell (the flag is proven wrong, the other interior cell safe) ...
        ("00000\n11111\n#####\nF####", 4, 12),
        # ... and as a second risk beside the one unflagged interior cell.
        ("##F#\n####\nF#3#", 4, 1),
    ],
)
def test_a_flagged_interior_cell_is_neither_a_safe_cell_nor_a_risk_in_the_probe(
    text: str, mines: int, index: int
) -> None:
    assert_probe_agrees(text, mines, index)


def test_after_a_lone_1_in_the_corner_the_second_click_is_the_far_corner_of_its_edge() -> None:
    # Expert seed 2, a safe first click at (0, 0): the corner shows a 1 and nothing else.
    game = Game(30, 16, 99, seed=2, first_click="safe")
    game.reveal(0, 0)
    view = game.view_text()
    assert view.splitlines()[0][:2] == "1#"
    analysis = analyse(view, 99)
    assert not analysis.safe
    assert best_guess(view, analysis) == (29, 0)
    # The same position seen from the other corners: the far corner of the same edge.
    for flip_x, flip_y, far in (
        (True, False, (0, 0)),
        (False, True, (29, 15)),
        (True, True, (0, 15)),
    ):
        rows = [row[::-1] if flip_x else row for row in view.splitlines()]
        flipped = "\n".join(rows[::-1] if flip_y else rows)
        assert best_guess(flipped, analyse(flipped, 99)) == far
