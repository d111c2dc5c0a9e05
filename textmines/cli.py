"""Command line: turns argv into a GameConfig and starts the app."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from textmines import __version__
from textmines.config import GameConfig, config_from_settings, parse_custom
from textmines.engine.daily import daily_day
from textmines.engine.presets import PRESETS, check_board
from textmines.engine.quoting import quoted
from textmines.printable import printable, printable_lines
from textmines.session import SavedGameChoice, settle_saved_game
from textmines.store.paths import (
    HOME_VARIABLE,
    Paths,
    default_paths,
    describe_os_error,
    is_profile_id,
    write_atomic,
)
from textmines.store.saves import LoadedGame, load_game
from textmines.store.settings import load_settings
from textmines.store.stats import StatsError
from textmines.themes import (
    DEFAULT_THEME,
    MinesTheme,
    ThemeError,
    load_themes,
    resolve_theme_arg,
)

# What a game's start does not need loads where it is used (issue 36.10: start-up).
if TYPE_CHECKING:
    from textmines.engine.board_id import BoardId
    from textmines.replays.recording import Recording
    from textmines.store.stats import StatsStore, StoredReplay
    from textmines.ui.app import TextminesApp


class _Parser(argparse.ArgumentParser):
    """Usage errors in one line (what is wrong, and where to look), exit status 2."""

    def error(self, message: str) -> NoReturn:
        # argparse quotes the values it refuses: a control character among them is shown
        # escaped, never sent to the terminal.
        self.exit(2, f"{self.prog}: {printable(message)} (see {self.prog} --help)\n")

    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> argparse.Namespace:
        return super().parse_args(_join_signed_values(args), namespace)


def _join_signed_values(argv: Sequence[str] | None) -> list[str]:
    """``--custom -5x10x10`` as ``--custom=-5x10x10``: argparse takes a value that starts with
    a dash for an option, and the player would hear "expected one argument" instead of what
    is wrong with the board."""
    argv = list(sys.argv[1:] if argv is None else argv)
    joined: list[str] = []
    index = 0
    while index < len(argv):
        arg = argv[index]
        value = argv[index + 1] if index + 1 < len(argv) else ""
        if arg in _VALUE_OPTIONS and value[:1] == "-" and value[1:2].isdigit():
            joined.append(f"{arg}={value}")
            index += 2
        else:
            joined.append(arg)
            index += 1
    return joined


#: Options whose value may start with a minus sign (a number's: said to be wrong as one).
_VALUE_OPTIONS = ("--custom", "--seed", "--port", "--max-tabs")


class _HelpFormatter(argparse.HelpFormatter):
    def _format_args(self, action: argparse.Action, default_metavar: str) -> str:
        if action.dest == "export_theme":
            return "NAME [FILE]"  # argparse has no "one or two values"; the command checks
        return super()._format_args(action, default_metavar)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``textmines`` command."""
    parser = _Parser(
        prog="textmines",
        # No shortened option names: --serve hands the rest of the command line to each
        # browser tab, and "--po 9000" must not slip past it as an option of the tab's.
        allow_abbrev=False,
        formatter_class=_HelpFormatter,
        description="Minesweeper for the terminal.",
        epilog="Keys: arrows/hjkl move, Space opens, f flags, n new game, F1 help, F10 menu.",
    )
    board = parser.add_mutually_exclusive_group()
    for preset in PRESETS.values():
        board.add_argument(
            f"--{preset.key}",
            dest="preset",
            action="store_const",
            const=preset.key,
            help=f"{preset.width}x{preset.height} with {preset.mines} mines",
        )
    board.add_argument(
        "--custom",
        metavar="WxHxM",
        help="custom board, e.g. 40x20x150 (sides 1-1000, mines up to cells-9)",
    )
    # A board ID and the daily board name a board of their own: one board option at a time.
    board.add_argument(
        "--game", metavar="ID", help="play a shared board ID (Game > Board info shows yours)"
    )
    board.add_argument(
        "--daily",
        action="store_true",
        help="play today's daily board (UTC): Expert, no guessing needed, the same for everyone",
    )
    parser.add_argument(
        "--seed",
        type=_seed,
        metavar="N",
        help=f"seed of the first board (0 or more, at most {SEED_DIGITS} digits)",
    )
    parser.add_argument(
        "--first-click",
        type=_first_click,
        choices=FIRST_CLICKS,
        default=None,
        help="opening: the first click opens an area (default); safe: only that cell is safe",
    )
    _add_rule_options(parser)
    parser.add_argument(
        "--autoplay", action="store_true", help="watch the solver play (press a to stop)"
    )
    _add_file_options(parser)
    _add_serve_options(parser)
    parser.add_argument(
        "--paths", action="store_true", help="show where settings, statistics and saves live"
    )
    parser.add_argument("--version", action="version", version=f"textmines {__version__}")
    return parser


