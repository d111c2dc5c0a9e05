"""The Leaderboard tab of the statistics: the leaderboard of the host that settings.toml names
(``[host] url``), read from its HTTP API (``GET /api/leaderboard``) with this terminal's token
for that host, so that the player's own entries stand out and their best is said however far
down it is. A row chosen (Enter, a click) asks the app to watch its replay.

The host is asked in a thread: the statistics never wait for the network, and a host that
cannot be reached is said in a line, not an error."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, ClassVar, Final

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import DataTable, Select, Static

from textmines.engine.daily import daily_day
from textmines.printable import printable

if TYPE_CHECKING:
    from textmines.leaderboard.client import HostClient

#: What the tab can show: (board, period) and its label, in the picker's order.
BOARDS: Final = (
    (("daily", "all"), "Today's daily board"),
    (("daily", "yesterday"), "Yesterday's daily board"),
    (("expert", "all"), "Expert, all time"),
    (("expert", "week"), "Expert, this week"),
    (("expert", "day"), "Expert, today"),
    (("intermediate", "all"), "Intermediate, all time"),
    (("intermediate", "week"), "Intermediate, this week"),
    (("beginner", "all"), "Beginner, all time"),
    (("beginner", "week"), "Beginner, this week"),
    (("me", "all"), "Your wins"),
)
COLUMNS: Final = ("#", "Player", "Time", "3BV", "3BV/s", "Played")
#: The columns of the player's own wins.
WIN_COLUMNS: Final = ("Board", "Time", "3BV", "3BV/s", "Played")
#: Marks the player's own row.
YOU: Final = "\u25b6"


class LeaderboardView(Vertical):
    """The leaderboard of ``client``'s host, one board at a time."""

    DEFAULT_CSS = """
    LeaderboardView { height: auto; }
    LeaderboardView #board-picker { height: 1; margin-bottom: 1; }
    LeaderboardView #board-picker-label { width: auto; padding: 0 1 0 0; color: $text-muted; }
    LeaderboardView #leaderboard-board { width: 30; }
    LeaderboardView #leaderboard-said { height: auto; margin-bottom: 1; }
    LeaderboardView #leaderboard-said.-error { color: $error; }
    LeaderboardView DataTable { height: auto; max-height: 24; }
    """

    class WatchReplay(Message):
        """Watch the replay at ``url`` (an entry's, on the host)."""

        def __init__(self, url: str, title: str) -> None:
            super().__init__()
            self.url = url
            self.title = title

    SAY_WHILE_ASKING: ClassVar[str] = "Asking {host}..."

    def __init__(self, client: HostClient) -> None:
        super().__init__()
        self.client = client
        #: The replay address of each row shown, by row key, and its title.
        self._replays: dict[str, tuple[str, str]] = {}

    def compose(self) -> ComposeResult:
        picker = Select(
            [(label, choice) for choice, label in BOARDS],
            value=BOARDS[0][0],
            allow_blank=False,
            compact=True,
            id="leaderboard-board",
        )
        yield Horizontal(Static("Board", id="board-picker-label"), picker, id="board-picker")
        yield Static(id="leaderboard-said", markup=False)
        table: DataTable[Any] = DataTable(cursor_type="row", zebra_stripes=True)
        table.display = False
        yield table

    def on_mount(self) -> None:
        self.ask(*BOARDS[0][0])

    @on(Select.Changed, "#leaderboard-board")
    def _board_chosen(self, event: Select.Changed) -> None:
        if isinstance(event.value, tuple):
            self.ask(*event.value)

    def ask(self, board: str, period: str) -> None:
        """Ask the host for ``board``'s leaderboard of ``period``; shown when it answers."""
        self._say(self.SAY_WHILE_ASKING.format(host=self.client.url))
        self._fetch(board, period)

    @work(thread=True, exclusive=True, group="leaderboard")
    def _fetch(self, board: str, period: str) -> None:
        from textmines.leaderboard.client import Unreachable

        try:
            if board == "me":
                answer = self.client.me()
            elif period == "yesterday":  # its standings are final
                yesterday = daily_day(datetime.now(UTC)) - timedelta(days=1)
                answer = self.client.leaderboard(board, day=yesterday)
            else:
                answer = self.client.leaderboard(board, period=period)
        except (Unreachable, ValueError) as error:
            self.app.call_from_thread(self._say, f"{error}.", error=True)
            return
        self.app.call_from_thread(self._show, board, period, answer)

    def _say(self, text: str, *, error: bool = False) -> None:
        said = self.query_one("#leaderboard-said", Static)
        said.update(text)
        said.set_class(error, "-error")
        if error:
            self.query_one(DataTable).display = False

    def _show(self, board: str, period: str, answer: dict[str, Any]) -> None:
        # The player's own wins (``me``), or a board's standings.
        columns, listed, cells = (
            (WIN_COLUMNS, "wins", _win_cells) if board == "me" else (COLUMNS, "entries", _cells)
        )
        table: DataTable[Any] = self.query_one(DataTable)
        table.clear(columns=True)
        # Headings over their figures: to the right, as the figures are, but the names'.
        table.add_columns(
            *(Text(c, justify="left" if c in ("Player", "Board") else "right") for c in columns)
        )
        self._replays.clear()
        rows = [row for row in answer.get(listed, ()) if isinstance(row, dict)]
        for n, row in enumerate(rows):
            key = str(n)
            table.add_row(*cells(row), key=key)
            replay = str(row.get("replay", ""))
            if replay.startswith("/api/replays/"):
                self._replays[key] = (self.client.url + replay, _title(board, row))
        table.display = bool(rows)
        shown = len(rows)
        mine = board == "me"
        self._say(_wins_summary(answer, shown) if mine else _summary(board, period, answer, shown))

    @on(DataTable.RowSelected)
    def _row_chosen(self, event: DataTable.RowSelected) -> None:
        chosen = self._replays.get(str(event.row_key.value))
        if chosen is not None:
            self.post_message(self.WatchReplay(*chosen))


