"""An ASCII theme draws the whole screen in ASCII, not only the board."""

from __future__ import annotations

from textual.geometry import Region
from textual.widget import Widget

from tests.helpers import Play, wait_until
from textmines.ui.board.board_view import BoardView
from textmines.ui.drawing.ascii_filter import ascii_char, ascii_text
from textmines.ui.menu.menu_screen import MenuScreen
from textmines.ui.widgets.panel import GamePanel


def drawn(widget: Widget) -> list[str]:
    """The widget's lines as the screen gets them (line filters applied)."""
    width, height = widget.size
    return [strip.text for strip in widget.render_lines(Region(0, 0, width, height))]


def test_each_character_has_an_ascii_stand_in_of_its_width() -> None:
    assert [ascii_char(c) for c in "─│┼╭╯━╸"] == ["-", "|", "+", "+", "+", "-", "-"]
    assert ascii_text("3 safe left · 40% ✓ ▶ ■") == "3 safe left - 40% x > #"
    assert ascii_text("▁▃▅▇█") == "_==##"
    assert ascii_char("葢") == "??", "a wide character keeps its two columns"
    assert ascii_text("plain") == "plain"


async def test_the_ascii_theme_draws_menus_and_status_in_ascii(play: Play) -> None:
    app, pilot = await play(theme="ascii", size=(100, 30))
    await pilot.press("space")
    status = drawn(app.status_line)[0]
    assert "cleared" in status and status.isascii()
    await pilot.press("f10")
    menu = app.screen
    assert isinstance(menu, MenuScreen)
    lines = [line for child in menu.query("*") for line in drawn(child)]
    assert any("New game" in line for line in lines)
    assert all(line.isascii() for line in lines)


async def test_other_themes_keep_their_characters(play: Play) -> None:
    app, pilot = await play(theme="classic", size=(100, 30))
    await pilot.press("space")
    assert "·" in drawn(app.status_line)[0]


async def test_the_frames_are_drawn_in_the_themes_kind_of_border(play: Play) -> None:
    # An ASCII theme's frames are Textual's ascii borders (+ - |), the others' its outer half
    # blocks: the theme's $mines-edge, switched with the theme.
    app, pilot = await play(theme="ascii", size=(100, 35))
    panel, board = app.query_one(GamePanel), app.query_one(BoardView)

    def kinds() -> set[str]:
        # The edges drawn ("": one a slim panel leaves out).
        return {edge[0] for widget in (panel, board) for edge in widget.styles.border} - {""}

    assert kinds() == {"ascii"}
    assert app.use_theme(app.themes["classic"]) is None
    await wait_until(pilot, lambda: kinds() == {"outer"}, "the classic theme's frames")
