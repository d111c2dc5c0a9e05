"""The command line, in three parts: ``options`` (the parser, each value's check, the
GameConfig they give), ``commands`` (what does one thing and exits: --paths, the themes, the
replays, the review, --serve) and ``start`` (``main``: the mode the command line asks for, and
the game)."""

from textmines.cli.start import main

__all__ = ["main"]