def _add_rule_options(parser: argparse.ArgumentParser) -> None:
    """The on/off rules of the game, each with its opposite. Each turns its option on or off
    for this run, over the saved choice (like a board option, it is written to the settings
    with the next option the player changes)."""
    _on_off(
        parser,
        "question_marks",
        ("--question-marks", "marking cycles flag, ? and nothing"),
        ("--no-question-marks", "marking cycles flag and nothing only"),
    )
    _on_off(
        parser,
        "no_guess",
        ("--no-guess", "boards that can be cleared from the first click without guessing"),
        ("--guessing", "classic boards, which may need a guess"),
    )


def _on_off(
    parser: argparse.ArgumentParser, dest: str, on: tuple[str, str], off: tuple[str, str]
) -> None:
    """Two exclusive switches (``(flag, help)`` each) setting ``dest`` True or False; without
    either it stays None (the saved choice)."""
    group = parser.add_mutually_exclusive_group()
    for (flag, help_text), value in ((on, True), (off, False)):
        group.add_argument(flag, dest=dest, action="store_const", const=value, help=help_text)


def _add_serve_options(parser: argparse.ArgumentParser) -> None:
    """Play in a browser (textual-serve); ``--tab`` is what the server runs for each tab."""
    serve = parser.add_argument_group("play in a browser")
    serve.add_argument(
        "--serve",
        action="store_true",
        help="serve the game to web browsers (each tab its own game) until Ctrl+C",
    )
    serve.add_argument("--host", help="address to serve on (default 127.0.0.1: this machine only)")
    serve.add_argument("--port", type=_port, help="port to serve on (default 8000)")
    serve.add_argument(
        "--max-tabs",
        type=_max_tabs,
        metavar="N",
        help="games served at once, each a process of ~41 MB (default 8)",
    )
    serve.add_argument(
        "--profile",
        type=_profile,
        metavar="ID",
        help="play as a browser's profile: its own statistics, settings and saved game "
        "(in profiles/ID of the data folder; --paths shows them)",
    )
    serve.add_argument("--tab", action="store_true", help=argparse.SUPPRESS)


def _number(text: str, low: int, high: int, wanted: str = "") -> int:
    """``text`` as a whole number from ``low`` to ``high``, else the usage error saying so
    (``wanted``: what is asked for, if not "a number from LOW to HIGH"). ASCII digits only:
    int() also takes a full-width '5', ' 5', '+5' and '1_000', and gives up with Python's
    own message past 4,300 digits. A value too long is cut short where the message quotes it."""
    digits = text.lstrip("0") or "0"
    if not (
        text.isascii()
        and text.isdigit()
        and len(digits) <= len(str(high))
        and low <= int(digits) <= high
    ):
        wanted = wanted or f"a number from {low} to {high}"
        raise argparse.ArgumentTypeError(f"must be {wanted}, not {quoted(text)}")
    return int(digits)


#: The most digits a seed may have (any seed deals a board; a longer one is a mistake).
SEED_DIGITS = 20


