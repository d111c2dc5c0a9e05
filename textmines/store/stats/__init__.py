"""Statistics: one row per game in ``stats.db`` (SQLite) and the figures of the statistics screen.

Recording
    Every game that got a first reveal is recorded once, when it ends: ``won``, ``lost`` or
    ``abandoned`` (a new game or another board was chosen while it was running). Times are UTC,
    stored as fixed-width ISO 8601 text (``2024-05-01T12:34:56.789Z``) so that text order is time
    order and the file stays readable with the ``sqlite3`` shell. One transaction per game.
    A game is never recorded twice: a record with the start time, board and seed of one already
    there is ignored (a game resumed after a crash that followed its recording keeps its start).

Groups
    Games are grouped by board: one group per preset and one per custom size
    (width, height, mines). No-guess games form groups of their own ("Expert, no-guess").

What counts where
    * *Practice* games, on a board the player had seen (a later try of the day's daily board,
      a restart of a board whose mines were seen, a game played on from a replay), are kept
      (``practice`` = 1) and counted apart (``GroupStats.practice``), in none of the figures
      below: those are the player's own play. A daily try is practice when its day has a try
      that counts already, decided in the transaction that writes it (``record_game``).
    * *Played*, *won*, *lost*, *abandoned* and the win percentage count every game, assisted or
      not (the player did play them).
    * The best figures never include assisted games: best times, best 3BV/s, the average
      winning time and the last-50 chart use unassisted wins only.
    * Each game keeps its recording (``replay``: every action with its time, see
      ``textmines.replays.recording``) and the competitive numbers Metasweeper shows (effective
      clicks, flags placed, RQP, STNB); games recorded by older versions have none.
    * Streaks follow the games in the order they ended. An unassisted win extends a winning
      streak. A loss or an abandoned game (assisted or not) extends a losing streak: abandoning a
      bad-looking game cannot protect a streak, as in the classic Windows game. An assisted win
      ends both kinds of streak (it is not a loss, nor an unaided win), so turning help on never
      improves a streak.

Failures
    ``open_stats`` never raises: a damaged, foreign or newer database is moved aside (never
    deleted) and a new one started, with a notice saying where the old file went; an unusable
    directory gives no store and a "Statistics not saved: ..." notice. ``record``, ``record_many``
    and ``reset`` return ``None`` or such a notice. Queries raise ``StatsError``, whose message is
    ready to show. A row edited by hand into values textmines never writes (text in a number
    column, a NULL where the constraints were dropped) is left out of the figures and counted:
    ``GroupStats.damaged`` (``damaged_reviews`` for the ``reviews`` table),
    ``DailyStats.damaged``, ``StatsStore.groups_and_left_out``.

Modules
    ``groups`` how games are told apart (``Group``, ``Outcome``); ``records`` what is
    written (``GameRecord``, ``Written``, ``GameReview``, loaded on first use); ``figures``
    what is read back (``GroupStats``, ``Streak``, ``BestTime``, ``StoredReplay``); ``schema``
    the table, its migrations and the transaction helper; ``store`` ``StatsStore``; ``opening``
    ``open_stats``; ``errors`` the failures and their reasons. Building a record from a live
    game is ``textmines.records``. Import from this package: every public name is here.
"""

from typing import TYPE_CHECKING, Final

from textmines.lazy import lazy_names
from textmines.store.stats.errors import StatsError
from textmines.store.stats.groups import CUSTOM, OUTCOMES, GameShape, Group, Outcome

# Everything that needs SQLite loads with its first user, not with this package: a game's
# first frame needs none of it, and the statistics open once that frame is on screen
# (``textmines.ui.stats_keeper``). The figures load with their first reader (the statistics screen),
# the rows written when a game is first recorded or reviewed (``__getattr__`` below).
if TYPE_CHECKING:
    from textmines.store.stats.figures import (
        BEST_TIMES,
        NO_STREAK,
        RECENT_WINS,
        BestTime,
        DailyStats,
        DayResult,
        GroupStats,
        ReviewFigures,
        StoredReplay,
        Streak,
    )
    from textmines.store.stats.opening import (
        BUSY_TIMEOUT,
        SQLITE_HEADER_SIZE,
        SQLITE_MAGIC,
        open_stats,
    )
    from textmines.store.stats.records import GameRecord, GameReview, Written
    from textmines.store.stats.schema import MIGRATIONS, SCHEMA_VERSION, utc_text
    from textmines.store.stats.store import StatsStore

#: The names loaded on first use, by the module that has them.
_LATER: Final = {
    **dict.fromkeys(
        (
            "BEST_TIMES",
            "NO_STREAK",
            "RECENT_WINS",
            "BestTime",
            "DailyStats",
            "DayResult",
            "GroupStats",
            "ReviewFigures",
            "StoredReplay",
            "Streak",
        ),
        "figures",
    ),
    **dict.fromkeys(
        ("BUSY_TIMEOUT", "SQLITE_HEADER_SIZE", "SQLITE_MAGIC", "open_stats"), "opening"
    ),
    **dict.fromkeys(("GameRecord", "GameReview", "Written"), "records"),
    **dict.fromkeys(("MIGRATIONS", "SCHEMA_VERSION", "utc_text"), "schema"),
    "StatsStore": "store",
}

__getattr__ = lazy_names(__name__, _LATER)


__all__ = [
    "BEST_TIMES",
    "BUSY_TIMEOUT",
    "CUSTOM",
    "MIGRATIONS",
    "NO_STREAK",
    "OUTCOMES",
    "RECENT_WINS",
    "SCHEMA_VERSION",
    "SQLITE_HEADER_SIZE",
    "SQLITE_MAGIC",
    "BestTime",
    "DailyStats",
    "DayResult",
    "GameRecord",
    "GameReview",
    "GameShape",
    "Group",
    "GroupStats",
    "Outcome",
    "ReviewFigures",
    "StatsError",
    "StatsStore",
    "StoredReplay",
    "Streak",
    "Written",
    "open_stats",
    "utc_text",
]
