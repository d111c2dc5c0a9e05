"""Themes: one TOML file per theme, turned into a Textual theme plus board colours and glyphs.

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
"""

from __future__ import annotations

import difflib
import os
import tomllib
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

import tomli_w
from rich.cells import cell_len
from textual.color import Color, ColorParseError
from textual.theme import Theme

#: The theme every other theme ends up inheriting from; it must set every key.
ROOT_THEME: Final = "classic"
DEFAULT_THEME: Final = ROOT_THEME
#: Stands for "let Textual derive this colour" in the [theme] table.
AUTO: Final = "auto"

#: Textual's theme colours, in the order they are written out. ``primary`` cannot be ``auto``.
THEME_COLOR_KEYS: Final = (
    "primary",
    "secondary",
    "accent",
    "foreground",
    "background",
    "surface",
    "panel",
    "boost",
    "warning",
    "error",
    "success",
)
NUMBER_KEYS: Final = tuple(f"number-{n}" for n in range(1, 9))
#: Board colours; each is the CSS variable ``mines-<key>``.
BOARD_KEYS: Final = (
    *NUMBER_KEYS,
    "covered",
    "covered-glyph",
    "revealed",
    "cursor",
    "flag",
    "question",
    "mine",
    "exploded",
    "wrong",
    "digits",
    "digits-background",
)
#: Glyphs drawn inside one board cell; each at most ``cell-width`` columns wide.
CELL_GLYPH_KEYS: Final = (
    "covered",
    "flag",
    "question",
    "mine",
    "exploded",
    "wrong",
    "empty",
    *NUMBER_KEYS,
)
#: The smiley in the header, by the face names the header uses.
FACE_NAMES: Final = ("normal", "pressed", "won", "lost")
FACE_KEYS: Final = tuple(f"face-{face}" for face in FACE_NAMES)
GLYPH_KEYS: Final = ("cell-width", *CELL_GLYPH_KEYS, *FACE_KEYS)
CELL_WIDTHS: Final = (2, 3)
#: The header gives the face this many columns.
FACE_WIDTH: Final = 4
#: Keys of each table; the top level holds ``base`` and the tables.
TABLES: Final[dict[str, tuple[str, ...]]] = {
    "theme": ("name", "dark", *THEME_COLOR_KEYS),
    "board": BOARD_KEYS,
    "glyphs": GLYPH_KEYS,
}
TOP_LEVEL_KEYS: Final = ("base", *TABLES)
NAME_MAX_LENGTH: Final = 40
#: A one-line message lists at most this many problems of one file.
MAX_PROBLEMS: Final = 5

_PACKAGE_DIR: Final = Path(__file__).resolve().parent


class ThemeError(Exception):
    """A theme file or a theme argument cannot be used; ``str(error)`` is one plain line."""


@dataclass(frozen=True)
class ThemeGlyphs:
    """What the board and the header draw."""

    cell_width: int
    covered: str
    flag: str
    question: str
    mine: str
    exploded: str
    wrong: str
    empty: str
    numbers: tuple[str, ...]
    face_normal: str
    face_pressed: str
    face_won: str
    face_lost: str

    @property
    def faces(self) -> dict[str, str]:
        """The smiley by face name (``normal``, ``pressed``, ``won``, ``lost``)."""
        return {face: getattr(self, f"face_{face}") for face in FACE_NAMES}


