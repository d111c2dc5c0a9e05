"""The command line: options become a GameConfig; bad values exit 2 with one line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from textmines.cli import build_parser, choose_theme, config_from_args
from textmines.ui.app import bundled_themes


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        ([], (9, 9, 10)),
        (["--beginner"], (9, 9, 10)),
        (["--intermediate"], (16, 16, 40)),
        (["--expert"], (30, 16, 99)),
        (["--custom", "40x20x150"], (40, 20, 150)),
        (["--custom", "1000X1000X5"], (1000, 1000, 5)),
    ],
)
def test_board_options(argv: list[str], expected: tuple[int, int, int]) -> None:
    config = config_from_args(argv)
    assert (config.width, config.height, config.mines) == expected


def test_rule_options() -> None:
    config = config_from_args(["--seed", "7", "--first-click", "safe", "--no-question-marks"])
    assert config.seed == 7
    assert config.first_click == "safe"
    assert config.question_marks is False
    assert config_from_args([]).question_marks is True


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--custom", "40x20"], "must look like WIDTHxHEIGHTxMINES"),
        (["--custom", "0x20x5"], "width must be between 1 and 1000, not 0"),
        (["--custom", "9x9x80"], "mines must be between 1 and 72"),
        (["--seed", "-4"], "--seed must be 0 or more"),
        (["--seed", "abc"], "invalid int value"),
        (["--first-click", "corner"], "invalid choice"),
        (["--expert", "--beginner"], "not allowed with"),
    ],
)
def test_bad_values_exit_2_with_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        config_from_args(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert message in err[-1]


def test_safe_rule_allows_denser_custom_boards() -> None:
    config = config_from_args(["--custom", "9x9x80", "--first-click", "safe"])
    assert config.mines == 80


def test_console_script_reports_bad_values() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "textmines", "--custom", "5x5x99"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert "mines must be between 1 and 16" in result.stderr


def test_no_arguments_resume_the_last_board(tmp_path: object) -> None:
    from pathlib import Path

    from textmines.config import config_from_settings
    from textmines.store.settings import Settings

    saved = Settings(board="custom", custom_width=40, custom_height=20, custom_mines=150)
    config = config_from_args([], config_from_settings(saved))
    assert (config.width, config.height, config.mines) == (40, 20, 150)
    config = config_from_args(["--expert"], config_from_settings(saved))
    assert config.label == "Expert 30x16/99"
    safe = Settings(first_click="safe", question_marks=False)
    config = config_from_args([], config_from_settings(safe))
    assert (config.first_click, config.question_marks) == ("safe", False)
    assert Path(str(tmp_path)).exists()


def test_a_saved_board_invalid_for_the_command_line_rule_exits_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from textmines.config import config_from_settings
    from textmines.store.settings import Settings

    saved = Settings(
        board="custom", custom_width=9, custom_height=9, custom_mines=80, first_click="safe"
    )
    with pytest.raises(SystemExit) as exit_info:
        config_from_args(["--first-click", "opening"], config_from_settings(saved))
    assert exit_info.value.code == 2
    assert "between 1 and 72" in capsys.readouterr().err


# ---------------------------------------------------------------------------- themes
def run_cli(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The command in a subprocess with its files under ``tmp_path``."""
    return subprocess.run(
        [sys.executable, "-m", "textmines", *args],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "TEXTMINES_HOME": str(tmp_path)},
    )


def test_list_themes_shows_bundled_and_user_themes(tmp_path: Path) -> None:
    (tmp_path / "themes").mkdir()
    (tmp_path / "themes" / "mine.toml").write_text('[board]\nflag = "#00ff00"\n')
    result = run_cli(tmp_path, "--list-themes")
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert lines[0].startswith("* classic") and "bundled" in lines[0]
    assert any(line.split()[0] == "mine" and "user" in line for line in lines)
    for name in ("dark", "high-contrast", "colorblind", "ascii"):
        assert any(line.split()[0] == name for line in lines)


def test_export_theme_to_screen_and_to_a_new_file(tmp_path: Path) -> None:
    result = run_cli(tmp_path, "--export-theme", "dark")
    assert result.returncode == 0 and "[board]" in result.stdout
    target = tmp_path / "out.toml"
    result = run_cli(tmp_path, "--export-theme", "dark", str(target))
    assert result.returncode == 0 and "written to" in result.stdout
    assert "[glyphs]" in target.read_text()
    again = run_cli(tmp_path, "--export-theme", "classic", str(target))
    assert again.returncode == 1 and "already exists" in again.stderr
    assert "dark" in target.read_text()  # the existing file is untouched


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--export-theme", "nope"], "unknown theme 'nope'"),
        (["--export-theme", "dark", "a", "b"], "at most one file"),
        (["--theme", "darkk"], "did you mean 'dark'?"),
        (["--theme", "missing.toml"], "missing.toml: cannot be read"),
    ],
)
def test_bad_theme_arguments_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    result = run_cli(tmp_path, *args)
    assert result.returncode == 2
    assert message in result.stderr and result.stderr.count("\n") == 1


def test_bad_theme_file_on_the_command_line_exits_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[board]\nflag = 'not a colour'\n")
    result = run_cli(tmp_path, "--theme", str(bad))
    assert result.returncode == 2
    assert "bad.toml" in result.stderr and "flag" in result.stderr


def test_choose_theme_prefers_the_argument_then_the_saved_name(tmp_path: Path) -> None:
    themes = bundled_themes()
    assert choose_theme("ascii", "dark", themes)[0].name == "ascii"
    assert choose_theme(None, "dark", themes) == (themes["dark"], [])
    path = tmp_path / "three.toml"
    path.write_text('base = "dark"\n[theme]\nname = "three"\n[board]\nflag = "#00ff00"\n')
    theme, warnings = choose_theme(str(path), "dark", themes)
    assert (theme.name, theme.board["flag"], warnings) == ("three", "#00FF00", [])
    theme, warnings = choose_theme(None, "gone", themes)
    assert theme.name == "classic" and "'gone'" in warnings[0]


def test_no_guess_option_and_setting() -> None:
    from textmines.config import config_from_settings
    from textmines.store.settings import Settings

    assert config_from_args(["--no-guess"]).no_guess
    assert not config_from_args([]).no_guess
    assert config_from_args([], config_from_settings(Settings(no_guess=True))).no_guess
    assert build_parser().parse_args(["--autoplay"]).autoplay
