"""The status line: key hints on the left; progress or the end-of-game message on the right."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from textmines.ui.colours import PieceStyle
from textmines.ui.line import OneLineWidget, Piece, fit

HINTS = "Space open · F flag · N new · P pause · F1 help · F10 menu"


class StatusLine(OneLineWidget):
    """Hints (cut with an ellipsis when the row is short) and the game's progress."""

    DEFAULT_CSS: ClassVar[str] = """
    StatusLine { dock: bottom; height: 1; background: $panel; }
    """
    PIECE_STYLES: ClassVar[Mapping[str, PieceStyle]] = {
        "hints": PieceStyle(color="text-muted"),
        "won": PieceStyle(color="success", bold=True),
        "lost": PieceStyle(color="error", bold=True),
    }

    def __init__(
        self,
        hints: str = HINTS,
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.hints = hints
        self.text = ""
        self.outcome = ""

    def show(self, text: str, outcome: str = "") -> None:
        """Show progress, or the end message with ``outcome`` ``won``/``lost``."""
        if (text, outcome) != (self.text, self.outcome):
            self.text, self.outcome = text, outcome
            self.refresh()

    def left(self, width: int) -> list[Piece]:
        return [(fit(self.hints, width), "hints")]

    def right(self, width: int) -> list[Piece]:
        if not self.text or width < 3:
            return []
        return [(f" {fit(self.text, width - 2)} ", self.outcome or None)]
