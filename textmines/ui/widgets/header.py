"""The header: mine counter, smiley (new game) and timer: one row of plain digits and the
theme's text face, or three rows with seven-segment LED digits and the face drawn as a picture
on a raised button when the board is zoomed to tall tiles (``led``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from rich.cells import cell_len
from textual import events
from textual.message import Message
from textual.reactive import reactive

from textmines.store.stats import GameShape
from textmines.themes import FACE_WIDTH
from textmines.ui.board.tiles import Tile
from textmines.ui.drawing.colours import PieceStyle
from textmines.ui.drawing.line import OneLineWidget, Piece, pieces_width
from textmines.ui.widgets.face import FACE_COLUMNS, FACE_STYLES, face_row
from textmines.ui.widgets.led import LED_ROWS, LED_STYLES, led_row, led_width

FACES: dict[str, str] = {"normal": ":)", "pressed": ":O", "won": "B)", "lost": "X("}

#: Columns of each plain counter (the one-row header, whose text face takes FACE_WIDTH
#: columns, which themes are checked against).
DIGITS_WIDTH = 5
#: Columns between the panel's edge and the counter (and the timer).
EDGE_INSET = 1


def led_columns(digits: int) -> int:
    """Columns a header needs to show two ``digits``-digit LED displays and the face's button
    with a column between them at least (Beginner's 4x2 board is that wide exactly)."""
    display = led_width("8" * digits) + 2  # a column of the display's background each side
    return 2 * (EDGE_INSET + display + 1) + FACE_COLUMNS


def digits_for(mines: int) -> int:
    """Digits of the mine counter of a board of ``mines``: three, as the classic game's, or as
    many as the count has."""
    return max(3, len(str(mines)))


def one_row_columns(mines: int) -> int:
    """Columns the one-row header needs for the counter of a board of ``mines``, the face and
    the timer (999 at most), a column apart and a column in from the panel's edges."""
    return 2 * EDGE_INSET + digits_for(mines) + 1 + FACE_WIDTH + 1 + 3


def led_fits(game: GameShape, tile: Tile, room: tuple[int, int]) -> bool:
    """Whether a header over ``game``'s board drawn in ``tile``s, in ``room`` (columns, rows
    for the board and its header), has the room for LED digits: two rows to spare, and the
    width of the two displays and the face."""
    board_columns = game.width * tile.cols + 2  # and the board's sunken edges
    return game.height * tile.rows + LED_ROWS - 1 <= room[1] and board_columns >= led_columns(
        digits_for(game.mines)
    )


def format_counter(value: int, digits: int = 3) -> str:
    """``digits`` characters at least, like the LED counters of the classic game: ``010``,
    ``-03``; a number that needs more digits gets them (a board may hold 100,000 mines)."""
    if value < 0:
        return "-" + str(-value).rjust(digits - 1, "0")
    return str(value).rjust(digits, "0")


def _centre(text: str, width: int) -> str:
    """``text`` centred in ``width`` columns (wide characters count double)."""
    room = max(0, width - cell_len(text))
    return " " * (room // 2) + text + " " * (room - room // 2)


class GameHeader(OneLineWidget):
    """Mine counter at the left, smiley in the middle, timer at the right, as in the classic
    game. A click on the face asks for a new game (``GameHeader.SmileyClicked``)."""

    DEFAULT_CSS: ClassVar[str] = """
    GameHeader { height: 1; background: $panel; }
    """
    PIECE_STYLES: ClassVar[Mapping[str, PieceStyle]] = {
        "digits": PieceStyle(color="mines-digits", background="mines-digits-background", bold=True),
        "face": PieceStyle(color="mines-face", background="mines-face-background", bold=True),
        "face-hover": PieceStyle(color="mines-face", background="mines-bevel-light", bold=True),
        **FACE_STYLES,
        **LED_STYLES,
    }
    centred = True

    class SmileyClicked(Message):
        """The player clicked the face."""

    mines_left: reactive[int] = reactive(0)
    #: Digits of the mine counter: as many as the board's mine count has, three at least.
    counter_digits: reactive[int] = reactive(3)
    seconds: reactive[int] = reactive(0)
    face: reactive[str] = reactive("normal")
    face_hover: reactive[bool] = reactive(False)

    def __init__(
        self,
        faces: dict[str, str] | None = None,
        *,
        ascii: bool = False,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.faces = dict(faces or FACES)
        #: Index of the face's first piece among the pieces of the row laid out last, and
        #: how many pieces it takes (its button's edges are pieces of their own).
        self._face_index = 2
        self._face_pieces = 1
        #: LED digits in ASCII characters (for an ASCII theme).
        self.ascii = ascii

    @property
    def led(self) -> bool:
        """Whether the counters are three-row LED digits (else one row of plain digits)."""
        return self.piece_rows == LED_ROWS

    def set_led(self, led: bool) -> None:
        """Show the counters as LED digits, three rows tall (or as one row of digits)."""
        if led != self.led:
            self.piece_rows = LED_ROWS if led else 1
            self.styles.height = self.piece_rows

    @property
    def counter_text(self) -> str:
        return format_counter(self.mines_left, self.counter_digits)

    @property
    def timer_text(self) -> str:
        return format_counter(self.seconds)

    @property
    def face_text(self) -> str:
        return self.faces.get(self.face, self.faces["normal"])

    def set_faces(self, faces: dict[str, str], ascii: bool = False) -> None:
        """Use another set of faces (a theme's), and ASCII LED digits or not."""
        self.faces = dict(faces)
        self.ascii = ascii
        self.refresh()

    def left(self, width: int) -> list[Piece]:
        face_style = "face-hover" if self.face_hover else "face"
        face = self.face_text if self.row == self.piece_rows // 2 else ""
        if not self.led:
            # A column of the display's background either side of the digits, where the row
            # has the room (a tiny terminal's panel may not).
            plain = max(DIGITS_WIDTH, len(self.counter_text) + 2, len(self.timer_text) + 2)
            tight = width < 2 * (EDGE_INSET + plain + 1) + FACE_WIDTH
            counter: list[Piece] = [
                (self.counter_text if tight else _centre(self.counter_text, DIGITS_WIDTH), "digits")
            ]
            timer: list[Piece] = [
                (self.timer_text if tight else _centre(self.timer_text, DIGITS_WIDTH), "digits")
            ]
        else:
            # A column of the display's background either side of the digits.
            edge: Piece = (" ", "led-bb")
            counter = [edge, *led_row(self.counter_text, self.row, self.ascii), edge]
            timer = [edge, *led_row(self.timer_text, self.row, self.ascii), edge]
        self._face_index = len(counter) + 2
        face_pieces = self._face_button(face, face_style)
        self._face_pieces = len(face_pieces)
        face_width = pieces_width(face_pieces)
        # As in the classic game: the counter at the left edge, the timer at the right, the
        # face in the middle; where the row is too narrow for that, the room left shared out
        # (a column at least each side of the face), never a digit cut off.
        inset = (" " * EDGE_INSET, None)
        sides = EDGE_INSET * 2 + pieces_width(counter) + pieces_width(timer) + face_width
        left_gap = (width - face_width) // 2 - EDGE_INSET - pieces_width(counter)
        right_gap = width - sides - left_gap
        if min(left_gap, right_gap) < 1:
            left_gap = max(1, (width - sides) // 2)
            right_gap = max(1, width - sides - left_gap)
        return [
            inset,
            *counter,
            (" " * left_gap, None),
            *face_pieces,
            (" " * right_gap, None),
            *timer,
            inset,
        ]

    def _face_button(self, face: str, face_style: str) -> list[Piece]:
        """This row of the face: on three rows (LED digits, block characters) the classic
        game's face drawn as a picture on its raised button, whatever the theme's text faces
        (they are a character or two, lost beside digits three rows tall); else the theme's
        face alone."""
        if not self.led or self.ascii:
            return [(_centre(face, FACE_WIDTH), face_style)]
        return [*face_row(self.face, self.row)]

    def set_face(self, face: str) -> None:
        """Show ``normal``, ``pressed``, ``won`` or ``lost``."""
        self.face = face

    def _on_face(self, event: events.MouseEvent) -> bool:
        return self._face_at(event.x, event.y)

    def face_at_screen(self, x: int, y: int) -> bool:
        """Whether the screen point ``(x, y)`` is on the face."""
        region = self.content_region
        return region.contains(x, y) and self._face_at(x - region.x, y - region.y)

    def _face_at(self, x: int, y: int) -> bool:
        # Laid out for the mouse's row: the face's place among the pieces is that row's.
        index = self.left_piece_at(x, y)
        first, count = self._face_index, self._face_pieces  # as laid out for that row
        return y < self.piece_rows and index is not None and first <= index < first + count

    def on_mouse_move(self, event: events.MouseMove) -> None:
        self.face_hover = self._on_face(event)

    def on_leave(self) -> None:
        self.face_hover = False

    def on_click(self, event: events.Click) -> None:
        if self._on_face(event):
            event.stop()
            self.post_message(self.SmileyClicked())
