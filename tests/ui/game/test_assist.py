"""The solver in the game: hint, probability overlay, autoplay and no-guess boards."""

from __future__ import annotations

import math
from itertools import pairwise
from pathlib import Path

import pytest
from textual.pilot import Pilot

from tests.helpers import BUNDLED_THEMES, FakeClock, Play, new_stats, settle, wait_until
from textmines.config import GameConfig
from textmines.engine import Game
from textmines.engine.presets import PRESETS
from textmines.store.settings import load_settings
from textmines.store.stats import Group
from textmines.ui.app import TextminesApp
from textmines.ui.board.board_view import BoardView, overlay_label


async def test_hint_points_at_a_safe_cell_and_marks_the_game_assisted(play: Play) -> None:
    app, pilot = await play()
    await pilot.press("space")
    assert not app.session.assisted
    await pilot.press("i")
    await settle(pilot)
    board = app.query_one(BoardView)
    assert board.hint is not None and board.cursor == board.hint
    x, y = board.hint
    assert app.game.board is not None and not app.game.board.is_mine(x, y)
    assert app.session.assisted
    said = [n.message for n in app.toasts if n.title == "Hint"]
    # Why, in words: the number that settles it, or what does.
    assert said and said[-1].startswith("This cell is safe: the ")
    await pilot.press("space")  # take the hint
    assert app.game.is_revealed(x, y) and board.hint is None


async def test_no_hint_nor_overlay_about_a_hidden_board(play: Play) -> None:
    # Found by a player: with the board hidden by P, I still gave a hint ("This cell is
    # safe") and O turned the overlay on.
    app, pilot = await play()
    await pilot.press("space", "p")
    await settle(pilot)
    assert app.game.clock.paused
    await pilot.press("i", "o")
    await settle(pilot)
    board = app.query_one(BoardView)
    assert board.hint is None and not app.assist.overlay_on and not app.session.assisted
    said = [n.message for n in app.toasts]
    assert said and said[-1].startswith("The game is paused: press p to play on")
    await pilot.press("p", "i")  # resumed: the hint is there again
    await settle(pilot)
    assert board.hint is not None and app.session.assisted


def test_overlay_labels() -> None:
    # Never a bare digit, which would read as a revealed number (issue 12).
    assert [overlay_label(p, 2) for p in (0, 1, 23, 50, 99, 100)] == [
        " 0",
        "~1",
        "~2",
        "~5",
        "~9",
        " *",
    ]
    assert [overlay_label(p, 3) for p in (0, 7, 23, 100)] == ["  0", " 7%", " 23", "  *"]
    assert [overlay_label(p, 4) for p in (23, 100)] == [" 23%", "   *"]
    # Zoomed, a two-column theme's labels sit where its numbers do (" 1 " in three columns).
    assert [overlay_label(p, 3, 2) for p in (0, 7, 23, 100)] == [" 0 ", "7% ", "23 ", " * "]
    assert [overlay_label(p, 4, 2) for p in (0, 23, 100)] == ["  0 ", "23% ", "  * "]


@pytest.mark.parametrize("theme", BUNDLED_THEMES)
def test_the_overlay_colours_tell_low_odds_apart(theme: str) -> None:
    """Issue 46.16a: 0% and 20% were one dark green (a straight blend of the theme's success
    and error colours barely moves at first, and a 256-colour terminal showed both as the same
    colour); the ASCII theme's ANSI colours, which do not blend, made every cell red, the
    certainly safe ones too. Each step a player reads (0%, 10%, 20%, 50%, 100%) is a colour of
    its own, in true colour and in 256 colours."""
    from rich.color import ColorSystem
    from textual.color import Color, rgb_to_lab

    from textmines.themes.textual_theme import to_textual_theme
    from textmines.ui.app import bundled_themes
    from textmines.ui.board.looks import heat_styles

    variables = to_textual_theme(bundled_themes()[theme]).to_color_system().generate()
    heat = heat_styles(variables)
    steps = (0, 10, 20, 50, 100)
    backgrounds = [heat[percent].bgcolor for percent in steps]
    assert all(background is not None for background in backgrounds)
    if theme == "ascii":  # the terminal's own colours: safe, a risk, a mine
        assert len({heat[percent].bgcolor for percent in (0, 20, 100)}) == 3
        return
    colours = [Color.from_rich_color(background) for background in backgrounds]
    for (low, lower), (high, higher) in pairwise(zip(steps, colours, strict=True)):
        # CIE76: about 10 apart is a difference anyone sees at a glance.
        apart = math.dist(rgb_to_lab(lower), rgb_to_lab(higher))
        assert apart >= 10, f"{low}% {lower.hex} and {high}% {higher.hex} are {apart:.1f} apart"
    in_256 = [
        heat[percent].bgcolor.downgrade(ColorSystem.EIGHT_BIT) for percent in (0, 20, 50, 100)
    ]  # type: ignore[union-attr]
    assert len(set(in_256)) == 4, in_256