def _seed(text: str) -> int:
    return _number(
        text, 0, 10**SEED_DIGITS - 1, f"a number, 0 or more, of at most {SEED_DIGITS} digits"
    )


#: The first-click rules ``--first-click`` names.
FIRST_CLICKS = ("opening", "safe")


def _first_click(text: str) -> str:
    # Checked here, not by argparse's choices: its message quotes the whole value.
    if text not in FIRST_CLICKS:
        raise argparse.ArgumentTypeError(f"must be 'opening' or 'safe', not {quoted(text)}")
    return text


def _port(text: str) -> int:
    return _number(text, 1, 65535)


def _profile(text: str) -> str:
    # Checked before it names a folder: 32 lowercase hex digits, as the server makes them.
    if not is_profile_id(text):
        raise argparse.ArgumentTypeError(f"must be 32 hex digits (0-9, a-f), not {quoted(text)}")
    return text


def _max_tabs(text: str) -> int:
    return _number(text, 1, 1000)


def serve_command(
    parser: argparse.ArgumentParser, argv: Sequence[str], args: argparse.Namespace
) -> int:
    """``--serve``: the web server, until Ctrl+C."""
    from textmines.web.server import DEFAULT_MAX_TABS, serve

    if not args.serve:
        parser.error("--host, --port and --max-tabs go with --serve")
    if args.profile is not None:
        parser.error("--profile does not go with --serve: each browser gets a profile of its own")
    host, port = args.host or "127.0.0.1", args.port or 8000
    try:
        serve(argv, host, port, args.max_tabs or DEFAULT_MAX_TABS)
    except OSError as error:
        _fail(
            f"--serve: cannot serve on {host}:{port}: {describe_os_error(error)}; "
            "choose another --port (or --host)",
            1,
        )
    return 0


def _add_file_options(parser: argparse.ArgumentParser) -> None:
    """The options that read or write theme and replay files, and exit."""
    themes = parser.add_argument_group("themes")
    themes.add_argument(
        "--theme", metavar="NAME|PATH", help="theme to play with: a theme's name or a .toml file"
    )
    themes.add_argument(
        "--list-themes", action="store_true", help="list every theme with its file, and exit"
    )
    themes.add_argument(
        "--export-theme",
        nargs="+",
        metavar=("NAME", "FILE"),
        help="write theme NAME as a complete TOML file (to FILE, or to the screen), and exit",
    )
    replays = parser.add_argument_group("replays")
    replays.add_argument(
        "--replay",
        metavar="FILE",
        help="watch a replay: .evf (Metasweeper, and textmines' exports), .avf (Arbiter), "
        ".rmv (Viennasweeper) or .mvf (Minesweeper Clone)",
    )
    replays.add_argument(
        "--export-replay",
        nargs=2,
        metavar=("GAME", "FILE"),
        help="write the replay of game GAME ('last', or its number) to FILE as a Metasweeper "
        ".evf file, and exit",
    )
    replays.add_argument(
        "--review",
        metavar="GAME|FILE",
        help="print the review of game GAME ('last', or its number) or of a replay FILE: every "
        "figure, and each risky click judged by the exact solver; then exit",
    )
    replays.add_argument(
        "--json", action="store_true", help="with --review: print it as JSON, for scripts"
    )


def _config(
    parser: argparse.ArgumentParser, args: argparse.Namespace, base: GameConfig
) -> GameConfig:
    """The GameConfig of the command line's ``args``; what they leave out comes from
    ``base`` (the saved settings). Bad values exit with status 2 and one line."""
    width, height, mines = base.width, base.height, base.mines
    if args.preset is not None:
        width, height, mines = PRESETS[args.preset].size
    first_click = args.first_click or base.first_click
    if args.custom is not None:
        _check_custom_text(parser, args.custom)
        try:
            width, height, mines = parse_custom(args.custom)
            check_board(width, height, mines, first_click)
        except ValueError as error:
            parser.error(f"--custom: {error}")
    if args.seed is not None and (args.game is not None or args.daily):
        named = "--game" if args.game is not None else "--daily"
        parser.error(f"--seed does not go with {named}: that board has its mines already")
    if args.daily and args.no_guess is False:
        parser.error("--guessing does not go with --daily: the daily board needs no guess")
    try:
        return base._replace(
            width=width,
            height=height,
            mines=mines,
            seed=args.seed,
            first_click=first_click,
            question_marks=_either(args.question_marks, base.question_marks),
            no_guess=_either(args.no_guess, base.no_guess),
        ).checked()
    except ValueError as error:
        parser.error(str(error))


