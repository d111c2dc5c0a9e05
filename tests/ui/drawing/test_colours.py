"""Styles built from theme variables: the one-row widgets draw with them."""

from __future__ import annotations

import pytest
from rich.style import Style
from textual.color import Color

from tests.helpers import Play
from tests.themes.test_themes import contrast
from textmines.ui.drawing.colours import PieceStyle, theme_colour

DARK = Color.parse("#202020")
LIGHT = Color.parse("#F0F0F0")


def test_a_plain_colour_is_read_as_it_is() -> None:
    assert theme_colour({"accent": "#FEA62B"}, "accent") == Color.parse("#FEA62B")
    assert theme_colour({"accent": "#FEA62B"}, "accent", DARK) == Color.parse("#FEA62B")


def test_a_translucent_colour_is_blended_onto_what_is_under_it() -> None:
    boost = theme_colour({"boost": "#FFFFFF40"}, "boost", DARK)
    assert boost.a == 1
    assert DARK.brightness < boost.brightness < 1


def test_auto_is_the_contrasting_text_colour_at_its_strength() -> None:
    variables = {"text-muted": "auto 60%", "text": "auto 87%"}
    muted_on_dark = theme_colour(variables, "text-muted", DARK)
    text_on_dark = theme_colour(variables, "text", DARK)
    assert DARK.brightness < muted_on_dark.brightness < text_on_dark.brightness
    muted_on_light = theme_colour(variables, "text-muted", LIGHT)
    assert muted_on_light.brightness < LIGHT.brightness


def test_a_piece_style_goes_over_the_widget_style() -> None:
    base = Style(color="#E0E0E0", bgcolor="#242F38")
    variables = {"accent": "#FEA62B", "text-accent": "#FFC473", "success": "#4EBF71"}
    active = PieceStyle(color="text-accent", background="accent", bold=True).over(base, variables)
    assert active == Style(color="#ffc473", bgcolor="#fea62b", bold=True)
    won = PieceStyle(color="success", bold=True).over(base, variables)
    assert won.bgcolor == base.bgcolor  # no background of its own: the widget's
    assert won.color == Style(color="#4ebf71").color


@pytest.mark.parametrize("theme", ["classic", "dark", "high-contrast", "colorblind", "light"])
async def test_key_hints_are_muted_but_readable_in_every_theme(theme: str, play: Play) -> None:
    app, pilot = await play(theme=theme, size=(80, 24))
    await pilot.pause()
    status = app.status_line
    hints = next(s for s in status.render_line(0) if s.text.startswith("Space"))
    assert hints.style is not None
    colour, background = hints.style.color, hints.style.bgcolor
    assert colour is not None and background is not None
    text, panel = colour.triplet, background.triplet
    assert text is not None and panel is not None
    foreground = status.rich_style.color
    assert foreground is not None and colour != foreground  # muted
    assert contrast(text.hex, panel.hex) >= 4.5  # WCAG AA


async def test_a_theme_switch_restyles_the_pieces(play: Play) -> None:
    app, pilot = await play(theme="classic", size=(80, 24))
    app.menu_bar.set_active(0)  # the Game title is drawn in the active style
    await pilot.pause()

    def active_background() -> object:
        first = next(iter(app.menu_bar.render_line(0)))
        return first.style.bgcolor if first.style else None

    before = active_background()
    app.action_theme("high-contrast")
    await pilot.pause()
    after = active_background()
    accent = theme_colour(app.theme_variables, "accent").rich_color
    assert after != before and after == accent
