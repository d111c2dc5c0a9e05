"""The pure-Python Minesweeper engine. Never imports Textual, Rich or sqlite3."""

from textmines.engine.actions import ActionKind
from textmines.engine.board import Board
from textmines.engine.game import Action, Change, Game, Status
from textmines.engine.presets import BEGINNER, EXPERT, INTERMEDIATE, PRESETS, Preset

__all__ = [
    "BEGINNER",
    "EXPERT",
    "INTERMEDIATE",
    "PRESETS",
    "Action",
    "ActionKind",
    "Board",
    "Change",
    "Game",
    "Preset",
    "Status",
]
