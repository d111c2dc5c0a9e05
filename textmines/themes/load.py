"""Every theme the game knows: the bundled ones, the player's, and the one ``--theme`` names.

Themes come in layers: the bundled themes, then the player's theme folder and any extra files.
Within a layer themes may name each other as bases in any file order; a base outside the layer
comes from the layer below.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
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
    layer = _Layer(below, bundled, warnings, failures if failures is not None else {})
    for path in files:
        layer.read(path, explicit)
    results = {name: layer.resolve(name, []) for name in layer.parsed}
    return {name: theme for name, theme in results.items() if theme is not None}


class _Layer:
    """The theme files of one layer (bundled, or the player's) as they are resolved."""

    def __init__(
        self,
        below: Mapping[str, MinesTheme],
        bundled: bool,
        warnings: list[str],
        failed: dict[str, str],
    ) -> None:
        self.below, self.bundled, self.warnings, self.failed = below, bundled, warnings, failed
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

    def _base_name(self, item: ThemeFile) -> str | None:
        if item.base is None and self.bundled and item.name == ROOT_THEME:
            return None
        return item.base or ROOT_THEME

    def resolve(self, name: str, chain: list[str]) -> MinesTheme | None:
        """The theme ``name`` on its base (None: it failed, and that was reported)."""
        if name in self.done:
            return self.done[name]
        item = self.parsed[name]
        base_name = self._base_name(item)
        try:
            base = self._base(item, base_name, chain)
            if name in self.done:  # a member of a cycle, already reported
                return self.done[name]
            theme = build_theme(item, base, bundled=self.bundled, base_name=base_name)
        except ThemeError as error:
            self.warnings.append(f"{error}; theme skipped")
            self.failed[name] = str(error)
            theme = None
        self.done[name] = theme
        return theme

    def _base(self, item: ThemeFile, base_name: str | None, chain: list[str]) -> MinesTheme | None:
        name = item.name
        if base_name is None:
            return None
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
        if base_name in self.broken:
            raise ThemeError(
                f"{item.path}: base theme {base_name!r} could not be loaded "
                f"({self.broken[base_name]} has problems)"
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
