"""``main``: the command line read, the mode it asks for run (``MODES``), the game started."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from textmines.cli.commands import (
    choose_theme,
    export_replay_command,
    export_theme_command,
    list_themes_command,
    paths_text,
    review_command,
    serve_command,
)
from textmines.cli.options import BOARD_CHOICES, build_parser, config_of_args, fail
from textmines.config import GameConfig, config_from_settings
from textmines.engine.daily import daily_day
from textmines.engine.quoting import quoted
from textmines.printable import printable
from textmines.session import GameSession, SavedGameChoice, settle_saved_game
from textmines.store.paths import (
    PROFILE_VARIABLE,
    Paths,
    default_paths,
    is_profile_id,
)
from textmines.store.saves import LoadedGame, load_game
from textmines.store.settings import Settings, load_settings
from textmines.themes import DEFAULT_THEME, Themes, load_themes
from textmines.value import Value

# What a game's start does not need loads where it is used (issue 36.10: start-up).
if TYPE_CHECKING:
    from textmines.engine.board_id import BoardId
    from textmines.replays.recording import Recording
    from textmines.store.stats import StatsStore
    from textmines.ui.app import TextminesApp


def _board_id_arg(text: str | None) -> BoardId | None:
    """The board ``--game ID`` names; a bad ID exits 2 saying what is wrong."""
    if text is None:
        return None
    from textmines.engine.board_id import BoardIdError, parse_board_id  # --game only

    try:
        return parse_board_id(text)
    except BoardIdError as error:
        fail(f"--game: {error}; Game > Board info shows a board's ID (see textmines --help)")


def _replay_arg(file: str | None) -> tuple[Recording, str] | None:
    """The recording ``--replay FILE`` names and the viewer's title; a file that cannot be
    played back exits 2 with what is wrong."""
    if file is None:
        return None
    if file.startswith(("http://", "https://")):
        return _replay_url(file)
    from textmines.replays.foreign import ReplayFileError, read_replay_file, replay_title

    try:
        replay = read_replay_file(Path(file))
    except ReplayFileError as error:
        fail(f"--replay: {error}")
    return replay.recording, replay_title(replay)


def _replay_url(url: str) -> tuple[Recording, str]:
    """A leaderboard entry's replay (``--replay http://HOST/api/replays/ID``), downloaded and
    read as a file is; exit 1 when it cannot be had, 2 when it is no replay."""
    from textmines.leaderboard.client import Unreachable, read_remote_replay
    from textmines.replays.foreign import ReplayFileError, replay_title

    try:
        replay = read_remote_replay(url)
    except (Unreachable, ValueError) as error:
        fail(f"--replay: {error}", 1)
    except ReplayFileError as error:
        fail(f"--replay: {error}")
    return replay.recording, replay_title(replay)


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


class Given(Value):
    """What every mode is given: the parser, the options read, the command line as typed, the
    player's files, their settings and the warnings about them, the game's config."""

    parser: argparse.ArgumentParser
    args: argparse.Namespace
    argv: Sequence[str]
    paths: Paths
    settings: Settings
    warnings: list[str]
    config: GameConfig


class Refusal(Value):
    """An option the mode does not take: when ``given(args)`` holds, ``message``, as argparse
    says it (``usage``: with the usage line) or in one line; exit status 2 either way."""

    given: Callable[[argparse.Namespace], bool]
    message: str
    usage: bool = False


class Mode(Value):
    """One thing the command line can ask for: ``asked(args)`` says whether it does (the first
    mode asked wins), ``refuses`` the options it does not take, ``run`` does it."""

    name: str
    asked: Callable[[argparse.Namespace], bool]
    run: Callable[[Given], int]
    refuses: tuple[Refusal, ...] = ()


def _serving(args: argparse.Namespace) -> bool:
    given = (
        args.host,
        args.port,
        args.max_tabs,
        args.max_players,
        args.max_players_mb,
        args.database,
    )
    return bool(args.serve) or any(value is not None for value in given)


#: --json goes with --review only.
_JSON_ALONE = Refusal(lambda args: args.json, "--json goes with --review GAME|FILE")
#: --touch is what --serve adds to a touch screen's --tab: a terminal has keys.
_TOUCH_ALONE = Refusal(
    lambda args: args.touch and not args.tab,
    "--touch goes with --tab (what --serve runs for a browser tab on a touch screen)",
    True,
)


def _paths(given: Given) -> int:
    sys.stdout.write(paths_text(given.paths))
    return 0


def _serve(given: Given) -> int:
    return serve_command(given.argv, given.args)


def _export_replay(given: Given) -> int:
    game, file = given.args.export_replay
    return export_replay_command(game, file, given.paths.stats_db)


def _review(given: Given) -> int:
    return review_command(given.args.review, given.args.json, given.paths.stats_db)


def _themes(given: Given) -> int:
    themes, _, broken = _loaded_themes(given.paths)
    if given.args.list_themes:
        return list_themes_command(themes, given.settings.theme, broken)
    return export_theme_command(given.args.export_theme, themes, broken)


def _command(argv: Sequence[str] | None) -> int:
    """``main`` until the command's output is written: the options read, the first mode they
    ask for checked and run."""
    parser = build_parser()
    args = parser.parse_args(argv)
    paths = default_paths()
    profile = os.environ.get(PROFILE_VARIABLE, "")
    if args.tab and args.profile is None and profile:  # how --serve gives a tab its profile
        if not is_profile_id(profile):
            parser.error(
                f"${PROFILE_VARIABLE} must be 64 (or 32) hex digits, not {quoted(profile)}"
            )
        args.profile = profile
    if args.profile is not None:
        paths = paths.for_profile(args.profile)
    settings, warnings = load_settings(paths.settings_file)
    config = config_of_args(parser, args, config_from_settings(settings))
    typed = sys.argv[1:] if argv is None else argv
    given = Given(parser, args, typed, paths, settings, warnings, config)
    mode = next(mode for mode in MODES if mode.asked(args))
    for refusal in mode.refuses:
        if refusal.given(args):
            if refusal.usage:
                parser.error(refusal.message)
            fail(refusal.message)
    return mode.run(given)


def _loaded_themes(paths: Paths) -> tuple[Themes, list[str], dict[str, str]]:
    """Every theme, the warnings about them and the broken ones; the bundled themes missing
    exit 1."""
    broken: dict[str, str] = {}
    themes, theme_warnings = load_themes(paths.themes_dir, failures=broken)
    if DEFAULT_THEME not in themes:
        fail("the bundled themes are missing; reinstall textmines", 1)
    return themes, theme_warnings, broken


def _play(
    given: Given,
    board: BoardId | None = None,
    finished: Callable[[GameSession], object] | None = None,
) -> int:
    """Play (a --replay file too): the theme, the saved game, the app; ``board`` (a board a
    host dealt) instead of --game's, ``finished`` told of each game that ends."""
    args, paths, config = given.args, given.paths, given.config
    themes, theme_warnings, broken = _loaded_themes(paths)
    theme, chosen_warnings = choose_theme(args.theme, given.settings.theme, themes, broken)
    replay, shared = _replay_arg(args.replay), board or _board_id_arg(args.game)
    watch_notice = None
    if replay is None and args.tab:
        replay, watch_notice = _watched_entry()
    if finished is None and args.tab:
        finished = _browser_seat(paths)
    # The statistics open once the app's first frame is on screen (``StatsKeeper``), unless
    # a saved game must be recorded as abandoned first.
    choice, (stats, stats_notices) = _saved_game(args, config, paths, shared)
    notices = [*given.warnings, *theme_notices(theme_warnings), *chosen_warnings]
    notices += stats_notices
    if choice.notice is not None:
        notices.append(choice.notice)
    if watch_notice is not None:
        notices.append(watch_notice)
    from textmines.ui.app import TextminesApp  # Textual loads only when we play

    app = TextminesApp(
        config,
        settings=given.settings,
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
        daily=args.daily and board is None,
        touch=args.touch,
        finished=finished,
        data_dir=paths.data_dir,
    )
    return _run(app, stats)


