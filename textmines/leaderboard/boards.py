"""The boards a host deals for a leaderboard: the day's daily board, or a fresh Expert,
Intermediate or Beginner board. Each is a board ID (``engine/board_id.py``): the mines and the
first click, made by the host in the middle (an opening, as the daily board's), so that every
player of a board starts from the same position and the host knows the board before any
move is made. A player never chooses the seed: no seed shopping."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import date
from typing import Final, Literal

from textmines.engine.board_id import BoardId
from textmines.engine.daily import daily_board
from textmines.engine.game import Game
from textmines.engine.presets import PRESETS

BoardKind = Literal["daily", "beginner", "intermediate", "expert"]
#: Every kind of board a leaderboard ranks.
BOARD_KINDS: Final[tuple[BoardKind, ...]] = ("daily", "beginner", "intermediate", "expert")


def kind_named(text: str) -> BoardKind:
    """The board kind ``text`` names; ``ValueError`` when it names none."""
    for kind in BOARD_KINDS:
        if kind == text:
            return kind
    raise ValueError(f"no leaderboard for {text!r}: one of {', '.join(BOARD_KINDS)}")


@dataclass(frozen=True, slots=True)
class Dealt:
    """A board dealt for one challenge: its kind, the board (with its first click made) and,
    for the daily board, its day."""

    kind: BoardKind
    board: BoardId
    day: date | None = None

    @property
    def board_id(self) -> str:
        return self.board.text()


def deal(kind: BoardKind, today: date, *, seed: int | None = None) -> Dealt:
    """A board of ``kind``: ``today``'s daily board, or a preset's board from ``seed`` (a
    fresh random one unless given: tests give one)."""
    if kind == "daily":
        return Dealt(kind, daily_board(today), today)
    width, height, mines = PRESETS[kind_named(kind)].size  # kind_named refuses any other
    first = (width // 2, height // 2)
    game = Game(
        width,
        height,
        mines,
        seed=secrets.randbits(63) if seed is None else seed,
        first_click="opening",
    )
    game.reveal(*first)
    assert game.board is not None  # the reveal deals it
    return Dealt(kind, BoardId(game.board, first, "opening"))
