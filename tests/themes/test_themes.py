"""Theme files: the bundled themes, inheritance, every kind of bad file, export and lookup."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import tomllib
import zipfile
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

import pytest
from rich.cells import cell_len
from textual.app import App, ComposeResult
from textual.color import Color, ColorParseError
from textual.theme import BUILTIN_THEMES
from textual.widgets import Static

from tests.helpers import BUNDLED_THEMES, wait_until
from textmines.themes import (
    BOARD_KEYS,
    FACE_WIDTH,
    TABLES,
    MinesTheme,
    ThemeError,
    Themes,
    export_theme,
    find_bundled_dir,
    list_themes_text,
    load_theme_file,
    load_themes,
    resolve_theme_arg,
    to_textual_theme,
)
from textmines.themes import load as themes_load
from textmines.themes.color import ANSI_NAMES, ColorSyntaxError, normalise_color

BUNDLED_NAMES = set(BUNDLED_THEMES)
REPO = Path(__file__).resolve().parents[2]

#: The look of the game before themes existed; classic must keep it.
CLASSIC_BOARD = {
    "covered": "#c0c0c0",
    "covered-glyph": "#808080",
    "revealed": "#c0c0c0",
    "cursor": "#ffff80",
    "flag": "#c00000",
    "question": "#000087",
    "mine": "#000000",
    "exploded": "#ff0000",
    "wrong": "#c00000",
    "digits": "#ff2020",
    "digits-off": "#4a1414",
    "digits-background": "#1c1c1c",
    "frame": "#c0c0c0",
    "bevel-light": "#ffffff",
    "bevel-dark": "#808080",
    "grid": "#808080",
    "face": "#000000",
    "face-background": "#ffd700",
    "number-1": "#0000ff",
    "number-2": "#008000",
    "number-3": "#d70000",
    "number-4": "#000080",
    "number-5": "#800000",
    "number-6": "#008080",
    "number-7": "#000000",
    "number-8": "#5f5f5f",
}
CLASSIC_GLYPHS = {
    "cell_width": 2,
    "covered": "■",
    "flag": "⚑",
    "question": "?",
    "mine": "✹",
    "exploded": "✹",
    "wrong": "✗",
    "empty": " ",
    "numbers": ("1", "2", "3", "4", "5", "6", "7", "8"),
}
CLASSIC_FACES = {"normal": ":)", "pressed": ":O", "won": "B)", "lost": "X("}


@pytest.fixture(scope="module")
def bundled() -> dict[str, MinesTheme]:
    themes, warnings = load_themes(None)
    assert warnings == []
    return themes


def write(directory: Path, name: str, text: str) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    path.write_text(text, encoding="utf-8")
    return path


def problem(tmp_path: Path, text: str, bundled: dict[str, MinesTheme]) -> str:
    """The message of the ThemeError a theme file with ``text`` raises."""
    path = write(tmp_path, "bad.toml", text)
    with pytest.raises(ThemeError) as caught:
        load_theme_file(path, bundled)
    message = str(caught.value)
    assert message.startswith(f"{path}: ")
    assert "\n" not in message
    return message


def contrast(one: str, two: str) -> float:
    """WCAG contrast ratio of two colours."""

    def luminance(text: str) -> float:
        color = Color.parse(text)

        def channel(value: int) -> float:
            c = value / 255
            return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

        return 0.2126 * channel(color.r) + 0.7152 * channel(color.g) + 0.0722 * channel(color.b)

    high, low = sorted((luminance(one), luminance(two)), reverse=True)
    return (high + 0.05) / (low + 0.05)


# ------------------------------------------------------------------------------ bundled themes


def test_bundled_themes_load_in_order(bundled: dict[str, MinesTheme]) -> None:
    assert set(bundled) == BUNDLED_NAMES
    names = list(bundled)
    assert names[0] == "classic"
    assert names[1:] == sorted(names[1:])
    for name, theme in bundled.items():
        assert theme.bundled
        assert theme.source is not None and theme.source.stem == name
        assert theme.source.parent == REPO / "themes"


def test_classic_is_the_root_and_sets_every_key(bundled: dict[str, MinesTheme]) -> None:
    document = tomllib.loads((REPO / "themes" / "classic.toml").read_text(encoding="utf-8"))
    assert "base" not in document
    assert set(document) == set(TABLES)
    for table, keys in TABLES.items():
        assert set(document[table]) == set(keys)
    assert bundled["classic"].base is None
    for name, theme in bundled.items():
        if name != "classic":
            assert theme.base is not None


def test_classic_keeps_the_look_the_game_had(bundled: dict[str, MinesTheme]) -> None:
    classic = bundled["classic"]
    assert {key: value.lower() for key, value in classic.board.items()} == CLASSIC_BOARD
    for name, value in CLASSIC_GLYPHS.items():
        assert getattr(classic.glyphs, name) == value
    assert classic.glyphs.faces == CLASSIC_FACES
    # The window is the Windows face grey with dark text, as the board's frame.
    assert not classic.dark
    assert classic.colors["background"].lower() == classic.board["frame"].lower() == "#c0c0c0"
    assert classic.colors["foreground"].lower() == "#000000"


def test_dark_keeps_textuals_dark_window(bundled: dict[str, MinesTheme]) -> None:
    # Down to every derived shade: the dark theme's window is Textual's default dark theme.
    generated = to_textual_theme(bundled["dark"]).to_color_system().generate()
    default = BUILTIN_THEMES["textual-dark"].to_color_system().generate()
    assert {k: v for k, v in generated.items() if not k.startswith("mines-")} == default


@pytest.mark.parametrize("name", sorted(BUNDLED_NAMES))
def test_bundled_theme_is_complete_and_builds(name: str, bundled: dict[str, MinesTheme]) -> None:
    theme = bundled[name]
    assert list(theme.board) == list(BOARD_KEYS)
    textual_theme = to_textual_theme(theme)
    assert textual_theme.name == name
    assert textual_theme.dark == theme.dark
    board = {f"mines-{key}": theme.board[key] for key in BOARD_KEYS}
    edge = "ascii" if theme.glyphs.ascii else "outer"  # the frames' border kind
    assert textual_theme.variables == {**board, "mines-edge": edge}
    assert theme.board_variables() == textual_theme.variables
    assert textual_theme.to_color_system().generate()["primary"]
    glyphs = theme.glyphs
    assert glyphs.cell_width in (2, 3)
    assert len(glyphs.numbers) == 8
    cells = [glyphs.covered, glyphs.flag, glyphs.question, glyphs.mine, glyphs.exploded]
    for glyph in [*cells, glyphs.wrong, glyphs.empty, *glyphs.numbers]:
        assert cell_len(glyph) <= glyphs.cell_width
    for face in glyphs.faces.values():
        assert 0 < cell_len(face) <= FACE_WIDTH


@pytest.mark.slow  # an app through every theme: ~0.25 s of CPU
async def test_every_theme_drives_the_board_variables(bundled: dict[str, MinesTheme]) -> None:
    """Switching the app's theme switches the $mines-* variables the board's CSS uses."""
    rules = " ".join(f".v{i} {{ color: $mines-{key}; }}" for i, key in enumerate(BOARD_KEYS))

    class ThemedApp(App[None]):
        CSS: ClassVar[str] = rules + " Screen { background: $panel; color: $boost; }"

        def get_theme_variable_defaults(self) -> dict[str, str]:
            return {**super().get_theme_variable_defaults(), **bundled["classic"].board_variables()}

        def compose(self) -> ComposeResult:
            for i in range(len(BOARD_KEYS)):
                yield Static("x", classes=f"v{i}")

    app = ThemedApp()

    def styled(theme: MinesTheme) -> bool:
        """Whether the widgets have taken ``theme``'s colours (restyled after the switch)."""
        return all(
            app.query_one(f".v{i}", Static).styles.color == Color.parse(theme.board[key])
            for i, key in enumerate(BOARD_KEYS)
        )

    async with app.run_test() as pilot:
        for theme in bundled.values():
            app.register_theme(to_textual_theme(theme))
        for theme in bundled.values():
            app.theme = theme.name
            # Not pilot.pause(): waiting for the process to go idle took ~0.3 s a theme.
            await wait_until(pilot, partial(styled, theme), f"{theme.name}'s colours")
            variables = app.get_css_variables()
            for i, key in enumerate(BOARD_KEYS):
                assert variables[f"mines-{key}"] == theme.board[key]
                color = app.query_one(f".v{i}", Static).styles.color
                assert color == Color.parse(theme.board[key])


