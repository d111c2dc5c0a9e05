"""``quoted``: a value the player gave, quoted for a one-line message, cut short when long."""

from __future__ import annotations

from typing import Final

#: The most of a player's text a message quotes, its quote marks aside: a pasted page must
#: not fill the screen.
QUOTE_LIMIT: Final = 40


def quoted(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` as ``repr`` quotes it, cut short (with its length) when the quote would show
    more than ``limit`` characters: a control character or a stray byte shows as four to ten
    ('\\x00', '\\udcff'), and forty of them would fill a dialog or a terminal's line again."""
    shown = text[:limit]
    while len(repr(shown)) > limit + 2:
        shown = shown[:-1]
    return repr(text) if shown == text else f"{shown!r}... ({len(text):,} characters)"
