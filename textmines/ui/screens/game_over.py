"""The box at the end of a game: how it went, and what next (play again, restart, close)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from contextlib import suppress
from typing import TYPE_CHECKING, ClassVar, Literal

from rich.cells import cell_len
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.css.query import NoMatches
from textual.geometry import Offset, Region, Size
from textual.message import Message
from textual.widgets import Button, Static

from textmines.engine.board import Board
from textmines.ui.keys.game_keys import GAME_OVER_KEYS
from textmines.ui.screens.dialog import Dialog
from textmines.ui.screens.game_end import GAME
from textmines.ui.screens.scroll_keys import SCROLL_KEYS

if TYPE_CHECKING:
    from textmines.replays.recording import Recording

#: The labels' colour.
MUTED = "$text-muted"

#: What the player chose: a new board, the same board again, or just looking at the board.
Choice = Literal["new", "restart", "replay"] | None


#: The box's narrowest with its buttons in rows (where they are too wide to go beside the
#: panel, they are stacked: a Beginner panel zoomed to fill 120x40 leaves 31 columns).
MIN_WIDTH = 36
#: Columns of the box around its figures: the border and the padding on each side.
FRAME_COLUMNS = 4
#: Lines the figures may take beyond one a row and still go beside the panel, narrow: a
#: value or two under its label. More (the Details at 80x24: half their values) and the box
#: goes at the foot of the screen, wide enough for a row a line.
NARROW_EXTRA_LINES = 3
#: Where a value may go on to the next line: after a comma (not the one inside a cell's
#: name, "row 2, column 6"), a colon or a semicolon, before a bracket, after a dash between
#: parts; never inside a phrase ("new best!", "15 L", "luck 44%").
_BREAKS = re.compile(r"(?<=,) (?!column )|(?<=[:;]) | (?=\()|(?<= -) ")
#: The words of a phrase too wide for a line, a cell's name one word ("row 2, column 6").
_WORDS = re.compile(r"row \d+, column \d+\S*|\S+")


class GameOverScreen(Dialog[Choice]):
    """A small box over a see-through backdrop, beside the game panel where there is room
    (right of it, else left of it, else below it; over the board's foot only when the panel
    fills the screen), so the face, the counters and the final board stay in sight. Enter or N
    plays again, R restarts the board, W watches the replay, D shows the competitive figures,
    C copies the board's ID, Escape or a click anywhere outside the box closes it and leaves the
    final board to look at.

    ``figures`` are ``(label, value)`` rows shown as plain text; ``beside`` is the panel's
    region on the screen.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        *GAME_OVER_KEYS,  # see game_keys
        # The figures scroll where the box is taller than the screen leaves it (the Details
        # at 80x24); the buttons stay in sight under them.
        *SCROLL_KEYS,
    ]

    DEFAULT_CSS = """
    GameOverScreen { align: center bottom; background: transparent; }
    GameOverScreen.-placed { align: left top; }
    GameOverScreen > Vertical {
        width: auto; max-width: 100%; height: auto; max-height: 100%;
        border: round $primary; background: $surface; padding: 0 1; margin-bottom: 1;
    }
    GameOverScreen.-placed > Vertical { margin-bottom: 0; }
    GameOverScreen.-lost > Vertical { border: round $error; }
    GameOverScreen.-won > Vertical { border: round $success; }
    GameOverScreen #title { text-style: bold; width: 100%; content-align: center middle; }
    GameOverScreen #body { width: auto; height: auto; margin: 1 0; scrollbar-size-vertical: 1; }
    GameOverScreen #figures { width: auto; max-width: 100%; }
    GameOverScreen #review { width: 100%; margin: 1 0 0 0; display: none; }
    GameOverScreen Horizontal { width: auto; height: auto; }
    GameOverScreen Button { margin-right: 1; width: auto; min-width: 0; }
    GameOverScreen.-narrow Horizontal { layout: vertical; }
    GameOverScreen.-narrow #body, GameOverScreen.-narrow #figures { width: 100%; }
    """

    def __init__(
        self,
        won: bool,
        title: str,
        figures: Sequence[tuple[str, str]],
        beside: Callable[[], Region] | None = None,
        details: Sequence[tuple[str, str]] = (),
    ) -> None:
        super().__init__(classes="-won" if won else "-lost")
        self._title = title
        self.figures = list(figures)
        #: The competitive figures, shown instead of ``figures`` on D (or the Details button),
        #: headed by the game's number as the summary is (the number the player needs to
        #: review or export the game later).
        number = [row for row in self.figures[:1] if row[0] == GAME]
        self.details = [*number, *details] if details else []
        self.showing_details = False
        #: The board, for its ZiNi: worked out the first time the details are shown (it
        #: takes a moment), only for a player who asks for them.
        self.board: Board | None = None
        self._zini_asked = False
        #: The board's ID, to share (None: the board is too big for one).
        self.board_id: str | None = None
        #: Where the game's panel is now (the box goes beside it), asked at each placing.
        self.beside = beside
        #: Whether a screen point is on the game's face: a click there plays again, as the
        #: face does in the game (None: no face to click).
        self.on_face: Callable[[int, int], bool] | None = None
        #: The game's recording: the solver reviews its clicks meanwhile, and the box says
        #: how it went in one line once it knows (None: no review); the actions before
        #: ``judged_from`` are not the player's (a practice game played on from a replay).
        self.recording: Recording | None = None
        self.judged_from = 0

    def compose(self) -> ComposeResult:
        box = Vertical(id="box")
        box.styles.min_width = self._min_width()
        with box:
            yield Static(self._title, id="title", markup=False)
            with _Body(id="body"):
                yield Figures(self.figures, id="figures")
                yield Phrases("", id="review", markup=False)
            with Horizontal():
                yield Button("Play again", id="new", compact=True)
                yield Button("Restart", id="restart", compact=True)
                yield Button("Close", id="close", compact=True)
            with Horizontal():
                yield Button("Replay", id="replay", compact=True)
                if self.details:
                    yield Button("Details", id="details", compact=True)
                if self.board_id:
                    yield Button("Copy ID", id="copy-id", compact=True)

    # Enter plays again: Play again has the focus when the box opens. Textual focuses it as
    # the screen is shown; asking for it on mount failed when the app closed as the box
    # opened (a quit right after the last move), before the box had its buttons.
    AUTO_FOCUS = "#new"

    def on_mount(self) -> None:
        self.call_after_refresh(self._place)
        if self.recording is not None:
            self._review(self.recording)

    def on_resize(self) -> None:
        self.call_after_refresh(self._place)

    def _place(self) -> None:
        """Beside the panel if the box fits there, with its buttons stacked if it must be
        narrow to fit; at the foot of the screen if not."""
        self._lay_out(narrow=None, last=False)

    def _lay_out(self, *, narrow: int | None, last: bool) -> None:
        """Give the box its layout, wide or ``narrow`` (that many columns: the buttons
        stacked, the figures wrapped); it is placed once laid out (its size is known only
        then). ``last``: no other layout is tried after this one."""
        boxes = self.query("#box")
        if not boxes:
            return  # the app closed as the box opened: there is nothing to place
        box = boxes.first()
        self.set_class(narrow is not None, "-narrow")
        self._cap_height(narrow is not None)
        box.styles.min_width = self._min_width() if narrow is None else None
        box.styles.width = "auto" if narrow is None else narrow
        # Laid out at the next refresh; measured after it.
        self.refresh(layout=True)
        self.call_after_refresh(self.call_after_refresh, self._settle, narrow, last)

    def _min_width(self) -> int:
        # A title as wide as the box's own width would wrap: the border and the padding on
        # each side, around the title on one line (the CSS keeps it within the screen).
        return max(MIN_WIDTH, cell_len(self._title) + 4)

    def _settle(self, narrow: int | None, last: bool) -> None:
        boxes = self.query("#box")
        if not boxes:
            return
        box = boxes.first()
        panel = None if self.beside is None else self.beside()
        spot = None if panel is None else place_beside(panel, box.outer_size, self.size)
        if spot is None and panel is not None and not last:
            # Too wide to go beside the panel: as narrow as the wider side leaves, if its
            # title and its figures still fit; else (or if that does not fit either) wide at
            # the foot.
            side = max(self.size.width - panel.right, panel.x) - 1
            if narrow is None and self._fits_narrow(side):
                self._lay_out(narrow=side, last=False)
            else:
                self._lay_out(narrow=None, last=True)
            return
        self.set_class(spot is not None, "-placed")
        box.styles.offset = spot or (0, 0)

    def _fits_narrow(self, width: int) -> bool:
        """Whether the box reads well ``width`` columns wide: its title on one line, and its
        figures with no phrase broken and no more than a few values under their labels."""
        if width < cell_len(self._title) + 4:
            return False
        shown = self.query_one("#figures", Figures).rows
        inner = width - FRAME_COLUMNS
        phrases = (phrase for _, value in shown for phrase in _BREAKS.split(value))
        if any(cell_len(phrase) > inner - 2 for phrase in phrases):
            return False  # not even under its label
        return len(figure_lines(shown, inner)) <= len(shown) + NARROW_EXTRA_LINES

    def _cap_height(self, narrow: bool) -> None:
        """Keep the box between the menu bar and the status line, its buttons in sight: the
        figures scroll in the rows the rest leaves (worked out, not measured: the box is
        measured a frame after it is laid out)."""
        rows = self.query(Horizontal)
        buttons = sum(len(row.query(Button)) for row in rows) if narrow else len(rows)
        # The border, the title and the figures' margins above and below them.
        rest = 2 + 1 + 2 + buttons
        self.query_one("#body", _Body).styles.max_height = max(1, self.size.height - 2 - rest)

    def action_scroll(self, direction: str) -> None:
        """Scroll the figures (up, down, page_up, page_down, home, end)."""
        with suppress(NoMatches):  # the app is quitting: the box's widgets are gone
            getattr(self.query_one("#body", _Body), f"scroll_{direction}")(animate=False)

    class Reviewed(Message):
        """The solver's verdict on the game's clicks, in one line (it takes a moment)."""

        def __init__(self, line: str) -> None:
            super().__init__()
            self.line = line

    @work(thread=True, group="review", name="Reviewing the game's clicks")
    def _review(self, recording: Recording) -> None:
        from textual.worker import get_current_worker

        from textmines.engine.solver import AnalysisStopped
        from textmines.replays.review_report import box_line, review_of

        worker = get_current_worker()  # cancelled as the box closes: the review stops
        with suppress(AnalysisStopped):
            review = review_of(recording, lambda: worker.is_cancelled, self.judged_from)
            self.post_message(self.Reviewed(box_line(review)))

    def on_game_over_screen_reviewed(self, message: Reviewed) -> None:
        with suppress(NoMatches):  # the app is quitting: the box's widgets are gone
            line = self.query_one("#review", Static)
            line.update(message.line)
            line.display = True
            self.call_after_refresh(self._place)

    class MoreDetails(Message):
        """More competitive figures, found after the box opened (ZiNi takes a moment)."""

        def __init__(self, rows: Sequence[tuple[str, str]]) -> None:
            super().__init__()
            self.rows = list(rows)

    # A failure is the app's to report (its name says what failed); the box stays open.
    @work(thread=True, group="zini", name="Working out the board's ZiNi")
    def _find_zini(self, board: Board) -> None:
        """The board's ZiNi and HZiNi (ms-toollib, in a child process)."""
        from textmines.replays.foreign import board_zini

        found = board_zini(board)
        if found is not None:
            # Posted, not called from the thread: a worker must never wait on a closing app,
            # and a box that has closed drops the message.
            self.post_message(self.MoreDetails([("ZiNi", f"{found[0]}, HZiNi {found[1]}")]))

    def on_game_over_screen_more_details(self, message: MoreDetails) -> None:
        self.details.extend(message.rows)
        if self.showing_details:
            with suppress(NoMatches):  # the app is quitting: the box's widgets are gone
                self.query_one("#figures", Figures).show(self.details)
                self.call_after_refresh(self._place)

    def action_details(self) -> None:
        """Switch between the summary and the competitive figures."""
        if not self.details:
            return
        if self.board is not None and not self._zini_asked:
            self._zini_asked = True
            self._find_zini(self.board)
        self.showing_details = not self.showing_details
        shown = self.details if self.showing_details else self.figures
        self.query_one("#figures", Figures).show(shown)
        self.query_one("#details", Button).label = "Summary" if self.showing_details else "Details"
        self.call_after_refresh(self._place)

    @on(Button.Pressed, "#copy-id")
    def action_copy_id(self, event: Button.Pressed | None = None) -> None:
        """Put the board's ID on the clipboard, and show it."""
        if event is not None:
            event.stop()
        if self.board_id and self.is_active:  # not for a press read after the box closed
            self.app.copy_to_clipboard(self.board_id)
            self.notify(
                f"Board ID sent to the clipboard through the terminal: {self.board_id}",
                markup=False,
                timeout=8,
            )

    @on(Button.Pressed, "#details")
    def _details_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if self.is_active:  # not for a press read after the box closed
            self.action_details()

    # Only the buttons that close the box: Details and Copy ID have handlers of their own,
    # and a handler for every button ran beside them (stopping the event does not stop the
    # other handlers of the same screen), so Details closed the box.
    @on(Button.Pressed, "#new, #restart, #replay, #close")
    def _pressed(self, event: Button.Pressed) -> None:
        choice = event.button.id
        chosen = choice if choice in ("new", "restart", "replay") else None
        self.dismiss(chosen)  # type: ignore[arg-type]

    def action_choose(self, choice: Choice) -> None:
        self.dismiss(choice)

    def on_click(self, event: events.Click) -> None:
        x, y = event.screen_x, event.screen_y
        if self.query_one("#box").region.contains(x, y):
            return
        if self.on_face is not None and self.on_face(x, y):
            self.dismiss("new")  # the face, as in the game: a new game at once
        else:
            self.dismiss(None)  # the board behind the box: the player wants to look at it


