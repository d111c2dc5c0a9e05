"""The commands that do one thing and exit: --paths, --list-themes, --export-theme,
--export-replay, --review, and --serve (which runs until Ctrl+C)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from textmines.cli.options import fail
from textmines.engine.quoting import quoted
from textmines.printable import printable, printable_lines
from textmines.store.paths import (
    HOME_VARIABLE,
    Paths,
    describe_os_error,
    write_atomic,
)
from textmines.store.stats import StatsError
from textmines.themes import DEFAULT_THEME, MinesTheme, ThemeError, resolve_theme_arg

# What a game's start does not need loads where it is used (issue 36.10: start-up).
if TYPE_CHECKING:
    from textmines.replays.recording import Recording
    from textmines.store.stats import StatsStore, StoredReplay


def serve_command(argv: Sequence[str], args: argparse.Namespace) -> int:
    """``--serve``: the web server, until Ctrl+C."""
    from textmines.web.profiles import MAX_PROFILES, MAX_PROFILES_MB
    from textmines.web.server import DEFAULT_MAX_TABS, AddressError, serve

    host, port = args.host or "127.0.0.1", args.port or 8000
    players = (args.max_players or MAX_PROFILES, args.max_players_mb or MAX_PROFILES_MB)
    try:
        serve(argv, host, port, args.max_tabs or DEFAULT_MAX_TABS, players, args.database)
    except AddressError as error:
        fail(
            f"--serve: cannot serve on {host}:{port}: {describe_os_error(error)}; "
            "choose another --port (or --host)",
            1,
        )
    except OSError as error:
        fail(f"--serve: cannot start: {describe_os_error(error)}", 1)
    return 0


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
        fail("--export-theme takes a theme name and at most one file (see textmines --help)")
    # FILE "-" is the screen, as for most commands.
    name, target = values[0], (Path(values[1]) if len(values) == 2 and values[1] != "-" else None)
    from textmines.themes import export_theme

    text = export_theme(theme_arg("--export-theme", name, themes, {} if broken is None else broken))
    if target is None:
        sys.stdout.write(text)
        return 0
    _refuse_existing("--export-theme", target)
    _write_new("--export-theme", target, text.encode("utf-8"))
    print(printable(f"Theme {name!r} written to {target}"))
    return 0


def export_replay_command(game: str, file: str, stats_db: Path) -> int:
    """``--export-replay GAME FILE``: a recorded game as a new .evf file."""
    from textmines.records import stored_evf

    option = "--export-replay"
    _game_number(option, game)  # a GAME that cannot be one is said first
    target = Path(file)
    _refuse_existing(option, target)  # before the statistics are read
    stored = _stored_replay(option, game, stats_db)
    try:
        data = stored_evf(stored)
    except ValueError as error:  # a damaged recording (RecordingError), a board too large
        fail(f"{option}: game {stored.game_id}: {error}", 1)
    _write_new(option, target, data)
    print(printable(f"Replay of game {stored.game_id} written to {target}"))
    return 0


def _refuse_existing(option: str, target: Path) -> None:
    """A command never writes over a file: one already at ``target`` is bad input (exit 2);
    a name the system cannot look up (too long, a folder not searchable) cannot be written
    (exit 1)."""
    try:
        exists = target.exists()
    except OSError as error:
        fail(f"{option}: cannot write {target}: {describe_os_error(error)}", 1)
    if exists:
        fail(f"{option}: {target} already exists; choose another file or remove it")


def _write_new(option: str, target: Path, data: bytes) -> None:
    """Write ``data`` to ``target`` whole or not at all; a failure exits 1 saying why."""
    try:
        write_atomic(target, data)
    except OSError as error:
        fail(f"{option}: cannot write {target}: {describe_os_error(error)}", 1)


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
            fail(f"{option}: {error}")
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
        fail(f"{option}: game {stored.game_id}: {error}", 1)


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
        fail(f"{option}: the statistics could not be read: {reason}", 1)
    with stats:
        try:
            stored = stats.stored_replay(number)
            if stored is None:
                _no_recording(option, game, number, stats, stats_db)
        except StatsError as error:
            fail(f"{option}: {error}", 1)
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
        fail(f"{option}: no game is recorded yet in {stats_db}: play a game first")
    if number is None:
        fail(
            f"{option}: none of the {count:,} games in {stats_db} has a recording that can be "
            "read (games recorded by older versions of textmines have none): play a game first"
        )
    if not stats.has_game(number):
        fail(
            f"{option}: there is no game {_shown(game)} in the statistics ({stats_db}, "
            f"{count:,} games); 'last' is the latest game with a recording"
        )
    fail(
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
        fail(f"{option}: GAME must be 'last' or a game number, not {quoted(game)}")
    # Past SQLite's 19 digits no game has the number, and int() refuses 4,300 digits.
    return int(digits) if len(digits) <= 19 else 2**63


def _shown(game: str) -> str:
    """Game number ``game`` (ASCII digits) as a message names it: a long one cut short."""
    digits = game.lstrip("0")
    return digits if len(digits) <= 40 else f"{digits[:40]}... ({len(digits):,} digits)"


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
        return theme_arg("--theme", arg, themes, {} if broken is None else broken), []
    if saved in themes:
        return themes[saved], []
    return themes[DEFAULT_THEME], [
        f"The theme {saved!r} chosen last time is not available any more; using {DEFAULT_THEME!r}."
    ]


def theme_arg(
    option: str, arg: str, themes: Mapping[str, MinesTheme], broken: Mapping[str, str]
) -> MinesTheme:
    """The theme ``arg`` names, or exit 2 with what is wrong (a broken file: its error)."""
    if arg not in themes and arg in broken:
        fail(f"{option}: {broken[arg]}")
    try:
        return resolve_theme_arg(arg, themes, broken)
    except ThemeError as error:
        fail(f"{option}: {error}")
