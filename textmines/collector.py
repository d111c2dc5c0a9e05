"""Python's garbage collector while textmines starts.

Starting allocates some 80,000 objects that live as long as the program: modules, classes,
Textual's styles, the app's widgets and themes. With Python's default thresholds the
collector scans them again and again while they pile up, and frees none of them: 3.5% of the
instructions to the first frame (``benchmarks/startup.py``). So the program's entry point
(``textmines.launch``) makes collections rare while it starts, and the app, once its first
frame is on screen, puts the thresholds back with everything alive by then frozen out of
later collections (``gc.freeze``). A command that never starts the app (``--serve``,
``--review`` ...) keeps the rare collections: one every 100,000 new objects still bounds what
garbage can pile up.
"""

from __future__ import annotations

import gc
from typing import Final

#: The thresholds while starting: a young collection every 100,000 new objects (Python's
#: default is 700); the older generations as usual.
STARTING: Final = (100_000, 10, 10)

#: The thresholds before ``starting``, to put back (Python's defaults unless changed).
_before: tuple[int, int, int] | None = None


def starting() -> None:
    """The program starts: collect rarely until ``started``."""
    global _before
    if gc.get_threshold() != STARTING:
        _before = gc.get_threshold()
    gc.set_threshold(*STARTING)


def started() -> None:
    """The first frame is on screen: what is alive now stays out of later collections, which
    come as often as before ``starting``. Does nothing unless ``starting`` came first."""
    if _before is not None and gc.get_threshold() == STARTING:
        gc.freeze()
        gc.set_threshold(*_before)
