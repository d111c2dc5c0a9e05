"""The statistics screen: one tab per preset plus Custom, one section per group of games.

No-guess games are a section of their own under the plain one in their preset's tab, shown only
once such a game was played: four tabs fit an 80-column terminal where seven would not, and the
two variants of a board stay one scroll apart. The Custom tab shows one board (size and mines,
plain or no-guess) at a time, picked in a list.

A tab's figures are read from the store when the tab is first shown, not all at once: opening
the screen on a 100,000-game database reads the group list and one tab (about 60 ms).
Everything that comes from the database or the file system is shown as plain text, never markup.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, Final

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.events import Click, Resize
from textual.markup import escape
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Button, Select, Sparkline, Static, TabbedContent, TabPane

from textmines.engine.presets import PRESETS
from textmines.store.stats import (
    CUSTOM,
    RECENT_WINS,
    DailyStats,
    DayResult,
    Group,
    GroupStats,
    Outcome,
    StatsError,
    StatsStore,
)
from textmines.ui.drawing.numbers import format_seconds
from textmines.ui.screens.confirm import ConfirmScreen
from textmines.ui.screens.dialog import Dialog
from textmines.ui.screens.scroll_keys import SCROLL_KEYS

if TYPE_CHECKING:
    from textmines.leaderboard.client import HostClient

#: ``(key, title)`` of each tab, in menu order: a preset key, ``"custom"`` or ``"daily"``.
DAILY: Final = "daily"
TABS: Final = (
    *((key, preset.name) for key, preset in PRESETS.items()),
    (CUSTOM, "Custom"),
    (DAILY, "Daily"),
)
#: The tab of a host's leaderboard, after the others (when settings name a host).
LEADERBOARD: Final = "leaderboard"
#: Days the Daily tab lists, the latest first.
DAILY_DAYS: Final = 30
NO_VALUE: Final = "-"
MUTED: Final = "$text-muted"
#: Wins and losses (a streak's, a day's) in the theme's colours; an assisted win (no day
#: won) and an abandoned game in neither.
_OUTCOME_STYLES: Final[Mapping[str, str]] = {Outcome.WON: "$success", Outcome.LOST: "$error"}
#: Columns between the figures and the best-times table when they sit side by side.
GAP: Final = 3
#: The widest the chart of the last wins grows in a wide terminal.
MAX_CHART_WIDTH: Final = 2 * RECENT_WINS


def tab_key(group: Group) -> str:
    """The tab a group is shown in: its preset's key, or ``"custom"``."""
    return group.preset if group.preset in PRESETS else CUSTOM


def format_local(moment: datetime) -> str:
    """``2026-11-22 14:05`` in local time."""
    return moment.astimezone().strftime("%Y-%m-%d %H:%M")


def _summary_lines(stats: GroupStats) -> list[Content]:
    """Counts, streaks, average time and best 3BV/s as aligned label/value lines."""
    streak = stats.current_streak
    streak_style = _OUTCOME_STYLES.get(streak.outcome, "") if streak.outcome else ""
    average = stats.average_winning_ms
    rate = stats.best_bbbv_per_s
    losing = " (lost or abandoned)" if stats.abandoned else ""
    rows = [
        ("Played", f"{stats.played:,}", ""),
        ("Won", f"{stats.won:,}", ""),
        ("Win rate", f"{stats.win_percent:.1f}%", "bold"),
        ("Lost", f"{stats.lost:,}", ""),
        ("Abandoned", f"{stats.abandoned:,}", ""),
        ("Assisted (no records)", f"{stats.assisted:,}", ""),
        ("Current streak", str(streak), streak_style),
        ("Longest winning streak", f"{stats.longest_winning_streak:,}", ""),
        # An abandoned game extends a losing streak: said where there are any.
        ("Longest losing streak", f"{stats.longest_losing_streak:,}{losing}", ""),
        ("Average winning time", NO_VALUE if average is None else format_seconds(average), ""),
        ("Best 3BV/s", NO_VALUE if rate is None else f"{rate:.2f}", ""),
        *((f"Best {name}", f"{value:.2f}", "") for name, value in stats.best_figures),
        *_review_rows(stats),
    ]
    # Figures line up on the right. A value in words (a streak) has its number there too and
    # its words after it: their length does not push the figures away from their labels.
    label_width = max(len(label) for label, _, _ in rows) + 2
    split = [(label, *_figure_and_words(label, value), style) for label, value, style in rows]
    value_width = max(len(figure) for _, figure, _, _ in split)
    return [
        Content.assemble(
            (label.ljust(label_width), MUTED), (figure.rjust(value_width) + words, style)
        )
        for label, figure, words, style in split
    ]


