"""How the screens write game numbers."""

from __future__ import annotations


def format_seconds(milliseconds: float) -> str:
    """A game time as players read it: ``12.3 s``."""
    return f"{milliseconds / 1000:.1f} s"
