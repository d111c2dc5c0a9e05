"""A statistics database as a player may leave it after editing it by hand (in the sqlite3
shell or a database browser): the constraints dropped, then any value in any column.

Shared by the store tests (every figure, value by value) and the statistics screen tests
(every tab, column by column).
"""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Final

from tests.factories import game_record, played_game
from textmines.engine.presets import PRESETS
from textmines.replays.recording import Recording
from textmines.store.stats import GameRecord, Group, open_stats
from textmines.store.stats.schema import COLUMNS

#: What a hand may write in a column, as SQL literals: text, NaN (as text: SQLite stores a
#: NaN as NULL), huge numbers, a negative one and NULL.
VALUES: Final = {
    "text": "'abc'",
    "NaN": "'NaN'",
    "huge": "1e308",
    "infinity": "9e999",
    "huge integer": "9223372036854775807",
    "negative": "-5",
    "NULL": "NULL",
}
T0: Final = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
#: Boards of the damaged rows, one per value: every tab has one.
BOARDS: Final = (
    Group.for_board(*PRESETS["beginner"].size),
    Group.for_board(*PRESETS["intermediate"].size),
    Group.for_board(*PRESETS["expert"].size),
    Group.for_board(20, 10, 30),
    Group.for_board(*PRESETS["beginner"].size, no_guess=True),
    Group.for_board(*PRESETS["intermediate"].size, no_guess=True),
    Group.for_board(*PRESETS["expert"].size, no_guess=True),
)


def _game(group: Group, hour: int, outcome: str, seconds: float, **fields: object) -> GameRecord:
    record = game_record(
        outcome,
        ended=T0 + timedelta(hours=hour),
        time_ms=int(seconds * 1000),
        size=(group.width, group.height, group.mines),
        no_guess=group.no_guess,
        seed=hour,
    )
    replay = Recording.of(played_game(9, 9, 10, hour)).encode()
    figures: dict[str, object] = {"effective_clicks": 18, "flags_placed": 3, "rqp": 4.5}
    return replace(record, replay=replay, **{**figures, **fields})  # type: ignore[arg-type]


def target_rows() -> list[GameRecord]:
    """Per board of ``BOARDS``: two slower wins, a loss, and last the row a test damages: the
    fastest win, the latest game with a recording and the day's counted daily try, so that
    every figure and every reading path meets it."""
    records = []
    for index, group in enumerate(BOARDS):
        hour = 10 * index
        records += [
            _game(group, hour, "won", 30.0),
            _game(group, hour + 1, "won", 25.0, daily=f"2026-02-{index + 1:02d}"),
            _game(group, hour + 2, "lost", 5.0),
            _game(group, hour + 3, "won", 9.0, daily=f"2026-03-{index + 1:02d}"),
        ]
    return records


def damaged_row(index: int) -> int:
    """The id of the row to damage on board ``BOARDS[index]`` (rows are numbered from 1)."""
    return 4 * index + 4


def build(path: Path) -> None:
    """``target_rows`` in a new database at ``path``, its constraints dropped (NOT NULL and
    the outcome's CHECK): as a player's database browser lets them do."""
    store, notices = open_stats(path)
    assert store is not None and not notices
    assert store.record_many(target_rows()) is None
    store.close()
    with sqlite3.connect(path) as connection:
        (sql,) = connection.execute("SELECT sql FROM sqlite_master WHERE name = 'games'").fetchone()
        loose = sql.replace(" NOT NULL", "").replace(
            "CHECK (outcome IN ('won', 'lost', 'abandoned'))", ""
        )
        assert loose != sql and "CHECK" not in loose
        connection.execute("PRAGMA writable_schema = ON")
        connection.execute("UPDATE sqlite_master SET sql = ? WHERE name = 'games'", (loose,))
        connection.execute("PRAGMA writable_schema = OFF")
    connection.close()


def damage(path: Path, column: str, value: str, row: int) -> None:
    """Write the SQL literal ``value`` into ``column`` of game ``row``."""
    assert column in COLUMNS
    with sqlite3.connect(path) as connection:
        connection.execute(f"UPDATE games SET {column} = {value} WHERE id = ?", (row,))
        (written,) = connection.execute(
            f"SELECT {column} FROM games WHERE id = ?", (row,)
        ).fetchone()
    connection.close()
    assert written is not None or value == "NULL", "the value was not written"