async def test_overlay_shows_probabilities_after_every_move_and_hides(play: Play) -> None:
    app, pilot = await play()
    await pilot.press("space", "o")
    await settle(pilot)
    board = app.query_one(BoardView)
    overlay = board.overlay
    assert overlay is not None and app.session.assisted
    covered = {(x, y) for y in range(9) for x in range(9) if app.game.cell(x, y) == "#"}
    assert set(overlay) == covered
    assert overlay[(2, 0)] == 1.0  # (2, 0) is certainly a mine next to the 1 at (3, 0)
    row = board.render_line(0 - int(board.scroll_offset.y)).text
    assert "*" in row  # a certain mine shows as *
    await pilot.press("left", "left", "left", "f")  # a move: recomputed
    await settle(pilot)
    assert board.overlay is not None and (1, 4) not in board.overlay
    await pilot.press("o")
    assert board.overlay is None


@pytest.mark.slow
async def test_autoplay_plays_to_the_end_and_stops_on_request(play: Play) -> None:
    app, pilot = await play(width=16, height=16, mines=40)
    app.assist.delay = 5.0  # slow at first: one move, then a long wait
    await pilot.press("a")
    await settle(pilot)
    assert app.session.assisted and app.assist.autoplaying
    assert [action.kind for action in app.game.actions] == ["reveal"]
    app.assist.delay = 0.02
    await app.game_screen.run_action("autoplay_pace(0)")  # the next step comes at the new pace
    app.assist_control.autoplay_step()
    await wait_until(pilot, lambda: app.game.status.is_over, "the autoplay to end")
    assert app.game.status in ("won", "lost")
    assert not app.assist.autoplaying

    await pilot.press("n", "a")
    await wait_until(pilot, lambda: len(app.game.actions) >= 2, "two autoplay moves")
    await pilot.press("a")  # stop
    await settle(pilot)
    actions = len(app.game.actions)
    for _ in range(5):  # five autoplay paces: a move would have come by now
        await pilot.pause(app.assist.delay)
    assert not app.assist.autoplaying
    assert len(app.game.actions) == actions  # not one more move after the request


async def test_autoplay_paces_are_round_numbers_and_the_notice_names_the_keys(play: Play) -> None:
    app, pilot = await play()
    app.assist.delay = 60.0  # the first move only, so the game stays in play
    await pilot.press("a")
    await settle(pilot)
    assert [n.message for n in app.toasts][-1] == (
        "Autoplay on: a stops it, > and < change the pace."
    )
    shown = []
    for key in ["less_than_sign"] * 4 + ["greater_than_sign"] * 8:
        await pilot.press(key)
        shown.append(next(m for m in app.status_line.modes if m.startswith("Autoplay")))
    assert shown == [
        *("Autoplay 2 s", "Autoplay 2 s", "Autoplay 2 s", "Autoplay 2 s"),
        *("Autoplay 1 s", "Autoplay 0.5 s", "Autoplay 0.25 s", "Autoplay 0.1 s"),
        *("Autoplay 0.05 s", "Autoplay 0.02 s", "Autoplay 0.02 s", "Autoplay 0.02 s"),
    ]
    await pilot.press("a")


async def test_the_pace_keys_say_what_they_did_while_autoplay_is_off(play: Play) -> None:
    app, pilot = await play()
    await pilot.press("less_than_sign")
    await pilot.pause()
    assert [n.message for n in app.toasts] == [
        "Autoplay will make a move every 0.5 s when autoplay starts (a)."
    ]
    assert not app.assist.autoplaying and not app.session.assisted
    await pilot.press("a")
    await settle(pilot)
    assert "Autoplay 0.5 s" in app.status_line.modes
    await pilot.press("a")


async def test_no_guess_option_is_kept_and_applies_to_the_next_game(
    tmp_path: Path, play: Play
) -> None:
    settings_file = tmp_path / "settings.toml"
    app = TextminesApp(GameConfig(seed=1), clock=FakeClock(), settings_path=settings_file)
    pilot = await play.run(app)
    await app.game_screen.run_action("toggle_no_guess")
    assert not app.game.no_guess  # this game was dealt already
    await pilot.press("n", "space")
    assert app.game.no_guess and app.game.status == "playing"
    await play.close()
    assert load_settings(settings_file)[0].no_guess


