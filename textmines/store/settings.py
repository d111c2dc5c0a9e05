"""The player's settings: ``settings.toml`` read with tomllib, written with tomli-w.

A bad settings file never stops the game: every problem becomes a warning for the player and the
affected keys fall back to their defaults.
"""

from __future__ import annotations

import difflib
import os
import tomllib
from collections.abc import Callable, Iterator
from functools import partial
from itertools import repeat
from pathlib import Path
from typing import Any, Final

from textmines.engine.presets import (
    FIRST_CLICK_RULES,
    MAX_SIDE,
    MIN_SIDE,
    PRESETS,
    check_board,
)
from textmines.store.paths import (
    BeyondTOMLLimits,
    FileTooLarge,
    NotRegularFile,
    move_aside,
    read_regular_file,
    refuse_read_only,
    toml_document,
    utf8_text,
    write_atomic,
)
from textmines.value import Value

BOARDS: Final = (*PRESETS, "custom")
#: The longest player name, in characters.
NAME_LENGTH: Final = 40
#: Cell sizes on screen, columns x rows; "fit" takes the largest at which the board fits.
ZOOMS: Final = ("fit", "2x1", "3x1", "3x2", "4x2", "6x3", "8x4", "10x5")
HEADER: Final = "# textmines settings\n"


class Settings(Value):
    """What the player chose last time; the defaults are what a new player gets."""

    board: str = "beginner"
    custom_width: int = 30
    custom_height: int = 20
    custom_mines: int = 100
    first_click: str = "opening"
    question_marks: bool = True
    left_click_chords: bool = True
    theme: str = "classic"
    no_guess: bool = False
    zoom: str = "fit"
    swap_mouse_buttons: bool = False
    #: The keys to start from (the UI knows the presets and checks the name).
    key_preset: str = "default"
    #: The ``[keys]`` table as written: (binding id, keys) pairs, e.g. ("app.hint", "i,h").
    #: Checked by the UI, which knows the actions; kept as written so a save never drops one.
    keys: tuple[tuple[str, str], ...] = ()
    #: The player's name, shown over their statistics ("": none given). In a browser it tells
    #: one browser's profile from another's.
    player_name: str = ""
    #: ``[host] url``: the ``--serve`` host whose leaderboard the statistics show, and which
    #: ``--challenge`` asks when given no address ("": none).
    host_url: str = ""


class _Rule(Value):
    """What one key accepts. Its type is the type of its default."""

    kind: type
    choices: tuple[str, ...] = ()
    low: int | None = None
    high: int | None = None
    #: For text: whether "" is a value (else it must hold more than spaces), and its length.
    blank: bool = False
    longest: int | None = None


_RULES: Final[dict[str, _Rule]] = {
    "board": _Rule(str, choices=BOARDS),
    "custom_width": _Rule(int, low=MIN_SIDE, high=MAX_SIDE),
    "custom_height": _Rule(int, low=MIN_SIDE, high=MAX_SIDE),
    "custom_mines": _Rule(int, low=1),
    "first_click": _Rule(str, choices=FIRST_CLICK_RULES),
    "question_marks": _Rule(bool),
    "left_click_chords": _Rule(bool),
    "theme": _Rule(str),
    "no_guess": _Rule(bool),
    "zoom": _Rule(str, choices=ZOOMS),
    "swap_mouse_buttons": _Rule(bool),
    "key_preset": _Rule(str),
    "player_name": _Rule(str, blank=True, longest=NAME_LENGTH),
}
_DEFAULTS: Final = Settings()


def clean_player_name(text: str) -> str:
    """``text`` as a player name: its words with one space between them, no control or
    formatting character (a name is drawn on the screen, where they would be commands to
    the terminal), at most ``NAME_LENGTH`` characters."""
    printable = "".join(char if char.isprintable() else " " for char in text)
    return " ".join(printable.split())[:NAME_LENGTH].rstrip()


