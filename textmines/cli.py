"""Command line: turns argv into game settings.

Until the Textual UI lands this entry point only reports the version.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from textmines import __version__


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``textmines`` command."""
    parser = argparse.ArgumentParser(prog="textmines", description="Minesweeper for the terminal.")
    parser.add_argument("--version", action="version", version=f"textmines {__version__}")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit status."""
    build_parser().parse_args(argv)
    print(f"textmines {__version__}: the engine is ready; the playable game comes next.")
    return 0
