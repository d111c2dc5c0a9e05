"""The program's entry point: ``textmines`` and ``python -m textmines``.

Garbage is collected rarely while the program starts (``textmines.collector``); the app puts
the usual collections back once its first frame is on screen.
"""

from __future__ import annotations

from textmines import collector


def main() -> int:
    """Run the command line, starting with rare garbage collections."""
    collector.starting()
    from textmines.cli import main as run

    return run()
