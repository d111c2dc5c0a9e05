"""The status line: key hints on the left; what is on and the game's progress on the right."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from textmines.store.stats import Outcome
from textmines.ui.drawing.colours import PieceStyle
from textmines.ui.drawing.line import OneLineWidget, Piece, fit_entries, fit_words
from textmines.ui.keys.keymap import Hint

#: Key hints, most useful first: a short row drops whole entries from the end. Each names the
#: player's key for its action (``keymap.hint_texts``); with the default keys they read
#: "Space open", "f flag", ... Letters as they are typed: Shift+F is not the flag key.
HINTS: tuple[Hint, ...] = (
    ("board.open", "space", "open"),
    ("board.mark", "f", "flag"),
    ("game.new_game", "n", "new"),
    ("game.pause", "p", "pause"),
    ("app.help", "f1", "help"),
    ("app.menu", "f10", "menu"),
)
#: Once a game is over the board takes no moves: what the player can do next.
GAME_OVER_HINTS: tuple[Hint, ...] = (
    ("game.new_game", "n", "new"),
    ("game.restart", "r", "restart"),
    ("game.watch_replay", "w", "replay"),
    ("game.board_info", "b", "board ID"),
    ("app.help", "f1", "help"),
    ("app.menu", "f10", "menu"),
)

#: On a touch screen (``--touch``) the hints are the page's taps (textmines/web/page/page.js):
#: a tap is a left click, a press held half a second a right click (and in the page's flag
#: mode a tap is one too); the face is a button.
TOUCH_HINTS: tuple[str, ...] = ("tap to open", "long press to flag", "tap the face: new game")
#: ... with Options > Swap mouse buttons on, as a left click flags and a right click opens.
SWAPPED_TOUCH_HINTS: tuple[str, ...] = (
    "tap to flag",
    "long press to open",
    "tap the face: new game",
)
TOUCH_GAME_OVER_HINTS: tuple[str, ...] = ("tap the face: new game", "Game menu: restart, replay")


class StatusLine(OneLineWidget):
    """Hints, the modes that are on (no-guess, autoplay, assisted) and the game's progress or
    end message.

    The right side wins the room: the hints give way first, whole entries at a time, then the
    progress text, whole words at a time (the end-of-game message is the progress text then).
    A word is never cut.
    """

    DEFAULT_CSS: ClassVar[str] = """
    StatusLine { dock: bottom; height: 1; background: $panel; }
    """
    PIECE_STYLES: ClassVar[Mapping[str, PieceStyle]] = {
        "hints": PieceStyle(color="text-muted"),
        "mode": PieceStyle(color="text-accent", bold=True),
        # The end message, by the game's outcome.
        Outcome.WON: PieceStyle(color="success", bold=True),
        Outcome.LOST: PieceStyle(color="error", bold=True),
    }

    def __init__(
        self,
        hints: Sequence[str] = (),
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.hints = tuple(hints)
        self.text = ""
        self.outcome: Outcome | None = None
        self.modes: tuple[str, ...] = ()

    def set_hints(self, hints: Sequence[str]) -> None:
        """Show these key hints (whole entries, as many as fit)."""
        if tuple(hints) != self.hints:
            self.hints = tuple(hints)
            self.refresh()

    def show(self, text: str, outcome: Outcome | None = None) -> None:
        """Show progress, or the end message of a game won or lost (``outcome``)."""
        if (text, outcome) != (self.text, self.outcome):
            self.text, self.outcome = text, outcome
            self.refresh()

    def show_modes(self, modes: Sequence[str]) -> None:
        """Name what is on (``No-guess``, ``Autoplay 0.25 s``, ``Assisted``)."""
        if tuple(modes) != self.modes:
            self.modes = tuple(modes)
            self.refresh()

    def left(self, width: int) -> list[Piece]:
        # Two columns kept clear before the right side, so the two never run together.
        return [(fit_entries(self.hints, width - 2), "hints")]

    def right(self, width: int) -> list[Piece]:
        pieces: list[Piece] = []
        room = width
        for mode in self.modes:
            piece = f" [{mode}]"
            if len(piece) > room:
                break
            pieces.append((piece, "mode"))
            room -= len(piece)
        text = fit_words(self.text, room - 2)
        if text:
            pieces.append((f" {text} ", self.outcome))
        return pieces