#: The longest ``--custom`` value: "1000x1000x999991" with room for spaces and zeros.
CUSTOM_LENGTH = 40


def _check_custom_text(parser: argparse.ArgumentParser, text: str) -> None:
    """A ``--custom`` value in ASCII (board IDs and every number option take the digits 0-9
    only) and not too long to be a board, else the usage error saying so: int() would take
    a full-width '9' and give up with Python's own message past 4,300 digits."""
    if not text.isascii():
        parser.error(
            f"--custom: WIDTHxHEIGHTxMINES takes the digits 0-9 and x only, e.g. 40x20x150, "
            f"not {quoted(text)}"
        )
    if len(text) > CUSTOM_LENGTH:
        parser.error(
            "--custom: too long for WIDTHxHEIGHTxMINES (sides 1-1000, mines up to cells-9, "
            f"e.g. 40x20x150), not {quoted(text)}"
        )


def _either(given: bool | None, saved: bool) -> bool:
    """An on/off option: what the command line says, else what was saved."""
    return saved if given is None else given


def _fail(message: str, status: int = 2) -> NoReturn:
    """Exit with ``status`` (2: bad input; 1: what the player's input could not help) and
    ``message`` on stderr: one line, whatever file names or names it quotes."""
    print(f"textmines: {printable(message)}", file=sys.stderr)
    raise SystemExit(status)


def choose_theme(
    arg: str | None,
    saved: str,
    themes: Mapping[str, MinesTheme],
    broken: Mapping[str, str] | None = None,
) -> tuple[MinesTheme, list[str]]:
    """The theme to start with: ``--theme`` (an error exits 2), else the saved one.

    A saved theme that no longer exists falls back to classic with a warning. A theme whose
    file is ``broken`` (name: error) is reported with that file's error.
    """
    if arg is not None:
        return _theme_arg("--theme", arg, themes, {} if broken is None else broken), []
    if saved in themes:
        return themes[saved], []
    return themes[DEFAULT_THEME], [
        f"The theme {saved!r} chosen last time is not available any more; using {DEFAULT_THEME!r}."
    ]


def _theme_arg(
    option: str, arg: str, themes: Mapping[str, MinesTheme], broken: Mapping[str, str]
) -> MinesTheme:
    """The theme ``arg`` names, or exit 2 with what is wrong (a broken file: its error)."""
    if arg not in themes and arg in broken:
        _fail(f"{option}: {broken[arg]}")
    try:
        return resolve_theme_arg(arg, themes, broken)
    except ThemeError as error:
        _fail(f"{option}: {error}")


def list_themes_command(
    themes: Mapping[str, MinesTheme], current: str, broken: dict[str, str]
) -> int:
    """``--list-themes``: every theme, the current one marked, and what is wrong with each."""
    from textmines.themes import list_themes_text  # this command only

    sys.stdout.write(list_themes_text(themes, current=current, broken=broken))
    return 0


