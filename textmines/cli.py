"""Command line: turns argv into a GameConfig and starts the app."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import replace

from textmines import __version__
from textmines.config import GameConfig, config_from_settings, parse_custom
from textmines.engine.presets import PRESETS
from textmines.store.paths import default_paths
from textmines.store.settings import load_settings


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``textmines`` command."""
    parser = argparse.ArgumentParser(
        prog="textmines",
        description="Minesweeper for the terminal.",
        epilog="Keys: arrows/hjkl move, Space opens, F flags, N new game, F1 help, F10 menu.",
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
    parser.add_argument("--seed", type=int, metavar="N", help="seed of the first board (0 or more)")
    parser.add_argument(
        "--first-click",
        choices=("opening", "safe"),
        default=None,
        help="opening: the first click opens an area (default); safe: only that cell is safe",
    )
    parser.add_argument(
        "--no-question-marks", action="store_true", help="marking cycles flag and nothing only"
    )
    parser.add_argument("--version", action="version", version=f"textmines {__version__}")
    return parser


def config_from_args(
    argv: Sequence[str] | None = None, base: GameConfig | None = None
) -> GameConfig:
    """Parse ``argv`` into a GameConfig; bad values exit with status 2 and one line.

    What the command line leaves out comes from ``base`` (the saved settings).
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    base = base or GameConfig()
    width, height, mines = base.width, base.height, base.mines
    if args.preset is not None:
        width, height, mines = PRESETS[args.preset].size
    try:
        if args.custom is not None:
            width, height, mines = parse_custom(args.custom)
        if args.seed is not None and args.seed < 0:
            raise ValueError(f"--seed must be 0 or more, not {args.seed}")
        return replace(
            base,
            width=width,
            height=height,
            mines=mines,
            seed=args.seed,
            first_click=args.first_click or base.first_click,
            question_marks=base.question_marks and not args.no_question_marks,
        )
    except ValueError as error:
        parser.error(str(error))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit status."""
    paths = default_paths()
    settings, warnings = load_settings(paths.settings_file)
    config = config_from_args(argv, config_from_settings(settings))
    from textmines.ui.app import TextminesApp  # Textual loads only when we play

    app = TextminesApp(
        config, settings=settings, settings_path=paths.settings_file, warnings=warnings
    )
    app.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
