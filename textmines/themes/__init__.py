"""Themes: one TOML file per theme, turned into board colours, glyphs and a Textual theme.

A theme file has a top-level ``base`` key and three tables::

    base = "dark"            # keys left out come from this theme (default: "classic")

    [theme]                  # Textual's colours; the app registers them as a textual Theme
    name = "midnight"        # default: the file name without ".toml"
    dark = true
    primary = "#0178D4"      # any colour textual.color.Color.parse accepts; "auto" lets
    panel = "auto"           # Textual derive it (every colour but primary)

    [board]                  # each key becomes the CSS variable $mines-<key>
    number-1 = "#5fafff"

    [glyphs]                 # what the board and the header draw
    cell-width = 2
    flag = "⚑"

The bundled ``classic`` theme is the root: it sets every key and has no base, so any other theme is
complete once its chain of bases is applied. Underscores may stand for hyphens in key names
(``cell_width`` is ``cell-width``). A file with any problem is skipped as a whole with one warning:
a half-applied theme would look broken in ways that are hard to trace back to the file.

Importing this package does not import Textual or Rich (the command line's ``--version`` and
``--help`` should not wait for them); they load when a theme is checked or converted.

- ``model``: the keys, ``MinesTheme``, ``ThemeGlyphs``, ``ThemeError``
- ``color``: colour values, exactly as Textual parses them
- ``theme_file``: reading and checking one file, applying its base
- ``load``: the bundled and user themes in layers (``Themes``: the bundled ones read on
  first use), ``--theme`` lookup
- ``export``: the ``--list-themes`` text and ``--export-theme`` files
- ``textual_theme``: ``to_textual_theme``, the one place a theme becomes a Textual theme
"""

from typing import TYPE_CHECKING

from textmines.lazy import lazy_names
from textmines.themes.load import (
    BundledThemes,
    Themes,
    find_bundled_dir,
    load_theme_file,
    load_themes,
    resolve_theme_arg,
)
from textmines.themes.model import (
    AUTO,
    BOARD_KEYS,
    CELL_GLYPH_KEYS,
    CELL_WIDTHS,
    DEFAULT_THEME,
    FACE_KEYS,
    FACE_NAMES,
    FACE_WIDTH,
    GLYPH_KEYS,
    MAX_PROBLEMS,
    NAME_MAX_LENGTH,
    NUMBER_KEYS,
    ROOT_THEME,
    TABLES,
    THEME_COLOR_KEYS,
    TOP_LEVEL_KEYS,
    MinesTheme,
    ThemeError,
    ThemeGlyphs,
)
from textmines.themes.textual_theme import to_textual_theme

# ``--list-themes`` and ``--export-theme`` load their module; a game's start does not.
if TYPE_CHECKING:
    from textmines.themes.export import export_theme, list_themes_text

__getattr__ = lazy_names(__name__, {"export_theme": "export", "list_themes_text": "export"})


__all__ = [
    "AUTO",
    "BOARD_KEYS",
    "CELL_GLYPH_KEYS",
    "CELL_WIDTHS",
    "DEFAULT_THEME",
    "FACE_KEYS",
    "FACE_NAMES",
    "FACE_WIDTH",
    "GLYPH_KEYS",
    "MAX_PROBLEMS",
    "NAME_MAX_LENGTH",
    "NUMBER_KEYS",
    "ROOT_THEME",
    "TABLES",
    "THEME_COLOR_KEYS",
    "TOP_LEVEL_KEYS",
    "BundledThemes",
    "MinesTheme",
    "ThemeError",
    "ThemeGlyphs",
    "Themes",
    "export_theme",
    "find_bundled_dir",
    "list_themes_text",
    "load_theme_file",
    "load_themes",
    "resolve_theme_arg",
    "to_textual_theme",
]