def export_theme_command(
    values: Sequence[str],
    themes: Mapping[str, MinesTheme],
    broken: Mapping[str, str] | None = None,
) -> int:
    """``--export-theme NAME [FILE]``: the theme as TOML, on the screen or in a new file."""
    if len(values) > 2:
        _fail("--export-theme takes a theme name and at most one file (see textmines --help)")
    # FILE "-" is the screen, as for most commands.
    name, target = values[0], (Path(values[1]) if len(values) == 2 and values[1] != "-" else None)
    from textmines.themes import export_theme

    text = export_theme(
        _theme_arg("--export-theme", name, themes, {} if broken is None else broken)
    )
    if target is None:
        sys.stdout.write(text)
        return 0
    try:
        if target.exists():
            _fail(f"--export-theme: {target} already exists; choose another file or remove it")
        write_atomic(target, text.encode("utf-8"))
    except OSError as error:
        _fail(f"--export-theme: cannot write {target}: {describe_os_error(error)}", 1)
    print(printable(f"Theme {name!r} written to {target}"))
    return 0


def _board_id_arg(text: str | None) -> BoardId | None:
    """The board ``--game ID`` names; a bad ID exits 2 saying what is wrong."""
    if text is None:
        return None
    from textmines.engine.board_id import BoardIdError, parse_board_id  # --game only

    try:
        return parse_board_id(text)
    except BoardIdError as error:
        _fail(f"--game: {error}; Game > Board info shows a board's ID (see textmines --help)")


def _replay_arg(file: str | None) -> tuple[Recording, str] | None:
    """The recording ``--replay FILE`` names and the viewer's title; a file that cannot be
    played back exits 2 with what is wrong."""
    if file is None:
        return None
    from textmines.replays.foreign import ReplayFileError, read_replay_file, replay_title

    try:
        replay = read_replay_file(Path(file))
    except ReplayFileError as error:
        _fail(f"--replay: {error}")
    return replay.recording, replay_title(replay)


def export_replay_command(game: str, file: str, stats_db: Path) -> int:
    """``--export-replay GAME FILE``: a recorded game as a new .evf file."""
    from textmines.records import stored_evf

    option = "--export-replay"
    _game_number(option, game)  # a GAME that cannot be one is said first
    target = Path(file)
    try:
        exists = target.exists()
    except OSError as error:  # a name too long for the file system, a folder not searchable
        _fail(f"{option}: cannot write {target}: {describe_os_error(error)}", 1)
    if exists:
        _fail(f"{option}: {target} already exists; choose another file or remove it")
    stored = _stored_replay(option, game, stats_db)
    try:
        data = stored_evf(stored)
    except ValueError as error:  # a damaged recording (RecordingError), a board too large
        _fail(f"{option}: game {stored.game_id}: {error}", 1)
    try:
        write_atomic(target, data)
    except OSError as error:
        _fail(f"{option}: cannot write {target}: {describe_os_error(error)}", 1)
    print(printable(f"Replay of game {stored.game_id} written to {target}"))
    return 0


def review_command(target: str, as_json: bool, stats_db: Path) -> int:
    """``--review GAME|FILE [--json]``: the review of a recorded game or of a replay file.
    GAME is 'last' or a game number (ASCII digits); anything else is a file."""
    import json

    from textmines.replays.review_report import review_json, review_of, review_text

    option = "--review"
    if target == "last" or (target.isascii() and target.isdigit()):
        recording, title = _stored_recording(option, target, stats_db)
    else:
        from textmines.replays.foreign import ReplayFileError, read_replay_file, replay_title

        try:
            replay = read_replay_file(Path(target))
        except ReplayFileError as error:
            _fail(f"{option}: {error}")
        recording, title = replay.recording, replay_title(replay)
    review = review_of(recording)
    if as_json:
        print(json.dumps(review_json(recording, review)))  # ASCII: every other character escaped
    else:
        # The title holds the file's name and what the file says of its player and program.
        sys.stdout.write(printable_lines(review_text(recording, review, printable(title))))
    return 0


def _stored_recording(option: str, game: str, stats_db: Path) -> tuple[Recording, str]:
    """The recording of game ``game`` ('last' or its number) and its title (see
    ``_stored_replay``); a damaged one exits 1."""
    from textmines.replays.recording import Recording, RecordingError

    stored = _stored_replay(option, game, stats_db)
    try:
        practice = " (practice)" if stored.practice else ""
        return Recording.decode(stored.data), f"Game {stored.game_id}{practice}"
    except RecordingError as error:
        _fail(f"{option}: game {stored.game_id}: {error}", 1)