def _cells(entry: dict[str, Any]) -> tuple[Text, ...]:
    """A row of the table: text as text (a name is anybody's: no markup, no control
    characters), the player's own row in bold with a mark."""
    you = entry.get("you") is True
    style = "bold" if you else ""
    name = printable(str(entry.get("name", "")))
    cells = (f"{YOU if you else ' '}{entry.get('rank', '')}", name, *_figures(entry))
    # Figures to the right, as a table of times reads; the name to the left.
    return tuple(
        Text(cell, style=style, justify="left" if n == 1 else "right")
        for n, cell in enumerate(cells)
    )


def _win_cells(win: dict[str, Any]) -> tuple[Text, ...]:
    """A row of the player's own wins: the board (the daily one with its day), the figures."""
    board = str(win.get("board", "")).capitalize()
    if win.get("board") == "daily":
        board = f"Daily {win.get('date', '')}"
    cells = (printable(board), *_figures(win))
    return tuple(Text(c, justify="left" if n == 0 else "right") for n, c in enumerate(cells))


def _figures(win: dict[str, Any]) -> tuple[str, ...]:
    """A ranked win's figures as the host gives them, on a standings' row or the player's
    own: its time, 3BV, 3BV/s and day."""
    return (
        _seconds(win.get("time_ms")),
        str(win.get("bbbv", "")),
        _number(win.get("bbbv_per_s")),
        _day(win.get("played_at")),
    )


def _title(board: str, row: dict[str, Any]) -> str:
    """The replay viewer's title for a row."""
    if board == "me":
        return f"your {row.get('board')} win in {_seconds(row.get('time_ms'))} s"
    return f"#{row.get('rank')} {printable(str(row.get('name', '')))}"


def _wins_summary(answer: dict[str, Any], shown: int) -> str:
    name = printable(str(answer.get("name", "")))
    if not shown:
        return f"No ranked win yet as {name}: textmines --challenge deals you a board."
    return (
        f"Your {shown} latest ranked win{'s' if shown != 1 else ''}, as {name} (Enter: its replay)."
    )


def _summary(board: str, period: str, answer: dict[str, Any], shown: int) -> str:
    """The line over the table: how many, and the player's own best."""
    where = "today's daily board" if board == "daily" else f"{board.capitalize()}"
    past = board == "daily" and period == "yesterday"
    if past:
        where = f"the daily board of {printable(str(answer.get('date', '')))}"
    if not shown:
        if past:
            return f"No one was on {where}."
        return f"No one is on {where} yet: win one (textmines --challenge) to be first."
    players = f"{shown} player{'s' if shown != 1 else ''}"
    said = f"The best of {players} on {where} (Enter on a row: its replay)."
    yours = answer.get("yours")
    if isinstance(yours, dict):
        return f"{said} Yours: #{yours.get('rank')} in {_seconds(yours.get('time_ms'))} s."
    if "yours" in answer:
        return f"{said} You are not on it yet."
    return said


def _seconds(value: object) -> str:
    """A time as leaderboards give it, to the millisecond."""
    return f"{value / 1000:.3f}" if isinstance(value, int) else "-"


def _number(value: object) -> str:
    return f"{value:.3f}" if isinstance(value, (int, float)) else "-"


def _day(value: object) -> str:
    try:
        return datetime.fromisoformat(str(value)).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return "-"
