"""BoardView: the minefield as one Line-API widget.

One widget draws every cell (``render_line`` gives a ``Strip`` for the visible part of a
row), so an Expert or a 1000x1000 board costs what the screen shows, not what the board
holds. After an action only the rows the engine reports as changed are refreshed. What a
cell looks like is in ``board_look.py``; the lines are built from those looks, and kept, by
``board_lines.BoardLines``: the widget only says what each line shows (``line_key``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar

from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.filter import ANSIToTruecolor, LineFilter
from textual.geometry import Offset, Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from textmines.engine import ActionKind, Game
from textmines.themes import ThemeGlyphs
from textmines.ui.board.lines import BoardLines, LineKey, line_key
from textmines.ui.board.looks import overlay_label
from textmines.ui.board.tiles import Tile

if TYPE_CHECKING:
    from textual.scrollbar import ScrollBar

#: Where the board goes on beyond the view, the cursor keeps this share of the view (a quarter)
#: between it and that edge, and never fewer than ``FOLLOW_CELLS`` cells: the cells a player
#: reads next (the numbers around the cursor) stay on screen, as a text editor keeps lines
#: around its cursor.
FOLLOW_SHARE = 4
FOLLOW_CELLS = 2


def cursor_scroll(
    scroll: int, start: int, length: int, view: int, total: int, new_game: bool = False
) -> int:
    """The scroll offset on one axis (screen columns or lines) that shows the cursor's cell,
    ``start``..``start + length``, through a ``view`` on a board ``total`` long, moved from
    ``scroll`` as little as it can be.

    The cell keeps a margin of ``FOLLOW_SHARE`` of the view (at least ``FOLLOW_CELLS`` cells,
    at most what the view has room for) to the edge wherever the board goes on that way.
    A ``new_game`` shows the board's corner when the cursor can be seen from there with its
    margins: a board a little larger than the view shows where it starts, like any window's
    content; one much larger is seen around the cursor, in the middle of the view.
    """
    highest = max(0, total - view)
    margin = length * max(FOLLOW_CELLS, view // length // FOLLOW_SHARE)
    margin = max(0, min(margin, (view - length) // 2))
    if new_game:
        scroll = 0
    # At least what shows the far side with its margin, at most what shows the near side.
    wanted = max(start + length + margin - view, min(scroll, start - margin))
    followed = max(0, min(wanted, highest))
    if new_game and followed:
        return max(0, min(start + length // 2 - view // 2, highest))
    return followed


def opening_scroll(scroll: int, low: int, high: int, start: int, length: int, view: int) -> int:
    """The scroll offset on one axis that shows an opening spanning ``low``..``high`` (screen
    columns or lines) through a ``view``, moved from ``scroll`` as little as it can be; where
    the opening is larger than the view, the one that centres the cell that made it
    (``start``..``start + length``). Unclamped: the board's ends are the caller's."""
    if high - low <= view:
        return max(high - view, min(scroll, low))
    return start + length // 2 - view // 2


#: Mouse buttons as Textual numbers them.
LEFT, MIDDLE, RIGHT = 1, 2, 3

#: Mouse controls for the help screen; kept beside the handlers that implement them.
MOUSE_CONTROLS: list[tuple[str, str]] = [
    ("Left click", "Reveal (on release, like the classic game)"),
    ("Left click on a number", "Chord, when the option is on"),
    ("Double click on a number", "Chord"),
    ("Left+right click (press both, release)", "Chord"),
    ("Middle click", "Chord"),
    ("Right click / Ctrl+click", "Flag, question mark, clear"),
    ("Click the face", "New game"),
    ("Options > Swap mouse buttons", "Left flags, right reveals"),
]


class BoardView(ScrollView, can_focus=True):
    """The minefield: cursor, keyboard and mouse input, drawing."""

    DEFAULT_CSS = """
    BoardView {
        width: auto;
        height: auto;
        max-width: 100%;
        max-height: 100%;
        background: $mines-revealed;
        scrollbar-size: 1 1;
        /* A groove in the bevel's dark, the thumb and the arrows in its light (see scrollbar.py):
           the board's own colours, standing out from the tiles and the frame in every theme. */
        scrollbar-background: $mines-bevel-dark;
        scrollbar-background-hover: $mines-bevel-dark;
        scrollbar-background-active: $mines-bevel-dark;
        scrollbar-color: $mines-bevel-light;
        scrollbar-color-hover: $mines-bevel-light;
        scrollbar-color-active: $mines-cursor;
        scrollbar-corner-color: $mines-bevel-dark;
    }
    """

    # Priority bindings: the app runs them as the key arrives, before the Key event travels
    # from the board up through the panel and the screen (four dispatches per key otherwise,
    # a good part of a key's cost). They apply only while the board has the focus on the
    # screen on top: a dialog or a drop-down menu is a screen of its own.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "move(0, -1)", "Up", show=False, priority=True, id="board.up"),
        Binding("down,j", "move(0, 1)", "Down", show=False, priority=True, id="board.down"),
        Binding("left,h", "move(-1, 0)", "Left", show=False, priority=True, id="board.left"),
        Binding("right,l", "move(1, 0)", "Right", show=False, priority=True, id="board.right"),
        Binding("shift+up,K", "move(0, -5)", "Up 5", show=False, priority=True, id="board.up5"),
        Binding(
            "shift+down,J", "move(0, 5)", "Down 5", show=False, priority=True, id="board.down5"
        ),
        Binding(
            "shift+left,H", "move(-5, 0)", "Left 5", show=False, priority=True, id="board.left5"
        ),
        Binding(
            "shift+right,L", "move(5, 0)", "Right 5", show=False, priority=True, id="board.right5"
        ),
        Binding("home", "row_end(-1)", "Row start", show=False, priority=True, id="board.home"),
        Binding("end", "row_end(1)", "Row end", show=False, priority=True, id="board.end"),
        Binding("space,enter", "open", "Reveal / chord", priority=True, id="board.open"),
        Binding("f,plus", "mark", "Flag / ?", priority=True, id="board.mark"),
    ]

    class PressChanged(Message):
        """A mouse button went down on (``pressed``) or came up from the board."""

        def __init__(self, pressed: bool) -> None:
            super().__init__()
            self.pressed = pressed

    def __init__(
        self,
        game: Callable[[], Game],
        *,
        glyphs: ThemeGlyphs,
        left_click_chords: bool = True,
        on_move: Callable[[ActionKind, int, int], object] | None = None,
        on_pointer: Callable[[int, int], object] | None = None,
        on_press: Callable[[int, int], object] | None = None,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.glyphs = glyphs
        #: The size of a cell on screen (the zoom); the app picks it (``set_tile``).
        self.tile = Tile(glyphs.cell_width, 1)
        #: The board's screen lines: drawn from the cells' looks and kept (``board_lines``).
        self.lines = BoardLines(
            glyphs, self.tile, lambda: self.app.theme_variables, lambda: self.rich_style
        )
        self.left_click_chords = left_click_chords
        #: Left flags and right reveals (left-handed players, some touch pads).
        self.swap_buttons = False
        # Every move goes to ``on_move`` (the app, which plays it through the session and
        # redraws what changed). Called at once, not posted as a message: the header and status
        # line then repaint in the same frame as the board, and no message bubbles through the
        # DOM on every key press (measured: a reveal costs a third more that way).
        self.on_move = on_move
        #: Told each cell the cursor or the mouse pointer goes to (for the game's recording).
        self.on_pointer = on_pointer
        #: Told each cell a button goes down on, before the release makes the move.
        self.on_press = on_press
        self._pointed: tuple[int, int] | None = None
        #: The view's scroll offset and width while a pass draws its lines (``render_lines``).
        self._pass_view: tuple[Offset, int] | None = None
        #: Mine probability of covered cells, shown as a heat map (None: overlay off).
        self.overlay: Mapping[tuple[int, int], float] | None = None
        #: A cell the solver suggested, highlighted until the next action, and other cells
        #: highlighted with it (the replay viewer's certainly safe cell beside a risky click).
        self.hint: tuple[int, int] | None = None
        self.hinted_too: tuple[tuple[int, int], ...] = ()
        #: A notice stands in for the board (paused, a terminal too small): its keys do nothing,
        #: whatever has the focus (a resumed game pauses before its first frame, and the screen
        #: then focuses the board; Textual takes the focus of a hidden board only later).
        self.hidden = False
        # The game belongs to the app's session; the board only reads it, through this.
        self._game = game
        #: The scroll bars Textual made so far (see horizontal_scrollbar).
        self._bars: list[ScrollBar] = []
        self._take()

    # ------------------------------------------------------------------ scroll bars
    # Textual lets each bar have a renderer of its own (documented on ScrollBar.renderer), so
    # the board's bars show where it goes on and the menus' keep Textual's look. Textual makes
    # a bar when it is first asked for one (a board larger than its view): it gets its
    # renderer then, and a board that fits makes none.
    @property
    def horizontal_scrollbar(self) -> ScrollBar:
        return self._styled(super().horizontal_scrollbar)

    @property
    def vertical_scrollbar(self) -> ScrollBar:
        return self._styled(super().vertical_scrollbar)

    def _styled(self, bar: ScrollBar) -> ScrollBar:
        if bar not in self._bars:
            self._bars.append(bar)
            self._set_scrollbars()
        return bar

    def _set_scrollbars(self) -> None:
        from textmines.ui.board.scrollbar import BoardScrollBarRender, PlainScrollBarRender

        renderer = PlainScrollBarRender if self.glyphs.ascii else BoardScrollBarRender
        for bar in self._bars:
            bar.renderer = renderer  # type: ignore[misc]
            bar.refresh()

    # ------------------------------------------------------------------ game
    @property
    def game(self) -> Game:
        """The game on the board (the session's), read-only here."""
        return self._game()

    def _take(self) -> None:
        game = self.game
        self.cursor = (game.width // 2, game.height // 2)
        #: Until the cursor first moves, the view is placed as for a new game (``cursor_scroll``)
        #: again after each layout and zoom that follows the start.
        self._new_game = True
        self._pressed: tuple[int, int] | None = None
        #: Mouse buttons held down on the board, and whether they make a two-button chord.
        self._buttons: set[int] = set()
        self._chording = False
        self._fit_virtual_size()

    def _fit_virtual_size(self) -> None:
        cols, rows = self.tile
        self.virtual_size = Size(self.game.width * cols, self.game.height * rows)

    def show_new_game(self) -> None:
        """The session has a new game: cursor to the centre, everything redrawn."""
        self.hint, self.hinted_too = None, ()
        self.overlay = None
        self._take()
        self.scroll_to_cursor()
        self.refresh()

    def set_glyphs(self, glyphs: ThemeGlyphs, tile: Tile | None = None) -> None:
        """Draw with other glyphs (a theme's), in ``tile`` (default: the theme's own one-row
        cell, whose width may change)."""
        self.glyphs = glyphs
        self._set_scrollbars()
        self.set_tile(tile or Tile(glyphs.cell_width, 1))

    def set_tile(self, tile: Tile) -> None:
        """Draw every cell ``tile`` big (the zoom), keeping the cursor in view."""
        self.tile = tile
        self.lines.set_look(self.glyphs, tile)
        self._fit_virtual_size()
        if self.is_mounted:  # before that, the first layout takes the size as it is
            self.scroll_to_cursor()
            self.refresh(layout=True)

    def set_overlay(self, overlay: Mapping[tuple[int, int], float] | None) -> None:
        """Show mine probabilities on covered cells (None: hide them)."""
        self.overlay = overlay
        self.refresh()

    def refresh_row(self, row: int) -> None:
        """Redraw board row ``row`` (every screen line of its tiles)."""
        rows = self.tile.rows
        self.refresh_lines(row * rows, rows)

    def show_hint(
        self, cell: tuple[int, int] | None, also: tuple[tuple[int, int], ...] = ()
    ) -> None:
        """Highlight ``cell`` (and put the cursor on it) and the cells ``also`` until the
        next action."""
        old = (self.hint, *self.hinted_too)
        self.hint, self.hinted_too = cell, also
        for each in (*old, cell, *also):
            if each is not None:
                self.refresh_row(each[1])
        if cell is not None:
            self.move_cursor(*cell)

    def move(self, kind: ActionKind, x: int, y: int) -> None:
        """Ask for one move: the board turns input into moves, the app makes them."""
        if self.on_move is not None:
            self.on_move(kind, x, y)

    def refresh_rows(self, rows: list[int]) -> None:
        """Redraw the given board rows (the whole view when that is cheaper)."""
        if len(rows) * self.tile.rows > self.size.height:
            self.refresh()
            return
        for row in rows:
            self.refresh_row(row)

    def open_at(self, x: int, y: int) -> None:
        """Reveal a covered cell, or chord a revealed number: what Space and a click do."""
        self.move(ActionKind.CHORD if self.game.is_revealed(x, y) else ActionKind.REVEAL, x, y)

    # ------------------------------------------------------------------ cursor
    def move_cursor(self, x: int, y: int, follow: bool = True) -> None:
        """Put the cursor on ``(x, y)`` (clamped to the board) and, with ``follow``, scroll to
        keep it and the cells around it in view (``scroll_to_cursor``)."""
        x = max(0, min(self.game.width - 1, x))
        y = max(0, min(self.game.height - 1, y))
        old = self.cursor
        if (x, y) == old:
            return
        self.cursor = (x, y)
        self._new_game = False
        self.refresh_row(old[1])
        if y != old[1]:
            self.refresh_row(y)
        if follow:
            self.scroll_to_cursor()
        self._point_at((x, y))

    def _point_at(self, cell: tuple[int, int]) -> None:
        if cell != self._pointed:
            self._pointed = cell
            if self.on_pointer is not None:
                self.on_pointer(*cell)

    def show_opening(self, x: int, y: int, bounds: tuple[int, int, int, int] | None) -> None:
        """The first reveal, at ``(x, y)``, opened the cells within ``bounds`` (left, top,
        right, bottom: ``Change.bounds``): the player reads them next, so scroll as little as
        shows them all, or, on an axis where they do not fit in the view, put the reveal in
        its middle. (The cursor goes to the reveal, as it is there already for a key press
        or a click.)"""
        self.move_cursor(x, y, follow=False)
        view = self.scrollable_content_region.size
        if not view or bounds is None:
            return
        left, top, right, bottom = bounds
        (cols, rows), (now_x, now_y) = self.tile, (int(n) for n in self.scroll_offset)
        scroll_x = opening_scroll(
            now_x, left * cols, (right + 1) * cols, x * cols, cols, view.width
        )
        scroll_y = opening_scroll(
            now_y, top * rows, (bottom + 1) * rows, y * rows, rows, view.height
        )
        # Textual keeps the offsets within the board.
        self.scroll_to(scroll_x, scroll_y, animate=False, immediate=True, force=True)

    def scroll_to_cursor(self) -> None:
        """Keep the cursor and the cells around it in view: scroll as little as shows it with
        its margins (``cursor_scroll``).

        Scrolling only when the cursor comes near an edge, by what it moved, keeps the board
        still under the eye while the cursor crosses the middle of the view."""
        view = self.scrollable_content_region.size
        if not view:
            return  # not laid out yet (or hidden): the resize that shows it scrolls
        (cols, rows), (x, y), total = self.tile, self.cursor, self.virtual_size
        now_x, now_y = (int(n) for n in self.scroll_offset)
        new = self._new_game
        self.scroll_to(
            cursor_scroll(now_x, x * cols, cols, view.width, total.width, new),
            cursor_scroll(now_y, y * rows, rows, view.height, total.height, new),
            animate=False,
            immediate=True,
            force=True,
        )

    def cursor_screen_offset(self) -> tuple[int, int]:
        """Where the cursor's cell is on the screen (column, row)."""
        cols, rows = self.tile
        x, y = self.cursor
        region = self.content_region
        return (
            region.x + x * cols - int(self.scroll_offset.x),
            region.y + y * rows - int(self.scroll_offset.y),
        )

    def on_resize(self) -> None:
        # A smaller view must still show the cursor, and a new game its place, before the next
        # key press.
        self.call_after_refresh(self.scroll_to_cursor)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return not self.hidden

    def action_move(self, dx: int, dy: int) -> None:
        x, y = self.cursor
        self.move_cursor(x + dx, y + dy)

    def action_row_end(self, direction: int) -> None:
        self.move_cursor(0 if direction < 0 else self.game.width - 1, self.cursor[1])

    def action_open(self) -> None:
        self.open_at(*self.cursor)

    def action_mark(self) -> None:
        self.move(ActionKind.MARK, *self.cursor)

    # ------------------------------------------------------------------ mouse
    def cell_at(self, event: events.MouseEvent) -> tuple[int, int] | None:
        """The board cell under the mouse, if any."""
        offset = event.get_content_offset(self)
        if offset is None:
            return None
        x = (offset.x + self.scroll_offset.x) // self.tile.cols
        y = (offset.y + self.scroll_offset.y) // self.tile.rows
        if 0 <= x < self.game.width and 0 <= y < self.game.height:
            return x, y
        return None

    def _set_pressed(self, cell: tuple[int, int] | None) -> None:
        old = self._pressed
        if old == cell:
            return
        self._pressed = cell
        for each in (old, cell):
            if each is not None:
                self.refresh_row(each[1])
        if (old is None) != (cell is None):
            self.post_message(self.PressChanged(cell is not None))

    def on_mouse_down(self, event: events.MouseDown) -> None:
        cell = self.cell_at(event)
        if cell is None:
            return
        event.stop()
        self.focus()
        # The board never scrolls under the pointer: the release (or the second click of a
        # double click, or the second button of a chord) would land on another cell.
        self.move_cursor(*cell, follow=False)
        if self.game.status.is_over:
            return
        button = self._button(event)
        other_held = bool(self._buttons)
        self._buttons.add(button)
        if button in (LEFT, RIGHT) and other_held and self._buttons >= {LEFT, RIGHT}:
            # Both buttons down: the classic chord, made when one of them comes up.
            self._chording = True
            self.capture_mouse()
            self._set_pressed(cell)
        elif button == RIGHT or (button == LEFT and event.ctrl):
            # Held until it comes up, wherever that is: its MouseUp must reach the board, or
            # the next left click would count as a two-button chord.
            self.capture_mouse()
            self.move(ActionKind.MARK, *cell)
        elif button in (LEFT, MIDDLE):
            self.capture_mouse()
            self._set_pressed(cell)
            if self.on_press is not None:
                self.on_press(*cell)

    def _button(self, event: events.MouseEvent) -> int:
        """The button as the game reads it: left and right swapped for players who asked."""
        if self.swap_buttons and event.button in (LEFT, RIGHT):
            return RIGHT if event.button == LEFT else LEFT
        return event.button

    def on_mouse_move(self, event: events.MouseMove) -> None:
        if event.button == 0 and self._buttons:
            # The terminal says no button is held: one came up where the board could not
            # hear it (outside the window). Forget it, and any press it was part of.
            self._buttons.clear()
            self._chording = False
            self._set_pressed(None)
            self.release_mouse()
        cell = self.cell_at(event)
        if cell is not None:
            self._point_at(cell)
        if self._pressed is not None:
            self._set_pressed(cell or self._pressed)

    def on_leave(self) -> None:
        # A button let go outside the board sends no MouseUp here: forget what was held, or
        # the next left click would count as a two-button chord.
        if self._pressed is None:
            self._buttons.clear()
            self._chording = False

    def on_mouse_up(self, event: events.MouseUp) -> None:
        button = self._button(event)
        self._buttons.discard(button)
        chording, was_pressed = self._chording, self._pressed is not None
        if not self._buttons:
            self._chording = False
            self.release_mouse()
        if not was_pressed:
            return  # a right click (marked on the way down), or the end of a two-button chord
        event.stop()
        self._set_pressed(None)
        cell = self.cell_at(event)
        if cell is None or self.game.status.is_over:
            return
        self.move_cursor(*cell, follow=False)
        if chording or button == MIDDLE:
            self.move(ActionKind.CHORD, *cell)
        elif button == LEFT and (self.left_click_chords or not self.game.is_revealed(*cell)):
            self.open_at(*cell)

    def on_click(self, event: events.Click) -> None:
        if event.chain == 2 and self._button(event) == LEFT and not self.left_click_chords:
            cell = self.cell_at(event)
            if cell is not None and self.game.is_revealed(*cell):
                event.stop()
                self.move(ActionKind.CHORD, *cell)

    # ------------------------------------------------------------------ drawing
    def notify_style_update(self) -> None:
        super().notify_style_update()
        self.lines.restyle()

    def _cell_styles(self) -> dict[str, Style]:
        return self.lines.styles()

    def get_line_filters(self) -> Sequence[LineFilter]:
        filters = super().get_line_filters()
        if not self.lines.true_colour():
            return filters
        # The board's colours are true colours already: the conversion of ANSI colours
        # would copy every piece of each line Textual draws again and change none. (On
        # Expert's 3x2 tiles it was a sixth of a reveal's frame: 0.69M of 4.3M instructions.)
        return [each for each in filters if not isinstance(each, ANSIToTruecolor)]

    def line_key(self, y: int) -> LineKey | None:
        """What screen line ``y`` of the view shows (``board_lines.LineKey``); None below
        the board."""
        (scroll_x, scroll_y), width = self._pass_view or self._view_now()
        cols, rows = self.tile
        row, sub = divmod(y + scroll_y, rows)
        game = self.game
        if row >= game.height:
            return None
        first = scroll_x // cols
        last = min(game.width, (scroll_x + width) // cols + 1)
        text = game.view_row(row)[first:last]
        marks = (self.cursor, self._pressed, (self.hint, *self.hinted_too))
        start = scroll_x - first * cols
        return line_key(text, row, first, sub, start, width, marks=marks, overlay=self.overlay)

    def _view_now(self) -> tuple[Offset, int]:
        """The view's scroll offset and width (reading the width walks the styles)."""
        return self.scroll_offset, self.size.width

    def render_lines(self, crop: Region) -> list[Strip]:
        # One pass draws many lines: the view's place and width are read once for them all.
        self._pass_view = self._view_now()
        try:
            return super().render_lines(crop)
        finally:
            self._pass_view = None

    def render_line(self, y: int) -> Strip:
        # Only the lines Textual asks for (those refreshed since it last drew them); the
        # ones whose key is unchanged come from ``lines``.
        key = self.line_key(y)
        if key is None:
            return self.lines.blank((self._pass_view or self._view_now())[1])
        return self.lines.line(key)


__all__ = [
    "FOLLOW_CELLS",
    "FOLLOW_SHARE",
    "MOUSE_CONTROLS",
    "BoardView",
    "cursor_scroll",
    "opening_scroll",
    "overlay_label",
]