@dataclass(frozen=True)
class MinesTheme:
    """A complete theme: every colour and glyph set, its bases already applied.

    Two themes compare equal when they look the same: ``base``, ``source`` and ``bundled`` say
    where a theme came from and are left out of the comparison.
    """

    name: str
    dark: bool
    #: [theme] colours by key; a value is a normalised colour or ``"auto"``.
    colors: Mapping[str, str]
    #: [board] colours by key (``number-1``...), normalised.
    board: Mapping[str, str]
    glyphs: ThemeGlyphs
    #: The theme this one inherited from; ``None`` for the root.
    base: str | None = field(default=None, compare=False)
    source: Path | None = field(default=None, compare=False)
    bundled: bool = field(default=False, compare=False)

    @property
    def ansi_only(self) -> bool:
        """Every colour is one of the 16 ANSI colours (``ansi_red``...). Textual converts those
        to RGB through its own terminal palette unless the app runs with ``ansi_color=True``,
        which such a theme may want so the terminal's palette shows."""
        colors = [*self.board.values(), *(c for c in self.colors.values() if c != AUTO)]
        return all(color.startswith("ansi_") for color in colors)

    def board_variables(self) -> dict[str, str]:
        """The board colours as CSS variables: ``{"mines-number-1": "#0000FF", ...}``."""
        return {f"mines-{key}": value for key, value in self.board.items()}

    def textual_theme(self) -> Theme:
        """A new ``textual.theme.Theme`` with this theme's colours and board variables."""
        color = {key: None if value == AUTO else value for key, value in self.colors.items()}
        return Theme(
            name=self.name,
            primary=self.colors["primary"],
            secondary=color["secondary"],
            accent=color["accent"],
            foreground=color["foreground"],
            background=color["background"],
            surface=color["surface"],
            panel=color["panel"],
            boost=color["boost"],
            warning=color["warning"],
            error=color["error"],
            success=color["success"],
            dark=self.dark,
            variables=self.board_variables(),
        )


# ----------------------------------------------------------------------------- reading a file


@dataclass
class _Parsed:
    """One file's checked values, before its base is applied."""

    name: str
    base: str | None  # as written; None when the file has no base key
    values: dict[tuple[str, str], Any]  # (table, key) -> value
    path: Path