def test_ascii_theme_uses_only_ascii_and_ansi_colours(bundled: dict[str, MinesTheme]) -> None:
    theme = bundled["ascii"]
    glyphs = theme.glyphs
    texts = [glyphs.covered, glyphs.flag, glyphs.question, glyphs.mine, glyphs.exploded]
    texts += [glyphs.wrong, glyphs.empty, *glyphs.numbers, *glyphs.faces.values()]
    assert all(text.isascii() for text in texts)
    assert glyphs.faces == {"normal": ":)", "pressed": ":o", "won": "B)", "lost": "X("}
    colors = [*theme.board.values(), *(c for c in theme.colors.values() if c != "auto")]
    assert all(Color.parse(color).ansi is not None for color in colors)
    assert theme.ansi_only
    assert [name for name, other in bundled.items() if other.ansi_only] == ["ascii"]


@pytest.mark.parametrize(
    ("name", "ratio"), [("high-contrast", 7.0), ("colorblind", 4.5), ("dark", 4.5)]
)
def test_numbers_are_readable(name: str, ratio: float, bundled: dict[str, MinesTheme]) -> None:
    board = bundled[name].board
    for n in range(1, 9):
        assert contrast(board[f"number-{n}"], board["revealed"]) >= ratio, n


def test_colorblind_theme_does_not_rely_on_colour(bundled: dict[str, MinesTheme]) -> None:
    theme = bundled["colorblind"]
    okabe_ito = {"#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7"}
    assert {theme.board[f"number-{n}"] for n in range(1, 7)} <= okabe_ito
    glyphs = theme.glyphs
    shapes = [glyphs.covered, glyphs.flag, glyphs.question, glyphs.wrong, glyphs.mine]
    assert len({*shapes, glyphs.exploded}) == 6
    assert contrast(theme.board["covered"], theme.board["revealed"]) >= 3


# ---------------------------------------------------------------------------------- inheritance


def test_three_line_user_theme_inherits_its_base(
    tmp_path: Path, bundled: dict[str, MinesTheme]
) -> None:
    path = write(tmp_path, "neon.toml", 'base = "dark"\n[board]\ncursor = "#ff00ff"\n')
    theme = load_theme_file(path, bundled)
    dark = bundled["dark"]
    assert theme.name == "neon"
    assert theme.base == "dark"
    assert theme.source == path
    assert not theme.bundled
    assert theme.board["cursor"] == "#FF00FF"
    assert {**theme.board, "cursor": dark.board["cursor"]} == dict(dark.board)
    assert theme.colors == dark.colors
    assert theme.glyphs == dark.glyphs
    assert theme.dark == dark.dark