def _watched_entry() -> tuple[tuple[Recording, str] | None, str | None]:
    """The leaderboard entry's replay a browser tab shows first (its page's ``?watch=ID``:
    ``--serve`` says which in the tab's environment), or what the player is told instead."""
    from textmines.leaderboard.seat import watched_entry  # a tab only
    from textmines.store.paths import LEADERBOARD_VARIABLE, WATCH_VARIABLE

    where, entry = os.environ.get(LEADERBOARD_VARIABLE, ""), os.environ.get(WATCH_VARIABLE, "")
    if not where or not entry.isdigit():
        return None, None
    try:
        return watched_entry(where, int(entry)), None
    except ValueError as error:
        return None, f"No replay to watch: {error}."


def _browser_seat(paths: Paths) -> Callable[[GameSession], object] | None:
    """A browser tab's place on its host's leaderboard, when the host keeps one (it says
    where in the tab's environment): its daily wins are ranked as they end."""
    from textmines.leaderboard.seat import LEADERBOARD_VARIABLE, BrowserSeat  # a tab only

    where = os.environ.get(LEADERBOARD_VARIABLE, "")
    if not where or paths.profile_dir is None:
        return None

    def name() -> str:  # the profile's player name now (Game > Player name... may change it)
        return load_settings(paths.settings_file)[0].player_name

    return BrowserSeat(where, paths.profile_dir, name=name).finished


