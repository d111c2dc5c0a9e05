"""A theme as Textual wants it. Textual is imported on the first call, not with the module:
the command line loads themes without ever drawing them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textmines.themes.model import AUTO, MinesTheme

if TYPE_CHECKING:
    from textual.theme import Theme


def to_textual_theme(theme: MinesTheme) -> Theme:
    """A new ``textual.theme.Theme`` with ``theme``'s colours and board variables."""
    from textual.theme import Theme

    color = {key: None if value == AUTO else value for key, value in theme.colors.items()}
    return Theme(
        name=theme.name,
        primary=theme.colors["primary"],
        secondary=color["secondary"],
        accent=color["accent"],
        foreground=color["foreground"],
        background=color["background"],
        surface=color["surface"],
        panel=color["panel"],
        boost=color["boost"],
        warning=color["warning"],
        error=color["error"],
        success=color["success"],
        dark=theme.dark,
        variables=theme.board_variables(),
    )