def test_default_base_is_classic_and_underscores_mean_hyphens(
    tmp_path: Path, bundled: dict[str, MinesTheme]
) -> None:
    text = '[theme]\nname = "wide"\n[glyphs]\ncell_width = 3\nface_won = "\\\\o/"\nmine = "(*)"\n'
    theme = load_theme_file(write(tmp_path, "w.toml", text), bundled)
    assert theme.name == "wide"
    assert theme.base == "classic"
    assert theme.glyphs.cell_width == 3
    assert theme.glyphs.face_won == "\\o/"
    assert theme.glyphs.mine == "(*)"
    assert theme.board == bundled["classic"].board


def test_auto_colours_are_left_to_textual(tmp_path: Path, bundled: dict[str, MinesTheme]) -> None:
    text = '[theme]\ndark = false\nbackground = "auto"\npanel = "#ABCDEF"\n'
    theme = to_textual_theme(load_theme_file(write(tmp_path, "a.toml", text), bundled))
    assert theme.background is None
    assert theme.panel == "#ABCDEF"
    assert theme.dark is False


def test_user_themes_may_build_on_each_other_in_any_file_order(tmp_path: Path) -> None:
    write(tmp_path, "a.toml", 'base = "b"\n[board]\nflag = "#010101"\n')
    write(tmp_path, "b.toml", 'base = "ascii"\n[board]\nmine = "#020202"\n')
    themes, warnings = load_themes(tmp_path)
    assert warnings == []
    assert list(themes)[-2:] == ["a", "b"]
    assert themes["a"].board["mine"] == "#020202"
    assert themes["a"].glyphs == themes["ascii"].glyphs


# ----------------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('[board]\nnumber-1 = "#fff"\ncursor = = 3\n', ["is not valid TOML", "line 3"]),
        ("[bord]\n", ["top-level key 'bord' is unknown", "did you mean 'board'?"]),
        ('[board]\nnumbr-1 = "#fff"\n', ["[board] key 'numbr-1' is unknown", "'number-1'"]),
        ('[glyphs]\nface-wom = ":)"\n', ["did you mean 'face-won'?"]),
        ('name = "x"\n', ["'name' belongs in the [theme] table"]),
        ('[theme]\ncursor = "#fff"\n', ["[theme] key 'cursor' belongs in the [board] table"]),
        ('[theme]\nflag = "#fff"\n', ["'flag' belongs in the [board] or [glyphs] table"]),
        (
            "[glyphs]\nmine = " + '"' + "x" * 50 + '"\n',
            ["mine = 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..."],
        ),
        ('[theme]\nbase = "dark"\n', ["'base' must come before the first [table] line"]),
        ('[board]\nnumber-1 = "blu"\n', ["[board] number-1 = 'blu' is not a colour", "'blue'"]),
        ("[board]\nrevealed = 3\n", ["[board] revealed must be a colour in quotes, not 3"]),
        ('[board]\nrevealed = "auto"\n', ["[board] revealed = 'auto' is not a colour"]),
        ('[theme]\nprimary = "auto"\n', ["[theme] primary = 'auto' is not a colour"]),
        ('[theme]\npanel = "#12"\n', ["[theme] panel = '#12' is not a colour or \"auto\""]),
        ('[theme]\ndark = "yes"\n', ["[theme] dark must be true or false, not 'yes'"]),
        ('[theme]\nname = ""\n', ["[theme] name = '' must be non-empty"]),
        ('[theme]\nname = "a/b"\n', ["may hold only letters, digits"]),
        ('[theme]\nname = "[@click=app.quit]Q"\n', ["may hold only letters, digits"]),
        ('[theme]\nname = "[bold red]RED"\n', ["may hold only letters, digits"]),
        ('[theme]\nname = "-dash"\n', ["must start with a letter or digit"]),
        ('board = "dark"\n', ["'board' must be a table ([board])"]),
        ('base = "nope"\n', ["base theme 'nope' does not exist", "known themes: "]),
        ('base = "drak"\n', ["did you mean 'dark'?"]),
        ("[glyphs]\ncell-width = 4\n", ["[glyphs] cell-width must be 2 or 3, not 4"]),
        ("[glyphs]\ncell-width = 1\n", ["must be 2 or 3, not 1"]),
        ("[glyphs]\ncell-width = true\n", ["must be 2 or 3, not true"]),
        ('[glyphs]\ncell-width = "2"\n', ["must be 2 or 3, not '2'"]),
        ('[glyphs]\nmine = "💣💣"\n', ["[glyphs] mine = '💣💣' is 4 columns wide", "cell-width 2"]),
        ('[glyphs]\nflag = "|>>"\n', ["[glyphs] flag = '|>>' is 3 columns wide"]),
        ("[glyphs]\ncovered = 1\n", ["[glyphs] covered must be text in quotes, not 1"]),
        ('[glyphs]\nface-lost = "(x_x)"\n', ["face-lost = '(x_x)' is 5 columns wide"]),
        ('[glyphs]\nface-won = ""\n', ["[glyphs] face-won must not be empty"]),
        ('[glyphs]\nflag = "\\u001b"\n', ["contains the control character U+001B"]),
        # Found by a player: a flag and a 1 nobody could see were accepted.
        ('[glyphs]\nflag = ""\n', ["[glyphs] flag = '' shows nothing"]),
        ('[glyphs]\nnumber-1 = "\\u0301"\n', ["[glyphs] number-1", "shows nothing"]),
        ('[glyphs]\nmine = "  "\n', ["[glyphs] mine = '  ' shows nothing"]),
        ("[glyphs]\ncell-width = 2\ncell_width = 3\n", ["key 'cell-width' is given twice"]),
    ],
)
def test_bad_theme_files(
    tmp_path: Path, text: str, expected: list[str], bundled: dict[str, MinesTheme]
) -> None:
    message = problem(tmp_path, text, bundled)
    for part in expected:
        assert part in message


