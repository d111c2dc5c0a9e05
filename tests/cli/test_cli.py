"""The command line: options become a GameConfig; bad values exit 2 with one line."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any, ClassVar

import pytest

from tests.helpers import BUNDLED_THEMES
from tests.web.served import free_port
from textmines.cli import main
from textmines.cli.commands import choose_theme
from textmines.cli.options import build_parser
from textmines.config import GameConfig
from textmines.engine import Game
from textmines.engine.board_id import board_id_of
from textmines.engine.daily import daily_board, daily_day
from textmines.store.paths import default_paths, profile_folder_name
from textmines.store.saves import save_game
from textmines.store.settings import Settings, save_settings
from textmines.store.stats import Group, open_stats
from textmines.ui.app import bundled_themes


def config_of(argv: list[str], saved: Settings | None = None) -> GameConfig:
    """The GameConfig ``main`` starts the app with for ``argv``, with ``saved`` in the
    settings file (under the ``fake_app`` fixture)."""
    if saved is not None:
        save_settings(default_paths().settings_file, saved)
    assert main(argv) == 0
    config = FakeApp.built[-1].config
    assert isinstance(config, GameConfig)
    return config


def refused(argv: list[str], capsys: pytest.CaptureFixture[str], status: int = 2) -> str:
    """What ``main`` writes to stderr as it refuses ``argv``: one line, exit ``status``."""
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == status
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("textmines: "), err[:300]
    return err


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
@pytest.mark.usefixtures("fake_app")
def test_board_options(argv: list[str], expected: tuple[int, int, int]) -> None:
    config = config_of(argv)
    assert (config.width, config.height, config.mines) == expected


@pytest.mark.usefixtures("fake_app")
def test_rule_options() -> None:
    config = config_of(["--seed", "7", "--first-click", "safe", "--no-question-marks"])
    assert config.seed == 7
    assert config.first_click == "safe"
    assert config.question_marks is False
    assert config_of([]).question_marks is True


@pytest.mark.usefixtures("fake_app")
def test_each_saved_on_off_option_can_be_turned_either_way_for_one_run() -> None:
    plain = Settings(question_marks=False, no_guess=False)
    marks_and_no_guess = Settings(question_marks=True, no_guess=True)
    for saved in (plain, marks_and_no_guess):
        assert config_of(["--question-marks"], saved).question_marks is True
        assert config_of(["--no-question-marks"], saved).question_marks is False
        assert config_of(["--no-guess"], saved).no_guess is True
        assert config_of(["--guessing"], saved).no_guess is False
        unchanged = config_of([], saved)
        assert (unchanged.question_marks, unchanged.no_guess) == (
            saved.question_marks,
            saved.no_guess,
        )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--custom", "40x20"], "must look like WIDTHxHEIGHTxMINES"),
        (["--custom", "0x20x5"], "--custom: width must be between 1 and 1000, not 0"),
        (["--custom", "-5x10x10"], "--custom: width must be between 1 and 1000, not -5"),
        (["--custom", "10x-5x10"], "--custom: height must be between 1 and 1000, not -5"),
        (["--seed", "-4", "--beginner"], "--seed: must be a number, 0 or more"),
        (["--bogus"], "unrecognized arguments: --bogus"),
        (["--custom", "9x9x80"], "mines must be between 1 and 72"),
        (["--seed", "-4"], "--seed: must be a number, 0 or more, of at most 20 digits, not '-4'"),
        (["--seed", "abc"], "--seed: must be a number, 0 or more, of at most 20 digits"),
        (["--first-click", "corner"], "--first-click: must be 'opening' or 'safe', not 'corner'"),
        (["--expert", "--beginner"], "not allowed with"),
        (["--daily", "--seed", "3"], "--seed does not go with --daily"),
        (["--daily", "--guessing"], "--guessing does not go with --daily"),
        (["--no-guess", "--guessing"], "not allowed with"),
        (["--question-marks", "--no-question-marks"], "not allowed with"),
        (["--game", "9x9-10-o4.4-1k3m", "--seed", "3"], "--seed does not go with --game"),
    ],
)
@pytest.mark.usefixtures("fake_app")
def test_bad_values_exit_2_with_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    err = refused(argv, capsys)
    assert message in err and err.endswith("(see textmines --help)\n")


#: A number of 5,000 digits: int() refuses it with Python's own message (past 4,300).
LONG_NUMBER = "9" * 5000


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--seed", LONG_NUMBER], "--seed: must be a number, 0 or more, of at most 20 digits"),
        (["--custom", f"9x9x{LONG_NUMBER}"], "--custom: too long for WIDTHxHEIGHTxMINES"),
        (["--custom", f"{LONG_NUMBER}x9x10"], "--custom: too long for WIDTHxHEIGHTxMINES"),
        (["--serve", "--port", LONG_NUMBER], "--port: must be a number from 1 to 65535"),
        (["--serve", "--max-tabs", LONG_NUMBER], "--max-tabs: must be a number from 1 to 1000"),
        (["--first-click", LONG_NUMBER], "--first-click: must be 'opening' or 'safe'"),
        (["--theme", "x" * 5000], "--theme: unknown theme 'xxxx"),
    ],
)
@pytest.mark.usefixtures("fake_app")
def test_an_overlong_value_is_refused_in_a_short_line_that_quotes_it_cut_short(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    err = refused(argv, capsys)
    assert len(err) < 250 and message in err, err[:300]
    assert "characters)" in err, "the value is quoted cut short, with its length"
    assert "sys.set_int_max_str_digits" not in err and "Exceeds the limit" not in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        # Board IDs take ASCII digits only; so does every number option.
        (["--custom", "\uff19x9x10"], "--custom: WIDTHxHEIGHTxMINES takes the digits 0-9"),
        (["--custom", "9x9x1\u0660"], "--custom: WIDTHxHEIGHTxMINES takes the digits 0-9"),
        (["--seed", "\uff15"], "--seed: must be a number, 0 or more, of at most 20 digits"),
        (["--seed", "\u00b2"], "--seed: must be a number, 0 or more, of at most 20 digits"),
        # int() also takes a sign, spaces and underscores.
        (["--seed", "+5"], "--seed: must be a number, 0 or more, of at most 20 digits, not '+5'"),
        (["--seed", " 5"], "--seed: must be a number, 0 or more, of at most 20 digits, not ' 5'"),
        (["--seed", "1_000"], "--seed: must be a number, 0 or more, of at most 20 digits"),
        (["--seed", "1" + "0" * 20], "--seed: must be a number, 0 or more, of at most 20 digits"),
    ],
)
@pytest.mark.usefixtures("fake_app")
def test_numbers_are_ascii_digits_only_and_in_range(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert message in refused(argv, capsys)


@pytest.mark.usefixtures("fake_app")
def test_the_longest_seed_and_leading_zeros_are_taken() -> None:
    assert config_of(["--seed", "9" * 20]).seed == 10**20 - 1
    assert config_of(["--seed", "0" * 30 + "5"]).seed == 5
    assert config_of(["--seed", "0"]).seed == 0
    config = config_of(["--custom", " 040 x 020 x 0150 "])
    assert (config.width, config.height, config.mines) == (40, 20, 150)


@pytest.mark.usefixtures("fake_app")
def test_safe_rule_allows_denser_custom_boards() -> None:
    config = config_of(["--custom", "9x9x80", "--first-click", "safe"])
    assert config.mines == 80


@pytest.mark.slow  # the program
def test_console_script_reports_bad_values() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "textmines", "--custom", "5x5x99"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert "mines must be between 1 and 16" in result.stderr


@pytest.mark.usefixtures("fake_app")
def test_no_arguments_resume_the_last_board() -> None:
    saved = Settings(board="custom", custom_width=40, custom_height=20, custom_mines=150)
    config = config_of([], saved)
    assert (config.width, config.height, config.mines) == (40, 20, 150)
    config = config_of(["--expert"], saved)
    assert config.label == "Expert 30x16/99"
    safe = Settings(first_click="safe", question_marks=False)
    config = config_of([], safe)
    assert (config.first_click, config.question_marks) == ("safe", False)


@pytest.mark.usefixtures("fake_app")
def test_a_saved_board_invalid_for_the_command_line_rule_exits_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    saved = Settings(
        board="custom", custom_width=9, custom_height=9, custom_mines=80, first_click="safe"
    )
    save_settings(default_paths().settings_file, saved)
    with pytest.raises(SystemExit) as exit_info:
        main(["--first-click", "opening"])
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


@pytest.mark.slow  # the program
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


@pytest.mark.slow  # the program, three times
def test_export_theme_to_screen_and_to_a_new_file(tmp_path: Path) -> None:
    result = run_cli(tmp_path, "--export-theme", "dark")
    assert result.returncode == 0 and "[board]" in result.stdout
    target = tmp_path / "out.toml"
    result = run_cli(tmp_path, "--export-theme", "dark", str(target))
    assert result.returncode == 0 and "written to" in result.stdout
    assert "[glyphs]" in target.read_text()
    again = run_cli(tmp_path, "--export-theme", "classic", str(target))
    assert again.returncode == 2 and "already exists" in again.stderr
    assert "dark" in target.read_text()  # the existing file is untouched


@pytest.mark.slow  # the program
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--export-theme", "nope"], "unknown theme 'nope'"),
        (["--export-theme", "dark", "a", "b"], "at most one file (see textmines --help)"),
        (["--theme", "darkk"], "did you mean 'dark'?"),
        (["--theme", "missing.toml"], "missing.toml: cannot be read"),
    ],
)
def test_bad_theme_arguments_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    result = run_cli(tmp_path, *args)
    assert result.returncode == 2
    assert message in result.stderr and result.stderr.count("\n") == 1


@pytest.mark.slow  # the program: ~1 s
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


@pytest.mark.usefixtures("fake_app")
def test_no_guess_option_and_setting() -> None:
    assert config_of(["--no-guess"]).no_guess
    assert not config_of([]).no_guess
    assert config_of([], Settings(no_guess=True)).no_guess
    assert build_parser().parse_args(["--autoplay"]).autoplay


def test_usage_shows_that_export_theme_takes_one_file() -> None:
    usage = build_parser().format_help()
    assert "--export-theme NAME [FILE]" in usage and "FILE ..." not in usage


@pytest.mark.slow  # the program, three times
def test_broken_user_themes_are_listed_with_their_error(tmp_path: Path) -> None:
    themes = tmp_path / "themes"
    themes.mkdir()
    (themes / "broken.toml").write_text("[board]\nflag = 'not a colour'\n")
    (themes / "fine.toml").write_text('[board]\nflag = "#00ff00"\n')
    result = run_cli(tmp_path, "--list-themes")
    assert result.returncode == 0
    line = next(line for line in result.stdout.splitlines() if line.split()[0] == "broken")
    assert "broken" in line.split()[1] and "broken.toml" in line and "flag" in line
    assert any(line.split()[0] == "fine" for line in result.stdout.splitlines())
    chosen = run_cli(tmp_path, "--theme", "broken")
    assert chosen.returncode == 2 and chosen.stderr.count("\n") == 1
    assert "unknown theme" not in chosen.stderr
    assert "--theme: " in chosen.stderr and "broken.toml" in chosen.stderr
    exported = run_cli(tmp_path, "--export-theme", "broken")
    assert exported.returncode == 2 and "broken.toml" in exported.stderr


REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def bundled_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the bundled themes that the program uses instead of them."""
    from textmines.themes import export, load

    folder = tmp_path / "bundled"
    folder.mkdir()
    for path in (REPO / "themes").glob("*.toml"):
        (folder / path.name).write_text(path.read_text("utf-8"), "utf-8")
    monkeypatch.setattr(load, "find_bundled_dir", lambda: folder)
    monkeypatch.setattr(export, "find_bundled_dir", lambda: folder)
    return folder


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the theme files (``.toml``) opened from now on."""
    names: list[str] = []
    original = os.open

    def os_open(path: Any, flags: int, *args: Any) -> int:
        if str(path).endswith(".toml") and Path(path).name != "settings.toml":
            names.append(Path(path).name)
        return original(path, flags, *args)

    monkeypatch.setattr(os, "open", os_open)
    return names


def test_a_start_reads_only_the_chosen_theme_and_its_bases(
    fake_app: type[FakeApp], bundled_folder: Path, opened: list[str]
) -> None:
    # A broken bundled file is never found: nothing at start reads it.
    (bundled_folder / "zebra.toml").write_text("[board\n")
    save_settings(default_paths().settings_file, Settings(theme="dark"))
    opened.clear()
    assert main(["--expert"]) == 0
    built = fake_app.built[-1].options
    assert built["theme"].name == "dark" and sorted(opened) == ["classic.toml", "dark.toml"]
    assert built["warnings"] == []
    assert list(built["themes"]) == [*BUNDLED_THEMES, "zebra"]


def test_list_themes_shows_every_theme_and_a_user_theme_on_a_bundled_base(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TEXTMINES_HOME", str(tmp_path))
    user = default_paths().themes_dir
    user.mkdir(parents=True)
    (user / "mine.toml").write_text('base = "high-contrast"\n[board]\nflag = "#00ff00"\n')
    assert main(["--list-themes"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines[1:]] == [
        "ascii",
        "colorblind",
        "dark",
        "high-contrast",
        "light",
        "mine",
    ]
    assert lines[0].split()[:3] == ["*", "classic", "bundled"]
    assert lines[-1].split()[1] == "user" and lines[-1].endswith("(base high-contrast)")


@pytest.mark.usefixtures("fake_app")
def test_a_broken_bundled_theme_is_told_when_it_is_needed(
    bundled_folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dark = bundled_folder / "dark.toml"
    dark.write_text("[board\n")
    # Chosen last time: the start says why it is not there, as for a player's file.
    assert main([]) == 0
    built = FakeApp.built[-1].options
    assert built["theme"].name == "classic" and "dark" not in built["themes"]
    save_settings(default_paths().settings_file, Settings(theme="dark"))
    assert main([]) == 0
    warnings = FakeApp.built[-1].options["warnings"]
    assert FakeApp.built[-1].options["theme"].name == "classic" and len(warnings) == 2
    assert warnings[0].startswith(f"{dark}: is not valid TOML")
    assert warnings[0].endswith("; theme skipped")
    assert warnings[1] == (
        "The theme 'dark' chosen last time is not available any more; using 'classic'."
    )
    # Named: its error, not "unknown theme"; listed: as broken.
    assert refused(["--theme", "dark"], capsys).startswith(f"textmines: --theme: {dark}: ")
    assert main(["--list-themes"]) == 0
    line = next(line for line in capsys.readouterr().out.splitlines() if " dark " in line)
    assert line.split()[:3] == ["*", "dark", "broken"] and str(dark) in line


@pytest.mark.usefixtures("fake_app")
def test_a_broken_classic_is_a_broken_install(
    bundled_folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (bundled_folder / "classic.toml").write_text("[board]\nflag = 'not a colour'\n")
    err = refused([], capsys, status=1)
    assert err == "textmines: the bundled themes are missing; reinstall textmines\n"


@pytest.mark.slow  # the program
def test_paths_lists_the_crash_log_and_the_replays(tmp_path: Path) -> None:
    result = run_cli(tmp_path, "--paths")
    assert result.returncode == 0
    assert f"crash log   {tmp_path}" in result.stdout
    assert f"replays     {tmp_path / 'replays'}" in result.stdout


# ---------------------------------------------------------------------------- playing
class FakeApp:
    """Stands in for TextminesApp: records how main() built it, runs as told."""

    built: ClassVar[list[FakeApp]] = []
    crash_report: str | None = None
    exit_message: str | None = None
    return_code: int | None = None

    def __init__(self, config: object, **options: Any) -> None:
        self.config, self.options = config, options
        # The statistics the app would open after its first frame: nothing to close here.
        self.stats_keeper = SimpleNamespace(close=lambda: None)
        FakeApp.built.append(self)

    def run(self) -> None:
        pass


@pytest.fixture
def fake_app(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> type[FakeApp]:
    import textmines.ui.app

    monkeypatch.setenv("TEXTMINES_HOME", str(tmp_path))
    monkeypatch.setattr(textmines.ui.app, "TextminesApp", FakeApp)
    FakeApp.built.clear()
    return FakeApp


def test_a_crash_in_the_app_exits_1_with_its_one_line_report(
    fake_app: type[FakeApp],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def crash(self: FakeApp) -> None:
        self.crash_report = f"textmines stopped: Boom. Details in {tmp_path}/crash.log"

    monkeypatch.setattr(fake_app, "run", crash)
    assert main([]) == 1
    assert fake_app.built[0].options["crash_log"] == tmp_path / "crash.log"
    assert capsys.readouterr().err == f"textmines stopped: Boom. Details in {tmp_path}/crash.log\n"


def test_the_app_exit_status_is_the_command_status(
    fake_app: type[FakeApp], monkeypatch: pytest.MonkeyPatch
) -> None:
    def terminated(self: FakeApp) -> None:
        self.return_code = 143  # as after SIGTERM

    monkeypatch.setattr(fake_app, "run", terminated)
    assert main([]) == 143


def test_what_the_app_must_still_say_goes_to_stderr_after_it(
    fake_app: type[FakeApp], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def unsaved(self: FakeApp) -> None:
        self.return_code, self.exit_message = 1, "Game not saved: x. The game was lost."

    monkeypatch.setattr(fake_app, "run", unsaved)
    assert main([]) == 1
    assert capsys.readouterr().err == "textmines: Game not saved: x. The game was lost.\n"


def test_a_last_word_to_a_closed_terminal_keeps_the_exit_status(
    fake_app: type[FakeApp], monkeypatch: pytest.MonkeyPatch
) -> None:
    # After the terminal closed, saying where the game went raised EIO: exit 1, not 129.
    class Gone:
        def write(self, text: str) -> int:
            raise OSError(5, "Input/output error")

        def flush(self) -> None:
            raise OSError(5, "Input/output error")

    def hung_up(self: FakeApp) -> None:
        self.return_code, self.exit_message = 129, "The game was kept in /tmp/x.json."

    monkeypatch.setattr(fake_app, "run", hung_up)
    monkeypatch.setattr(sys, "stderr", Gone())
    assert main([]) == 129


def save_expert_game(tmp_path: Path) -> Game:
    game = Game(30, 16, 99, seed=3)
    game.reveal(5, 5)
    notice = save_game(tmp_path / "saved-game.json", game, {"started_at": datetime.now(UTC)})
    assert notice is None
    return game


def test_a_board_option_records_a_saved_game_for_another_board(
    fake_app: type[FakeApp], tmp_path: Path
) -> None:
    save_expert_game(tmp_path)
    assert main(["--beginner"]) == 0
    options = fake_app.built[0].options
    assert options["resumed"] is None
    assert any("saved Expert game" in notice for notice in options["warnings"])
    stats, _ = open_stats(tmp_path / "stats.db")
    assert stats is not None
    try:
        expert = stats.group_stats(Group.for_board(30, 16, 99))
        assert (expert.played, expert.abandoned) == (1, 1)
    finally:
        stats.close()
    assert not (tmp_path / "saved-game.json").exists()


def test_a_board_option_for_the_saved_board_resumes_it(
    fake_app: type[FakeApp], tmp_path: Path
) -> None:
    game = save_expert_game(tmp_path)
    assert main(["--expert"]) == 0
    resumed = fake_app.built[0].options["resumed"]
    assert resumed is not None and resumed.game.view_text() == game.view_text()
    assert main(["--expert", "--seed", "4"]) == 0  # a seed asks for a new board
    assert fake_app.built[1].options["resumed"] is None


def save_beginner_game(tmp_path: Path) -> None:
    game = Game(9, 9, 10, seed=3)
    game.reveal(0, 0)
    notice = save_game(tmp_path / "saved-game.json", game, {"started_at": datetime.now(UTC)})
    assert notice is None


def abandoned_notice(fake_app: type[FakeApp]) -> str:
    """What the last run told the player about the saved game it recorded as abandoned."""
    options = fake_app.built[-1].options
    assert options["resumed"] is None
    said = [notice for notice in options["warnings"] if "abandoned" in notice]
    assert len(said) == 1, options["warnings"]
    return str(said[0])


@pytest.mark.parametrize(
    ("argv", "asked", "leave_out"),
    [
        # The same size: the saved board was not "another board", the seed asked for a deal.
        (["--beginner", "--seed", "5"], "seed 5", "without a board option or --seed"),
        (["--seed", "0"], "seed 0", "without a board option or --seed"),
        (["--expert", "--seed", "7"], "seed 7", "without a board option or --seed"),
        (
            ["--game", "9x9-10-o4.4-1ef8z1e8y1s"],
            "the board ID 9x9-10-o4.4-1ef8z1e8y1s",
            "without a board option",
        ),
        (["--daily"], "today's daily board", "without a board option"),
        (["--expert"], "another board", "without a board option"),
    ],
)
def test_the_saved_game_notice_names_what_was_asked_for(
    fake_app: type[FakeApp], tmp_path: Path, argv: list[str], asked: str, leave_out: str
) -> None:
    """``--beginner --seed 5`` with a Beginner game saved said it was abandoned "as you asked
    for another board": the board was the same, the seed asked for another deal."""
    save_beginner_game(tmp_path)
    assert main(argv) == 0
    notice = abandoned_notice(fake_app)
    assert notice.startswith("Your saved Beginner game (")
    assert f"was recorded as abandoned, as you asked for {asked}. " in notice
    assert f"(Next time, start textmines {leave_out} to play a saved game on.)" in notice
    assert not (tmp_path / "saved-game.json").exists()


