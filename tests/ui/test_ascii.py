"""An ASCII theme draws the whole screen in ASCII, not only the board."""

from __future__ import annotations

from textual.geometry import Region
from textual.widget import Widget

from tests.helpers import Play
from textmines.ui.ascii_filter import ascii_char, ascii_text
from textmines.ui.menu_screen import MenuScreen


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