def test_narrowing_the_cell_names_the_inherited_glyph(
    tmp_path: Path, bundled: dict[str, MinesTheme]
) -> None:
    wide = load_theme_file(
        write(tmp_path, "wide.toml", '[glyphs]\ncell-width = 3\nmine = "(*)"\n'), bundled
    )
    known = {**bundled, "wide": wide}
    path = write(tmp_path, "narrow.toml", 'base = "wide"\n[glyphs]\ncell-width = 2\n')
    with pytest.raises(ThemeError, match=r"mine = '\(\*\)' \(from base 'wide'\) is 3 columns"):
        load_theme_file(path, known)


def test_wide_emoji_fit_a_cell_of_two(tmp_path: Path, bundled: dict[str, MinesTheme]) -> None:
    theme = load_theme_file(write(tmp_path, "e.toml", '[glyphs]\nmine = "💣"\n'), bundled)
    assert theme.glyphs.mine == "💣"


@pytest.mark.parametrize(
    ("key", "glyph", "expected"),
    [
        # Found by a player (issue 34.11): the heart and its emoji selector was accepted as
        # two columns and drew its row two columns too wide.
        ("flag", "\u2764\ufe0f", "contains the variation selector U+FE0F: terminals draw the"),
        ("mine", "\u2620\ufe0e", "contains the variation selector U+FE0E"),
        ("face-won", "\U0001f468\u200d\U0001f469\u200d\U0001f467", "the zero-width joiner U+200D"),
        ("face-lost", "\U0001f44d\U0001f3fd", "contains the skin-tone modifier U+1F3FD"),
        ("exploded", "\U0001f1eb\U0001f1f7", "contains the regional indicator U+1F1EB"),
        ("number-1", "1\ufe0f\u20e3", "contains the variation selector U+FE0F"),
        ("covered", "e\u0301", "contains the combining mark U+0301: terminals draw it on the"),
        ("empty", "\u0301", "contains the combining mark U+0301"),
        ("wrong", "x\u0903", "contains the combining mark U+0903"),
        ("question", "?\u1160", "contains U+1160, which has no width of its own"),
    ],
)
def test_glyphs_a_terminal_may_draw_at_another_width_are_refused(
    tmp_path: Path, bundled: dict[str, MinesTheme], key: str, glyph: str, expected: str
) -> None:
    message = problem(tmp_path, f'[glyphs]\n{key} = "{glyph}"\n', bundled)
    assert f": [glyphs] {key} = '" in message and expected in message


def test_a_combining_mark_names_the_character_to_write_instead(
    tmp_path: Path, bundled: dict[str, MinesTheme]
) -> None:
    message = problem(tmp_path, '[glyphs]\ncovered = "e\u0301"\n', bundled)
    assert message.endswith("; write 'é' instead")
    assert problem(tmp_path, '[glyphs]\nempty = "\u0301"\n', bundled).endswith("; remove it")


def test_ambiguous_and_wide_characters_are_still_glyphs(
    tmp_path: Path, bundled: dict[str, MinesTheme]
) -> None:
    # East Asian ambiguous (■, the classic theme's covered cell; ●) are one column, as
    # terminals draw them; an emoji of its own is two.
    text = '[glyphs]\ncovered = "■"\nmine = "●"\nflag = "⚑"\nexploded = "💥"\nface-won = "😎"\n'
    theme = load_theme_file(write(tmp_path, "fine.toml", text), bundled)
    assert (theme.glyphs.covered, theme.glyphs.exploded) == ("■", "💥")


def test_every_problem_of_a_file_is_in_one_line(
    tmp_path: Path, bundled: dict[str, MinesTheme]
) -> None:
    keys = "".join(f'x{n} = "#fff"\n' for n in range(7))
    message = problem(tmp_path, "[board]\n" + keys, bundled)
    assert message.count("is unknown") == 5
    assert message.endswith("; and 2 more")


