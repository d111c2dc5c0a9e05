"""The engine never pulls in the UI or the database."""

from __future__ import annotations

import subprocess
import sys


def test_engine_and_store_import_no_textual_or_rich() -> None:
    code = (
        "import sys, textmines.store, textmines.store.paths, textmines.store.settings;"
        "bad = {'textual', 'rich'} & {m.split('.')[0] for m in sys.modules};"
        "print(sorted(bad))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


def test_engine_imports_no_textual_rich_or_sqlite() -> None:
    code = (
        "import sys, textmines.engine, textmines.engine.metrics;"
        "bad = {'textual', 'rich', 'sqlite3'} & {m.split('.')[0] for m in sys.modules};"
        "print(sorted(bad))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


def test_cli_version(capsys: object) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "textmines", "--version"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0
    assert result.stdout.startswith("textmines ")