def _stored_replay(option: str, game: str, stats_db: Path) -> StoredReplay:
    """What the statistics keep of game ``game`` ('last' or its number) for ``option``;
    exits 2 when there is no such game or it has no recording (the player names another), 1
    when the database cannot be read."""
    from textmines.store.stats import open_stats

    number = _game_number(option, game)
    stats, notices = open_stats(stats_db)
    if stats is None:
        # Reading only: nothing was to be saved (open_stats words it for a game to record).
        reason = notices[0].removeprefix(_NOT_SAVED) if notices else str(stats_db)
        _fail(f"{option}: the statistics could not be read: {reason}", 1)
    with stats:
        try:
            stored = stats.stored_replay(number)
            if stored is None:
                _no_recording(option, game, number, stats, stats_db)
        except StatsError as error:
            _fail(f"{option}: {error}", 1)
    return stored


#: How ``open_stats`` begins the notice of statistics it could not open.
_NOT_SAVED = "Statistics not saved: "


def _no_recording(
    option: str, game: str, number: int | None, stats: StatsStore, stats_db: Path
) -> NoReturn:
    """Exit 2 saying why game ``game`` (``number``; None: the last) has no recording to read,
    and what to ask for instead. Raises ``StatsError`` if the database cannot be read."""
    count = stats.count()
    if count == 0:
        _fail(f"{option}: no game is recorded yet in {stats_db}: play a game first")
    if number is None:
        _fail(
            f"{option}: none of the {count:,} games in {stats_db} has a recording that can be "
            "read (games recorded by older versions of textmines have none): play a game first"
        )
    if not stats.has_game(number):
        _fail(
            f"{option}: there is no game {_shown(game)} in the statistics ({stats_db}, "
            f"{count:,} games); 'last' is the latest game with a recording"
        )
    _fail(
        f"{option}: game {number} has no recording in {stats_db} (games recorded by older "
        "versions of textmines have none); choose another game, or 'last'"
    )


def _game_number(option: str, game: str) -> int | None:
    """GAME of ``--export-replay``: None for 'last', else its number; anything else exits 2.
    ASCII digits only: str.isdigit() also takes '²' (which int() refuses) and '٣'."""
    if game == "last":
        return None
    digits = game.lstrip("0")
    if not (game.isascii() and game.isdigit() and digits):
        _fail(f"{option}: GAME must be 'last' or a game number, not {quoted(game)}")
    # Past SQLite's 19 digits no game has the number, and int() refuses 4,300 digits.
    return int(digits) if len(digits) <= 19 else 2**63


def _shown(game: str) -> str:
    """Game number ``game`` (ASCII digits) as a message names it: a long one cut short."""
    digits = game.lstrip("0")
    return digits if len(digits) <= 40 else f"{digits[:40]}... ({len(digits):,} digits)"