def test_unreadable_files_are_skipped_with_one_warning_each(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    user = tmp_path / "themes"
    write(user, "good.toml", '[board]\nflag = "#123456"\n')
    (user / "folder.toml").mkdir()
    (user / "latin1.toml").write_bytes(b'[theme]\nname = "caf\xe9"\n')
    locked = write(user, "locked.toml", "[board]\n")
    write(user, "broken.toml", "[board\n")
    write(user, ".#good.toml", "not a theme")
    write(user, "notes.txt", "not a theme")
    original = os.open

    def os_open(path: Any, flags: int, *args: Any) -> int:
        # Root ignores file modes, so the permission error is simulated.
        if Path(path) == locked:
            raise PermissionError(13, "Permission denied", str(path))
        return original(path, flags, *args)

    monkeypatch.setattr(os, "open", os_open)
    themes, warnings = load_themes(user)
    assert "good" in themes
    assert len(warnings) == 4
    expected = {
        "broken.toml": "is not valid TOML",
        "folder.toml": "is not a regular file; a theme is a .toml text file",
        "latin1.toml": "is not UTF-8 text",
        "locked.toml": "cannot be read (Permission denied)",
    }
    for warning, (name, reason) in zip(sorted(warnings), sorted(expected.items()), strict=True):
        assert warning.startswith(f"{user / name}: ")
        assert reason in warning
        assert warning.endswith("; theme skipped")
        assert "\n" not in warning


def test_a_cycle_of_bases_skips_the_themes_in_it(tmp_path: Path) -> None:
    write(tmp_path, "a.toml", 'base = "b"\n')
    write(tmp_path, "b.toml", 'base = "c"\n')
    write(tmp_path, "c.toml", 'base = "a"\n')
    write(tmp_path, "d.toml", 'base = "a"\n')
    themes, warnings = load_themes(tmp_path)
    assert not {"a", "b", "c", "d"} & set(themes)
    assert set(themes) == BUNDLED_NAMES
    assert len(warnings) == 4
    for warning, name in zip(warnings[:3], "abc", strict=True):
        assert warning.startswith(f"{tmp_path / name}.toml: bases form a cycle: a -> b -> c -> a")
    assert "d.toml: base theme 'a' could not be loaded" in warnings[3]


def test_a_missing_or_broken_base_skips_the_theme(tmp_path: Path) -> None:
    write(tmp_path, "a.toml", 'base = "ghost"\n')
    write(tmp_path, "b.toml", 'base = "c"\n')
    write(tmp_path, "c.toml", "[board]\nflag = 1\n")
    themes, warnings = load_themes(tmp_path)
    assert not {"a", "b", "c"} & set(themes)
    assert len(warnings) == 3
    assert any("a.toml: base theme 'ghost' does not exist" in w for w in warnings)
    assert any("b.toml: base theme 'c' could not be loaded" in w for w in warnings)


def test_a_bad_themes_directory_is_a_warning(tmp_path: Path) -> None:
    assert load_themes(tmp_path / "missing")[1] == []
    not_a_dir = write(tmp_path, "themes", "")
    themes, warnings = load_themes(not_a_dir)
    assert set(themes) == BUNDLED_NAMES
    assert len(warnings) == 1 and warnings[0].startswith(f"{not_a_dir}: themes cannot be listed")


# ------------------------------------------------------------------------- overrides and lookup


def test_a_user_theme_replaces_the_bundled_one_of_its_name(tmp_path: Path) -> None:
    # base = its own name: the bundled theme of that name, not itself.
    write(tmp_path, "dark.toml", 'base = "dark"\n[board]\ncursor = "#00ff00"\n')
    themes, warnings = load_themes(tmp_path)
    bundled, _ = load_themes(None)
    assert warnings == []
    assert list(themes) == list(bundled)
    assert not themes["dark"].bundled
    assert themes["dark"].board["cursor"] == "#00FF00"
    assert themes["dark"].board["revealed"] == bundled["dark"].board["revealed"]
    # Other bundled themes keep the bundled base.
    assert themes["colorblind"] == bundled["colorblind"]
    listing = list_themes_text(themes)
    line = next(line for line in listing.splitlines() if " dark " in line)
    assert "user" in line and str(tmp_path / "dark.toml") in line
    assert "replaces the bundled theme" in line


def test_two_user_files_with_one_name(tmp_path: Path) -> None:
    write(tmp_path, "one.toml", '[theme]\nname = "same"\n[board]\nflag = "#111111"\n')
    write(tmp_path, "two.toml", '[theme]\nname = "same"\n[board]\nflag = "#222222"\n')
    themes, warnings = load_themes(tmp_path)
    assert themes["same"].board["flag"] == "#222222"
    assert warnings == [
        f"{tmp_path / 'two.toml'}: theme 'same' is also defined in {tmp_path / 'one.toml'}; "
        "this one is used"
    ]


def test_extra_files_are_loaded_after_the_user_directory(tmp_path: Path) -> None:
    user = tmp_path / "themes"
    write(user, "mine.toml", '[board]\nflag = "#111111"\n')
    extra = write(tmp_path / "elsewhere", "mine.toml", '[board]\nflag = "#222222"\n')
    themes, warnings = load_themes(user, [extra, user / "mine.toml"])
    assert warnings == []
    assert themes["mine"].board["flag"] == "#222222"
    assert themes["mine"].source == extra


def test_resolve_theme_arg(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, bundled: dict[str, MinesTheme]
) -> None:
    assert resolve_theme_arg("dark", bundled) is bundled["dark"]
    path = write(tmp_path, "pink.toml", 'base = "dark"\n[board]\ncursor = "pink"\n')
    assert resolve_theme_arg(str(path), bundled).board["cursor"] == "#FFC0CB"
    monkeypatch.chdir(tmp_path)
    assert resolve_theme_arg("pink.toml", bundled).name == "pink"
    write(tmp_path, "plain", "[board]\n")
    assert resolve_theme_arg("plain", bundled).name == "plain"
    with pytest.raises(ThemeError) as caught:
        resolve_theme_arg("drak", bundled)
    assert str(caught.value) == (
        "unknown theme 'drak' (did you mean 'dark'?); choose one of classic, ascii, colorblind, "
        "dark, high-contrast, light, or a .toml file path"
    )
    with pytest.raises(ThemeError, match=r"missing\.toml: cannot be read"):
        resolve_theme_arg("missing.toml", bundled)


def test_list_themes_text(bundled: dict[str, MinesTheme]) -> None:
    text = list_themes_text(bundled, current="dark")
    lines = text.splitlines()
    assert len(lines) == len(bundled)
    assert lines[0].split() == ["classic", "bundled", str(REPO / "themes" / "classic.toml")]
    assert lines[3].startswith("* dark ")
    assert lines[3].endswith("dark.toml  (base classic)")
    assert all(line.startswith("  ") for i, line in enumerate(lines) if i != 3)


# ------------------------------------------------------------------------------------- export


def _look(theme: MinesTheme) -> MinesTheme:
    """The theme as it looks, whatever file it came from."""
    return theme._replace(base=None, source=None, bundled=False)


@pytest.mark.parametrize("name", sorted(BUNDLED_NAMES))
def test_export_round_trips(tmp_path: Path, name: str, bundled: dict[str, MinesTheme]) -> None:
    text = export_theme(bundled[name])
    assert text.startswith("# textmines theme ")
    document = tomllib.loads(text)
    assert "base" not in document
    path = write(tmp_path, "exported.toml", text)
    again = load_theme_file(path, bundled)
    assert _look(again) == _look(bundled[name]) and again.source == path
    assert export_theme(again) == text


def test_export_round_trips_awkward_glyphs(tmp_path: Path, bundled: dict[str, MinesTheme]) -> None:
    text = '[theme]\nname = "odd one"\n[glyphs]\nflag = "\\""\nmine = "\\\\"\nempty = ""\n'
    theme = load_theme_file(write(tmp_path, "odd.toml", text), bundled)
    assert (theme.name, theme.glyphs.flag, theme.glyphs.mine) == ("odd one", '"', "\\")
    path = write(tmp_path, "again.toml", export_theme(theme))
    assert _look(load_theme_file(path, bundled)) == _look(theme)


# ---------------------------------------------------------------------------- bundled location


def test_bundled_dir_inside_the_package_wins(tmp_path: Path) -> None:
    package = tmp_path / "site" / "textmines"
    write(package / "bundled_themes", "classic.toml", "")
    write(tmp_path / "site" / "themes", "classic.toml", "")
    assert find_bundled_dir(package) == package / "bundled_themes"


def test_bundled_dir_beside_the_package_in_a_checkout(tmp_path: Path) -> None:
    package = tmp_path / "repo" / "textmines"
    package.mkdir(parents=True)
    write(tmp_path / "repo" / "themes", "classic.toml", "")
    assert find_bundled_dir(package) == tmp_path / "repo" / "themes"
    assert find_bundled_dir(tmp_path / "nowhere" / "textmines") is None


def test_missing_bundled_themes_are_a_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(themes_load, "find_bundled_dir", lambda: None)
    themes, warnings = load_themes(None)
    assert themes == {}
    assert len(warnings) == 1 and "bundled themes not found" in warnings[0]


@pytest.mark.slow  # builds the wheel
@pytest.mark.skipif(
    importlib.util.find_spec("hatchling") is None, reason="building the wheel needs hatchling"
)
def test_installed_wheel_finds_its_bundled_themes(tmp_path: Path) -> None:
    """The wheel puts the themes in textmines/bundled_themes/, beside the themes package."""
    build = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q"]
    subprocess.run([*build, "-w", str(tmp_path), str(REPO)], check=True, timeout=120)
    (wheel,) = tmp_path.glob("textmines-*.whl")
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
    bundled_dir = site / "textmines" / "bundled_themes"
    assert {path.stem for path in bundled_dir.glob("*.toml")} == BUNDLED_NAMES
    assert not list((site / "textmines" / "themes").glob("*.toml"))
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]);"
        "from textmines import themes;"
        "found, warnings = themes.load_themes(None);"
        "print(themes.__file__, themes.find_bundled_dir(), ','.join(found), len(warnings))"
    )
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    result = subprocess.run(
        [sys.executable, "-c", code, str(site)],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
        env=env,
    )
    module, directory, names, warnings = result.stdout.split()
    assert module == str(site / "textmines" / "themes" / "__init__.py")
    assert directory == str(bundled_dir)
    assert set(names.split(",")) == BUNDLED_NAMES
    assert warnings == "0"


