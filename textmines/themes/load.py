"""Every theme the game knows: the bundled ones, the player's, and the one ``--theme`` names.

Themes come in layers: the bundled themes, then the player's theme folder and any extra files.
Within a layer themes may name each other as bases in any file order; a base outside the layer
comes from the layer below.

The bundled layer is read lazily: a start needs only the theme it shows and its bases, and
reading and checking the other files was a measurable part of launching (issue 36.10).
"""

from __future__ import annotations

import os
from collections.abc import (
    ItemsView,
    Iterable,
    Iterator,
    Mapping,
    MutableMapping,
    Sequence,
    ValuesView,
)
from pathlib import Path
from typing import Final

from textmines.engine.quoting import quoted
from textmines.themes.model import ROOT_THEME, MinesTheme, ThemeError
from textmines.themes.theme_file import ThemeFile, build_theme, did_you_mean, read_theme_file

#: The ``textmines`` package folder.
_PACKAGE_DIR: Final = Path(__file__).resolve().parents[1]
#: Where the wheel puts the repository's ``themes/`` folder, inside the package.
BUNDLED_FOLDER: Final = "bundled_themes"


def _unknown_base(path: Path, base: str, known: Iterable[str]) -> ThemeError:
    names = sorted(known)
    hint = did_you_mean(base, names)
    return ThemeError(
        f"{path}: base theme {base!r} does not exist{hint}; known themes: {', '.join(names)}"
    )


def load_theme_file(
    path: Path, known: Mapping[str, MinesTheme], broken: Mapping[str, str] | None = None
) -> MinesTheme:
    """Read one theme file; its ``base`` (default ``classic``) is looked up in ``known``
    (a base among the ``broken`` themes, name: error, is reported with its own error).

    Raises ``ThemeError`` with a one-line message naming the file and every problem found.
    """
    parsed = read_theme_file(path)
    base_name = parsed.base or ROOT_THEME
    if base_name not in known and broken and base_name in broken:
        raise ThemeError(
            f"{path}: base theme {base_name!r} could not be loaded ({broken[base_name]})"
        )
    if base_name not in known:
        raise _unknown_base(path, base_name, known)
    return build_theme(parsed, known[base_name], bundled=False, base_name=base_name)


def find_bundled_dir(package_dir: Path = _PACKAGE_DIR) -> Path | None:
    """Where the bundled themes are: ``textmines/bundled_themes/`` in an installed wheel (the
    build copies the repository's ``themes/`` there), else ``themes/`` beside the package in a
    source checkout. ``None`` when neither has a ``classic.toml``."""
    for candidate in (package_dir / BUNDLED_FOLDER, package_dir.parent / "themes"):
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


def _bundled_order(name: str) -> tuple[bool, str]:
    return (name != ROOT_THEME, name)


class BundledThemes(Mapping[str, MinesTheme]):
    """The bundled themes by name, ``classic`` first, then by name. A bundled theme's file is
    named after it, so the names come from the folder's listing; a theme is read and checked
    (with its bases) the first time it is looked up, then kept.

    A bundled theme that cannot be loaded means a broken install: looking it up raises
    ``KeyError`` (so ``name in bundled`` is false), and its error goes once to ``broken``, to
    ``warnings`` (``...; theme skipped``, as for any theme file) and to ``failures`` (by name,
    unless a theme of the player's of that name failed first).
    """

    def __init__(
        self,
        directory: Path | None,
        warnings: list[str] | None = None,
        failures: dict[str, str] | None = None,
    ) -> None:
        self.warnings = warnings if warnings is not None else []
        self.failures = failures if failures is not None else {}
        #: The error of each bundled theme found broken, by name.
        self.broken: dict[str, str] = {}
        found = _theme_files(directory, self.warnings) if directory is not None else []
        #: Each bundled theme's file, by theme name, in the order themes are listed.
        self.files = {
            path.stem: path for path in sorted(found, key=lambda p: _bundled_order(p.stem))
        }
        self._themes: dict[str, MinesTheme] = {}
        self._reading: list[str] = []  # the chain of bases being read, to catch a cycle

    def __iter__(self) -> Iterator[str]:
        return iter(self.files)

    def __len__(self) -> int:
        return len(self.files)

    def __getitem__(self, name: str) -> MinesTheme:
        theme = self._themes.get(name)
        if theme is not None:
            return theme
        if name not in self.files or name in self.broken:
            raise KeyError(name)
        self._reading.append(name)
        try:
            theme = self._read(self.files[name])
        except ThemeError as error:
            self.broken[name] = str(error)
            self.failures.setdefault(name, str(error))
            self.warnings.append(f"{error}; theme skipped")
            raise KeyError(name) from None
        finally:
            self._reading.pop()
        self._themes[name] = theme
        return theme

    def _read(self, path: Path) -> MinesTheme:
        item = read_theme_file(path)
        if item.name != path.stem:
            raise ThemeError(
                f"{path}: names the theme {item.name!r}; a bundled theme's file is named after it"
            )
        if item.base is None and item.name == ROOT_THEME:
            return build_theme(item, None, bundled=True, base_name=None)
        base_name = item.base or ROOT_THEME
        if base_name in self._reading:
            chain = " -> ".join([*self._reading[self._reading.index(base_name) :], base_name])
            raise ThemeError(f"{path}: bases form a cycle: {chain}")
        if base_name not in self.files:
            raise _unknown_base(path, base_name, set(self.files) - {item.name})
        if base_name not in self:
            raise ThemeError(f"{path}: base theme {base_name!r} could not be loaded")
        return build_theme(item, self[base_name], bundled=True, base_name=base_name)


