"""A game to and from its saved form: a JSON-able dict that resumes it exactly.

The dict holds the board's rules, its layout (null before the first reveal: the seed deals
it again), every action with its time, the clock and, as a check, the player's view. A game is
rebuilt by taking its actions again on its layout, so a save can never hold a position the
rules do not reach. The format is fixed (``SAVE_FORMAT``, ``SAVE_VERSION``): old saves must
keep loading, and the same game must always be written the same.
"""

from __future__ import annotations

import time
from typing import Any, Final

from textmines.engine.actions import ActionKind
from textmines.engine.board import Board
from textmines.engine.clock import Clock
from textmines.engine.game import Action, Game
from textmines.engine.presets import check_first_click

SAVE_FORMAT: Final = "textmines-game"
SAVE_VERSION: Final = 1

#: How each kind is written in a save (one letter).
_KIND_CODES: Final = {
    ActionKind.REVEAL: "r",
    ActionKind.MARK: "m",
    ActionKind.FLAG: "f",
    ActionKind.CHORD: "c",
    ActionKind.QUESTION_MARKS: "q",
    ActionKind.CURSOR: "p",
    ActionKind.PRESS: "d",
    # Only in a game replayed from another program's file (see ``ActionKind``).
    ActionKind.LEFT_OFF_BOARD: "l",
    ActionKind.RIGHT_OFF_BOARD: "g",
}
_CODE_KINDS: Final = {code: kind for kind, code in _KIND_CODES.items()}


def game_to_dict(game: Game) -> dict[str, Any]:
    """The whole game as a JSON-able dict; ``game_from_dict`` restores it exactly."""
    board = game.board
    return {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "width": game.width,
        "height": game.height,
        "mines": game.mines,
        "seed": game.seed,
        "first_click": game.first_click,
        "question_marks": game.question_marks,
        "question_marks_at_start": game.question_marks_at_start,
        "no_guess": game.no_guess,
        "no_guess_failed": game.no_guess_failed,
        "layout": board.to_text() if board is not None else None,
        "actions": [[_KIND_CODES[a.kind], a.x, a.y, a.t_ms] for a in game.actions],
        "elapsed_ms": game.elapsed_ms,
        "view": game.view_text(),
    }


def game_from_dict(data: Any, *, clock: Clock = time.monotonic) -> Game:
    """Rebuild a game saved by ``game_to_dict`` by replaying its actions on its layout.

    Raises ``ValueError`` naming the problem if ``data`` is not a valid saved game.
    """
    try:
        return _game_from_dict(data, clock)
    except ValueError as error:
        raise ValueError(f"not a valid saved game: {error}") from None


def _game_from_dict(data: Any, clock: Clock) -> Game:
    _check_save_header(data)
    width = _field(data, "width", int)
    height = _field(data, "height", int)
    mines = _field(data, "mines", int)
    seed = data.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise ValueError("'seed' must be a whole number or null")
    first_click = _field(data, "first_click", str)
    question_marks = _field(data, "question_marks", bool)
    question_marks_at_start = _field(data, "question_marks_at_start", bool)
    layout = data.get("layout")
    actions = _field(data, "actions", list)
    elapsed_ms = _field(data, "elapsed_ms", int)
    view = _field(data, "view", str)
    # Saves written before no-guess mode existed have neither key.
    no_guess = _field(data, "no_guess", bool) if "no_guess" in data else False
    no_guess_failed = _field(data, "no_guess_failed", bool) if "no_guess_failed" in data else False

    if layout is None:
        if seed is None:
            raise ValueError("a game without a layout needs a seed")
        game = Game(
            width,
            height,
            mines,
            seed=seed,
            first_click=first_click,
            question_marks=question_marks_at_start,
            clock=clock,
            no_guess=no_guess,
        )
    else:
        if not isinstance(layout, str):
            raise ValueError("'layout' must be board text or null")
        board = Board.from_text(layout)
        if (board.width, board.height, board.mine_count) != (width, height, mines):
            raise ValueError("'layout' does not match 'width', 'height' and 'mines'")
        game = Game.from_board(board, question_marks=question_marks_at_start, clock=clock)
        game.seed = seed
        game.first_click = check_first_click(first_click)
        # The layout makes the replay exact: no generation runs again.
        game.no_guess = no_guess
        game.no_guess_failed = no_guess_failed
    _replay(game, actions, question_marks)
    taken = game.actions
    if elapsed_ms < 0 or (taken and elapsed_ms < taken[-1].t_ms):
        raise ValueError("'elapsed_ms' is earlier than the last action")
    if game.view_text() != view:
        raise ValueError("replaying 'actions' does not give the saved 'view'")
    game.clock.set_elapsed(elapsed_ms)
    return game


def _replay(game: Game, actions: list[Any], question_marks: bool) -> None:
    """Take the saved ``actions`` again on the new ``game``; it ends with ``question_marks``.
    Their times must be 0 or more and in order (the engine checks the order); the saved
    ``elapsed_ms`` bounds them (``_game_from_dict``)."""
    for number, entry in enumerate(actions, 1):
        if (
            not isinstance(entry, list)
            or len(entry) != 4
            or entry[0] not in _CODE_KINDS
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in entry[1:])
        ):
            raise ValueError(f"action {number} must be [kind, x, y, t_ms], not {entry!r}")
        if entry[3] < 0:
            # The engine takes it, in order; the game's recording cannot (its times count
            # up from 0), and the game's end crashed: refused here, with the save.
            raise ValueError(f"action {number} has a negative time ({entry[3]} ms)")
        game.replay_action(Action(_CODE_KINDS[entry[0]], *entry[1:]))
    # Once the game is over the option may change without being recorded.
    if game.question_marks != question_marks and not game.status.is_over:
        raise ValueError("'question_marks' does not match the recorded option changes")
    game.question_marks = question_marks  # recorded by now, or over: nothing is recorded


def _check_save_header(data: Any) -> None:
    """A saved game is a dict in this build's format and version."""
    if not isinstance(data, dict):
        raise ValueError(f"expected a dict, got {type(data).__name__}")
    if data.get("format") != SAVE_FORMAT:
        raise ValueError(f"'format' must be {SAVE_FORMAT!r}")
    if data.get("version") != SAVE_VERSION:
        raise ValueError(
            f"unsupported version {data.get('version')!r} (this build reads {SAVE_VERSION})"
        )


def _field(data: dict[str, Any], key: str, kind: type) -> Any:
    value = data.get(key)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ValueError(f"{key!r} must be of type {kind.__name__}, not {value!r}")
    return value


__all__ = ["SAVE_FORMAT", "SAVE_VERSION", "game_from_dict", "game_to_dict"]