#: The exit status when whoever read the output stopped reading (``textmines --paths |
#: head -1``): the status a shell reports for ``cat`` or ``yes`` ended by SIGPIPE (128 + 13).
PIPE_CLOSED = 141


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit status. A reader that stops early (a closed pipe) ends
    it quietly, with ``PIPE_CLOSED``, as it ends other command-line tools."""
    try:
        status = _command(argv)
        sys.stdout.flush()  # what is still buffered goes now, while a closed pipe can be told
    except BrokenPipeError:
        _drop_stdout()
        return PIPE_CLOSED
    return status


def _drop_stdout() -> None:
    """Send what is left of stdout to nowhere: Python flushes it once more as it exits, and
    would print a second traceback about a pipe nobody reads."""
    with contextlib.suppress(OSError, ValueError):  # no file descriptor (a test's capture)
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)


def _command(argv: Sequence[str] | None) -> int:
    """``main`` until the command's output is written."""
    parser = build_parser()
    args = parser.parse_args(argv)
    paths = default_paths()
    if args.profile is not None:
        paths = paths.for_profile(args.profile)
    settings, warnings = load_settings(paths.settings_file)
    config = _config(parser, args, config_from_settings(settings))
    if args.paths:
        sys.stdout.write(paths_text(paths))
        return 0
    if args.serve or any(value is not None for value in (args.host, args.port, args.max_tabs)):
        return serve_command(parser, sys.argv[1:] if argv is None else argv, args)
    broken: dict[str, str] = {}
    themes, theme_warnings = load_themes(paths.themes_dir, failures=broken)
    if DEFAULT_THEME not in themes:
        _fail("the bundled themes are missing; reinstall textmines", 1)
    if args.export_replay is not None:
        game, file = args.export_replay
        return export_replay_command(game, file, paths.stats_db)
    if args.review is not None:
        return review_command(args.review, args.json, paths.stats_db)
    if args.json:
        _fail("--json goes with --review GAME|FILE")
    if args.list_themes:
        return list_themes_command(themes, settings.theme, broken)
    if args.export_theme is not None:
        return export_theme_command(args.export_theme, themes, broken)
    theme, chosen_warnings = choose_theme(args.theme, settings.theme, themes, broken)
    replay, shared = _replay_arg(args.replay), _board_id_arg(args.game)
    # The statistics open once the app's first frame is on screen (``StatsKeeper``), unless
    # a saved game must be recorded as abandoned first.
    choice, (stats, stats_notices) = _saved_game(args, config, paths, shared)
    notices = [*warnings, *theme_notices(theme_warnings), *chosen_warnings, *stats_notices]
    if choice.notice is not None:
        notices.append(choice.notice)
    from textmines.ui.app import TextminesApp  # Textual loads only when we play

    app = TextminesApp(
        config,
        settings=settings,
        settings_path=paths.settings_file,
        warnings=notices,
        themes=themes,
        theme=theme,
        stats=stats,
        stats_notice=stats_notices[0] if stats is None and stats_notices else None,
        stats_db=paths.stats_db,
        save_path=choice.save_path,
        resumed=choice.resumed,
        autoplay=args.autoplay,
        crash_log=paths.crash_log,
        replay=replay,
        replays_dir=paths.replays_dir,
        board_id=shared,
        daily=args.daily,
    )
    return _run(app, stats)


def _run(app: TextminesApp, stats: StatsStore | None) -> int:
    """Play; the exit status, once the app has said on stderr what it must still say."""
    try:
        app.run()
    finally:
        if stats is not None:
            stats.close()
        app.statistics.close()
    if app.exit_message is not None:
        _say(f"textmines: {app.exit_message}")
    if app.crash_report is not None:
        _say(app.crash_report)  # one line: what happened, where the log is
        return app.return_code or 1
    return app.return_code or 0


def _say(line: str) -> None:
    """A last line on stderr, if anyone can still read it: after the terminal closed (the
    game saved on SIGHUP), writing there fails, and the exit status must stay 129."""
    with contextlib.suppress(OSError):
        print(printable(line), file=sys.stderr, flush=True)


#: More theme warnings than this at start-up are summed up in one (each is a toast).
THEME_WARNINGS_SHOWN = 3


def theme_notices(warnings: list[str]) -> list[str]:
    """The theme warnings to show when the game starts: each one, or when there are many,
    one that says how many and where to read them all (``--list-themes``)."""
    if len(warnings) <= THEME_WARNINGS_SHOWN:
        return warnings
    return [
        f"{len(warnings)} theme problems (first: {warnings[0]}). "
        "textmines --list-themes shows every theme and what is wrong with each."
    ]


