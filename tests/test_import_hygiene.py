"""The engine never pulls in the UI or the database."""

from __future__ import annotations

import ast
import subprocess
import sys


def loaded_among(imports: str, watched: set[str]) -> list[str]:
    """Those of the ``watched`` packages that a fresh Python has loaded after ``imports``."""
    code = (
        f"import sys, {imports};"
        f"print(sorted({watched!r} & {{m.split('.')[0] for m in sys.modules}}))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    return list(ast.literal_eval(result.stdout))


def test_engine_and_store_import_no_textual_or_rich() -> None:
    imports = "textmines.store, textmines.store.paths, textmines.store.settings"
    assert loaded_among(imports, {"textual", "rich"}) == []


def test_the_web_host_imports_no_textual_or_rich() -> None:
    # Issue 47.2: the --serve host is a program of its own beside the UI; its tabs are the
    # processes that run Textual.
    assert loaded_among("textmines.web.server", {"textual", "rich"}) == []


def test_engine_imports_no_textual_rich_or_sqlite() -> None:
    imports = "textmines.engine, textmines.engine.metrics"
    assert loaded_among(imports, {"textual", "rich", "sqlite3"}) == []


def test_cli_version(capsys: object) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "textmines", "--version"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0
    assert result.stdout.startswith("textmines ")


#: Modules a game's first frame does not need: each loads where it is first used (a game's
#: end, the statistics screen, a replay, a no-guess deal, the end-of-game box; SQLite and the
#: statistics store once the first frame is on screen, ``StatsKeeper``). Issue 36.10:
#: start-up had crept from 1.12x to 1.40x the trivial Textual app (benchmarks/startup.py).
NOT_AT_START = (
    "sqlite3",
    "textmines.engine.board_id",
    "textmines.engine.metrics",
    "textmines.engine.noguess",
    "textmines.engine.saved_game",
    "textmines.records",
    "textmines.replays.evf",
    "textmines.replays.recording",
    "textmines.store.stats.figures",
    "textmines.store.stats.opening",
    "textmines.store.stats.reasons",
    "textmines.store.stats.records",
    "textmines.store.stats.schema",
    "textmines.store.stats.store",
    "textmines.themes.export",
    "textmines.ui.drawing.ascii_filter",
    "textmines.ui.widgets.notice_widget",
    "textmines.ui.screens.game_over",
)


def test_a_start_loads_only_what_its_first_frame_needs() -> None:
    # The app as the command line makes it, short of running it, in a fresh process.
    code = (
        "import sys, textmines.cli, textmines.ui.app;"
        "textmines.ui.app.TextminesApp();"
        f"print(sorted(set(sys.modules) & set({NOT_AT_START!r})))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"