async def test_an_assisted_win_never_becomes_a_best_time(tmp_path: Path, play: Play) -> None:
    store = new_stats(tmp_path)
    app = TextminesApp(GameConfig(seed=1), clock=FakeClock(), stats=store)
    pilot = await play.run(app)
    app.assist.delay = 0.02
    await pilot.press("space", "i")
    await settle(pilot)
    await pilot.press("a")
    await wait_until(pilot, lambda: app.game.status.is_over, "the autoplay to end")
    assert app.game.status == "won"
    assert "Assisted" in app.status_line.modes, "said once, in the modes"
    assert "assisted" not in app.status_line.text and "best" not in app.status_line.text
    await play.close()
    stats = store.group_stats(Group.for_board(*PRESETS["beginner"].size))
    assert (stats.won, stats.assisted, tuple(stats.best_times)) == (1, 1, ())


async def test_two_column_overlay_cells_stay_apart(play: Play) -> None:
    """At 2x1 the heat colour covers the label's digit only: the tilde column keeps the
    covered cell's background, so the cells never run into one wall of colour."""
    from textmines.ui.board.tiles import Tile

    app, pilot = await play(width=16, height=16, mines=40, size=(80, 24))
    await pilot.press("space", "o")
    await settle(pilot)
    board = app.query_one(BoardView)
    board.set_tile(Tile(2, 1))
    await pilot.pause()
    overlay = board.overlay
    assert overlay is not None
    y = next(y for y in range(16) if overlay.get((0, y), 1.0) not in (0.0, 1.0))
    segments = list(board.render_line(y - int(board.scroll_offset.y)))
    cells: list[tuple[str, object]] = [
        (char, segment.style.bgcolor if segment.style else None)
        for segment in segments
        for char in segment.text
    ]
    (tilde, tilde_bg), (digit, digit_bg) = cells[0], cells[1]
    assert tilde == "~" and digit.isdigit(), "".join(c for c, _ in cells)
    assert tilde_bg != digit_bg


@pytest.mark.parametrize(("tile", "label"), [((4, 2), "~"), ((6, 3), "%")])
async def test_overlay_labels_fit_between_the_edges_of_a_tall_tile(
    tile: tuple[int, int], label: str, play: Play
) -> None:
    # Issue 34.20: at 4x2 the percentages ran over the tiles' edges into one another
    # (`17%17%17%`); a raised tile has its width less its two edges for a label.
    from textmines.ui.board.tiles import Tile

    app, pilot = await play(width=16, height=16, mines=40, size=(120, 40))
    await pilot.press("space", "o")
    await settle(pilot)
    board = app.query_one(BoardView)
    board.set_tile(Tile(*tile))
    await pilot.pause()
    overlay = board.overlay
    assert overlay is not None
    cols, rows = tile
    y = next(y for y in range(16) if overlay.get((0, y), 1.0) not in (0.0, 1.0))
    line = board.render_line(y * rows + (rows - 1) // 2 - int(board.scroll_offset.y)).text
    face = line[1 : cols - 1]  # the first cell, between its edges
    assert label in face and line[0] not in "~%0123456789", line[: cols * 3]
    assert line[cols - 1] not in "~%0123456789", line[: cols * 3]


async def test_a_solver_error_is_said_and_the_game_plays_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, play: Play
) -> None:
    # A bug in the solver used to vanish with its worker: no hint, autoplay silently stuck.
    import textmines.engine.solver as solver

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(solver, "hint", broken)
    monkeypatch.setattr(solver, "next_reveals", broken)
    log = tmp_path / "crash.log"
    app, pilot = await play(crash_log=log)
    await pilot.press("space", "i")
    await settle(pilot)
    said = [n.message for n in app.toasts]
    assert said[-1] == (
        f"The solver failed on this position (RuntimeError); the game plays on. "
        f"The details are in {log}."
    )
    assert "RuntimeError: a bug" in log.read_text()
    await pilot.press("a")
    await settle(pilot)
    assert not app.assist.autoplaying
    monkeypatch.setattr(solver, "analyse", broken)
    await pilot.press("o")
    await settle(pilot)
    assert not app.assist.overlay_on and app.board.overlay is None  # not failing on every move
    await pilot.press("right", "space")  # the game plays on
    assert app.game.status != "ready"