#: The summary's values in words: a number, then what it counts (``2 lost or abandoned``).
_WORDED: Final = frozenset({"Current streak", "Longest losing streak"})


def _figure_and_words(label: str, value: str) -> tuple[str, str]:
    """A summary value as its figure and the words after it (with their space), which are
    empty but for a value in words."""
    if label not in _WORDED:
        return value, ""
    figure, space, words = value.partition(" ")
    return figure, space + words


def _review_rows(stats: GroupStats) -> list[tuple[str, str, str]]:
    """What the solver's reviews of the group's games found (``textmines --review``): none
    before a game is reviewed."""
    review = stats.review
    if review is None:
        return []
    forced = f"{review.forced_losses:,} of {review.losses:,}" if review.losses else NO_VALUE
    return [
        ("Reviewed games", f"{review.reviewed:,}", ""),
        ("Guesses a game", f"{review.guesses_per_game:.2f}", ""),
        ("Avoidable risks a game", f"{review.avoidable_per_game:.2f}", ""),
        ("Blunders a game", f"{review.blunders_per_game:.2f}", ""),
        ("Average luck", f"{review.average_luck * 100:.0f}%", ""),
        ("Losses that were forced", forced, ""),
    ]


#: Lines of the best-times block above its first row: its title and the column headings.
BEST_TABLE_ROWS_ABOVE = 2
#: Under the best times: where their game numbers go.
REVIEW_HINT: Final = "Review a game: textmines --review GAME"


def _best_time_lines(stats: GroupStats) -> list[Content]:
    """The best-times table, fastest first: each game's number (what ``textmines --review``
    and ``--export-replay`` take; the order is the rank), time, date, 3BV and 3BV/s."""
    header = ("Game", "Time", "Date", "3BV", "3BV/s")
    rows = [
        (
            NO_VALUE if best.game_id is None else str(best.game_id),
            format_seconds(best.time_ms),
            format_local(best.ended_at),
            f"{best.bbbv:,}",
            f"{best.bbbv_per_s:.2f}",
        )
        for best in stats.best_times
    ]
    widths = [max(len(row[column]) for row in (header, *rows)) for column in range(len(header))]
    # Text columns (the date) lean left, numbers right.
    align_left = (False, False, True, False, False)

    def line(cells: Sequence[str]) -> str:
        return "  ".join(
            cell.ljust(width) if left else cell.rjust(width)
            for cell, width, left in zip(cells, widths, align_left, strict=True)
        )

    lines = [Content.styled("Best times", "bold"), Content.styled(line(header), f"{MUTED} bold")]
    lines.extend(
        Content.styled(line(row), "$success" if rank == 1 else "")
        for rank, row in enumerate(rows, 1)
    )
    if not rows:
        lines.append(Content.styled("No unassisted win yet.", MUTED))
    else:
        lines.append(Content.styled(REVIEW_HINT, MUTED))
    if stats.damaged:
        lines.append(Content.styled(_damaged_text(stats.damaged), "$warning"))
    return lines


def daily_text(stats: DailyStats) -> Content:
    """The Daily tab: days played and won, the streaks of days, each day's result."""
    streak = "day" if stats.current_streak == 1 else "days"
    lines = [
        Content.assemble(
            ("Days played ", MUTED),
            f"{stats.days_played:,}",
            ("   won ", MUTED),
            f"{stats.days_won:,}",
            ("   current streak ", MUTED),
            f"{stats.current_streak} {streak}",
            ("   longest ", MUTED),
            f"{stats.longest_streak}",
        ),
        Content(""),
        Content.styled("Day         Game   Result    Time", f"{MUTED} bold"),
    ]
    for day, result, time_ms in stats.days[:DAILY_DAYS]:
        # An assisted win (hints, autoplay) shows its time, but not as a day won.
        won = result in (DayResult.WON, DayResult.ASSISTED)
        time = format_seconds(time_ms) if won else NO_VALUE
        style = _OUTCOME_STYLES.get(result, "")
        # The game's number, as textmines --review and --export-replay take it.
        number = stats.game_numbers.get(day)
        game = str(number) if number is not None else NO_VALUE
        lines.append(Content.styled(f"{day}  {game:<6} {result:<9} {time}", style))
    if stats.days:
        lines.append(Content.styled(REVIEW_HINT, MUTED))
    if stats.damaged:
        lines.append(Content.styled(_damaged_text(stats.damaged), "$warning"))
    lines.append(
        Content.styled("The first try of each day counts; later ones are practice.", MUTED)
    )
    return Content("\n").join(lines)


