"""The replay viewer: a recorded game on the real board and panel, as it was at each moment.

Space plays or pauses; Left/Right step one action back or forward; Home/End go to the start or
the end; +/- (or ] and [) change the speed from x0.25 to x10; a click on the progress bar seeks
there; E exports it as a Metasweeper .evf file; P plays on from the moment shown (a practice
game: the same mines, the clicks so far, the clock at that moment); F1 (or ?) lists these
keys; Esc or Q closes.
The counter, the timer and the face show what they showed then, the cell acted on is marked,
the line below the board gives the game's figures so far, and the title line the keys.
Playback pauses while anything covers the viewer (the key list, a dialog).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from contextlib import suppress
from dataclasses import replace
from typing import ClassVar, Final

from rich.cells import cell_len
from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center
from textual.css.query import NoMatches
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Static
from textual.worker import get_current_worker

from textmines.engine.actions import MOVES, ActionKind
from textmines.engine.game import Game, Status
from textmines.engine.metrics import GameMetrics, game_metrics
from textmines.engine.review import Review
from textmines.replays.recording import Recording
from textmines.themes import ThemeGlyphs
from textmines.ui.board.board_view import BoardView
from textmines.ui.board.tiles import fitting_tile, tile_sizes
from textmines.ui.drawing.line import fit_entries
from textmines.ui.drawing.numbers import timer_seconds
from textmines.ui.screens.risky_clicks import bar_marks, decision_words, risky_near
from textmines.ui.widgets.cover import show_cover
from textmines.ui.widgets.header import GameHeader, digits_for, led_fits
from textmines.ui.widgets.panel import CHROME, GamePanel

SPEEDS: Final = (0.25, 0.5, 1.0, 2.0, 4.0, 10.0)
#: Frames a second while playing.
FPS: Final = 30
#: Rows under the panel: the progress bar and the figures.
BAR_ROWS: Final = 2
#: The keys, beside the title, most needed first (a narrow terminal drops the last ones).
KEY_HINTS: Final = (
    "Space play/pause",
    "←/→ step",
    "+/- speed",
    "F1 keys",
    "q close",
    "p play on",
    ",/. risky clicks",
    "o odds",
    "Home/End",
    "e export .evf",
)
#: What the mouse does in the viewer, for the key list.
MOUSE_CONTROLS: Final = (("Click on the progress bar", "go to that moment"),)


def format_ms(ms: int) -> str:
    return f"{ms / 1000:.2f} s"


def figure_entries(m: GameMetrics) -> list[str]:
    """The game's figures so far, most telling first: 3BV solved, 3BV/s, clicks (left,
    right, chord), effective clicks, IOE, correctness, throughput, STNB and NF where they
    apply."""
    parts = [
        f"3BV {m.solved_bbbv}/{m.bbbv}",
        f"{m.bbbv_per_second:.2f}/s",
        f"Cl {m.clicks} ({m.left_clicks}/{m.right_clicks}/{m.chord_clicks})",
        f"Ce {m.effective_clicks}",
        f"IOE {m.ioe:.2f}",
        f"Corr {m.correctness:.2f}",
        f"Thrp {m.throughput:.2f}",
    ]
    if m.stnb is not None:
        parts.append(f"STNB {m.stnb:.1f}")
    if m.no_flags:
        parts.append("NF")
    return parts


class ProgressLine(Static):
    """Play state, time, speed and a bar; a click on the bar seeks (``on_seek(fraction)``)."""

    DEFAULT_CSS: ClassVar[str] = """
    ProgressLine { height: 1; width: 100%; }
    """

    def __init__(self, on_seek: Callable[[float], object]) -> None:
        super().__init__(id="progress")
        self.on_seek = on_seek
        self._bar: tuple[int, int] = (0, 0)

    def show(
        self,
        playing: bool,
        at_ms: int,
        end_ms: int,
        speed: float,
        done: float,
        marks: Sequence[tuple[float, str]] = (),
    ) -> None:
        """The bar at ``at_ms`` of ``end_ms``, ``done`` of the way (0 to 1), with ``marks``
        (where, 0 to 1, and a style) over it: the risky clicks."""
        head = f"{'▶' if playing else '⏸'} {format_ms(at_ms)} / {format_ms(end_ms)}  x{speed:g}  "
        width = max(10, self.size.width - len(head) - 1)
        done = round(width * done)
        self._bar = (len(head), width)
        text = Text(head)
        text.append("█" * done, style="bold")
        text.append("░" * (width - done), style="dim")
        for where, style in marks:
            column = len(head) + min(width - 1, int(where * width))
            text = text[:column] + Text("◆", style=style) + text[column + 1 :]
        self.update(text)

    def on_click(self, event: events.Click) -> None:
        start, width = self._bar
        if width and start <= event.x < start + width:
            self.on_seek((event.x - start) / width)


class ReplayScreen(Screen[int | None]):
    """Watch ``recording`` (titled ``title``) drawn with ``glyphs``. It closes with None, or
    with the number of actions done when the player chose to play on from there."""

    DEFAULT_CSS: ClassVar[str] = """
    ReplayScreen { layout: vertical; align: center middle; }
    ReplayScreen GamePanel { margin: 0; }
    ReplayScreen #title { width: 100%; content-align: center middle; }
    ReplayScreen #figures { width: 100%; content-align: center middle; color: $text-muted; }
    ReplayScreen #figures.-said { color: $text; }
    /* Toasts (an export's) stay above the progress bar and its risk marks. */
    ReplayScreen ToastRack { margin-bottom: 3; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "play", "Play / pause"),
        Binding("right", "step(1)", "Step forward"),
        Binding("left", "step(-1)", "Step back"),
        Binding("home", "seek(0)", "Start", show=False),
        Binding("end", "seek(1)", "End", show=False),
        Binding("plus,right_square_bracket", "speed(1)", "Faster"),
        Binding("minus,left_square_bracket", "speed(-1)", "Slower"),
        Binding("e", "export", "Export .evf"),
        Binding("p", "play_on", "Play on from here (practice)"),
        Binding("full_stop", "risky(1)", "Next risky click"),
        Binding("comma", "risky(-1)", "Previous risky click"),
        Binding("o", "overlay", "Mine probabilities at this moment"),
        Binding("f1,question_mark", "help", "These keys"),
        Binding("escape,q", "close", "Close", priority=True),
    ]

    class Export(Message):
        """The player asked for the replay as a Metasweeper .evf file."""

        def __init__(self, recording: Recording, name: str) -> None:
            super().__init__()
            self.recording = recording
            self.name = name

    def __init__(
        self, recording: Recording, title: str, glyphs: ThemeGlyphs, *, in_play: bool = False
    ) -> None:
        super().__init__()
        self.recording = recording
        self._title = title
        #: The recording is of the game in play: playing on from a moment of it would throw that
        #: game away, so P does not (Esc goes back to it).
        self.in_play = in_play
        #: The game as it was after the first ``done`` actions, at game time ``at_ms``.
        self.game: Game = recording.game(0)
        self.done = 0
        self.at_ms = 0
        self.speed = 1.0
        self.playing = False
        #: The board's ZiNi and HZiNi, once found (ms-toollib, in a child process).
        self.zini: tuple[int, int] | None = None
        #: The solver's review of every click, once done (in a worker), and whether the
        #: mine probabilities of the moment shown are on the board.
        self.review: Review | None = None
        self.overlay_on = False
        #: What the viewer says of the moment shown (a risky click's words), as (the actions
        #: done then, the words): shown in the figures' line until the moment changes, where
        #: a toast would cover the progress bar and its risk marks.
        self._said: tuple[int, str] | None = None
        #: The position drawn last (the game and its actions done), and its figures.
        self._shown: tuple[Game, int] | None = None
        self._metrics = game_metrics(self.game)
        self._last_tick = 0.0
        self.header = GameHeader(glyphs.faces, ascii=glyphs.ascii, id="replay-header")
        self.board = BoardView(lambda: self.game, glyphs=glyphs, id="replay-board")
        self.board.can_focus = False

    @property
    def end_ms(self) -> int:
        return self.recording.elapsed_ms

    def compose(self) -> ComposeResult:
        yield Static(Text(self._title), id="title")
        with Center(), GamePanel():
            yield self.header
            yield self.board
        yield ProgressLine(self.seek_fraction)
        yield Static("", id="figures", markup=False)

    def on_mount(self) -> None:
        self._fit()
        self.set_interval(1 / FPS, self._tick)
        self._show()
        self._find_zini()
        self._find_review()

    class ZiniFound(Message):
        """The worker found the board's ZiNi and HZiNi."""

        def __init__(self, found: tuple[int, int]) -> None:
            super().__init__()
            self.found = found

    # A failure is the app's to report (its name says what failed); the replay plays on.
    @work(thread=True, name="Working out the replay's ZiNi")
    def _find_zini(self) -> None:
        from textmines.replays.foreign import board_zini

        found = board_zini(self.recording.board)
        if found is not None:
            # Posted, not called from the thread: a worker must never wait on a closing app,
            # and a screen that has closed drops the message.
            self.post_message(self.ZiniFound(found))

    def on_replay_screen_zini_found(self, message: ZiniFound) -> None:
        self.zini = message.found
        with suppress(NoMatches):  # the app is quitting: the figures line is already gone
            self._show()

    class Reviewed(Message):
        """The solver's review of the recording's clicks."""

        def __init__(self, review: Review) -> None:
            super().__init__()
            self.review = review

    @work(thread=True, group="review", name="Reviewing the replay's clicks")
    def _find_review(self) -> None:
        from textmines.engine.solver import AnalysisStopped
        from textmines.replays.review_report import review_of

        # The viewer closed (or the app quits): its worker is cancelled, and the review,
        # which may run for seconds on a big board, stops rather than burn a core unseen.
        worker = get_current_worker()
        with suppress(AnalysisStopped):
            self.post_message(self.Reviewed(review_of(self.recording, lambda: worker.is_cancelled)))

    def on_replay_screen_reviewed(self, message: Reviewed) -> None:
        self.review = message.review
        with suppress(NoMatches):  # the app is quitting
            self._show()

    class Odds(Message):
        """The mine probabilities of the position after ``done`` actions."""

        def __init__(self, done: int, odds: dict[tuple[int, int], float]) -> None:
            super().__init__()
            self.done = done
            self.odds = odds

    @work(thread=True, exclusive=True, group="odds", name="Working out the mine odds")
    def _find_odds(self, done: int, view: str, mines: int) -> None:
        from textmines.engine.solver import analyse

        self.post_message(self.Odds(done, analyse(view, mines).probabilities))

    def on_replay_screen_odds(self, message: Odds) -> None:
        if self.overlay_on and message.done == self.done:
            self.board.set_overlay(message.odds)

    def _refresh_odds(self) -> None:
        """The overlay for the moment shown (off, or being worked out: none meanwhile)."""
        self.board.set_overlay(None)
        game = self.game
        if self.overlay_on and game.board is not None and not game.status.is_over:
            self._find_odds(self.done, game.view_text(), game.mines)

    def on_resize(self) -> None:
        self._fit()
        self._show()

    def _fit(self) -> None:
        sizes = tile_sizes(self.board.glyphs.cell_width)
        room = (self.size.width - CHROME[0], self.size.height - CHROME[1] - BAR_ROWS - 1)
        # The board at its smallest, its frame, the title and the bar: else a notice says
        # what size it takes, rather than a cropped board with pieces of scroll bars.
        smallest = sizes[0]
        need = (
            self.game.width * smallest.cols + CHROME[0],
            self.game.height * smallest.rows + CHROME[1] + BAR_ROWS + 1,
        )
        too_small = self.size.width < need[0] or self.size.height < need[1]
        message = (
            f"Terminal too small for this replay: it needs at least {need[0]}x{need[1]} "
            f"(this one is {self.size.width}x{self.size.height})."
        )
        show_cover(self, "too-small", message if too_small else None)
        tile = sizes[fitting_tile(sizes, (self.game.width, self.game.height), room)]
        self.header.set_led(led_fits(self.game, tile, room))
        if tile != self.board.tile:
            self.board.set_tile(tile)
        self.query_one(GamePanel).resized()

    # ------------------------------------------------------------------ moving in time
    def go_to(self, done: int, at_ms: int | None = None) -> None:
        """Show the game after its first ``done`` actions (at ``at_ms``, default: the time
        of the last of them)."""
        actions = self.recording.actions
        done = max(0, min(len(actions), done))
        if done >= self.done:
            for action in actions[self.done : done]:
                self.game.replay_action(action)
        else:
            self.game = self.recording.game(done)
        self.done = done
        last = actions[done - 1].t_ms if done else 0
        self.at_ms = last if at_ms is None else max(last, min(at_ms, self.end_ms))
        self._show()

    def seek_ms(self, at_ms: int) -> None:
        """Show the game as it was at game time ``at_ms``."""
        done = sum(1 for action in self.recording.actions if action.t_ms <= at_ms)
        self.go_to(done, at_ms)

    def seek_fraction(self, fraction: float) -> None:
        if fraction <= 0:
            self.go_to(0)  # the start: before the first click too, made at 0 ms
        else:
            self.seek_ms(round(self.end_ms * fraction))

    def _tick(self) -> None:
        now = time.monotonic()
        elapsed, self._last_tick = now - self._last_tick, now
        if not self.playing:
            return
        target = self.at_ms + round(elapsed * 1000 * self.speed)
        if target >= self.end_ms:
            self.playing = False
            target = self.end_ms
        self.seek_ms(target)

    # ------------------------------------------------------------------ drawing
    def _show(self) -> None:
        game = self.game
        header = self.header
        header.counter_digits = digits_for(game.mines)
        header.mines_left = game.mines_left
        header.seconds = timer_seconds(self.at_ms, game.status != Status.READY)
        actions = self.recording.actions
        held = self.done > 0 and actions[self.done - 1].kind == ActionKind.PRESS
        faces = {Status.WON: "won", Status.LOST: "lost"}
        header.set_face(faces.get(game.status, "pressed" if held else "normal"))
        if (game, self.done) != self._shown:
            # A new position: the board and the game's figures (a tick that only moves the
            # clock repaints neither, at 30 frames a second).
            self._shown = (game, self.done)
            self._show_position()
            self._metrics = game_metrics(game)
            self._refresh_odds()
        if self.is_mounted:
            marks = (
                bar_marks(self.review, self.end_ms, len(self.recording.actions))
                if self.review is not None
                else []
            )
            self.query_one(ProgressLine).show(
                self.playing, self.at_ms, self.end_ms, self.speed, self._progress(), marks
            )
            # The rates at the time shown, not at the last action's.
            entries = figure_entries(replace(self._metrics, elapsed_ms=self.at_ms))
            if self.zini is not None:
                entries.append(f"ZiNi {self.zini[0]}")
            width = max(1, self.size.width - 1)
            self._show_figures(entries, width)
            self._show_title(width)

    def _show_figures(self, entries: list[str], width: int) -> None:
        """The figures so far, or what the viewer says of this moment in their place."""
        line = self.query_one("#figures", Static)
        said = self._said[1] if self._said is not None and self._said[0] == self.done else None
        line.set_class(said is not None, "-said")
        if said is not None:
            # Cut to the width here: a line wider than the screen gave the screen a scroll bar
            # over the progress bar.
            words = Text(said)
            words.truncate(width, overflow="ellipsis")
            line.update(words)
        else:
            # Whole entries only: a narrow terminal drops the last ones rather than cut one.
            line.update(fit_entries(entries, width))

    def say(self, words: str) -> None:
        """Say ``words`` of the moment shown, in the figures' line, until it changes."""
        self._said = (self.done, words)
        self._show()

    def _progress(self) -> float:
        """How far into the recording the viewer is: by time, or for a game that took no
        time (all in its first millisecond) by its actions."""
        if self.end_ms:
            return self.at_ms / self.end_ms
        actions = len(self.recording.actions)
        return self.done / actions if actions else 1.0

    def _show_title(self, width: int) -> None:
        """The title, bold, and as many of the keys as fit beside it."""
        separator = "   "
        keys = fit_entries(KEY_HINTS, width - cell_len(self._title) - len(separator))
        title = Text(self._title, style="bold")
        if keys:
            title.append(separator + keys, style="not bold dim")
        self.query_one("#title", Static).update(title)

    def _show_position(self) -> None:
        """The board after the actions done, the cell of the last one marked."""
        actions = self.recording.actions
        if self.done:
            last = actions[self.done - 1]
            if last.kind in MOVES and self.game.status == Status.LOST:
                # The exploded mine shows as on the board, in red; the cursor (which keeps
                # it red) marks the fatal cell, not wherever it was last moved.
                self.board.show_hint(None)
                self.board.move_cursor(last.x, last.y)
            elif last.kind in MOVES:
                self.board.show_hint((last.x, last.y))
            elif last.kind in (ActionKind.CURSOR, ActionKind.PRESS):
                self.board.show_hint(None)
                self.board.move_cursor(last.x, last.y)
        else:
            self.board.show_hint(None)
        self.board.refresh()

    # ------------------------------------------------------------------ actions
    def action_play(self) -> None:
        if not self.playing and self.at_ms >= self.end_ms:
            self.go_to(0)  # at the end: from the start again
        self.playing = not self.playing
        self._last_tick = time.monotonic()
        self._show()

    def action_step(self, step: int) -> None:
        self.playing = False
        self.go_to(self.done + step)

    def action_seek(self, fraction: float) -> None:
        self.playing = False
        self.seek_fraction(fraction)

    def action_speed(self, step: int) -> None:
        index = SPEEDS.index(self.speed) if self.speed in SPEEDS else SPEEDS.index(1.0)
        self.speed = SPEEDS[max(0, min(len(SPEEDS) - 1, index + step))]
        self._show()

    def action_export(self) -> None:
        self.post_message(self.Export(self.recording, self._title))

    def action_help(self) -> None:
        """The viewer's keys (playback pauses meanwhile: see ``on_screen_suspend``)."""
        from textmines.ui.screens.help import controls_table
        from textmines.ui.screens.info import InfoScreen

        table = controls_table([("Replay", self.BINDINGS)], MOUSE_CONTROLS)
        self.app.push_screen(InfoScreen("Replay controls", table))

    def on_screen_suspend(self) -> None:
        """Something covers the viewer: playback pauses rather than run on unseen."""
        if self.playing:
            self.playing = False
            self._show()

    def action_close(self) -> None:
        self.dismiss(None)

    def action_risky(self, step: int) -> None:
        """To the moment before the next (1) or previous (-1) risky click, and what the
        solver says of it."""
        if self.review is None:
            self.say("The clicks are still being reviewed.")
            return
        decision = risky_near(self.review, self.done, step)
        if decision is None:
            way = "after" if step > 0 else "before"
            self.say(f"No risky click {way} this moment.")
            return
        self.playing = False
        self.go_to(decision.index)
        # The cell it opened, and the certainly safe cell the words name.
        safe = (decision.safe_cell,) if decision.safe_cell is not None else ()
        self.board.show_hint(decision.cell, safe)
        self.say(decision_words(decision))

    def action_overlay(self) -> None:
        """The mine probability of every covered cell at the moment shown, or off again."""
        self.overlay_on = not self.overlay_on
        self._refresh_odds()

    def action_play_on(self) -> None:
        """Close the viewer and play on from the moment shown, if the game goes on there."""
        if self.in_play:
            self.notify(
                "This is the game in play: Esc goes back to it as you left it. Play on from "
                "a moment of a finished game's replay.",
                timeout=5,
            )
            return
        if self.game.status.is_over:
            self.notify(
                "The game is over at this moment: step back (Left) to before its last click "
                "to play on from there.",
                timeout=5,
            )
            return
        self.dismiss(self.done)
