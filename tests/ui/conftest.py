"""Helpers for driving the app with the Pilot."""

from __future__ import annotations

from dataclasses import fields

from textual.pilot import Pilot

from tests.engine.conftest import FakeClock
from textmines.config import GameConfig
from textmines.ui.app import TextminesApp, bundled_themes
from textmines.ui.board import BoardView

__all__ = ["FakeClock", "cell_offset", "click_cell", "make_app"]


def make_app(
    clock: FakeClock | None = None, *, theme: str | None = None, **options: object
) -> TextminesApp:
    """An app on a seeded board with a clock the test controls (and a bundled theme).

    ``options`` naming a GameConfig field set up the board; the others go to the app.
    """
    names = {field.name for field in fields(GameConfig)}
    config = {key: value for key, value in options.items() if key in names}
    config.setdefault("seed", 1)
    mines_theme = bundled_themes()[theme] if theme is not None else None
    return TextminesApp(
        GameConfig(**config),  # type: ignore[arg-type]
        clock=clock or FakeClock(),
        theme=mines_theme,
        **{key: value for key, value in options.items() if key not in names},  # type: ignore[arg-type]
    )


def cell_offset(board: BoardView, x: int, y: int) -> tuple[int, int]:
    """Offset of cell (x, y) relative to the board widget, for Pilot mouse calls."""
    gutter_x = board.content_region.x - board.region.x
    gutter_y = board.content_region.y - board.region.y
    cw = board.glyphs.cell_width
    return (
        gutter_x + x * cw + cw - 1 - int(board.scroll_offset.x),
        gutter_y + y - int(board.scroll_offset.y),
    )


async def click_cell(
    pilot: Pilot[None], x: int, y: int, *, button: int = 1, control: bool = False, times: int = 1
) -> None:
    board = pilot.app.query_one(BoardView)
    await pilot.click(
        BoardView, cell_offset(board, x, y), button=button, control=control, times=times
    )
    await pilot.pause()
