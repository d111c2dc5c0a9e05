"""Reading and writing settings.toml, and what the player is told when it is wrong."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from textmines.store import settings as settings_module
from textmines.store.paths import describe_os_error
from textmines.store.settings import (
    Settings,
    clean_player_name,
    load_settings,
    save_changes,
    save_settings,
)

DEFAULTS = Settings()


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "settings.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults() -> None:
    assert DEFAULTS._asdict() == {
        "board": "beginner",
        "custom_width": 30,
        "custom_height": 20,
        "custom_mines": 100,
        "first_click": "opening",
        "question_marks": True,
        "left_click_chords": True,
        "theme": "classic",
        "no_guess": False,
        "zoom": "fit",
        "swap_mouse_buttons": False,
        "key_preset": "default",
        "keys": (),
        "player_name": "",
        "host_url": "",
    }


def test_every_field_has_a_rule_of_its_type() -> None:
    rules = settings_module._RULES
    # The [keys] table is checked by the UI, which knows the actions; [host] is a table.
    names = [name for name in Settings._fields if name not in ("keys", "host_url")]
    assert names == list(rules)
    for name, rule in rules.items():
        assert type(getattr(DEFAULTS, name)) is rule.kind


def test_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "config" / "nested" / "settings.toml"
    chosen = Settings(
        board="custom",
        custom_width=40,
        custom_height=25,
        custom_mines=200,
        first_click="safe",
        question_marks=False,
        left_click_chords=False,
        theme="dracula",
        no_guess=True,
    )
    save_settings(path, chosen)
    assert load_settings(path) == (chosen, [])


def test_saved_file_is_flat_valid_toml(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    save_settings(path, DEFAULTS)
    text = path.read_text(encoding="utf-8")
    assert text.startswith("#")
    document = tomllib.loads(text)
    # An empty [keys] table is not written, nor a [host] without an address.
    assert document == {
        key: value for key, value in DEFAULTS._asdict().items() if key not in ("keys", "host_url")
    }
    assert [entry.name for entry in tmp_path.iterdir()] == ["settings.toml"]


def test_save_raises_oserror_when_the_directory_cannot_be_made(tmp_path: Path) -> None:
    blocker = tmp_path / "config"
    blocker.write_text("a file")
    with pytest.raises(OSError):
        save_settings(blocker / "settings.toml", DEFAULTS)


def test_missing_file_gives_defaults_silently(tmp_path: Path) -> None:
    assert load_settings(tmp_path / "settings.toml") == (DEFAULTS, [])


def test_empty_file_gives_defaults_silently(tmp_path: Path) -> None:
    assert load_settings(write(tmp_path, "")) == (DEFAULTS, [])


def test_partial_file_keeps_the_other_defaults(tmp_path: Path) -> None:
    path = write(tmp_path, 'board = "expert"\n')
    assert load_settings(path) == (DEFAULTS._replace(board="expert"), [])


def test_garbage_toml_gives_defaults_and_names_file_and_line(tmp_path: Path) -> None:
    path = write(tmp_path, 'board = "expert"\ntheme = = nonsense\n')
    settings, warnings = load_settings(path)
    assert settings == DEFAULTS
    assert len(warnings) == 1
    assert str(path) in warnings[0]
    assert "line 2" in warnings[0]
    assert "default" in warnings[0]


def test_unreadable_file_gives_defaults_and_one_warning(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.mkdir()  # a directory cannot be read as a file, even by root
    settings, warnings = load_settings(path)
    assert settings == DEFAULTS
    assert len(warnings) == 1
    assert str(path) in warnings[0]


def test_non_utf8_file_gives_defaults_and_one_warning(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_bytes(b'theme = "\xff"\n')
    settings, warnings = load_settings(path)
    assert settings == DEFAULTS
    assert len(warnings) == 1
    assert str(path) in warnings[0]


def test_unknown_key_with_suggestion(tmp_path: Path) -> None:
    path = write(tmp_path, 'qestion_marks = false\ntheme = "nord"\n')
    settings, warnings = load_settings(path)
    assert settings == DEFAULTS._replace(theme="nord")
    assert warnings == [
        f"{path}: key 'qestion_marks' is unknown (did you mean 'question_marks'?); ignored"
    ]


def test_unknown_key_without_suggestion(tmp_path: Path) -> None:
    path = write(tmp_path, "zzz = 1\n")
    settings, warnings = load_settings(path)
    assert settings == DEFAULTS
    assert warnings == [f"{path}: key 'zzz' is unknown; ignored"]


@pytest.mark.parametrize(
    ("line", "key", "shown", "allowed"),
    [
        ('question_marks = "yes"', "question_marks", "'yes'", "true or false"),
        ("no_guess = 1", "no_guess", "1", "true or false"),
        ("custom_width = true", "custom_width", "true", "whole number"),
        ("custom_mines = false", "custom_mines", "false", "whole number"),
        ('custom_height = "20"', "custom_height", "'20'", "whole number"),
        ("custom_width = 30.5", "custom_width", "30.5", "whole number"),
        ("custom_width = 0", "custom_width", "0", "from 1 to 1000"),
        ("custom_height = 1001", "custom_height", "1001", "from 1 to 1000"),
        ("custom_mines = 0", "custom_mines", "0", "at least 1"),
        ('board = "huge"', "board", "'huge'", "'beginner', 'intermediate', 'expert', 'custom'"),
        ('first_click = "lucky"', "first_click", "'lucky'", "'opening', 'safe'"),
        ("theme = 7", "theme", "7", "string"),
        ('theme = ""', "theme", "''", "non-empty"),
        ("board = [1, 2]", "board", "[1, 2]", "one of"),
    ],
)
def test_bad_value_warns_and_keeps_the_rest(
    tmp_path: Path, line: str, key: str, shown: str, allowed: str
) -> None:
    others = 'theme = "nord"\n' if key != "theme" else 'board = "expert"\n'
    path = write(tmp_path, f"left_click_chords = false\n{others}{line}\n")
    settings, warnings = load_settings(path)

    assert len(warnings) == 1
    warning = warnings[0]
    assert warning.startswith(f"{path}: key '{key}' has value {shown},")
    assert allowed in warning
    assert getattr(settings, key) == getattr(DEFAULTS, key)
    assert settings.left_click_chords is False
    if key == "theme":
        assert settings.board == "expert"
    else:
        assert settings.theme == "nord"


def test_several_problems_are_all_reported_in_one_notice(tmp_path: Path) -> None:
    path = write(tmp_path, 'board = 3\nno_guess = "no"\nthemes = "x"\nfirst_click = "safe"\n')
    settings, warnings = load_settings(path)
    assert settings == DEFAULTS._replace(first_click="safe")
    assert len(warnings) == 1 and warnings[0].startswith(f"{path}: ")
    for key in ("'board'", "'no_guess'", "'themes'"):
        assert key in warnings[0]


@pytest.mark.slow  # ~0.3 s of CPU
def test_a_file_of_many_problems_is_one_short_notice(tmp_path: Path) -> None:
    # 50,000 unknown keys took 14 s and gave a toast each (issue 18).
    path = write(tmp_path, "".join(f"key{n} = 1\n" for n in range(50_000)) + 'theme = "dark"\n')
    settings, warnings = load_settings(path)
    assert settings.theme == "dark"
    assert len(warnings) == 1
    assert warnings[0].count("is unknown") == 5
    assert warnings[0].endswith("; and 49,995 more problems")


def test_a_byte_order_mark_is_not_an_error(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_bytes(b"\xef\xbb\xbf" + b'theme = "dark"\n')
    assert load_settings(path) == (DEFAULTS._replace(theme="dark"), [])


def test_unplayable_custom_board_falls_back_to_the_default_size(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        'board = "custom"\ncustom_width = 3\ncustom_height = 3\ncustom_mines = 9\n'
        "no_guess = true\n",
    )
    settings, warnings = load_settings(path)
    assert settings == DEFAULTS._replace(board="custom", no_guess=True)
    assert len(warnings) == 1
    assert str(path) in warnings[0]
    assert "3x3 with 9 mines" in warnings[0]
    assert "mines must be between" in warnings[0]  # the engine's own explanation
    assert "using 30x20 with 100 mines" in warnings[0]


def test_custom_board_is_checked_under_the_chosen_first_click_rule(tmp_path: Path) -> None:
    # 4x4 leaves 7 cells after a 3x3 opening, but 15 under the safe rule.
    text = "custom_width = 4\ncustom_height = 4\ncustom_mines = 10\n"
    settings, warnings = load_settings(write(tmp_path, text + 'first_click = "safe"\n'))
    assert warnings == []
    assert (settings.custom_width, settings.custom_height, settings.custom_mines) == (4, 4, 10)

    settings, warnings = load_settings(write(tmp_path, text))
    assert len(warnings) == 1
    assert (settings.custom_width, settings.custom_height, settings.custom_mines) == (30, 20, 100)


def test_huge_mine_count_is_caught_by_the_board_check(tmp_path: Path) -> None:
    path = write(tmp_path, "custom_mines = 5000\n")
    settings, warnings = load_settings(path)
    assert settings == DEFAULTS
    assert len(warnings) == 1
    assert "5000" in warnings[0]


def test_a_read_only_settings_file_is_never_replaced(tmp_path: Path) -> None:
    # Issue 18: write_atomic renames over the file, which only needs the folder writable, so
    # a settings.toml the player had made read-only was silently replaced.
    path = tmp_path / "settings.toml"
    path.write_text('board = "expert"\n')
    path.chmod(0o444)
    try:
        with pytest.raises(PermissionError) as raised:
            save_settings(path, Settings(board="beginner"))
        assert describe_os_error(raised.value) == (
            "the file is read-only (its permissions allow no writing)"
        )
        assert path.read_text() == 'board = "expert"\n'
    finally:
        path.chmod(0o644)
    save_settings(path, Settings(board="beginner"))  # writable again: saved
    assert load_settings(path)[0].board == "beginner"


def test_the_keys_table_reads_dotted_and_quoted_entries_and_lists(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text(
        'key_preset = "vim"\n[keys]\napp.hint = "h"\n"board.mark" = ["m", "?"]\n',
        encoding="utf-8",
    )
    settings, warnings = load_settings(path)
    assert warnings == []
    assert settings.key_preset == "vim"
    assert settings.keys == (("app.hint", "h"), ("board.mark", "m,?"))


def test_the_keys_table_keeps_its_entries_through_a_save(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    chosen = Settings(key_preset="numpad", keys=(("app.hint", "ctrl+h"), ("board.open", "x")))
    save_settings(path, chosen)
    text = path.read_text(encoding="utf-8")
    assert '[keys]\n"app.hint" = "ctrl+h"' in text
    assert load_settings(path) == (chosen, [])


def test_the_host_table_names_the_leaderboards_host_and_keeps_it_through_a_save(
    tmp_path: Path,
) -> None:
    path = write(tmp_path, '[host]\nurl = "http://club.example:8000/"\n')
    assert load_settings(path) == (Settings(host_url="http://club.example:8000"), [])
    save_changes(path, DEFAULTS, Settings(theme="dracula"))
    assert '[host]\nurl = "http://club.example:8000"' in path.read_text(encoding="utf-8")
    assert load_settings(path)[0].host_url == "http://club.example:8000"


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('[host]\nurl = "club.example"', "[host] url 'club.example' is not an address like"),
        ('[host]\nurl = "http://h:port"', "[host] url 'http://h:port' is not an address"),
        ("[host]\nurl = 8000", "[host] url 8000 is not an address like"),
        ('host = "http://h"', "'host' must be a table ([host] url = \"http://club.example"),
        ('[host]\nurl = "http://h"\nport = 1', "[host] 'port' is unknown (only 'url')"),
    ],
)
def test_a_bad_host_table_is_named_and_the_rest_kept(tmp_path: Path, text: str, said: str) -> None:
    path = write(tmp_path, 'theme = "dracula"\n' + text + "\n")
    settings, (warning,) = load_settings(path)
    assert said in warning and str(path) in warning
    assert settings.theme == "dracula"
    assert settings.host_url == ("http://h" if "port = 1" in text else "")


def test_a_bad_keys_entry_is_named_and_the_rest_kept(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text('[keys]\napp.hint = 3\napp.pause = "space"\n', encoding="utf-8")
    settings, warnings = load_settings(path)
    assert settings.keys == (("app.pause", "space"),)
    assert len(warnings) == 1
    assert str(path) in warnings[0]
    assert "[keys] app.hint has value 3" in warnings[0]


@pytest.mark.slow  # ~0.35 s of CPU
def test_a_dotted_key_of_many_parts_is_one_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Read as tables nested as deep: walking them recursively raised RecursionError at
    # start-up from about 1,000 parts (found while checking issue 34.8).
    monkeypatch.setattr(settings_module, "MAX_DOTS", 10_000)
    deep = ".".join(f"a{number}" for number in range(5_000))
    path = write(tmp_path, f'[keys]\n{deep} = "x"\napp.hint = "i"\n')
    settings, warnings = load_settings(path)
    assert warnings == []
    assert settings.keys == ((deep, "x"), ("app.hint", "i"))


def test_a_key_of_thousands_of_parts_is_not_parsed(tmp_path: Path) -> None:
    # tomllib takes time in the square of the parts: 150,000 (1 MB) would take minutes.
    deep = ".".join(["a"] * 150_000)
    path = write(tmp_path, f'[keys]\n{deep} = "x"\n')
    settings, warnings = load_settings(path)
    assert settings == DEFAULTS
    assert warnings == [
        f"{path}: a line of it holds more than 200 dots, and no setting is a key of that "
        "many parts; using default settings "
        "(a change of settings moves the file aside to a .bad name first)"
    ]


def test_keys_that_is_not_a_table_is_named(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    path.write_text('keys = "vim"\n', encoding="utf-8")
    settings, warnings = load_settings(path)
    assert settings.keys == ()
    assert "'keys' must be a table" in warnings[0]


def test_save_changes_keeps_what_another_run_changed_meanwhile(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    start = Settings()
    save_settings(path, start)
    # Two runs (a terminal and a browser tab) read the same file, then each changes one thing.
    first = save_changes(path, start, start._replace(theme="dark"))
    second = save_changes(path, start, start._replace(zoom="4x2"))
    assert first.theme == "dark"
    assert (second.theme, second.zoom) == ("dark", "4x2")
    assert load_settings(path)[0] == start._replace(theme="dark", zoom="4x2")


@pytest.mark.parametrize(
    "text", [b'board = "expert\n[keys]\n"app.hint" = "h"\n', b"theme = \xff\n"]
)
def test_a_settings_change_keeps_a_file_it_cannot_read_beside_as_bad(
    tmp_path: Path, text: bytes
) -> None:
    # Found by a player: a hand-edited settings.toml with one TOML error (and a [keys]
    # table) was written over with the defaults at the first change of an option.
    path = tmp_path / "settings.toml"
    path.write_bytes(text)
    start, warnings = load_settings(path)
    assert "moves the file aside" in warnings[0]
    written = save_changes(path, start, start._replace(question_marks=False))
    assert (tmp_path / "settings.toml.bad").read_bytes() == text
    assert load_settings(path) == (written, [])


def test_a_player_name_is_kept_and_no_name_is_no_problem(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    save_settings(path, Settings(player_name="Ada"))
    assert load_settings(path) == (Settings(player_name="Ada"), [])
    save_settings(path, Settings())  # written as "": none given, and no warning for it
    assert load_settings(path) == (Settings(), [])
    too_long = write(tmp_path, f"player_name = {'x' * 41!r}\n")
    settings, warnings = load_settings(too_long)
    assert settings.player_name == ""
    assert "expected a string of at most 40 characters" in warnings[0]


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ("  Ada   Lovelace ", "Ada Lovelace"),
        ("Ada\x1b[2J", "Ada [2J"),  # a terminal command in a name is only text
        ("A\u202eda", "A da"),  # nor a change of writing direction
        ("\t\n", ""),
        ("x" * 50, "x" * 40),
    ],
)
def test_a_typed_name_is_cleaned_to_plain_words(typed: str, kept: str) -> None:
    assert clean_player_name(typed) == kept


#: TOML that tomllib cannot take (issue 46.21): each 1 to 5 KB.
BEYOND = {
    "arrays 500 deep": "theme = " + "[" * 500 + "]" * 500 + "\n",
    "tables 500 deep": "theme = " + "{a = " * 500 + "1" + "}" * 500 + "\n",
    "5,000 digits": "custom_width = " + "9" * 5000 + "\n",
}


@pytest.mark.parametrize("text", BEYOND.values(), ids=BEYOND.keys())
def test_toml_beyond_what_is_read_gives_defaults_and_one_warning(tmp_path: Path, text: str) -> None:
    # A RecursionError or ValueError from tomllib was a traceback at every start.
    path = write(tmp_path, 'board = "expert"\n' + text)
    settings, warnings = load_settings(path)
    assert settings == DEFAULTS and len(warnings) == 1
    warning = warnings[0]
    assert warning.startswith(f"{path}: ") and "using default settings" in warning
    assert "not valid TOML" not in warning  # it is TOML: more than textmines reads
    assert "set_int_max_str_digits" not in warning  # Python's advice, not the player's