def _damaged_text(count: int) -> str:
    return f"{count} damaged {'record' if count == 1 else 'records'} left out"


def left_out_text(count: int, path: Path) -> str:
    """The games in no group: a value of their board was edited into one textmines never
    writes. What, where and what to do."""
    if count == 1:
        return (
            f"1 game in the statistics could not be read and is left out: its board holds "
            f"values textmines never writes (edited by hand?). It stays in {path} until "
            "Reset all."
        )
    return (
        f"{count:,} games in the statistics could not be read and are left out: their boards "
        f"hold values textmines never writes (edited by hand?). They stay in {path} until "
        "Reset all."
    )


def _side_by_side(left: list[Content], right: list[Content]) -> Content:
    """Two blocks of lines as two columns, ``GAP`` apart."""
    width = max(line.cell_length for line in left) + GAP
    blank = Content("")
    rows = []
    for index in range(max(len(left), len(right))):
        first = left[index] if index < len(left) else blank
        second = right[index] if index < len(right) else blank
        rows.append(first.pad_right(width - first.cell_length) + second)
    return Content("\n").join(rows)


def _chart_caption(times: Sequence[int]) -> Content:
    count = len(times)
    wins = "win" if count == 1 else "wins"
    return Content.assemble(
        (f"Last {count} {wins}", "bold"),
        (", oldest to newest; lower is faster: ", MUTED),
        (format_seconds(min(times)), "$success"),
        (" to ", MUTED),
        (format_seconds(max(times)), "$error"),
    )