class Themes(MutableMapping[str, MinesTheme]):
    """Themes by name, in the order they are listed; a bundled theme is read from its file the
    first time it is looked up (see :class:`BundledThemes`).

    Iterating over the names reads no file. ``values()``, ``items()`` and comparing read every
    theme not read yet; a bundled one that cannot be loaded then leaves the table (as it does
    when looked up), its error in ``broken``. ``Themes(other)`` copies ``other``; the copy of
    a ``Themes`` shares its bundled themes and reads nothing.
    """

    def __init__(self, themes: Mapping[str, MinesTheme] | None = None) -> None:
        #: The bundled layer this table reads its not-yet-read themes from.
        self.bundled: BundledThemes
        # None: the bundled theme of that name, read from ``bundled`` when asked for.
        self._entries: dict[str, MinesTheme | None]
        if isinstance(themes, Themes):
            self.bundled, self._entries = themes.bundled, dict(themes._entries)
        else:
            self.bundled, self._entries = BundledThemes(None), dict(themes or {})

    @classmethod
    def layered(cls, bundled: BundledThemes, own: Mapping[str, MinesTheme]) -> Themes:
        """The ``bundled`` themes in their order, each replaced in place by the theme of its
        name in ``own``, then the rest of ``own`` in its order."""
        table = cls()
        table.bundled = bundled
        table._entries = {**dict.fromkeys(bundled), **own}
        return table

    @property
    def broken(self) -> Mapping[str, str]:
        """The error of each bundled theme found broken so far, by name."""
        return self.bundled.broken

    def __getitem__(self, name: str) -> MinesTheme:
        theme = self._entries[name]
        if theme is not None:
            return theme
        try:
            return self.bundled[name]
        except KeyError:
            del self._entries[name]  # a broken install: not a theme (its warning says why)
            raise

    def __setitem__(self, name: str, theme: MinesTheme) -> None:
        self._entries[name] = theme

    def __delitem__(self, name: str) -> None:
        del self._entries[name]

    def __iter__(self) -> Iterator[str]:
        # Over a copy: looking a theme up may drop it from the table.
        return iter(list(self._entries))

    def __len__(self) -> int:
        return len(self._entries)

    def read_all(self) -> None:
        """Read every theme not read yet (those that fail leave the table)."""
        for name in self:
            self.get(name)

    def items(self) -> ItemsView[str, MinesTheme]:
        self.read_all()
        return super().items()

    def values(self) -> ValuesView[MinesTheme]:
        self.read_all()
        return super().values()


def _load_layer(
    files: Sequence[Path],
    below: BundledThemes,
    *,
    warnings: list[str],
    explicit: Sequence[Path] = (),
    failures: dict[str, str] | None = None,
) -> dict[str, MinesTheme]:
    """Load the player's files, which may name each other as bases; a base not among them is
    a bundled theme (read from ``below`` as it is needed). A theme whose base has its own name
    means the bundled theme of that name (so ``dark.toml`` with ``base = "dark"`` changes the
    bundled dark). Of two files with one theme name the later is used, with a warning unless
    the later is in ``explicit``. ``failures`` (if given) gets the error of each theme skipped,
    by its name (a file that cannot be read at all: by its file name)."""
    layer = _Layer(below, warnings, failures if failures is not None else {})
    for path in files:
        layer.read(path, explicit)
    results = {name: layer.resolve(name, []) for name in layer.parsed}
    return {name: theme for name, theme in results.items() if theme is not None}