def _show(value: object) -> str:
    """A value as the player would write it in TOML."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value)
    return str(value)


def _expected(rule: _Rule) -> str:
    if rule.choices:
        return "one of " + ", ".join(repr(choice) for choice in rule.choices)
    if rule.kind is bool:
        return "true or false"
    if rule.kind is int:
        if rule.high is None:
            return f"a whole number of at least {rule.low}"
        return f"a whole number from {rule.low} to {rule.high}"
    if rule.longest is not None:
        return f"a string of at most {rule.longest} characters"
    return "a non-empty string"


def _accepts(rule: _Rule, value: object) -> bool:
    # bool is a subclass of int, so `true` must not pass as a number.
    if isinstance(value, bool) != (rule.kind is bool) or not isinstance(value, rule.kind):
        return False
    if isinstance(value, str):
        if rule.choices:
            return value in rule.choices
        if rule.longest is not None and len(value) > rule.longest:
            return False
        return rule.blank or value.strip() != ""
    if isinstance(value, int) and not isinstance(value, bool):
        if rule.low is not None and value < rule.low:
            return False
        if rule.high is not None and value > rule.high:
            return False
    return True


def _check_custom(settings: Settings, name: str) -> tuple[Settings, list[str]]:
    width, height, mines = settings.custom_width, settings.custom_height, settings.custom_mines
    try:
        check_board(width, height, mines, settings.first_click)
    except ValueError as error:
        fallback = settings._replace(
            custom_width=_DEFAULTS.custom_width,
            custom_height=_DEFAULTS.custom_height,
            custom_mines=_DEFAULTS.custom_mines,
        )
        warning = (
            f"{name}: custom board {width}x{height} with {mines} mines is not playable "
            f"({error}); using {fallback.custom_width}x{fallback.custom_height} "
            f"with {fallback.custom_mines} mines"
        )
        return fallback, [warning]
    return settings, []


#: The largest settings file read: 50,000 ``[keys]`` entries take about 1 MB.
MAX_SETTINGS_BYTES: Final = 4_000_000
#: The most dots a line of settings.toml may hold (a [keys] entry has one or two).
MAX_DOTS: Final = 200


def _read(path: Path) -> tuple[dict[str, Any] | None, str | None]:
    """The parsed file (``None`` when missing or broken) and the problem, if any."""
    name = str(path)
    try:
        raw = read_regular_file(path, MAX_SETTINGS_BYTES)
    except FileNotFoundError:
        return None, None
    except (NotRegularFile, FileTooLarge) as error:
        # A FIFO would block the start, /dev/zero never end: refused before reading.
        return None, f"{name}: {error.strerror}; using default settings{_KEPT}"
    except OSError as error:
        reason = error.strerror or str(error)
        return None, f"{name}: cannot be read ({reason}); using default settings"
    try:
        text = utf8_text(raw)  # a byte-order mark (some Windows editors write one) is no error
        if max(map(str.count, text.splitlines(), repeat(".")), default=0) > MAX_DOTS:
            # tomllib takes time in the square of a dotted key's parts: a 1 MB key of
            # 150,000 parts would hold the start for minutes.
            return None, (
                f"{name}: a line of it holds more than {MAX_DOTS} dots, and no setting is a "
                f"key of that many parts; using default settings{_KEPT}"
            )
        # No limit of depth beyond what tomllib takes: the settings are read first thing,
        # near the bottom of the stack, and a [keys] entry nests as deep as it has parts.
        return toml_document(text, max_depth=None), None
    except UnicodeDecodeError:
        return None, f"{name}: is not UTF-8 text; using default settings{_KEPT}"
    except tomllib.TOMLDecodeError as error:
        return None, f"{name}: is not valid TOML ({error}); using default settings{_KEPT}"
    except BeyondTOMLLimits as error:  # valid TOML, maybe, but no settings file
        return None, f"{name}: {error}; using default settings{_KEPT}"


#: What becomes of a settings file that cannot be read as settings: never written over.
_KEPT: Final = " (a change of settings moves the file aside to a .bad name first)"


def load_settings(path: Path) -> tuple[Settings, list[str]]:
    """Read ``path``; return the settings and a warning for each problem found.

    A missing file gives the defaults silently. An unreadable or malformed file gives the defaults
    and one warning. Unknown keys and bad values are reported and skipped; the rest is kept.
    """
    document, problem = _read(path)
    if document is None:
        return _DEFAULTS, [problem] if problem else []
    return _settings_of(document, str(path))


def _settings_of(document: dict[str, Any], name: str) -> tuple[Settings, list[str]]:
    """The settings a parsed file ``name`` gives, and a warning for each problem found."""
    problems: list[str] = []
    values: dict[str, Any] = {}
    for key, value in document.items():
        if key == "keys":
            values["keys"] = _key_entries(value, problems)
            continue
        if key == "host":
            values["host_url"] = _host_url(value, problems)
            continue
        rule = _RULES.get(key)
        if rule is not None and _accepts(rule, value):
            values[key] = value
        else:
            _note(problems, partial(_problem, key, value, rule))
    settings, custom_warnings = _check_custom(Settings(**values), name)
    warnings = [_one_notice(name, problems)] if problems else []
    return settings, warnings + custom_warnings


def _key_entries(table: object, problems: list[str]) -> tuple[tuple[str, str], ...]:
    """The ``[keys]`` table as (binding id, keys) pairs. ``app.hint = "i"`` (a dotted key, read
    as a nested table) and ``"app.hint" = "i"`` are the same entry; a list of keys is joined."""
    if not isinstance(table, dict):
        _note(problems, lambda: f"'keys' must be a table ([keys]), not {_show(table)}; ignored")
        return ()
    entries: list[tuple[str, str]] = []
    # A stack, not recursion: a dotted key of many parts nests as deep. ``path`` holds the
    # names down to the table walked (``stack[i]`` walks the table at ``path[:i]``).
    path: list[str] = []
    stack: list[Iterator[tuple[str, Any]]] = [iter(table.items())]
    while stack:
        item = next(stack[-1], None)
        if item is None:
            stack.pop()
            if path:
                path.pop()
            continue
        name, value = item
        if isinstance(value, dict):
            path.append(name)
            stack.append(iter(value.items()))
            continue
        action = ".".join([*path, name])
        if isinstance(value, str) or (
            isinstance(value, list) and value and all(isinstance(k, str) for k in value)
        ):
            entries.append((action, value if isinstance(value, str) else ",".join(value)))
        else:
            _note(problems, partial(_bad_key_entry, action, value))
    return tuple(entries)


def _host_url(table: object, problems: list[str]) -> str:
    """``[host] url``: an http:// or https:// address with a host in it, or "" (with a
    problem said when it is something else)."""
    url = table.get("url", "") if isinstance(table, dict) else None
    if isinstance(url, str) and (url == "" or host_address_problem(url) is None):
        unknown = sorted(set(table) - {"url"}) if isinstance(table, dict) else []
        if unknown:
            _note(problems, lambda: f"[host] {unknown[0]!r} is unknown (only 'url'); ignored")
        return url.rstrip("/")
    example = '"http://club.example:8000"'
    if isinstance(table, dict):
        said = f"[host] url {_show(url)} is not an address like {example}; ignored"
    else:
        said = f"'host' must be a table ([host] url = {example}), not {_show(table)}; ignored"
    _note(problems, lambda: said)
    return ""


def host_address_problem(url: str) -> str | None:
    """Why ``url`` is not the address of a host (``http://HOST[:PORT]``), or None."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 (raises for a port that is not a number)
    except ValueError as error:
        return str(error)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return f"{url!r} is not an http:// or https:// address with a host"
    return None


def _bad_key_entry(action: str, value: object) -> str:
    return (
        f"[keys] {action} has value {_show(value)}, expected a key name like "
        '"ctrl+h" or a list of them; ignored'
    )


#: Problems named in the one notice about a settings file; the others are counted.
MAX_PROBLEMS = 5


def _note(problems: list[str], problem: Callable[[], str]) -> None:
    """Add ``problem()`` to the notice, or only count it once the notice names enough (a file
    may hold thousands: their messages, with close matches, are never worked out)."""
    problems.append(problem() if len(problems) < MAX_PROBLEMS else "")


def _problem(key: str, value: Any, rule: _Rule | None) -> str:
    if rule is None:
        close = difflib.get_close_matches(key, _RULES, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        return f"key {key!r} is unknown{hint}; ignored"
    default = getattr(_DEFAULTS, key)
    return (
        f"key {key!r} has value {_show(value)}, expected {_expected(rule)}; using {_show(default)}"
    )


def _one_notice(name: str, problems: list[str]) -> str:
    """One notice for a file however many problems it has."""
    shown = [problem for problem in problems if problem]
    more = len(problems) - len(shown)
    text = f"{name}: " + "; ".join(shown)
    return text + (f"; and {more:,} more problems" if more else "")


def save_settings(path: Path, settings: Settings) -> None:
    """Write ``settings`` to ``path`` atomically, creating its directory. Raises ``OSError``,
    ``ReadOnlyFile`` (a ``PermissionError``) for a file the user made read-only, which is
    never replaced."""
    import tomli_w  # here: settings are read at every start, written only when they change

    document: dict[str, Any] = {
        name: value
        for name, value in settings._asdict().items()
        if name not in ("keys", "host_url")
    }
    if settings.keys:
        document["keys"] = dict(settings.keys)
    if settings.host_url:
        document["host"] = {"url": settings.host_url}
    refuse_read_only(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, (HEADER + tomli_w.dumps(document)).encode("utf-8"))


def save_changes(path: Path, before: Settings, after: Settings) -> Settings:
    """Write what changed from ``before`` to ``after`` into ``path`` as it is now, and return
    the settings written.

    Another textmines (a second terminal, another browser tab) may have changed other keys
    since ``before`` was read: those are kept, not overwritten with this run's old values.
    Raises as ``save_settings`` does.
    """
    document, problem = _read(path)
    if problem is not None and os.path.lexists(path) and not path.is_dir():
        # Not valid TOML, not UTF-8, a FIFO: the player's own, kept rather than replaced.
        move_aside(path)
    current = _DEFAULTS if document is None else _settings_of(document, str(path))[0]
    changed = {
        name: value for name, value in after._asdict().items() if value != getattr(before, name)
    }
    merged = current._replace(**changed)
    save_settings(path, merged)
    return merged