def _challenge(given: Given) -> int:
    from textmines.cli.challenge import challenge_command  # this mode only
    from textmines.store.settings import host_address_problem

    def play(board: BoardId, finished: Callable[[GameSession], object]) -> int:
        return _play(given, board, finished)

    settings_file = given.paths.settings_file
    settings, warnings = load_settings(settings_file)
    url = given.args.challenge or settings.host_url
    if not url:
        wrong = next((w for w in warnings if "host" in w), None)
        fail(
            "--challenge: which host? Give its address (--challenge http://HOST:PORT), or "
            f'set it in {settings_file}: [host] url = "http://HOST:PORT"'
            + (f" (now: {wrong})" if wrong else "")
        )
    problem = host_address_problem(url)
    if problem is not None:
        fail(f"--challenge: {problem}")
    given.args.challenge = url
    return challenge_command(given.args, given.paths.data_dir, play)


#: Every mode of the command line, in the order they are asked: what each takes and does.
MODES: tuple[Mode, ...] = (
    Mode("paths", lambda args: args.paths, _paths, (_TOUCH_ALONE,)),
    Mode(
        "challenge",
        lambda args: args.challenge is not None,
        _challenge,
        (
            Refusal(
                lambda args: (
                    any(
                        value is not None
                        for value in (args.game, args.custom, args.seed, args.replay)
                    )
                    or args.serve
                ),
                "--challenge plays the board its host deals: it goes with none of --game, "
                "--custom, --seed, --replay and --serve",
                True,
            ),
            _TOUCH_ALONE,
        ),
    ),
    Mode(
        "serve",
        _serving,
        _serve,
        (
            Refusal(
                lambda args: not args.serve,
                "--host, --port, --max-tabs, --max-players, --max-players-mb and --database "
                "go with --serve",
                True,
            ),
            Refusal(
                lambda args: args.profile is not None,
                "--profile does not go with --serve: each browser gets a profile of its own",
                True,
            ),
            _TOUCH_ALONE,
        ),
    ),
    Mode("export", lambda args: args.export_replay is not None, _export_replay, (_TOUCH_ALONE,)),
    Mode("review", lambda args: args.review is not None, _review, (_TOUCH_ALONE,)),
    Mode(
        "themes",
        lambda args: args.list_themes or args.export_theme is not None,
        _themes,
        (_JSON_ALONE, _TOUCH_ALONE),
    ),
    Mode(
        "play",
        lambda args: True,
        _play,
        (
            _JSON_ALONE,
            _TOUCH_ALONE,
            Refusal(lambda args: args.retry, "--retry goes with --challenge URL", True),
        ),
    ),
)


def _run(app: TextminesApp, stats: StatsStore | None) -> int:
    """Play; the exit status, once the app has said on stderr what it must still say."""
    try:
        app.run()
    finally:
        if stats is not None:
            stats.close()
        app.stats_keeper.close()
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
