"""Run one app in the terminal it was given and report when its first frame was written.

    python benchmarks/first_frame.py trivial|textmines FD [textmines arguments...]

Writes ``time.process_time()`` to file descriptor FD as soon as Textual has written the first
frame: the CPU seconds since this process started, interpreter start-up and imports included.
Then the app exits. Used by
``startup.py``; the hook is the one place every frame goes through (``App._display``).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

# The hook below must load Textual before the program does: for textmines it does so as the
# program's entry point would, collecting garbage rarely (textmines.launch). The trivial app
# runs as it is.
if sys.argv[1] == "textmines":
    from textmines import collector

    collector.starting()
from rich.console import RenderableType
from textual.app import App
from textual.screen import Screen

#: Where the first frame's time goes.
REPORT = int(sys.argv[2])

_display = App._display


def _report_first_frame(
    app: App[object], screen: Screen[object], renderable: RenderableType | None
) -> None:
    _display(app, screen, renderable)
    if renderable is not None and not getattr(app, "_first_frame_reported", False):
        app._first_frame_reported = True  # type: ignore[attr-defined]
        os.write(REPORT, f"{time.process_time()}\n".encode())
        if os.environ.get("FIRST_FRAME_ONLY"):
            os._exit(0)  # counting instructions (startup.py --instructions): not the way out
        app.exit()


App._display = _report_first_frame  # type: ignore[method-assign]

if __name__ == "__main__":
    if sys.argv[1] == "trivial":
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from trivial import TrivialApp

        TrivialApp().run()
    else:
        from textmines.launch import main

        sys.argv[1:] = sys.argv[3:]  # the program's own arguments, as its entry point reads them
        sys.exit(main())