def _show(value: object) -> str:
    """A value for a message: as TOML would write it, escaped, and never very long."""
    if isinstance(value, bool):
        return "true" if value else "false"
    text = repr(value) if isinstance(value, str) else str(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _join_problems(path: Path, problems: list[str]) -> str:
    shown = problems[:MAX_PROBLEMS]
    more = len(problems) - len(shown)
    tail = f"; and {more} more" if more else ""
    return f"{path}: " + "; ".join(shown) + tail


def _read_document(path: Path) -> dict[str, Any]:
    try:
        raw = path.read_bytes()
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise ThemeError(f"{path}: cannot be read ({reason})") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ThemeError(f"{path}: is not UTF-8 text (bad byte at offset {error.start})") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ThemeError(f"{path}: is not valid TOML: {error}") from None


def _suggest(key: str, choices: Iterable[str]) -> str:
    close = difflib.get_close_matches(key, list(choices), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _misplaced(key: str, choices: Iterable[str]) -> str:
    """Why ``key`` is not accepted here: the tables it belongs in, or the closest valid key."""
    if key == "base":
        # TOML puts every key after a [table] line into that table.
        return " must come before the first [table] line"
    homes = [f"[{table}]" for table, keys in TABLES.items() if key in keys]
    if homes:
        return f" belongs in the {' or '.join(homes)} table"
    return " is unknown" + _suggest(key, choices)


def _bad_characters(text: str) -> str | None:
    for char in text:
        if unicodedata.category(char) in ("Cc", "Cf", "Cs"):
            return f"U+{ord(char):04X}"
    return None


def _check_color(where: str, value: object, allow_auto: bool) -> tuple[str | None, str | None]:
    """The normalised colour and ``None``, or ``None`` and the problem."""
    if not isinstance(value, str):
        return None, f"{where} must be a colour in quotes, not {_show(value)}"
    if allow_auto and value == AUTO:
        return AUTO, None
    try:
        # .hex gives "#RRGGBB", "#RRGGBBAA" or "ansi_<name>": all safe inside a CSS variable.
        return Color.parse(value).hex, None
    except ColorParseError as error:
        hint = f" (did you mean {error.suggested_color!r}?)" if error.suggested_color else ""
        auto = ' or "auto"' if allow_auto else ""
        return None, f"{where} = {_show(value)} is not a colour{auto}{hint}"


def _check_glyph(where: str, value: object, key: str) -> str | None:
    if not isinstance(value, str):
        return f"{where} must be text in quotes, not {_show(value)}"
    bad = _bad_characters(value)
    if bad:
        return f"{where} = {_show(value)} contains the control character {bad}"
    if key in FACE_KEYS:
        if value == "":
            return f"{where} must not be empty"
        if cell_len(value) > FACE_WIDTH:
            return (
                f"{where} = {_show(value)} is {cell_len(value)} columns wide, "
                f"more than the {FACE_WIDTH} the header has"
            )
    return None


def _check_value(table: str, key: str, value: object) -> tuple[Any, str | None]:
    where = f"[{table}] {key}"
    if table == "theme" and key == "name":
        return _check_name(where, value)
    if table == "theme" and key == "dark":
        if not isinstance(value, bool):
            return None, f"{where} must be true or false, not {_show(value)}"
        return value, None
    if table == "theme":
        return _check_color(where, value, allow_auto=key != "primary")
    if table == "board":
        return _check_color(where, value, allow_auto=False)
    if key == "cell-width":
        if isinstance(value, bool) or value not in CELL_WIDTHS:
            return None, f"{where} must be 2 or 3, not {_show(value)}"
        return value, None
    problem = _check_glyph(where, value, key)
    return (None, problem) if problem else (value, None)


def _check_name(where: str, value: object) -> tuple[str | None, str | None]:
    if not isinstance(value, str):
        return None, f"{where} must be text in quotes, not {_show(value)}"
    if not value or value != value.strip():
        return None, f"{where} = {_show(value)} must be non-empty without outer spaces"
    if len(value) > NAME_MAX_LENGTH:
        return None, f"{where} is longer than {NAME_MAX_LENGTH} characters"
    if not value.isprintable() or "/" in value or "\\" in value:
        return None, f"{where} = {_show(value)} must be printable, without / or \\"
    return value, None


def _normalise_keys(where: str, table: Mapping[str, Any], problems: list[str]) -> dict[str, Any]:
    """Keys with underscores read as hyphens; a key given both ways is a problem."""
    result: dict[str, Any] = {}
    for key, value in table.items():
        canonical = key.replace("_", "-")
        if canonical in result:
            problems.append(f"{where}key {canonical!r} is given twice")
        result[canonical] = value
    return result


def _parse(document: Mapping[str, Any], path: Path) -> _Parsed:
    """Check every key and value of one file; raise ThemeError listing every problem."""
    problems: list[str] = []
    top = _normalise_keys("", document, problems)
    base: str | None = None
    values: dict[tuple[str, str], Any] = {}
    for key, value in top.items():
        if key == "base":
            base, problem = _check_name("base", value)
            if problem:
                problems.append(problem)
            continue
        if key not in TABLES:
            problems.append(f"top-level key {key!r}{_misplaced(key, TOP_LEVEL_KEYS)}")
            continue
        if not isinstance(value, dict):
            problems.append(f"{key!r} must be a table ([{key}]), not {_show(value)}")
            continue
        table = _normalise_keys(f"[{key}] ", value, problems)
        for inner, item in table.items():
            if inner not in TABLES[key]:
                problems.append(f"[{key}] key {inner!r}{_misplaced(inner, TABLES[key])}")
                continue
            checked, problem = _check_value(key, inner, item)
            if problem:
                problems.append(problem)
            else:
                values[(key, inner)] = checked
    if problems:
        raise ThemeError(_join_problems(path, problems))
    written = values.pop(("theme", "name"), None)
    name, problem = (written, None) if written else _check_name("the file name", path.stem)
    if problem or name is None:
        raise ThemeError(_join_problems(path, [problem or "no theme name"]))
    return _Parsed(name=name, base=base, values=values, path=path)


# ------------------------------------------------------------------------ applying the base


def _theme_values(theme: MinesTheme) -> dict[tuple[str, str], Any]:
    """Every (table, key) of a complete theme, as a file would give it."""
    glyphs = theme.glyphs
    values: dict[tuple[str, str], Any] = {("theme", "dark"): theme.dark}
    values.update({("theme", key): value for key, value in theme.colors.items()})
    values.update({("board", key): value for key, value in theme.board.items()})
    values[("glyphs", "cell-width")] = glyphs.cell_width
    for key in CELL_GLYPH_KEYS:
        if key.startswith("number-"):
            values[("glyphs", key)] = glyphs.numbers[int(key[-1]) - 1]
        else:
            values[("glyphs", key)] = getattr(glyphs, key)
    for face in FACE_NAMES:
        values[("glyphs", f"face-{face}")] = glyphs.faces[face]
    return values


def _build(
    parsed: _Parsed, base: MinesTheme | None, *, bundled: bool, base_name: str | None
) -> MinesTheme:
    """Apply ``base`` under ``parsed``; check that the result is complete and fits its cells."""
    inherited = _theme_values(base) if base is not None else {}
    values = {**inherited, **parsed.values}
    required = [("theme", "dark")]
    required += [(table, key) for table, keys in TABLES.items() for key in keys if key != "name"]
    missing = [f"[{table}] {key}" for table, key in required if (table, key) not in values]
    if missing:
        raise ThemeError(_join_problems(parsed.path, [f"missing keys: {', '.join(missing)}"]))

    width = values[("glyphs", "cell-width")]
    problems = []
    for key in CELL_GLYPH_KEYS:
        glyph = values[("glyphs", key)]
        if cell_len(glyph) > width:
            origin = "" if ("glyphs", key) in parsed.values else f" (from base {base_name!r})"
            problems.append(
                f"[glyphs] {key} = {_show(glyph)}{origin} is {cell_len(glyph)} columns wide, "
                f"more than cell-width {width}"
            )
    if problems:
        raise ThemeError(_join_problems(parsed.path, problems))

    glyph = {key: values[("glyphs", key)] for key in GLYPH_KEYS}
    return MinesTheme(
        name=parsed.name,
        dark=values[("theme", "dark")],
        colors=MappingProxyType({key: values[("theme", key)] for key in THEME_COLOR_KEYS}),
        board=MappingProxyType({key: values[("board", key)] for key in BOARD_KEYS}),
        glyphs=ThemeGlyphs(
            cell_width=width,
            covered=glyph["covered"],
            flag=glyph["flag"],
            question=glyph["question"],
            mine=glyph["mine"],
            exploded=glyph["exploded"],
            wrong=glyph["wrong"],
            empty=glyph["empty"],
            numbers=tuple(glyph[key] for key in NUMBER_KEYS),
            face_normal=glyph["face-normal"],
            face_pressed=glyph["face-pressed"],
            face_won=glyph["face-won"],
            face_lost=glyph["face-lost"],
        ),
        base=base_name,
        source=parsed.path,
        bundled=bundled,
    )


def _unknown_base(path: Path, base: str, known: Iterable[str]) -> ThemeError:
    names = sorted(known)
    hint = _suggest(base, names)
    return ThemeError(
        f"{path}: base theme {base!r} does not exist{hint}; known themes: {', '.join(names)}"
    )


def load_theme_file(path: Path, known: Mapping[str, MinesTheme]) -> MinesTheme:
    """Read one theme file; its ``base`` (default ``classic``) is looked up in ``known``.

    Raises ``ThemeError`` with a one-line message naming the file and every problem found.
    """
    parsed = _parse(_read_document(path), path)
    base_name = parsed.base or ROOT_THEME
    if base_name not in known:
        raise _unknown_base(path, base_name, known)
    return _build(parsed, known[base_name], bundled=False, base_name=base_name)


# ------------------------------------------------------------------------ loading everything


def find_bundled_dir(package_dir: Path = _PACKAGE_DIR) -> Path | None:
    """Where the bundled themes are: ``textmines/themes/`` in an installed wheel (the build
    copies the repository's ``themes/`` there), else ``themes/`` beside the package in a source
    checkout. ``None`` when neither has a ``classic.toml``."""
    for candidate in (package_dir / "themes", package_dir.parent / "themes"):
        if (candidate / f"{ROOT_THEME}.toml").is_file():
            return candidate
    return None


def _theme_files(directory: Path, warnings: list[str]) -> list[Path]:
    try:
        # Hidden files are editor backups and lock files, not themes.
        files = directory.iterdir()
        return sorted(path for path in files if path.suffix == ".toml" and path.name[0] != ".")
    except FileNotFoundError:
        return []
    except OSError as error:
        reason = error.strerror or type(error).__name__
        warnings.append(f"{directory}: themes cannot be listed ({reason}); none loaded from it")
        return []


def _load_layer(
    files: Sequence[Path],
    below: Mapping[str, MinesTheme],
    *,
    bundled: bool,
    warnings: list[str],
    explicit: Sequence[Path] = (),
    failures: dict[str, str] | None = None,
) -> dict[str, MinesTheme]:
    """Load files that may name each other as bases; a base not among them comes from
    ``below``. A theme whose base has its own name means the theme of that name in ``below``
    (so ``dark.toml`` with ``base = "dark"`` changes the bundled dark). Of two files with one
    theme name the later is used, with a warning unless the later is in ``explicit``.
    ``failures`` (if given) gets the error of each theme skipped, by its name (a file that
    cannot be read at all: by its file name)."""
    parsed: dict[str, _Parsed] = {}
    broken: dict[str, Path] = {}  # a file that failed, by the name it probably meant
    failed = failures if failures is not None else {}
    for path in files:
        try:
            item = _parse(_read_document(path), path)
        except ThemeError as error:
            warnings.append(f"{error}; theme skipped")
            broken[path.stem] = path
            failed[path.stem] = str(error)
            continue
        if item.name in parsed and path not in explicit:
            first = parsed[item.name].path
            warnings.append(
                f"{path}: theme {item.name!r} is also defined in {first}; this one is used"
            )
        parsed[item.name] = item

    def base_of(item: _Parsed) -> str | None:
        if item.base is None and bundled and item.name == ROOT_THEME:
            return None
        return item.base or ROOT_THEME

    done: dict[str, MinesTheme | None] = {}  # None: failed, already reported

    def resolve(name: str, chain: list[str]) -> MinesTheme | None:
        if name in done:
            return done[name]
        item = parsed[name]
        base_name = base_of(item)
        base: MinesTheme | None = None
        try:
            if base_name is None:
                pass
            elif base_name in parsed and base_name != name:
                if base_name in chain:
                    cycle = [*chain[chain.index(base_name) :], name]
                    text = " -> ".join([*cycle, base_name])
                    for member in cycle:
                        done[member] = None
                        path = parsed[member].path
                        failed[member] = f"{path}: bases form a cycle: {text}"
                        warnings.append(f"{failed[member]}; theme skipped")
                    return None
                base = resolve(base_name, [*chain, name])
                if name in done:  # a member of a cycle, already reported
                    return done[name]
                if base is None:
                    raise ThemeError(f"{item.path}: base theme {base_name!r} could not be loaded")
            elif base_name in below:
                base = below[base_name]
            elif base_name in broken:
                raise ThemeError(
                    f"{item.path}: base theme {base_name!r} could not be loaded "
                    f"({broken[base_name]} has problems)"
                )
            else:
                raise _unknown_base(item.path, base_name, {*below, *parsed} - {name})
            theme: MinesTheme | None = _build(item, base, bundled=bundled, base_name=base_name)
        except ThemeError as error:
            warnings.append(f"{error}; theme skipped")
            failed[name] = str(error)
            theme = None
        done[name] = theme
        return theme

    results = {name: resolve(name, []) for name in parsed}
    return {name: theme for name, theme in results.items() if theme is not None}


def load_themes(
    user_dir: Path | None,
    extra_files: Sequence[Path] = (),
    *,
    bundled_dir: Path | None = None,
    failures: dict[str, str] | None = None,
) -> tuple[dict[str, MinesTheme], list[str]]:
    """Every theme by name, and one warning per file that could not be used. Never raises.

    Order: ``classic``, the other bundled themes by name, then the ``*.toml`` files of
    ``user_dir`` by file name, then ``extra_files``. A user theme with the name of a bundled one
    replaces it (in the bundled one's place). Of two user files with one name the later is used,
    with a warning; an extra file replaces a user theme of its name quietly (it was asked for).
    ``bundled_dir`` defaults to :func:`find_bundled_dir`. ``failures`` (if given) gets the
    error of each user theme that could not be used, by name.
    """
    warnings: list[str] = []
    directory = bundled_dir or find_bundled_dir()
    if directory is None:
        warnings.append(f"bundled themes not found near {_PACKAGE_DIR}; is textmines installed?")
        bundled: dict[str, MinesTheme] = {}
    else:
        bundled = _load_layer(
            _theme_files(directory, warnings), {}, bundled=True, warnings=warnings
        )
    themes = dict(sorted(bundled.items(), key=lambda item: (item[0] != ROOT_THEME, item[0])))

    files = _theme_files(user_dir, warnings) if user_dir is not None else []
    seen = {os.path.realpath(path) for path in files}
    for path in extra_files:
        if os.path.realpath(path) not in seen:
            seen.add(os.path.realpath(path))
            files.append(path)
    layer = _load_layer(
        files, bundled, bundled=False, warnings=warnings, explicit=extra_files, failures=failures
    )
    themes.update(layer)
    return themes, warnings


def resolve_theme_arg(arg: str, themes: Mapping[str, MinesTheme]) -> MinesTheme:
    """The theme ``--theme ARG`` means: a known name, else a path to a ``.toml`` file.

    A path is loaded with :func:`load_theme_file` (its base from ``themes``). Raises
    ``ThemeError`` naming the known themes when ``arg`` is neither.
    """
    if arg in themes:
        return themes[arg]
    path = Path(arg).expanduser()
    looks_like_path = (
        any(sep in arg for sep in ("/", os.sep, os.altsep or "/"))
        or arg.endswith(".toml")
        or arg.startswith("~")
    )
    if looks_like_path or path.is_file():
        return load_theme_file(path, themes)
    hint = _suggest(arg, themes)
    names = ", ".join(themes)
    raise ThemeError(f"unknown theme {arg!r}{hint}; choose one of {names}, or a .toml file path")


# ----------------------------------------------------------------------------- showing themes


def list_themes_text(
    themes: Mapping[str, MinesTheme],
    current: str | None = None,
    broken: Mapping[str, str] | None = None,
) -> str:
    """The text of ``textmines --list-themes``: one line per theme, its origin and file.

    ``current`` (if given) is marked with ``*``. A user theme that replaces a bundled one says so.
    ``broken`` user themes (name: error) are listed after the others with their error.
    """
    broken = {name: error for name, error in (broken or {}).items() if name not in themes}
    bundled_dir = find_bundled_dir()
    bundled_names = (
        {path.stem for path in bundled_dir.glob("*.toml")} if bundled_dir is not None else set()
    )
    width = max((len(name) for name in [*themes, *broken]), default=0)
    lines = []
    for name, theme in themes.items():
        mark = "*" if name == current else " "
        origin = "bundled" if theme.bundled else "user   "
        where = str(theme.source) if theme.source is not None else "(built in)"
        notes = []
        if theme.base is not None and theme.base != name:
            notes.append(f"base {theme.base}")
        if not theme.bundled and name in bundled_names:
            notes.append("replaces the bundled theme")
        note = f"  ({'; '.join(notes)})" if notes else ""
        lines.append(f"{mark} {name:<{width}}  {origin}  {where}{note}")
    for name, error in broken.items():
        mark = "*" if name == current else " "
        lines.append(f"{mark} {name:<{width}}  broken   {error}")
    return "\n".join(lines) + "\n"


def export_theme(theme: MinesTheme) -> str:
    """A complete theme file for ``theme``: loading it gives back an equal theme.

    Every key is written, so the file needs no base; the header says how to trim it.
    """
    values = _theme_values(theme)
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