@pytest.mark.slow
@pytest.mark.parametrize(("pace", "batched"), [(1, False), (0, True)])
async def test_at_the_fastest_pace_autoplay_opens_every_certain_cell_at_once(
    pace: int, batched: bool, play: Play
) -> None:
    from textmines.ui.game.assist import AUTOPLAY_PACES

    app, pilot = await play(width=16, height=16, mines=30, seed=4)
    thoughts: list[Game] = []
    think = app.assist.think

    def counted(game: Game) -> None:
        thoughts.append(game)
        think(game)

    app.assist.think = counted  # type: ignore[method-assign]
    app.assist.delay = AUTOPLAY_PACES[pace]
    await pilot.press("a")
    await wait_until(pilot, lambda: not app.assist.autoplaying, "the autoplay to end", 60)
    reveals = sum(action.kind == "reveal" for action in app.game.actions)
    assert app.game.status.is_over
    # Each step reveals one cell, or at the fastest pace every certain one.
    assert (reveals > len(thoughts)) == batched
    assert reveals >= len(thoughts) - 1  # the last step may find the game over


@pytest.mark.parametrize(
    ("rule", "said"), [("opening", "opens an area around it."), ("safe", "mine.")]
)
async def test_a_hint_before_the_first_click_says_any_cell_is_safe(
    rule: str, said: str, play: Play
) -> None:
    app, pilot = await play(first_click=rule)
    for key, title in (("i", "Hint"), ("o", "Probabilities")):
        await pilot.press(key)
        await settle(pilot)
        hints = [n.message for n in app.toasts if n.title == title]
        assert hints and hints[-1].startswith("Any cell is safe: the first click never hits")
        assert hints[-1].endswith(said)
    # No help given: the game keeps its records, the overlay waits for the first click.
    assert not app.session.assisted and app.query_one(BoardView).overlay is None
    await pilot.press("space")
    await settle(pilot)
    assert app.query_one(BoardView).overlay is not None and app.session.assisted


async def test_autoplay_only_reveals(play: Play) -> None:
    app, pilot = await play(width=16, height=16, mines=40, seed=3)
    app.assist.delay = 0.01
    await pilot.press("a")
    await wait_until(pilot, lambda: app.game.status.is_over, "the autoplay to end")
    kinds = {action.kind for action in app.game.actions}
    assert kinds - {"cursor"} == {"reveal"}  # the cursor's path is in the recording too


async def wait_for_deal(pilot: Pilot[None]) -> None:
    from textmines.ui.screens.dealing import DealingScreen

    def dealt() -> bool:
        return not isinstance(pilot.app.screen, DealingScreen)

    await wait_until(pilot, dealt, "the deal to finish", 15)


@pytest.mark.slow
async def test_a_slow_no_guess_deal_keeps_the_screen_alive_and_can_be_cancelled(play: Play) -> None:
    from textual.widgets import ProgressBar

    from textmines.ui.screens.dealing import DealingScreen

    # 30% mines on 100x100: the deal runs to its work budget, 10 s here (at 20%: 0.3 s).
    app, pilot = await play(width=100, height=100, mines=3000, no_guess=True, size=(100, 35))
    await pilot.press("space")
    screen = app.screen
    assert isinstance(screen, DealingScreen)
    await wait_until(pilot, lambda: not screen.has_class("-hidden"), "the dealing box")
    assert screen.query_one(ProgressBar).progress > 0  # repainted while the worker deals
    assert "Out of budget" in str(screen.query_one("#detail").render())
    await pilot.press("escape")
    await wait_for_deal(pilot)
    assert app.game.status == "ready" and app.game.board is None
    assert any("deal cancelled" in n.message for n in app.toasts)
    await pilot.press("n")  # the game is playable: a new board, and another try
    await pilot.pause()
    assert app.game.status == "ready"


async def test_a_no_guess_deal_ends_in_the_first_reveal(play: Play) -> None:
    app, pilot = await play(width=30, height=16, mines=99, no_guess=True, size=(100, 30))
    await pilot.press("space")
    await wait_for_deal(pilot)
    game = app.game
    assert game.status == "playing" and not game.no_guess_failed
    assert game.is_revealed(15, 8)
    assert app.header.mines_left == 99


@pytest.mark.slow
async def test_autoplay_waits_for_a_no_guess_deal(play: Play) -> None:
    app, pilot = await play(width=16, height=16, mines=40, no_guess=True, size=(100, 30))
    # The fastest pace, then autoplay from the first move.
    await pilot.press(*["greater_than_sign"] * 4, "a")
    # Generous: the whole suite runs beside it on two cores.
    await wait_until(pilot, lambda: app.game.status.is_over, "the autoplay to end", 60)
    assert app.game.status == "won", "a no-guess board is won by autoplay alone"