class GroupSection(Vertical):
    """Every figure of one group, with its own Reset button.

    The figures are one ``Static`` holding two columns (or, when the section is too narrow,
    the same lines one block under the other): a widget per column costs twice as much to lay
    out, and with 100,000 games the screen must still open at once.
    """

    def __init__(self, stats: GroupStats, *, current: bool = False) -> None:
        super().__init__(classes="-current" if current else "")
        self.stats = stats
        self.current = current
        summary = _summary_lines(stats)
        best = _best_time_lines(stats)
        self._two_columns = _side_by_side(summary, best)
        #: Where the best-times column starts in the two-column layout.
        self._best_column = max(line.cell_length for line in summary) + GAP
        self._one_column = Content("\n").join([*summary, Content(""), *best])
        self._two_columns_width = max(line.cell_length for line in self._two_columns.split("\n"))

    @property
    def group(self) -> Group:
        """The group whose figures are shown."""
        return self.stats.group

    def compose(self) -> ComposeResult:
        with Horizontal(classes="heading"):
            title = Content.styled(self.group.label, "bold")
            if self.current:
                title = Content.assemble(title, ("  current board", MUTED))
            yield Static(title, classes="title")
            if self.stats.best_times:
                yield Button("Watch best", compact=True, classes="watch")
                yield Button("Export best", compact=True, classes="export")
            yield Button("Reset...", compact=True, variant="error", classes="reset")
        yield Static(self._two_columns, classes="figures")
        times = self.stats.recent_winning_ms
        if times:
            yield Static(_chart_caption(times), classes="caption")
            yield Sparkline([time_ms / 1000 for time_ms in times], classes="chart")

    class WatchReplay(Message):
        """The player asked to watch the replay of recorded game ``game_id``."""

        def __init__(self, game_id: int) -> None:
            super().__init__()
            self.game_id = game_id

    class ExportReplay(Message):
        """The player asked for recorded game ``game_id`` as a Metasweeper .evf file."""

        def __init__(self, game_id: int) -> None:
            super().__init__()
            self.game_id = game_id

    @on(Button.Pressed, ".watch")
    def _watch_best(self, event: Button.Pressed) -> None:
        event.stop()
        self._watch(0)

    @on(Button.Pressed, ".export")
    def _export_best(self, event: Button.Pressed) -> None:
        event.stop()
        game_id = self.stats.best_times[0].game_id
        if game_id is not None:
            self.post_message(self.ExportReplay(game_id))

    def on_click(self, event: Click) -> None:
        """A click on a row of the best-times table watches that game."""
        figures = self.query_one(".figures", Static)
        offset = event.get_content_offset(figures)
        if offset is None:
            return
        row = offset.y - BEST_TABLE_ROWS_ABOVE
        if self.has_class("-stacked"):
            row -= len(_summary_lines(self.stats)) + 1
        elif offset.x < self._best_column:
            return
        if 0 <= row < len(self.stats.best_times):
            self._watch(row)

    def _watch(self, rank: int) -> None:
        game_id = self.stats.best_times[rank].game_id
        if game_id is not None:
            self.post_message(self.WatchReplay(game_id))

    def on_resize(self, event: Resize) -> None:
        width = event.size.width
        stacked = width < self._two_columns_width
        if stacked != self.has_class("-stacked"):
            self.set_class(stacked, "-stacked")
            figures = self._one_column if stacked else self._two_columns
            self.query_one(".figures", Static).update(figures)
        times = self.stats.recent_winning_ms
        if times:
            # Whole columns per win, so that every bar is as wide as the others: one or two
            # for fifty wins, a few for a handful so that they still read as a chart.
            per_win = max(1, min(width, MAX_CHART_WIDTH) // max(len(times), RECENT_WINS // 2))
            self.query_one(Sparkline).styles.width = per_win * len(times)


class _TabBody(VerticalScroll, can_focus=False):
    """A tab's scrolling body; the screen's keys scroll it, so Tab goes to the buttons."""


#: The keys, left of the buttons at the foot of the dialog.
_FOOTER_HINT = "Esc close  \u2190\u2192 tabs  Tab buttons"


class _Footer(Horizontal):
    """The foot of the dialog: the keys, then the buttons. The keys show whole or not at
    all: in a narrow terminal the buttons keep their room."""

    def on_resize(self, event: Resize) -> None:
        buttons = sum(b.outer_size.width + b.styles.margin.left for b in self.query(Button))
        hint = self.query_one("#hint", Static)
        hint.display = event.size.width >= buttons + len(_FOOTER_HINT) + 1


class StatisticsScreen(Dialog[bool]):
    """Statistics of every group, by tab; Reset one group or all behind a confirmation.

    ``store`` ``None`` (statistics are not kept this session) shows ``notice`` and a Close
    button only. ``initial_group`` picks the tab shown first (and scrolls to its section);
    without it the first tab that has games is shown.

    Dismisses with ``True`` if statistics were reset while it was open, else ``False``, when
    closed with Escape, Q, F4 or the Close button.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        # Escape closes an open board picker first, so only Q and F4 are priority bindings:
        # they close the screen as the key arrives, and a key read with them reaches the game.
        Binding("escape", "close", "Close"),
        Binding("q,f4", "close", "Close", priority=True),
        *SCROLL_KEYS,
    ]

    DEFAULT_CSS = """
    StatisticsScreen { align: center middle; }
    StatisticsScreen #frame {
        width: 100%; max-width: 120; height: 100%;
        border: round $primary; border-title-color: $primary; border-title-style: bold;
        background: $surface; padding: 0 1;
    }
    StatisticsScreen TabbedContent { height: 1fr; }
    StatisticsScreen TabPane { padding: 0; height: 1fr; }
    StatisticsScreen .body { height: 1fr; scrollbar-size-vertical: 1; }
    StatisticsScreen .message { width: 100%; padding: 1 0; }
    StatisticsScreen .message.-error { color: $error; }
    StatisticsScreen #notice { height: 1fr; color: $warning; padding: 1 0; }
    StatisticsScreen #left-out { height: auto; color: $warning; }
    StatisticsScreen #custom-picker { height: 1; margin-bottom: 1; }
    StatisticsScreen #custom-board-label { width: auto; padding: 0 1 0 0; color: $text-muted; }
    StatisticsScreen #custom-board { width: 40; }
    StatisticsScreen GroupSection { height: auto; margin-bottom: 1; }
    StatisticsScreen GroupSection .heading {
        height: 1; background: $boost;
    }
    StatisticsScreen GroupSection.-current .heading { background: $primary 15%; }
    StatisticsScreen GroupSection .title { width: 1fr; padding: 0 1; }
    StatisticsScreen GroupSection .figures { margin-top: 1; }
    StatisticsScreen GroupSection .caption { margin-top: 1; }
    StatisticsScreen GroupSection .chart { height: 3; max-width: 100%; }
    StatisticsScreen GroupSection .chart > .sparkline--min-color { color: $success; }
    StatisticsScreen GroupSection .chart > .sparkline--max-color { color: $error; }
    StatisticsScreen #buttons { height: 1; }
    StatisticsScreen #hint { width: 1fr; color: $text-muted; }
    StatisticsScreen #buttons Button { margin-left: 2; }
    """

    def __init__(
        self,
        store: StatsStore | None,
        notice: str | None = None,
        *,
        initial_group: Group | None = None,
        player: str = "",
        leaderboard: HostClient | None = None,
    ) -> None:
        super().__init__()
        self.store = store
        #: The host whose leaderboard the last tab shows (settings' ``[host] url``), if any.
        self.leaderboard = leaderboard
        self.notice = notice
        self.initial_group = initial_group
        #: The player's name (Game > Player name...), in the title; "": none given.
        self.player = player
        #: Set once statistics were reset while the screen was open.
        self.was_reset = False
        self._groups: list[Group] = []
        self._groups_error: str | None = None
        #: Games in no group: their board columns were edited into values never written.
        self._left_out = 0
        self._loaded: set[str] = set()

    # ------------------------------------------------------------------ building
    def compose(self) -> ComposeResult:
        frame = Vertical(id="frame")
        # A title is markup: the name is the player's own text.
        frame.border_title = f"Statistics: {escape(self.player)}" if self.player else "Statistics"
        with frame:
            if self.store is None:
                notice = self.notice or "Statistics are not saved this session."
                yield Static(notice, id="notice", markup=False)
            else:
                self._read_groups()
                first = self._first_tab()
                yield Static(id="left-out", markup=False)
                with TabbedContent(initial=f"tab-{first}"):
                    for key, title in self.tabs:
                        with (
                            TabPane(title, id=f"tab-{key}"),
                            _TabBody(id=f"body-{key}", classes="body"),
                        ):
                            if key == first:
                                yield from self._tab_content(key)
                self._loaded.add(first)
            with _Footer(id="buttons"):
                yield Static(_FOOTER_HINT, id="hint")
                if self.store is not None:
                    yield Button("Reset all...", compact=True, variant="error", id="reset-all")
                yield Button("Close", compact=True, variant="primary", id="close")

    def on_mount(self) -> None:
        if self.store is None:
            self.query_one("#close", Button).focus()
            return
        self._sync_reset_all()
        current = self.query(GroupSection).filter(".-current")
        if current:
            section = current.first(GroupSection)
            self.call_after_refresh(section.scroll_visible, animate=False, top=True)

    @property
    def tabs(self) -> tuple[tuple[str, str], ...]:
        """``(key, title)`` of each tab shown."""
        if self.leaderboard is None:
            return TABS
        return (*TABS, (LEADERBOARD, "Leaderboard"))

    def _read_groups(self) -> None:
        assert self.store is not None
        try:
            self._groups, self._left_out = self.store.groups_and_left_out()
            self._groups_error = None
        except StatsError as error:
            self._groups, self._left_out = [], 0
            self._groups_error = str(error)

    def _first_tab(self) -> str:
        if self.initial_group is not None:
            return tab_key(self.initial_group)
        keys = {tab_key(group) for group in self._groups}
        return next((key for key, _ in TABS if key in keys), TABS[0][0])

    def _daily_content(self) -> list[Widget]:
        assert self.store is not None
        try:
            stats = self.store.daily_stats()
        except StatsError as error:
            return [Static(str(error), classes="message -error", markup=False)]
        if not stats.days_played:
            text = "No daily board played yet: Game > Daily board plays today's."
            return [Static(text, classes="message", markup=False)]
        return [Static(daily_text(stats), classes="figures daily")]

    def _tab_content(self, key: str) -> Iterable[Widget]:
        """The sections of one tab, or a message saying why there are none.

        The Custom tab shows one board at a time, picked in a list: a player may have tried
        dozens of sizes, and a section per size would make the tab slow and long.
        """
        if key == DAILY:
            return self._daily_content()
        if key == LEADERBOARD and self.leaderboard is not None:
            from textmines.ui.screens.leaderboard_view import LeaderboardView  # when shown

            return [LeaderboardView(self.leaderboard)]
        if self._groups_error is not None:
            return [Static(self._groups_error, classes="message -error", markup=False)]
        groups = [group for group in self._groups if tab_key(group) == key]
        if not groups:
            where = "custom boards" if key == CUSTOM else PRESETS[key].name
            text = f"No games yet on {where}. Finished games show up here."
            return [Static(text, classes="message", markup=False)]
        if key != CUSTOM:
            return self._sections(groups)
        shown = self.initial_group if self.initial_group in groups else groups[0]
        picker = Select(
            [(Content(group.label), group) for group in groups],
            value=shown,
            allow_blank=False,
            compact=True,
            id="custom-board",
        )
        return [
            Horizontal(Static("Board", id="custom-board-label"), picker, id="custom-picker"),
            *self._sections([shown]),
        ]

    def _sections(self, groups: list[Group]) -> list[Widget]:
        assert self.store is not None
        try:
            figures = [self.store.group_stats(group) for group in groups]
        except StatsError as error:
            return [Static(str(error), classes="message -error", markup=False)]
        return [GroupSection(stats, current=stats.group == self.initial_group) for stats in figures]

    @on(Select.Changed, "#custom-board")
    def _custom_board_chosen(self, event: Select.Changed) -> None:
        group = event.value
        body = self.query_one(f"#body-{CUSTOM}", _TabBody)
        shown = body.query(GroupSection)
        if not isinstance(group, Group) or (shown and shown.first().group == group):
            return
        body.query("GroupSection, .message").remove()
        body.mount_all(self._sections([group]))

    @on(TabbedContent.TabActivated)
    async def _tab_activated(self, event: TabbedContent.TabActivated) -> None:
        pane_id = event.pane.id or ""
        await self._load(pane_id.removeprefix("tab-"))

    async def _load(self, key: str) -> None:
        """Read and show one tab's figures, the first time it is shown."""
        if key in self._loaded:
            return
        self._loaded.add(key)
        body = self.query_one(f"#body-{key}", _TabBody)
        # Awaited: the new content reuses ids (the custom picker) of what it replaces.
        await body.remove_children()
        await body.mount_all(self._tab_content(key))

    async def _reload(self) -> None:
        """After a reset: read the group list again, empty every tab, fill the shown one."""
        self._read_groups()
        self._loaded &= {LEADERBOARD}  # a host's leaderboard is not the statistics reset
        for key, _ in TABS:
            await self.query_one(f"#body-{key}", _TabBody).remove_children()
        await self._load(self.active_tab)
        self._sync_reset_all()

    def _sync_reset_all(self) -> None:
        """Reset all for the games shown and those left out; the notice of the latter."""
        assert self.store is not None
        self.query_one("#reset-all", Button).disabled = not self._groups and not self._left_out
        notice = self.query_one("#left-out", Static)
        notice.display = bool(self._left_out)
        notice.update(left_out_text(self._left_out, self.store.path) if self._left_out else "")

    @property
    def active_tab(self) -> str:
        """The key of the tab shown (``"beginner"`` ... ``"custom"``, ``"leaderboard"``)."""
        return self.query_one(TabbedContent).active.removeprefix("tab-")

    # ------------------------------------------------------------------ resetting
    @on(Button.Pressed, ".reset")
    def _reset_pressed(self, event: Button.Pressed) -> None:
        section = event.button.query_ancestor(GroupSection)
        self.ask_reset(section.group)

    @on(Button.Pressed, "#reset-all")
    def _reset_all_pressed(self) -> None:
        self.ask_reset(None)

    def ask_reset(self, group: Group | None) -> None:
        """Ask, then forget the games of ``group`` (``None``: every game)."""
        if group is None:
            message = (
                "Forget every recorded game on every board, with best times and streaks?"
                " This cannot be undone."
            )
            title = "Reset all statistics"
        else:
            message = (
                f"Forget every game played on {group.label}, with its best times and streaks?"
                " This cannot be undone."
            )
            title = f"Reset {group.label}"

        async def answered(confirmed: bool | None) -> None:
            if confirmed:
                await self._reset(group)

        self.app.push_screen(ConfirmScreen(message, title=title), answered)

    async def _reset(self, group: Group | None) -> None:
        assert self.store is not None
        notice = self.store.reset(group)
        if notice is not None:
            self.notify(notice, severity="error", markup=False)
            return
        self.was_reset = True
        what = "All statistics" if group is None else f"Statistics of {group.label}"
        self.notify(f"{what} reset.", timeout=3, markup=False)
        await self._reload()

    # ------------------------------------------------------------------ moving around
    def action_scroll(self, direction: str) -> None:
        if self.store is None:
            return
        body = self.query_one(f"#body-{self.active_tab}", _TabBody)
        getattr(body, f"scroll_{direction}")(animate=False)

    @on(Button.Pressed, "#close")
    def action_close(self) -> None:
        self.dismiss(self.was_reset)