class _Layer:
    """The player's theme files as they are resolved, on the bundled themes."""

    def __init__(self, below: BundledThemes, warnings: list[str], failed: dict[str, str]) -> None:
        self.below, self.warnings, self.failed = below, warnings, failed
        self.parsed: dict[str, ThemeFile] = {}
        self.broken: dict[str, Path] = {}  # a file that failed, by the name it probably meant
        self.done: dict[str, MinesTheme | None] = {}  # None: failed, already reported

    def read(self, path: Path, explicit: Sequence[Path]) -> None:
        try:
            item = read_theme_file(path)
        except ThemeError as error:
            self.warnings.append(f"{error}; theme skipped")
            self.broken[path.stem] = path
            self.failed[path.stem] = str(error)
            return
        if item.name in self.parsed and path not in explicit:
            first = self.parsed[item.name].path
            self.warnings.append(
                f"{path}: theme {item.name!r} is also defined in {first}; this one is used"
            )
        self.parsed[item.name] = item

    def resolve(self, name: str, chain: list[str]) -> MinesTheme | None:
        """The theme ``name`` on its base (None: it failed, and that was reported)."""
        if name in self.done:
            return self.done[name]
        item = self.parsed[name]
        base_name = item.base or ROOT_THEME
        try:
            base = self._base(item, base_name, chain)
            if name in self.done:  # a member of a cycle, already reported
                return self.done[name]
            theme = build_theme(item, base, bundled=False, base_name=base_name)
        except ThemeError as error:
            self.warnings.append(f"{error}; theme skipped")
            self.failed[name] = str(error)
            theme = None
        self.done[name] = theme
        return theme

    def _base(self, item: ThemeFile, base_name: str, chain: list[str]) -> MinesTheme | None:
        name = item.name
        if base_name in self.parsed and base_name != name:
            if base_name in chain:
                self._report_cycle([*chain[chain.index(base_name) :], name], base_name)
                return None
            base = self.resolve(base_name, [*chain, name])
            if base is None and name not in self.done:
                raise ThemeError(f"{item.path}: base theme {base_name!r} could not be loaded")
            return base
        if base_name in self.below:
            return self.below[base_name]
        broken = self.broken.get(base_name)
        if broken is None and base_name in self.below.broken:
            broken = self.below.files[base_name]
        if broken is not None:
            raise ThemeError(
                f"{item.path}: base theme {base_name!r} could not be loaded ({broken} has problems)"
            )
        raise _unknown_base(item.path, base_name, {*self.below, *self.parsed} - {name})

    def _report_cycle(self, cycle: list[str], base_name: str) -> None:
        text = " -> ".join([*cycle, base_name])
        for member in cycle:
            self.done[member] = None
            self.failed[member] = f"{self.parsed[member].path}: bases form a cycle: {text}"
            self.warnings.append(f"{self.failed[member]}; theme skipped")


def load_themes(
    user_dir: Path | None,
    extra_files: Sequence[Path] = (),
    *,
    bundled_dir: Path | None = None,
    failures: dict[str, str] | None = None,
) -> tuple[Themes, list[str]]:
    """Every theme by name, and one warning per file that could not be used. Never raises.

    Order: ``classic``, the other bundled themes by name, then the ``*.toml`` files of
    ``user_dir`` by file name, then ``extra_files``. A user theme with the name of a bundled one
    replaces it (in the bundled one's place). Of two user files with one name the later is used,
    with a warning; an extra file replaces a user theme of its name quietly (it was asked for).
    ``bundled_dir`` defaults to :func:`find_bundled_dir`. ``failures`` (if given) gets the
    error of each user theme that could not be used, by name.

    The player's files are read now; a bundled theme is read when it is first looked up (a
    user theme's base: now). One that cannot be loaded then (a broken install) adds its
    warning to the list returned and its error to ``failures``, and leaves the themes.
    """
    warnings: list[str] = []
    failures = failures if failures is not None else {}
    directory = bundled_dir or find_bundled_dir()
    if directory is None:
        warnings.append(f"bundled themes not found near {_PACKAGE_DIR}; is textmines installed?")
    bundled = BundledThemes(directory, warnings, failures)

    files = _theme_files(user_dir, warnings) if user_dir is not None else []
    seen = {os.path.realpath(path) for path in files}
    for path in extra_files:
        if os.path.realpath(path) not in seen:
            seen.add(os.path.realpath(path))
            files.append(path)
    layer = _load_layer(files, bundled, warnings=warnings, explicit=extra_files, failures=failures)
    return Themes.layered(bundled, layer), warnings


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:  # a name too long for the file system is not a file
        return False


def resolve_theme_arg(
    arg: str, themes: Mapping[str, MinesTheme], broken: Mapping[str, str] | None = None
) -> MinesTheme:
    """The theme ``--theme ARG`` means: a known name, else a path to a ``.toml`` file.

    A path is loaded with :func:`load_theme_file` (its base from ``themes``, or named among
    the ``broken`` ones). Raises ``ThemeError`` naming the known themes when ``arg`` is
    neither.
    """
    if arg in themes:
        return themes[arg]
    path = Path(arg).expanduser()
    looks_like_path = (
        any(sep in arg for sep in ("/", os.sep, os.altsep or "/"))
        or arg.endswith(".toml")
        or arg.startswith("~")
    )
    if looks_like_path or _is_file(path):
        return load_theme_file(path, themes, broken)
    hint = did_you_mean(arg, themes)
    names = ", ".join(themes)
    raise ThemeError(
        f"unknown theme {quoted(arg)}{hint}; choose one of {names}, or a .toml file path"
    )
