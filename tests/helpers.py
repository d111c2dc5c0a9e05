"""What the tests share: a clock they move by hand, apps on seeded boards, clicks on cells,
and waiting for a condition instead of for a fixed time.

Import from here (``from tests.helpers import ...``); conftest files only declare fixtures.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual.pilot import Pilot

    from textmines.ui.app import TextminesApp
    from textmines.ui.board import BoardView

__all__ = ["FakeClock", "cell_offset", "click_cell", "make_app", "settle", "wait_until"]


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def make_app(
    clock: FakeClock | None = None, *, theme: str | None = None, **options: object
) -> TextminesApp:
    """An app on a seeded board with a clock the test controls (and a bundled theme).

    ``options`` naming a GameConfig field set up the board; the others go to the app.
    """
    from textmines.config import GameConfig
    from textmines.ui.app import TextminesApp, bundled_themes

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
    from textmines.ui.board import BoardView

    board = pilot.app.query_one(BoardView)
    await pilot.click(
        BoardView, cell_offset(board, x, y), button=button, control=control, times=times
    )
    await pilot.pause()


async def settle(pilot: Pilot[None]) -> None:
    """Let the worker threads (solver, deals) finish and their results reach the screen."""
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def wait_until(
    pilot: Pilot[None], condition: Callable[[], object], what: str, seconds: float = 10.0
) -> None:
    """Let the app run until ``condition()`` holds; fails naming ``what`` after ``seconds``."""
    step = 0.02
    for _ in range(int(seconds / step)):
        if condition():
            return
        await pilot.pause(step)
    raise AssertionError(f"still waiting after {seconds:g} s for {what}")