def test_the_saved_games_own_board_id_or_todays_daily_resumes_it(
    fake_app: type[FakeApp], tmp_path: Path
) -> None:
    # Issue 34.16: --game with the saved game's own ID recorded it as abandoned "as you asked
    # for another board".
    game = save_expert_game(tmp_path)
    own = board_id_of(game)
    assert own is not None
    assert main(["--game", own.upper()]) == 0  # IDs read in either case
    resumed = fake_app.built[0].options["resumed"]
    assert resumed is not None and resumed.game.view_text() == game.view_text()
    assert not any("abandoned" in notice for notice in fake_app.built[0].options["warnings"])
    today = daily_day(datetime.now(UTC))
    daily = daily_board(today).game()
    notice = save_game(tmp_path / "saved-game.json", daily, {"daily": today.isoformat()})
    assert notice is None
    assert main(["--daily"]) == 0
    resumed = fake_app.built[1].options["resumed"]
    assert resumed is not None and resumed.daily == today
    assert main(["--game", "9x9-10-o4.4-1ef8z1e8y1s"]) == 0  # another board: not resumed
    assert fake_app.built[2].options["resumed"] is None


def test_a_replay_file_neither_resumes_nor_writes_the_saved_game(
    fake_app: type[FakeApp], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import textmines.cli.start as cli_module

    save_expert_game(tmp_path)
    monkeypatch.setattr(cli_module, "_replay_arg", lambda file: (object(), file))
    assert main(["--replay", "game.evf"]) == 0
    options = fake_app.built[0].options
    assert options["resumed"] is None and options["save_path"] is None
    assert (tmp_path / "saved-game.json").exists(), "the saved game waits for the next run"


PROFILE = "0123456789abcdef0123456789abcdef"


def test_a_browser_tab_plays_its_profiles_files_and_leaves_the_terminals_alone(
    fake_app: type[FakeApp], tmp_path: Path
) -> None:
    save_expert_game(tmp_path)  # the terminal's
    own = tmp_path / "profiles" / profile_folder_name(PROFILE)
    assert main(["--tab", "--profile", PROFILE]) == 0
    options = fake_app.built[0].options
    assert options["resumed"] is None, "the terminal's saved game is not this browser's"
    assert options["save_path"] == own / "saved-game.json"
    assert options["settings_path"] == own / "settings.toml"
    assert options["replays_dir"] == own / "replays"
    assert options["crash_log"] == tmp_path / "crash.log", "the owner's, who can act on it"
    assert (tmp_path / "saved-game.json").exists(), "the terminal's saved game stays"

    # The profile's own saved game comes back in its tab, whatever board the server's
    # options give its new games.
    game = save_expert_game(own)
    assert main(["--tab", "--profile", PROFILE, "--beginner", "--seed", "3"]) == 0
    resumed = fake_app.built[1].options["resumed"]
    assert resumed is not None and resumed.game.view_text() == game.view_text()


def test_touch_is_a_tabs_option_only_and_makes_its_words_speak_of_taps(
    fake_app: type[FakeApp], capsys: pytest.CaptureFixture[str]
) -> None:
    # Issue 48.11: the server adds --touch to a touch screen's tab; hidden, as --tab is.
    assert main(["--tab", "--profile", PROFILE, "--touch"]) == 0
    assert main(["--tab", "--profile", PROFILE]) == 0
    assert [app.options["touch"] for app in fake_app.built] == [True, False]
    for argv in (["--touch"], ["--paths", "--touch"], ["--serve", "--touch"]):
        assert "--touch goes with --tab" in refused(argv, capsys)
    assert "--touch" not in build_parser().format_help()


@pytest.mark.parametrize(
    "profile",
    [
        "../../etc",
        PROFILE.upper(),
        PROFILE[:-1],
        PROFILE + "0",
        f"{PROFILE}\n",
        "0123456789abcdef/123456789abcdef",
        "",
    ],
)
def test_a_profile_that_is_not_an_id_exits_2_and_touches_nothing(
    profile: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TEXTMINES_HOME", str(tmp_path / "home"))
    with pytest.raises(SystemExit) as exit_info:
        main(["--tab", f"--profile={profile}"])
    assert exit_info.value.code == 2
    assert "--profile: must be 64 (or 32) hex digits" in capsys.readouterr().err
    assert not (tmp_path / "home").exists()


@pytest.mark.slow  # the program
def test_paths_of_a_profile_name_its_folder(tmp_path: Path) -> None:
    result = run_cli(tmp_path, "--paths", "--profile", PROFILE)
    assert result.returncode == 0
    own = tmp_path / "profiles" / profile_folder_name(PROFILE)
    assert f"profile     {own} (a browser's)" in result.stdout
    assert f"statistics  {own / 'stats.db'}" in result.stdout
    assert f"themes      {tmp_path / 'themes'}" in result.stdout


def test_serve_passes_its_options_to_the_server_and_the_rest_to_each_tab(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import textmines.web.server as serve_module
    from textmines.web.tabs import tab_arguments, tab_command

    monkeypatch.setenv("TEXTMINES_HOME", str(tmp_path))
    served: list[tuple[list[str], str, int, int, tuple[int, int], str | None]] = []
    monkeypatch.setattr(
        serve_module,
        "serve",
        lambda argv, host, port, tabs, players, database: served.append(
            (list(argv), host, port, tabs, players, database)
        ),
    )
    argv = ["--serve", "--port=8765", "--expert", "--host", "0.0.0.0", "--max-tabs", "2"]
    players = ["--max-players", "30", "--max-players-mb=50", "--database", "postgresql://h/db"]
    assert main([*argv, *players, "--seed", "3"]) == 0
    assert served[0][1:] == ("0.0.0.0", 8765, 2, (30, 50), "postgresql://h/db")
    assert tab_arguments(served[0][0]) == ["--tab", "--expert", "--seed", "3"]
    assert main(["--serve"]) == 0
    assert served[1][1:] == ("127.0.0.1", 8000, 8, (5000, 1024), None), "this machine only"
    command = tab_command(["--serve", "--theme", "my theme.toml"])
    assert command.endswith("-m textmines --tab --theme 'my theme.toml'")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--serve", "--port", "0"], "must be a number from 1 to 65535, not '0'"),
        (["--serve", "--port", "http"], "must be a number from 1 to 65535, not 'http'"),
        (["--serve", "--max-tabs", "0"], "must be a number from 1 to 1000, not '0'"),
        (["--serve", "--port", "-1"], "--port: must be a number from 1 to 65535, not '-1'"),
        # str.isdigit() takes these, and int() takes the second: ASCII digits only.
        (["--serve", "--port", "\u00b2"], "must be a number from 1 to 65535, not '\u00b2'"),
        (["--serve", "--max-tabs", "\uff15"], "must be a number from 1 to 1000, not '\uff15'"),
        (["--serve", "--max-players", "0"], "must be a number from 1 to 10000000, not '0'"),
        (["--serve", "--max-players-mb", "-5"], "must be a number from 1 to 100000000, not '-5'"),
        (["--port", "8000"], "--host, --port, --max-tabs, --max-players, --max-players-mb and"),
        (["--host", "0.0.0.0"], "--max-players-mb and --database go with --serve"),
        (["--max-tabs", "3"], "--max-players-mb and --database go with --serve"),
        (["--max-players", "3"], "--max-players-mb and --database go with --serve"),
        (["--database", "postgresql://x@127.0.0.1/db"], "and --database go with --serve"),
        (["--serve", "--profile", "0" * 32], "each browser gets a profile of its own"),
        # No shortened names: the server hands the rest of the line to every tab.
        (["--serve", "--po", "9000"], "unrecognized arguments: --po 9000"),
    ],
)
def test_bad_serve_options_exit_2_with_one_line(
    args: list[str],
    message: str,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TEXTMINES_HOME", str(tmp_path))
    assert message in refused(args, capsys)


def test_a_port_in_use_exits_1_saying_so(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import socket

    monkeypatch.setenv("TEXTMINES_HOME", str(tmp_path))
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(SystemExit) as exit_info:
            main(["--serve", "--port", str(port)])
    assert exit_info.value.code == 1
    out, error = capsys.readouterr()
    assert f"--serve: cannot serve on 127.0.0.1:{port}:" in error
    assert "choose another --port" in error
    assert out == "", "no 'Serving on ...' banner before the failure"


# ---------------------------------------------------------------------------- hostile input
LONG_NAME = "a" * 256  # longer than a file name may be


@pytest.mark.slow  # the program
@pytest.mark.parametrize(
    ("args", "status", "message"),
    [
        (["--theme", LONG_NAME], 2, "unknown theme"),
        (["--export-theme", LONG_NAME], 2, "unknown theme"),
        (["--export-theme", "dark", f"/tmp/{LONG_NAME}.toml"], 1, "file name too long"),
        (["--theme", "/dev/zero"], 2, "/dev/zero: is not a regular file"),
    ],
)
def test_impossible_paths_get_one_line_not_a_traceback(
    tmp_path: Path, args: list[str], status: int, message: str
) -> None:
    result = run_cli(tmp_path, *args)
    assert result.returncode == status
    assert message in result.stderr and result.stderr.count("\n") == 1


@pytest.mark.slow  # the program
def test_a_fifo_or_a_huge_file_among_the_themes_is_listed_as_broken(tmp_path: Path) -> None:
    themes = tmp_path / "themes"
    themes.mkdir()
    os.mkfifo(themes / "pipe.toml")  # reading it would wait for a writer for ever
    (themes / "huge.toml").write_text("# " + "x" * 1_100_000 + "\n")
    result = subprocess.run(
        [sys.executable, "-m", "textmines", "--list-themes"],
        capture_output=True,
        text=True,
        check=False,
        timeout=30,
        env={**os.environ, "TEXTMINES_HOME": str(tmp_path)},
    )
    assert result.returncode == 0
    lines = {line.split()[0]: line for line in result.stdout.splitlines()}
    assert "is not a regular file" in lines["pipe"]
    assert "is larger than 1 MB" in lines["huge"]


@pytest.mark.slow  # the program
def test_export_theme_to_dash_writes_to_the_screen(tmp_path: Path) -> None:
    result = run_cli(tmp_path, "--export-theme", "dark", "-")
    assert result.returncode == 0 and "[board]" in result.stdout
    assert not (tmp_path / "-").exists() and not Path("-").exists()


# ---------------------------------------------------------------------------- replays
RECORDED_AT = datetime(2026, 11, 1, 12, tzinfo=UTC)


def recorded_games(home: Path) -> list[Game]:
    """Two games recorded in the statistics under ``home``, then an older version's row."""
    from datetime import timedelta

    from tests.factories import game_record, played_game
    from textmines.records import record_for

    store, _ = open_stats(home / "stats.db")
    assert store is not None
    games = [played_game(16, 16, 40, seed) for seed in (1, 2)]
    start = RECORDED_AT
    with store:
        for number, game in enumerate(games):
            moment = start + timedelta(minutes=number)
            outcome = game.status.value
            store.record(
                record_for(
                    game, outcome=outcome, started_at=moment, ended_at=moment, assisted=False
                )
            )
        store.record(game_record(ended=start - timedelta(days=1)))
    return games


def test_export_replay_writes_the_last_or_a_numbered_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from textmines.replays.evf import export_evf
    from textmines.replays.recording import Recording

    monkeypatch.setenv("TEXTMINES_HOME", str(tmp_path))
    games = recorded_games(tmp_path)
    last, first = tmp_path / "last.evf", tmp_path / "first.evf"
    assert main(["--export-replay", "last", str(last)]) == 0
    assert main(["--export-replay", "1", str(first)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"Replay of game 2 written to {last}",
        f"Replay of game 1 written to {first}",
    ]
    for number, (path, game) in enumerate(((first, games[0]), (last, games[1]))):
        moment = int(RECORDED_AT.timestamp() * 1_000_000) + number * 60_000_000
        expected = export_evf(
            Recording.of(game),
            started_us=moment,
            ended_us=moment,
            unique_id=f"textmines-{number + 1}",
        )
        assert path.read_bytes() == expected


@pytest.mark.parametrize(
    ("game", "status", "message"),
    [
        # Issue 46.11: bad input too (another game is to be named), as an unknown game is.
        ("3", 2, "game 3 has no recording"),  # an older version's game
        ("003", 2, "game 3 has no recording"),
        # Issue 34.22: a game that is not there is no game (it said "has no recording").
        ("9", 2, "there is no game 9 in the statistics"),
        ("9" * 23, 2, f"there is no game {'9' * 23} in the statistics"),  # past SQLite's
        pytest.param(
            "9" * 5000,
            2,
            f"there is no game {'9' * 40}... (5,000 digits) in the statistics",
            id="5000 digits",
        ),
        ("x", 2, "GAME must be 'last' or a game number, not 'x'"),
        ("0", 2, "GAME must be 'last'"),
        ("\u00b2", 2, "GAME must be 'last' or a game number, not '\u00b2'"),  # isdigit() took it
        ("\u0663", 2, "GAME must be 'last' or a game number, not '\u0663'"),  # Arabic-Indic 3
    ],
)
def test_export_replay_says_what_is_wrong(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    game: str,
    status: int,
    message: str,
) -> None:
    monkeypatch.setenv("TEXTMINES_HOME", str(tmp_path))
    recorded_games(tmp_path)
    assert message in refused(["--export-replay", game, str(tmp_path / "out.evf")], capsys, status)
    assert not (tmp_path / "out.evf").exists()


def test_export_replay_never_overwrites_a_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("TEXTMINES_HOME", str(tmp_path))
    recorded_games(tmp_path)
    target = tmp_path / "mine.evf"
    target.write_text("keep me")
    with pytest.raises(SystemExit) as stop:
        main(["--export-replay", "last", str(target)])
    assert stop.value.code == 2 and "already exists" in capsys.readouterr().err
    assert target.read_text() == "keep me"


def test_export_replay_with_no_games_yet(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("TEXTMINES_HOME", str(tmp_path))
    with pytest.raises(SystemExit) as stop:
        main(["--export-replay", "last", str(tmp_path / "out.evf")])
    assert stop.value.code == 2 and "no game is recorded yet" in capsys.readouterr().err


def test_replay_opens_the_viewer_on_the_files_game(fake_app: type[FakeApp], tmp_path: Path) -> None:
    pytest.importorskip("ms_toollib")
    from tests.factories import played_game
    from textmines.replays.evf import export_evf
    from textmines.replays.recording import Recording

    game = played_game(9, 9, 10, 3)
    path = tmp_path / "mine.evf"
    path.write_bytes(export_evf(Recording.of(game)))
    assert main(["--replay", str(path)]) == 0
    recording, title = fake_app.built[0].options["replay"]
    assert recording.board == game.board and title.startswith("mine.evf (textmines")


def test_replay_of_a_bad_file_exits_2_with_one_line(
    fake_app: type[FakeApp], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "broken.rmv"
    path.write_bytes(b"not a replay")
    with pytest.raises(SystemExit) as stop:
        main(["--replay", str(path)])
    assert stop.value.code == 2 and fake_app.built == []
    err = capsys.readouterr().err
    assert "broken.rmv: not a readable Viennasweeper replay" in err and err.count("\n") == 1


def test_game_plays_a_board_id_and_a_bad_one_exits_2(
    fake_app: type[FakeApp], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--game", "9x9-10-o4.4-1ef8z1e8y1s"]) == 0
    assert fake_app.built[0].options["board_id"].first == (4, 4)
    with pytest.raises(SystemExit) as stop:
        main(["--game", "9x9-10-o4.4-1ef8z1e8y1t"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "--game: the board ID's check does not match" in err and err.count("\n") == 1
    assert "Game > Board info shows a board's ID (see textmines --help)" in err


def test_daily_starts_on_todays_board(fake_app: type[FakeApp]) -> None:
    assert main(["--daily"]) == 0
    assert fake_app.built[0].options["daily"] is True


@pytest.mark.parametrize(
    "args", [["--daily", "--expert"], ["--game", "9x9-10-o4.4-1ef8z1e8y1s", "--daily"]]
)
@pytest.mark.usefixtures("fake_app")
def test_one_board_option_at_a_time(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(args)
    assert stop.value.code == 2 and "not allowed with argument" in capsys.readouterr().err


def test_many_theme_problems_are_one_notice_at_start_up() -> None:
    # Found by a player: 26 broken theme files were 26 toasts over half the screen.
    from textmines.cli.start import theme_notices

    few = [f"t{i}.toml: is not valid TOML; theme skipped" for i in range(3)]
    assert theme_notices(few) == few
    (one,) = theme_notices([*few, "t3.toml: bad"])
    assert one.startswith("4 theme problems (first: t0.toml: is not valid TOML")
    assert "textmines --list-themes" in one


def test_export_replay_to_a_file_it_cannot_write_says_which_and_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Issue 34.2: a 300-character name was a traceback (OSError: File name too long).
    monkeypatch.setenv("TEXTMINES_HOME", str(tmp_path))
    recorded_games(tmp_path)
    target = tmp_path / f"{'a' * 300}.evf"
    with pytest.raises(SystemExit) as stop:
        main(["--export-replay", "last", str(target)])
    assert stop.value.code == 1
    err = capsys.readouterr().err
    assert err == f"textmines: --export-replay: cannot write {target}: file name too long\n"


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("\u0661x9-10-o4.4-1ef8z1e8y1s", "is not a board ID (they look like"),
        ("\uff10x9-10-o4.4-1ef8z1e8y1s", "is not a board ID (they look like"),
        ("9" * 5000 + "x9-10-o4.4-1ef8z1e8y1s", "(5,022 characters) is not a board ID (too long"),
    ],
    ids=["arabic-indic digit", "full-width digit", "5000-digit number"],
)
def test_game_with_foreign_digits_or_a_huge_number_exits_2_with_one_line(
    fake_app: type[FakeApp], capsys: pytest.CaptureFixture[str], text: str, said: str
) -> None:
    # Issue 34.1: a traceback each (UnicodeEncodeError; int()'s 4,300-digit limit).
    with pytest.raises(SystemExit) as stop:
        main(["--game", text])
    assert stop.value.code == 2 and fake_app.built == []
    err = capsys.readouterr().err
    assert err.startswith("textmines: --game: ") and said in err and err.count("\n") == 1


def test_a_database_that_cannot_be_reached_stops_serve_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import textmines.web.server as serve_module

    pytest.importorskip("psycopg")
    monkeypatch.setenv("TEXTMINES_HOME", str(tmp_path))
    # What a server does to its own process (its log, its umask) stays out of the test's.
    monkeypatch.setattr(serve_module, "_log_to_stderr", lambda: None)
    monkeypatch.setattr(serve_module.os, "umask", lambda mask: mask)
    port = str(free_port())
    with pytest.raises(SystemExit) as exit_info:
        main(["--serve", "--port", port, "--database", "postgresql://nobody@127.0.0.1:9/none"])
    assert exit_info.value.code == 1
    error = capsys.readouterr().err
    assert error.startswith("textmines: --serve: cannot start: the leaderboard at the --database:")
    assert "choose another --port" not in error and len(error.splitlines()) == 1