def _saved_game(
    args: argparse.Namespace,
    config: GameConfig,
    paths: Paths,
    shared: BoardId | None = None,
) -> tuple[SavedGameChoice, tuple[StatsStore | None, list[str]]]:
    """The saved game to play on, if any, and where this run saves; and the statistics if
    they had to be opened (``open_stats``), else ``(None, [])``.

    With a board option the saved game comes back only if it is that board (``--game`` with
    its own board ID, ``--daily`` with today's board in play); otherwise it is recorded as
    abandoned (or kept, when it cannot be), never silently dropped.
    """
    if args.replay is not None:
        # A replay file's viewer neither resumes the saved game nor writes over it: it waits
        # for the next run. (A browser tab resumes and saves its profile's, as a terminal.)
        return SavedGameChoice(None, None, None), (None, [])
    loaded, notice = load_game(paths.saved_game)
    # A browser's tab has the server's board options, which are the new games' board, not
    # the player's asking for another: its saved game comes back all the same.
    chosen = not args.tab and (
        args.daily or any(getattr(args, key) is not None for key in BOARD_CHOICES)
    )
    if loaded is None or not chosen or _is_that_board(loaded, args, shared):
        return SavedGameChoice(loaded, paths.saved_game, notice), (None, [])
    # A board of its own: the saved game is recorded as abandoned (or kept), never resumed.
    from textmines.store.stats import open_stats

    stats, stats_notices = open_stats(paths.stats_db)
    seeded = args.seed is not None or args.game is not None or args.daily
    board = None if seeded else (config.width, config.height, config.mines)
    asked, options = _asked_for(args, shared)
    choice = settle_saved_game(
        loaded, board, stats=stats, save_path=paths.saved_game, asked=asked, options=options
    )
    return choice, (stats, stats_notices)


def _asked_for(args: argparse.Namespace, shared: BoardId | None) -> tuple[str, str]:
    """What the board options asked for, as the saved game's notice names it ("seed 5",
    "another board"...), and the options to leave out to play a saved game on."""
    if args.seed is not None:  # the same size, maybe, but a deal of its own
        return f"seed {args.seed}", "a board option or --seed"
    if shared is not None:
        return f"the board ID {_cut(args.game.strip())}", "a board option"
    if args.daily:
        return "today's daily board", "a board option"
    return "another board", "a board option"


def _cut(text: str, limit: int = 40) -> str:
    """``text`` (printable ASCII) for a message, cut short with an ellipsis when long."""
    return text if len(text) <= limit else f"{text[: limit - 3]}..."


def _is_that_board(loaded: LoadedGame, args: argparse.Namespace, shared: BoardId | None) -> bool:
    """Whether the saved game is the board a board option names: its own board ID with
    ``--game``, or today's daily board with ``--daily`` (alone: no other board option)."""
    if args.seed is not None or args.preset is not None or args.custom is not None:
        return False
    if shared is not None:
        from textmines.engine.board_id import board_id_of  # --game only

        return board_id_of(loaded.game) == shared.text()
    return bool(args.daily) and loaded.daily == daily_day(datetime.now(UTC))


#: Options that choose a board: with any of them a saved game is not resumed this time.
BOARD_CHOICES = ("preset", "custom", "seed", "game")


def paths_text(paths: Paths) -> str:
    """What ``--paths`` prints: every file textmines reads or writes."""
    rows = [
        ("settings", paths.settings_file),
        ("themes", paths.themes_dir),
        ("statistics", paths.stats_db),
        ("saved game", paths.saved_game),
        ("crash log", paths.crash_log),
        ("replays", paths.replays_dir),
    ]
    source = (
        f"(everything under ${HOME_VARIABLE})"
        if os.environ.get(HOME_VARIABLE)
        else f"(set ${HOME_VARIABLE} to keep everything in one folder)"
    )
    # $TEXTMINES_HOME is the player's text: a control character in it is shown escaped.
    lines = [f"{label:<11} {printable(str(path))}" for label, path in rows]
    if paths.profile is not None:
        lines.insert(0, f"{'profile':<11} {printable(str(paths.profile_dir))} (a browser's)")
    return "\n".join([*lines, source]) + "\n"


if __name__ == "__main__":
    sys.exit(main())