# ---------------------------------------------------------------------------------- legibility


def test_high_contrast_covered_cells_are_tiles(bundled: dict[str, MinesTheme]) -> None:
    """Glyphs are right-aligned in their cells: a glyph that fills its column from top to bottom
    (a full or half block, a vertical bar) leaves the cell's other column empty, and a covered
    field becomes vertical stripes instead of a grid of tiles."""
    full_height = set("█▉▊▋▌▍▎▏▐▕│┃║|")
    glyph = bundled["high-contrast"].glyphs.covered
    assert glyph.strip() and not set(glyph) & full_height


@pytest.mark.parametrize("name", ["light", "ascii"])
def test_more_numbers_are_readable(name: str, bundled: dict[str, MinesTheme]) -> None:
    """WCAG AA (4.5:1) on the revealed cells. classic keeps the original game's colours (2, 3, 6
    and 8 have 2.8-3.7:1 on its grey), so it is not checked here."""
    board = bundled[name].board
    ratios = {n: contrast(board[f"number-{n}"], board["revealed"]) for n in range(1, 9)}
    # ascii's 6 is ansi_cyan: 4.4:1 by Textual's ANSI palette, brighter in most terminals.
    lowest = {6: 4.3} if name == "ascii" else {}
    assert all(ratio >= lowest.get(n, 4.5) for n, ratio in ratios.items()), ratios


@pytest.mark.parametrize("name", sorted(BUNDLED_NAMES - {"classic"}))
def test_counters_are_readable(name: str, bundled: dict[str, MinesTheme]) -> None:
    board = bundled[name].board
    assert contrast(board["digits"], board["digits-background"]) >= 4.5


# ------------------------------------------------------------------------------------- colours


