"""The board's zoom: which tile size the game gets in the terminal it has (the largest that
fits, or the player's choice), and whether the header has room for LED digits."""

from __future__ import annotations

from typing import Any, Protocol

from textual.geometry import Size
from textual.screen import Screen

from textmines.themes import MinesTheme
from textmines.ui.board.board_view import BoardView
from textmines.ui.board.tiles import FIT, Tile, fitting_tile, tile_sizes, zoom_index
from textmines.ui.game.host import GameHost
from textmines.ui.game.options import GameOptions
from textmines.ui.widgets.header import GameHeader, led_fits, one_row_columns
from textmines.ui.widgets.panel import CHROME, COMPACT_CHROME, GamePanel

#: Below this height the board is drawn without its frame.
COMPACT_HEIGHT = 20


class ZoomHost(GameHost, Protocol):
    """What ``Zoom`` needs of the app: the game, the widgets it sizes, the zoom setting."""

    header: GameHeader
    board: BoardView
    options: GameOptions

    @property
    def size(self) -> Size: ...
    @property
    def mines_theme(self) -> MinesTheme: ...
    @property
    def screen_stack(self) -> list[Screen[Any]]: ...
    def withdraw(self, kind: str) -> None: ...


class Zoom:
    """The tile size and the header of ``host``'s board."""

    def __init__(self, host: ZoomHost) -> None:
        self.host = host

    def tile_for(self, cell_width: int, size: Size | None = None) -> tuple[Tile, bool]:
        """The tile the zoom setting gives the game in play in a terminal of ``size``, and
        whether the header has the room for LED digits (two rows to spare, and the width of
        the two displays and the face).

        The whole framed panel shows: LED digits never take the frame's top and bottom edges
        (Expert's 3x2 in 120x40 has a plain header, issue 46.16d), nor the tile its size (a
        player of the classic game knows its board by the size of its tiles)."""
        host = self.host
        sizes = tile_sizes(cell_width)
        width, height = size or host.size
        compact = height < COMPACT_HEIGHT
        chrome_x, chrome_y = COMPACT_CHROME if compact else CHROME
        # The menu bar and the status line take a row each.
        room = (width - chrome_x, height - 2 - chrome_y)
        game = host.game
        index = zoom_index(sizes, host.options.settings.zoom)
        if index is None:
            index = fitting_tile(sizes, (game.width, game.height), room)
        tile = sizes[index]
        return tile, not compact and led_fits(game, tile, room)

    def apply(self, size: Size | None = None) -> None:
        """Draw the board at the size the zoom setting gives (fit: the terminal's), with LED
        digits in the header where they fit."""
        host = self.host
        board = host.board
        tile, led = self.tile_for(host.mines_theme.glyphs.cell_width, size)
        self._room_for_header(tile, size)
        if (tile, led) == (board.tile, host.header.led):
            return
        host.header.set_led(led)
        if tile != board.tile:
            board.set_tile(tile)
            host.withdraw("zoom")  # "Zoom: cells 2x1" would now be wrong
        if board.is_mounted:
            # The game's screen's, even under a dialog (a resize with the game-over box up).
            host.screen_stack[0].query_one(GamePanel).resized()

    def _room_for_header(self, tile: Tile, size: Size | None) -> None:
        """A board narrower than its header's counter, face and timer (1 to 4 columns) sits
        in the middle of a panel wide enough for them: the classic game's window is never
        narrower than its header either."""
        host = self.host
        game = host.game
        compact = (size or host.size).height < COMPACT_HEIGHT
        board_columns = game.width * tile.cols + (0 if compact else 2)  # and its sunken edges
        spare = max(0, one_row_columns(game.mines) - board_columns)
        host.board.styles.margin = (0, spare - spare // 2, 0, spare // 2)

    def step(self, step: int) -> None:
        """One tile size larger (1) or smaller (-1), from the size on screen; kept."""
        sizes = tile_sizes(self.host.mines_theme.glyphs.cell_width)
        tile = self.host.board.tile
        index = sizes.index(tile) if tile in sizes else 0
        self.set(str(sizes[max(0, min(len(sizes) - 1, index + step))]))

    def set(self, zoom: str) -> None:
        """Zoom to ``zoom`` (a tile size, or ``FIT``: the largest at which the whole board
        fits), kept in the settings."""
        options = self.host.options
        if zoom != options.settings.zoom:
            options.save(options.settings._replace(zoom=zoom))
        self.apply()
        fit = " (fit to the terminal)" if zoom == FIT else ""
        self.host.notify(f"Zoom: cells {self.host.board.tile}{fit}", timeout=2, kind="zoom")
