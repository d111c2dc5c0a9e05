"""One theme file: read it, check every key and value, and complete it on top of its base.

Every problem of a file is collected into one ``ThemeError`` line, so a player fixes them all in
one go.
"""

from __future__ import annotations

import difflib
import re
import tomllib
import unicodedata
from collections.abc import Iterable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

from textmines.store.paths import (
    BeyondTOMLLimits,
    FileTooLarge,
    NotRegularFile,
    read_regular_file,
    toml_document,
    utf8_text,
)
from textmines.themes.color import ColorSyntaxError, normalise_color
from textmines.themes.model import (
    AUTO,
    BOARD_KEYS,
    CELL_GLYPH_KEYS,
    CELL_WIDTHS,
    FACE_KEYS,
    FACE_WIDTH,
    GLYPH_KEYS,
    MAX_PROBLEMS,
    NAME_MAX_LENGTH,
    NUMBER_KEYS,
    TABLES,
    THEME_COLOR_KEYS,
    TOP_LEVEL_KEYS,
    MinesTheme,
    ThemeError,
    ThemeGlyphs,
    theme_values,
)
from textmines.value import Value


class ThemeFile(Value):
    """One file's checked values, before its base is applied."""

    name: str
    #: As written; ``None`` when the file has no ``base`` key.
    base: str | None
    #: (table, key) -> value, every one checked; the name is in ``name``.
    values: dict[tuple[str, str], Any]
    path: Path


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` with the closest of ``choices``, or ``""``."""
    close = difflib.get_close_matches(word, list(choices), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _columns(text: str) -> int:
    # Rich measures as the board draws; imported here so that importing themes stays cheap.
    from rich.cells import cell_len

    return cell_len(text)


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
        raw = read_regular_file(path, MAX_THEME_BYTES)
    except NotRegularFile:
        raise ThemeError(f"{path}: is not a regular file; a theme is a .toml text file") from None
    except FileTooLarge:
        raise ThemeError(
            f"{path}: is larger than {MAX_THEME_BYTES // 1_000_000} MB; a theme is a few KB"
        ) from None
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise ThemeError(f"{path}: cannot be read ({reason})") from None
    try:
        text = utf8_text(raw)  # a byte-order mark (Notepad writes one) is no error
    except UnicodeDecodeError as error:
        raise ThemeError(f"{path}: is not UTF-8 text (bad byte at offset {error.start})") from None
    try:
        return toml_document(text)
    except tomllib.TOMLDecodeError as error:
        raise ThemeError(f"{path}: is not valid TOML: {error}") from None
    except BeyondTOMLLimits as error:  # valid TOML, maybe, but no theme
        raise ThemeError(f"{path}: {error}") from None


def _misplaced(key: str, choices: Iterable[str]) -> str:
    """Why ``key`` is not accepted here: the tables it belongs in, or the closest valid key."""
    if key == "base":
        # TOML puts every key after a [table] line into that table.
        return " must come before the first [table] line"
    homes = [f"[{table}]" for table, keys in TABLES.items() if key in keys]
    if homes:
        return f" belongs in the {' or '.join(homes)} table"
    return " is unknown" + did_you_mean(key, choices)


def _bad_characters(text: str) -> str | None:
    for char in text:
        # The zero-width joiner is a format character too; _unsure_width says why it goes.
        if unicodedata.category(char) in ("Cc", "Cf", "Cs") and char != ZERO_WIDTH_JOINER:
            return f"U+{ord(char):04X}"
    return None


ZERO_WIDTH_JOINER: Final = "\u200d"
_MARKS: Final = ("Mn", "Me", "Mc")


def _unsure_width(text: str) -> str | None:
    """Why a terminal may draw ``text`` at another width than the board measures it (the
    row then runs wide, or short, and the grid breaks), or None.

    These are the characters that change how the one before them is drawn, each terminal in
    its own way. East Asian ambiguous characters (the classic theme's covered cell, a box) are
    taken as one column, as terminals draw them unless set for CJK: refusing them would
    refuse the bundled themes.
    """
    for char in text:
        code = ord(char)
        where = f"U+{code:04X}"
        if 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF:
            return (
                f"contains the variation selector {where}: terminals draw the character "
                "before it 1 or 2 columns wide (as text or as an emoji); remove it"
            )
        if char == ZERO_WIDTH_JOINER:
            return (
                f"contains the zero-width joiner {where}: terminals draw the emoji it joins "
                "as one or side by side; use a single character"
            )
        if 0x1F3FB <= code <= 0x1F3FF:
            return (
                f"contains the skin-tone modifier {where}: terminals draw it on the emoji "
                "before it or beside it; remove it"
            )
        if 0x1F1E6 <= code <= 0x1F1FF:
            return (
                f"contains the regional indicator {where}: terminals draw a pair of them (a "
                "flag) 1, 2 or 4 columns wide; use another character"
            )
        if unicodedata.category(char) in _MARKS:
            composed = unicodedata.normalize("NFC", text)
            whole = not any(unicodedata.category(c) in _MARKS for c in composed)
            fix = f"write {_show(composed)} instead" if whole else "remove it"
            return (
                f"contains the combining mark {where}: terminals draw it on the character "
                f"before it or in a column of its own; {fix}"
            )
        if _columns(char) == 0:
            return f"contains {where}, which has no width of its own: terminals differ; remove it"
    return None


def _check_color(where: str, value: object, allow_auto: bool) -> tuple[str | None, str | None]:
    """The normalised colour and ``None``, or ``None`` and the problem."""
    if not isinstance(value, str):
        return None, f"{where} must be a colour in quotes, not {_show(value)}"
    if allow_auto and value == AUTO:
        return AUTO, None
    try:
        return normalise_color(value), None
    except ColorSyntaxError as error:
        hint = f" (did you mean {error.suggestion!r}?)" if error.suggestion else ""
        auto = ' or "auto"' if allow_auto else ""
        return None, f"{where} = {_show(value)} is not a colour{auto}{hint}"


#: The glyphs a player must be able to see (the covered and empty cells may be blank).
MUST_SHOW: Final = frozenset(CELL_GLYPH_KEYS) - {"covered", "empty"}


def _check_glyph(where: str, value: object, key: str) -> str | None:
    if not isinstance(value, str):
        return f"{where} must be text in quotes, not {_show(value)}"
    bad = _bad_characters(value)
    if bad:
        return f"{where} = {_show(value)} contains the control character {bad}"
    if key in MUST_SHOW and _columns(value.strip()) == 0:
        # A flag or a number nobody can see plays as a board that lies.
        return f"{where} = {_show(value)} shows nothing: it needs a visible character"
    unsure = _unsure_width(value)
    if unsure:
        return f"{where} = {_show(value)} {unsure}"
    if key in FACE_KEYS:
        if value == "":
            return f"{where} must not be empty"
        if _columns(value) > FACE_WIDTH:
            return (
                f"{where} = {_show(value)} is {_columns(value)} columns wide, "
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


#: What a theme name may hold: letters and digits (any script), spaces and . _ + -.
_SAFE_NAME: Final = re.compile(r"[^\W_][\w .+-]*")


def _check_name(where: str, value: object) -> tuple[str | None, str | None]:
    if not isinstance(value, str):
        return None, f"{where} must be text in quotes, not {_show(value)}"
    if not value or value != value.strip():
        return None, f"{where} = {_show(value)} must be non-empty without outer spaces"
    if len(value) > NAME_MAX_LENGTH:
        return None, f"{where} is longer than {NAME_MAX_LENGTH} characters"
    if not _SAFE_NAME.fullmatch(value):
        # Names are shown in lists that read markup (Textual's own theme picker among them):
        # "[@click=app.quit]Q" must not become a button that quits.
        return None, (
            f"{where} = {_show(value)} may hold only letters, digits, spaces and . _ + -, "
            "and must start with a letter or digit"
        )
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


def _parse(document: Mapping[str, Any], path: Path) -> ThemeFile:
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
    return ThemeFile(name=name, base=base, values=values, path=path)


#: The largest theme file read: a theme is a few kilobytes.
MAX_THEME_BYTES: Final = 1_000_000


def read_theme_file(path: Path) -> ThemeFile:
    """Read and check one theme file, its base not applied yet.

    Raises ``ThemeError`` with a one-line message naming the file and every problem found.
    """
    return _parse(_read_document(path), path)


def build_theme(
    parsed: ThemeFile, base: MinesTheme | None, *, bundled: bool, base_name: str | None
) -> MinesTheme:
    """Apply ``base`` under ``parsed``; check that the result is complete and fits its cells."""
    inherited = theme_values(base) if base is not None else {}
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
        if _columns(glyph) > width:
            origin = "" if ("glyphs", key) in parsed.values else f" (from base {base_name!r})"
            problems.append(
                f"[glyphs] {key} = {_show(glyph)}{origin} is {_columns(glyph)} columns wide, "
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
