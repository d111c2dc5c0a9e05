"""Themes shown to the player: the ``--list-themes`` listing and a theme written out as a file."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from textmines.printable import printable
from textmines.themes.load import find_bundled_dir
from textmines.themes.model import TABLES, MinesTheme, theme_values


def list_themes_text(
    themes: Mapping[str, MinesTheme],
    current: str | None = None,
    broken: Mapping[str, str] | None = None,
) -> str:
    """The text of ``textmines --list-themes``: one line per theme, its origin and file.

    ``current`` (if given) is marked with ``*``. A user theme that replaces a bundled one says so.
    ``broken`` themes (name: error: the player's, and any bundled one found broken as it is
    read here) are listed after the others with their error. Names, files and errors come
    from the player's files: what in them is not printable is shown escaped (``printable``),
    one line a theme.
    """
    shown = list(themes.items())  # first: a theme that fails to load may join ``broken``
    broken = {name: error for name, error in (broken or {}).items() if name not in themes}
    bundled_dir = find_bundled_dir()
    bundled_names = (
        {path.stem for path in bundled_dir.glob("*.toml")} if bundled_dir is not None else set()
    )
    width = max(
        (len(printable(name)) for name in [*(name for name, _ in shown), *broken]), default=0
    )
    lines = []
    for name, theme in shown:
        mark = "*" if name == current else " "
        origin = "bundled" if theme.bundled else "user   "
        where = str(theme.source) if theme.source is not None else "(built in)"
        notes = []
        if theme.base is not None and theme.base != name:
            notes.append(f"base {theme.base}")
        if not theme.bundled and name in bundled_names:
            notes.append("replaces the bundled theme")
        note = f"  ({'; '.join(notes)})" if notes else ""
        lines.append(printable(f"{mark} {printable(name):<{width}}  {origin}  {where}{note}"))
    for name, error in broken.items():
        mark = "*" if name == current else " "
        lines.append(printable(f"{mark} {printable(name):<{width}}  broken   {error}"))
    return "\n".join(lines) + "\n"


def export_theme(theme: MinesTheme) -> str:
    """A complete theme file for ``theme``: loading it gives back an equal theme.

    Every key is written, so the file needs no base; the header says how to trim it.
    """
    import tomli_w  # here: the package loads at every start, a theme is exported rarely

    values = theme_values(theme)
    document: dict[str, dict[str, Any]] = {
        table: {key: theme.name if key == "name" else values[(table, key)] for key in keys}
        for table, keys in TABLES.items()
    }
    header = (
        f"# textmines theme {theme.name!r}, exported with every key set.\n"
        "# Keys you delete are taken from the base theme: classic, or the one named by a\n"
        '# top-level  base = "name"  line. Colours: anything Textual parses ("#rrggbb", "red",\n'
        '# "rgb(1,2,3)", "ansi_red"); "auto" lets Textual derive a [theme] colour.\n'
        "# [board] keys become the CSS variables $mines-<key>.\n\n"
    )
    return header + tomli_w.dumps(document)
