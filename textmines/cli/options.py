"""The command line's options: the parser, each value's check, and the GameConfig they give
(what they leave out comes from the saved settings). Bad values exit with status 2 and one
line."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, NoReturn

from textmines import __version__
from textmines.config import GameConfig, parse_custom
from textmines.engine.presets import PRESETS, check_board
from textmines.engine.quoting import quoted
from textmines.printable import printable
from textmines.store.paths import (
    is_profile_id,
)

# What a game's start does not need loads where it is used (issue 36.10: start-up).
if TYPE_CHECKING:
    pass


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
_VALUE_OPTIONS = ("--custom", "--seed", "--port", "--max-tabs", "--max-players", "--max-players-mb")


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
    _add_challenge_options(parser)
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


def _add_challenge_options(parser: argparse.ArgumentParser) -> None:
    """A host's leaderboard from the terminal."""
    challenge = parser.add_argument_group("leaderboards")
    challenge.add_argument(
        "--challenge",
        metavar="URL",
        nargs="?",
        const="",
        help="play a board the host at URL deals (today's daily, or --beginner, "
        "--intermediate, --expert) and submit the win to its leaderboard; without URL, "
        "the host of settings.toml's [host] url",
    )
    challenge.add_argument(
        "--retry",
        action="store_true",
        help="with --challenge: send the wins the host did not get yet (it was down)",
    )


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
        help="games served at once, each a process of ~20 MB (default 8)",
    )
    serve.add_argument(
        "--max-players",
        type=_max_players,
        metavar="N",
        help="browsers whose games the server keeps, at most; past it, new ones are refused "
        "(default 5000)",
    )
    serve.add_argument(
        "--max-players-mb",
        type=_max_players_mb,
        metavar="MB",
        help="disk the players' games may take, at most (default 1024)",
    )
    serve.add_argument(
        "--database",
        metavar="URL",
        help="keep the leaderboard in PostgreSQL (postgresql://USER@HOST:PORT/NAME), shared "
        "by every host given the same one (default: leaderboard.db in the data folder)",
    )
    serve.add_argument(
        "--profile",
        type=_profile,
        metavar="ID",
        help="play as a browser's profile: its own statistics, settings and saved game "
        "(in a folder of profiles/ in the data folder; --paths shows it)",
    )
    serve.add_argument("--tab", action="store_true", help=argparse.SUPPRESS)
    # The server adds it for a page on a touch screen: the tab's words speak of taps.
    serve.add_argument("--touch", action="store_true", help=argparse.SUPPRESS)


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
    # Checked before it names a folder: lowercase hex digits, as the server makes them.
    if not is_profile_id(text):
        raise argparse.ArgumentTypeError(
            f"must be 64 (or 32) hex digits (0-9, a-f), not {quoted(text)}"
        )
    return text


def _max_tabs(text: str) -> int:
    return _number(text, 1, 1000)


def _max_players(text: str) -> int:
    return _number(text, 1, 10_000_000)


def _max_players_mb(text: str) -> int:
    return _number(text, 1, 100_000_000)


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


def config_of_args(
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


def fail(message: str, status: int = 2) -> NoReturn:
    """Exit with ``status`` (2: bad input; 1: what the player's input could not help) and
    ``message`` on stderr: one line, whatever file names or names it quotes."""
    print(f"textmines: {printable(message)}", file=sys.stderr)
    raise SystemExit(status)


#: Options that choose a board: with any of them a saved game is not resumed this time.
BOARD_CHOICES = ("preset", "custom", "seed", "game")