COLOURS = [
    "#abcdef",
    "#ABCDEF",
    "#0178d4",
    "#fff",
    "#ffff",
    "#12345678",
    "#123456ff",
    "#abcdef\n",
    "rgb(1, 2, 3)",
    "rgba(300,2,3,0.5)",
    "hsl(120,50%,50%)",
    "hsla(0, 100%, 50%, 0.25)",
    "red",
    "darkslategray",
    "transparent",
    "ansi_default",
    *(f"ansi_{name}" for name in ANSI_NAMES),
]
NOT_COLOURS = [
    "blu",
    "DarkSlateGray",
    "ansi_purple",
    "#12",
    "#abcdeg",
    " #abcdef",
    "",
    "rgb(1,2)",
    "lightgrey2",
]


def test_the_ansi_names_are_textuals() -> None:
    from textual._color_constants import ANSI_COLORS

    assert list(ANSI_NAMES) == list(ANSI_COLORS)


@pytest.mark.parametrize("text", COLOURS)
def test_colours_are_normalised_as_textual_does(text: str) -> None:
    assert normalise_color(text) == Color.parse(text).hex


@pytest.mark.parametrize("text", NOT_COLOURS)
def test_what_textual_refuses_is_not_a_colour(text: str) -> None:
    with pytest.raises(ColorParseError) as textual_error:
        Color.parse(text)
    with pytest.raises(ColorSyntaxError) as caught:
        normalise_color(text)
    assert caught.value.suggestion == textual_error.value.suggested_color


# -------------------------------------------------------------------------------- import cost


def loaded_after(code: str) -> list[str]:
    """The Textual and Rich modules a fresh interpreter has loaded after running ``code``."""
    code += "\nimport sys; print(*sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO
    )
    modules = result.stdout.splitlines()[-1].split()
    return sorted(name for name in modules if name.split(".")[0] in {"textual", "rich"})


def test_the_command_line_imports_neither_textual_nor_rich() -> None:
    """--version, --help and --paths answer without Textual's quarter of a second."""
    assert loaded_after("import textmines.cli") == []


def test_loading_and_listing_the_bundled_themes_needs_no_textual() -> None:
    code = (
        "from textmines.themes import export_theme, list_themes_text, load_themes\n"
        "themes, warnings = load_themes(None)\n"
        "assert len(themes) == 6 and not warnings, warnings\n"
        "list_themes_text(themes); export_theme(themes['classic'])"
    )
    assert not [name for name in loaded_after(code) if name.startswith("textual")]


@pytest.mark.slow  # a Python process
def test_a_textual_theme_imports_textual_when_asked_for() -> None:
    code = (
        "from textmines.themes import load_themes, to_textual_theme\n"
        "print(type(to_textual_theme(load_themes(None)[0]['dark'])).__module__)"
    )
    assert "textual.theme" in loaded_after(code)


def test_a_byte_order_mark_is_not_an_error(tmp_path: Path, bundled: dict[str, MinesTheme]) -> None:
    # Found by a player: Notepad's UTF-8 starts with one, reported as "Invalid statement".
    path = tmp_path / "bom.toml"
    path.write_bytes('\ufeffbase = "dark"\n[theme]\nname = "bom"\n'.encode())
    assert load_theme_file(path, bundled).name == "bom"


def test_a_file_on_a_broken_base_names_the_base_and_its_error(
    tmp_path: Path, bundled: dict[str, MinesTheme]
) -> None:
    # Found by a player: --theme cyc1.toml on a base in a cycle said the base "does not exist".
    path = write(tmp_path, "cyc1.toml", 'base = "cyc2"\n[theme]\nname = "cyc1"\n')
    broken = {"cyc2": "cyc2.toml: bases form a cycle: cyc2 -> cyc1 -> cyc2"}
    with pytest.raises(ThemeError) as caught:
        load_theme_file(path, bundled, broken)
    assert "base theme 'cyc2' could not be loaded (cyc2.toml: bases form a cycle" in str(
        caught.value
    )


# ------------------------------------------------------------------------ bundled on first use