class _Body(VerticalScroll, can_focus=False):
    """The figures and the review, scrolling; the box's keys scroll it, Tab goes to the
    buttons."""


def phrase_lines(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` cells, broken only between its phrases (see
    ``_BREAKS``); a phrase wider than a line is broken between its words (a cell's name is
    one), from a line of its own, and a word wider than a line anywhere."""
    lines: list[str] = []
    for phrase in _BREAKS.split(text):
        if cell_len(phrase) <= width:
            _fill(lines, [phrase], width)
        else:
            lines.append("")
            words = [piece for word in _WORDS.findall(phrase) for piece in _cut(word, width)]
            _fill(lines, words, width)
    return lines


def _fill(lines: list[str], pieces: Sequence[str], width: int) -> None:
    """Put ``pieces`` (each at most ``width`` cells) on ``lines`` one after another, a space
    between them, on the last line while they fit there (an empty last line takes one)."""
    for piece in pieces:
        if lines and not lines[-1]:
            lines[-1] = piece
        elif lines and cell_len(lines[-1]) + 1 + cell_len(piece) <= width:
            lines[-1] += " " + piece
        else:
            lines.append(piece)


def _cut(word: str, width: int) -> list[str]:
    """``word``, or where it is wider than ``width`` cells, its pieces that fit."""
    if cell_len(word) <= width:
        return [word]
    return [line.plain.strip() for line in Content(word).wrap(max(1, width))]


def figure_lines(rows: Sequence[tuple[str, str]], width: int | None) -> list[Content]:
    """(label, value) rows as two columns, the labels muted, in ``width`` columns (None: as
    wide as they need). A value too long for its row goes on under itself; one with a phrase
    too wide to go beside its label goes under the label, indented."""
    label_width = max((cell_len(label) for label, _ in rows), default=0) + 2
    natural = max((label_width + cell_len(value) for _, value in rows), default=0)
    width = natural if width is None else width
    lines: list[Content] = []
    for label, value in rows:
        beside = width - label_width
        if all(cell_len(phrase) <= beside for phrase in _BREAKS.split(value)):
            first, *more = phrase_lines(value, beside)
            lines.append(Content.assemble((label.ljust(label_width), MUTED), first))
            lines.extend(Content(" " * label_width + line) for line in more)
        else:
            lines.append(Content.styled(label, MUTED))
            lines.extend(Content("  " + line) for line in phrase_lines(value, width - 2))
    return lines


class _Fitted(Static):
    """Lines laid out for the width the widget is given (``_lines``): Textual's own wrapping
    would break a line at any space."""

    DEFAULT_CSS = """
    _Fitted { width: auto; height: auto; }
    """

    def _lines(self, width: int | None) -> list[Content]:
        raise NotImplementedError

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return max((line.cell_length for line in self._lines(None)), default=0)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self._lines(width))

    def render(self) -> Content:
        return Content("\n").join(self._lines(self.content_size.width))


class Figures(_Fitted):
    """The box's figures, ``(label, value)`` rows as two columns (see ``figure_lines``)."""

    def __init__(self, rows: Sequence[tuple[str, str]], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rows = list(rows)

    def show(self, rows: Sequence[tuple[str, str]]) -> None:
        """Show these rows instead."""
        self.rows = list(rows)
        self.refresh(layout=True)

    def _lines(self, width: int | None) -> list[Content]:
        return figure_lines(self.rows, width)


class Phrases(_Fitted):
    """A line of plain text broken, where it must, between its phrases only (the review)."""

    def _lines(self, width: int | None) -> list[Content]:
        text = str(self.content)
        if not text:
            return []
        lines = [text] if width is None else phrase_lines(text, width)
        return [Content(line) for line in lines]


def place_beside(panel: Region, box: Size, screen: Size) -> Offset | None:
    """Where a ``box`` goes on the ``screen`` without covering the ``panel``: right of it,
    left of it or below it (one column or row apart), top-aligned with it; None if it fits
    nowhere. Between the menu bar (row 0) and the status line (the last row)."""
    gap = 1
    top = max(1, min(panel.y, screen.height - 1 - box.height))
    if panel.right + gap + box.width <= screen.width:
        return Offset(panel.right + gap, top)
    if panel.x - gap - box.width >= 0:
        return Offset(panel.x - gap - box.width, top)
    if panel.bottom + box.height <= screen.height - 1:
        left = max(0, min(panel.x + (panel.width - box.width) // 2, screen.width - box.width))
        return Offset(left, panel.bottom)
    return None
