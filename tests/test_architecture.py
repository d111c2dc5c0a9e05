"""The layers hold: ui -> session -> store -> engine, no Textual below the UI, no cycles.

The contracts live in pyproject.toml ([tool.importlinter]); `lint-imports` checks them by hand.
"""

from __future__ import annotations

import ast
import graphlib
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "textmines"


def test_the_import_contracts_are_kept() -> None:
    from importlinter.cli import lint_imports

    status = lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True)
    assert status == 0, "an import contract is broken: run lint-imports to see which"


def test_the_whole_import_graph_has_no_cycles() -> None:
    # The acyclic_siblings contract looks inside each package; this looks at every module,
    # a package's __init__ and its submodules included, as import-linter's graph has them.
    import grimp

    graph = grimp.build_graph("textmines")
    sorter = graphlib.TopologicalSorter(
        {m: graph.find_modules_directly_imported_by(m) for m in graph.modules}
    )
    try:
        sorter.prepare()
    except graphlib.CycleError as error:
        # graphlib lists each module before the one that imports it; reversed, each imports
        # the next.
        cycle = " imports ".join(reversed(error.args[1]))
        raise AssertionError(f"import cycle: {cycle}") from None


def non_ui_modules() -> list[str]:
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if "ui" in parts or parts[-1] == "__main__":  # __main__ would run the game
            continue
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


#: Imports every module named on the command line in turn, in one fresh interpreter, and
#: prints each one that Textual or Rich came in with (none may).
_HYGIENE = """
import importlib, sys
for name in sys.argv[1:]:
    importlib.import_module(name)
    loaded = sorted({m.split('.')[0] for m in sys.modules} & {'textual', 'rich'})
    if loaded:
        print(name, 'loads', ', '.join(loaded))
        break
"""


def test_non_ui_modules_load_no_textual_or_rich() -> None:
    # What each module loads at import time (lazily imported names aside). Once one offends,
    # the rest would be blamed for it too: the first offender is the one named.
    result = subprocess.run(
        [sys.executable, "-c", _HYGIENE, *non_ui_modules()],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    assert result.stdout.strip() == ""


def test_no_module_imports_private_names_of_another() -> None:
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if (
                isinstance(node, ast.ImportFrom)
                and node.module
                and node.module.startswith("textmines")
            ):
                private = [
                    a.name
                    for a in node.names
                    if a.name.startswith("_") and not a.name.endswith("__")  # __version__ is public
                ]
                if private:
                    offenders.append(f"{path.relative_to(ROOT)}: {node.module} {private}")
    assert offenders == []


#: Functions that are declarative data (a table written as code), not logic.
LONG_DATA = {"textmines/ui/menu/game_menus.py:game_menus"}
#: The longest function the code may have.
MAX_FUNCTION_LINES = 60


def test_no_function_is_longer_than_sixty_lines() -> None:
    long = []
    for path in sorted(PACKAGE.rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        for node in ast.walk(ast.parse(path.read_text(), name)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > MAX_FUNCTION_LINES and f"{name}:{node.name}" not in LONG_DATA:
                    long.append(f"{name}:{node.lineno} {node.name} ({lines} lines)")
    assert long == []