def test_every_bundled_files_name_is_its_themes_name() -> None:
    # The bundled themes are listed from the file names without reading the files.
    for path in (REPO / "themes").glob("*.toml"):
        document = tomllib.loads(path.read_text(encoding="utf-8"))
        assert document["theme"]["name"] == path.stem


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the ``.toml`` files opened from now on, in order."""
    names: list[str] = []
    original = os.open

    def os_open(path: Any, flags: int, *args: Any) -> int:
        if str(path).endswith(".toml"):
            names.append(Path(path).name)
        return original(path, flags, *args)

    monkeypatch.setattr(os, "open", os_open)
    return names


def bundled_copy(tmp_path: Path, *names: str) -> Path:
    """A bundled folder with a copy of the bundled themes ``names``."""
    folder = tmp_path / "bundled"
    for name in names:
        write(folder, f"{name}.toml", (REPO / "themes" / f"{name}.toml").read_text("utf-8"))
    return folder


def test_bundled_themes_are_read_when_first_looked_up(opened: list[str]) -> None:
    themes, warnings = load_themes(None)
    assert list(themes) == list(BUNDLED_THEMES)
    assert opened == [] and len(themes) == 6, "listing reads no file"
    assert themes["dark"].name == "dark" and "dark" in themes
    assert sorted(opened) == ["classic.toml", "dark.toml"], "the theme and its base"
    assert themes["classic"].base is None
    assert sorted(opened) == ["classic.toml", "dark.toml"], "each file is read once"
    assert [theme.name for theme in themes.values()] == list(themes)
    assert sorted(opened) == sorted(f"{name}.toml" for name in BUNDLED_NAMES)
    assert warnings == []


def test_a_user_theme_reads_only_the_bundled_bases_it_is_built_on(
    tmp_path: Path, opened: list[str]
) -> None:
    write(tmp_path, "mine.toml", 'base = "high-contrast"\n[board]\ncursor = "#00ff00"\n')
    themes, warnings = load_themes(tmp_path)
    assert warnings == []
    assert sorted(opened) == ["classic.toml", "high-contrast.toml", "mine.toml"]
    mine, contrast = themes["mine"], themes["high-contrast"]
    assert (mine.bundled, mine.base, mine.board["cursor"]) == (False, "high-contrast", "#00FF00")
    assert mine.board["flag"] == contrast.board["flag"] and mine.glyphs == contrast.glyphs
    assert list(themes) == [*sorted(BUNDLED_NAMES, key=lambda n: (n != "classic", n)), "mine"]


def test_a_broken_bundled_file_is_found_only_when_its_theme_is_needed(tmp_path: Path) -> None:
    folder = bundled_copy(tmp_path, "classic", "dark")
    write(folder, "broken.toml", "[board\n")
    write(folder, "zebra.toml", 'base = "dark"\n[board]\ncursor = "#00ff00"\n')
    failures: dict[str, str] = {}
    themes, warnings = load_themes(None, bundled_dir=folder, failures=failures)
    assert list(themes) == ["classic", "broken", "dark", "zebra"]
    assert themes["zebra"].board["revealed"] == themes["dark"].board["revealed"]
    assert warnings == [] and failures == {}, "broken.toml was never read"
    assert "broken" not in themes
    assert len(warnings) == 1 and warnings[0].startswith(f"{folder / 'broken.toml'}: ")
    assert "is not valid TOML" in warnings[0] and warnings[0].endswith("; theme skipped")
    assert list(failures) == ["broken"]
    assert list(themes) == ["classic", "dark", "zebra"], "a broken theme leaves the list"
    assert themes.get("broken") is None and len(warnings) == 1, "and is told of once"


def test_listing_every_theme_drops_the_broken_bundled_ones(tmp_path: Path) -> None:
    folder = bundled_copy(tmp_path, "classic", "dark", "light")
    write(folder, "dark.toml", "[board]\nflag = 'not a colour'\n")
    themes, warnings = load_themes(None, bundled_dir=folder)
    copy = Themes(themes)
    assert [name for name, _ in copy.items()] == ["classic", "light"]
    assert list(copy) == ["classic", "light"] and list(themes) == ["classic", "dark", "light"]
    assert copy == {"classic": themes["classic"], "light": themes["light"]}
    assert len(warnings) == 1 and "dark.toml" in warnings[0], "the copy shares the reading"
    assert "flag" in themes.broken["dark"]


def test_a_user_theme_on_a_broken_bundled_base_names_the_file(tmp_path: Path) -> None:
    folder = bundled_copy(tmp_path, "classic")
    write(folder, "dark.toml", "[board\n")
    user = write(tmp_path / "user", "mine.toml", 'base = "dark"\n').parent
    failures: dict[str, str] = {}
    themes, warnings = load_themes(user, bundled_dir=folder, failures=failures)
    assert "mine" not in themes
    assert failures["mine"] == (
        f"{user / 'mine.toml'}: base theme 'dark' could not be loaded "
        f"({folder / 'dark.toml'} has problems)"
    )
    assert [warning.split(":")[0] for warning in warnings] == [
        str(folder / "dark.toml"),
        str(user / "mine.toml"),
    ]


def test_a_broken_bundled_base_or_a_cycle_of_bundled_bases_is_a_warning(tmp_path: Path) -> None:
    folder = bundled_copy(tmp_path, "classic")
    write(folder, "one.toml", 'base = "two"\n')
    write(folder, "two.toml", 'base = "one"\n')
    write(folder, "own.toml", 'base = "own"\n')
    write(folder, "named.toml", '[theme]\nname = "other"\n')
    write(folder, "orphan.toml", 'base = "ghost"\n')
    themes, warnings = load_themes(None, bundled_dir=folder)
    assert [name for name, _ in themes.items()] == ["classic"]
    expected = {
        "named": "names the theme 'other'; a bundled theme's file is named after it",
        "one": "base theme 'two' could not be loaded",
        "orphan": "base theme 'ghost' does not exist",
        "own": "bases form a cycle: own -> own",
        "two": "bases form a cycle: one -> two -> one",
    }
    for name, problem in expected.items():
        assert problem in themes.broken[name]
    assert len(warnings) == len(expected)


@pytest.mark.parametrize(
    "text",
    [
        "[board]\nflag = " + "[" * 500 + "]" * 500 + "\n",
        "[board]\nflag = " + "{a = " * 500 + "1" + "}" * 500 + "\n",
        "[board]\nflag = " + "[" * 100 + "]" * 100 + "\n",
        "[board]\nflag = " + "9" * 5000 + "\n",
    ],
    ids=["arrays 500 deep", "tables 500 deep", "arrays 100 deep", "5,000 digits"],
)
def test_a_theme_beyond_what_is_read_is_listed_as_broken(tmp_path: Path, text: str) -> None:
    # Issue 46.21: tomllib's RecursionError or ValueError stopped every start.
    path = write(tmp_path, "deep.toml", text)
    broken: dict[str, str] = {}
    themes, warnings = load_themes(tmp_path, failures=broken)
    assert "deep" not in themes and set(themes) == BUNDLED_NAMES
    assert len(warnings) == 1 and warnings[0].startswith(f"{path}: ")
    assert warnings[0].endswith("; theme skipped") and "not valid TOML" not in warnings[0]
    assert list(broken) == ["deep"]
