"""The daily board: one Expert board per calendar day (UTC), the same for everyone, that can be
cleared without guessing, its first click (the middle cell) already made.

The board follows from the date alone: the seed is a hash of it, the no-guess generator deals
from the middle cell, and the result is a board ID (``board_id.py``), so a player who shares
today's ID shares today's board.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import TYPE_CHECKING, Final

from textmines.engine.game import Game
from textmines.engine.presets import PRESETS

if TYPE_CHECKING:
    from textmines.engine.board_id import BoardId

#: The size of every daily board, and the first click made on it.
SIZE: Final = PRESETS["expert"].size
FIRST: Final = (SIZE[0] // 2, SIZE[1] // 2)


def daily_day(moment: datetime) -> date:
    """The day a daily board started at ``moment`` belongs to: the UTC date, wherever the
    player is (naive times are local, as in Python)."""
    return moment.astimezone(UTC).date()


def daily_seed(day: date) -> int:
    """The seed of ``day``'s board: the first 8 bytes of a SHA-256 of the date."""
    import hashlib  # here: the app imports this module at start, but deals a daily board rarely

    digest = hashlib.sha256(f"textmines daily {day.isoformat()}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def daily_board(day: date) -> BoardId:
    """``day``'s board, its first click made in the middle."""
    from textmines.engine.board_id import BoardId  # here: the app needs daily_day at start, not IDs

    width, height, mines = SIZE
    game = Game(width, height, mines, seed=daily_seed(day), first_click="opening", no_guess=True)
    game.reveal(*FIRST)
    board = game.board
    assert board is not None  # the reveal deals it
    return BoardId(board, FIRST, "opening", no_guess=True)
