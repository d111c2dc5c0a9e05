"""GameScreen: the screen the game is played on, the bottom of the screen stack. It owns the
game's bindings and actions (new game, restart, presets, pause, zoom, hint, overlay, autoplay,
the options that change the game in play): under a dialog they stop, by construction, as the
dialog's screen is then the one that takes the keys. The work is done by the controllers it is
given (``GameFlow``, ``Zoom``, ``GameOptions``, ``AssistController``, ``ReplayController``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual import events, on
from textual.binding import BindingType
from textual.geometry import Region
from textual.screen import Screen
from textual.widget import Widget

from textmines.engine import PRESETS
from textmines.engine.presets import board_label
from textmines.ui.board.board_view import BoardView
from textmines.ui.board.tiles import FIT
from textmines.ui.game.assist import Assistant, AssistController
from textmines.ui.game.clock_holds import Hold
from textmines.ui.game.flow import GameFlow
from textmines.ui.game.options import GameOptions
from textmines.ui.game.replays import ReplayController
from textmines.ui.game.zoom import Zoom
from textmines.ui.keys.game_keys import SCREEN_KEYS
from textmines.ui.widgets.header import GameHeader
from textmines.value import Value

if TYPE_CHECKING:
    from textmines.engine.board_id import BoardId

#: The id of the container Textual shows the toasts in.
TOAST_RACK = "textual-toastrack"


class GameControls(Value):
    """What the game screen's actions ask to do the work."""

    flow: GameFlow
    zoom: Zoom
    options: GameOptions
    assist: AssistController
    replays: ReplayController


class GameScreen(Screen[None]):
    """The board's screen. When another screen (a dialog, a menu, the command palette) covers
    it, the clock stops until it is back on top, as the classic game's does under its dialogs.

    The bindings' ids begin with ``app.``: the names the player's ``[keys]`` entries use.
    """

    BINDINGS: ClassVar[list[BindingType]] = list(SCREEN_KEYS)

    # The board has the keys on this screen only: a dialog focuses its own first control.
    AUTO_FOCUS = "BoardView"

    def __init__(self, controls: GameControls) -> None:
        super().__init__(id="_default")
        self.controls = controls
        self.flow = controls.flow

    def on_resize(self, event: events.Resize) -> None:
        """Fit the board to the new size first: Textual dispatches a subclass's handler
        before ``Screen._on_resize`` lays the screen out, so the first frame at the new size
        already has the new tiles (one layout, not one at each size)."""
        self.controls.zoom.apply(event.size)

    def get_widget_at(self, x: int, y: int) -> tuple[Widget, Region]:
        """The widget under a screen point for the mouse, looking through the toasts: a
        message over the board never takes the click meant for the cell under it (it goes
        when its time is up)."""
        for widget, region in self.get_widgets_at(x, y):
            if not any(node.id == TOAST_RACK for node in widget.ancestors_with_self):
                return widget, region
        return super().get_widget_at(x, y)

    def on_screen_suspend(self) -> None:
        # Textual shows the messages again on the screen on top; left here too, each would
        # show twice, dimmed behind a dialog and over its buttons. They come back here when
        # this screen is on top again (Textual refreshes the toasts of the screen resumed).
        for rack in self.query(f"#{TOAST_RACK}"):
            rack.remove_children()
        self.flow.hold_clock(Hold.COVERED, True)

    def on_screen_resume(self) -> None:
        self.flow.hold_clock(Hold.COVERED, False)

    @on(BoardView.PressChanged)
    def _press_changed(self, event: BoardView.PressChanged) -> None:
        if not self.flow.game.status.is_over:
            self.flow.host.header.set_face("pressed" if event.pressed else "normal")

    @on(GameHeader.SmileyClicked)
    def _smiley_clicked(self) -> None:
        self.flow.new()

    @on(events.Click, "#paused")
    def _paused_box_clicked(self) -> None:
        """A click on the paused box (a tap, in a browser on a phone, which has no P key)
        resumes the game."""
        if self.flow.board_hidden:
            self.flow.pause()

    # ------------------------------------------------------------------ the solver's answers
    # The solver works in this screen's workers (Assistant) and answers here.
    @on(Assistant.Failed)
    def _solver_failed(self, event: Assistant.Failed) -> None:
        self.controls.assist.solver_failed(event)

    @on(Assistant.Hinted)
    def _hinted(self, event: Assistant.Hinted) -> None:
        self.controls.assist.hinted(event)

    @on(Assistant.OverlayReady)
    def _overlay_ready(self, event: Assistant.OverlayReady) -> None:
        self.controls.assist.overlay_ready(event)

    @on(Assistant.MoveFound)
    def _move_found(self, event: Assistant.MoveFound) -> None:
        self.controls.assist.move_found(event)

    # ------------------------------------------------------------------ new games
    def action_new_game(self) -> None:
        """A new board of the current size."""
        self.flow.new()

    def action_restart(self) -> None:
        """The same mines again, with the same first click made (see ``GameFlow.restart``)."""
        self.flow.restart()

    def action_daily(self) -> None:
        """Today's daily board (UTC): Expert, no guessing needed, the same for everyone."""
        self.flow.daily()

    def action_preset(self, key: str) -> None:
        """Start a Beginner, Intermediate or Expert game."""
        self._new_board(*PRESETS[key].size)

    def _new_board(self, width: int, height: int, mines: int) -> None:
        """Start a game on another board, kept as the board of the next games."""
        if self.controls.options.change(width=width, height=height, mines=mines):
            self.flow.new()

    # The screens below are imported when first opened: start-up does not pay for them.
    def action_custom(self) -> None:
        """Ask for a custom board, then start it."""
        from textmines.ui.screens.custom import CustomBoardScreen

        def chosen(result: tuple[int, int, int] | None) -> None:
            if result is not None:
                self._new_board(*result)

        c = self.controls.options.config
        self.app.push_screen(CustomBoardScreen(c.width, c.height, c.mines, c.first_click), chosen)

    def action_board_info(self) -> None:
        """What the board in play is, with its ID to share."""
        from textmines.engine.board_id import MAX_CELLS, board_id_of
        from textmines.ui.screens.board_id import BoardInfoScreen

        game = self.flow.game
        rule = "opening" if game.first_click == "opening" else "safe"
        kind = ", no-guess" if game.no_guess else ""
        label = board_label(game.width, game.height, game.mines)
        description = f"{label}, first click {rule}{kind}"
        first = game.first_reveal
        if game.board is None:
            why = "none yet: the mines are placed at the first reveal, so play one first"
        elif first is None:
            why = "none yet: an ID names the board's first click, so make one first"
        elif game.board.is_mine(*first):
            why = "none: the first click was on a mine, and no first-click rule deals that"
        else:
            why = f"none: boards over {MAX_CELLS:,} cells have no ID (it would be too long)"
        self.app.push_screen(BoardInfoScreen(description, board_id_of(game), why))

    def action_play_board_id(self) -> None:
        """Ask for a board ID and play it."""
        from textmines.ui.screens.board_id import PlayBoardIdScreen

        def chosen(shared: BoardId | None) -> None:
            if shared is not None:
                self.flow.start(self.flow.game_of(shared))

        self.app.push_screen(PlayBoardIdScreen(), chosen)

    # ------------------------------------------------------------------ play
    def action_pause(self) -> None:
        """Hide the board and stop the clock, or resume."""
        self.flow.pause()

    def action_watch_replay(self) -> None:
        """Watch the game just played (or the one in play, so far); before a first reveal,
        the last recorded game."""
        self.controls.replays.watch()

    # ------------------------------------------------------------------ the assistant
    def action_hint(self) -> None:
        """Show a safe cell, or the safest one with its odds (the game becomes assisted)."""
        self.controls.assist.hint()

    def action_toggle_overlay(self) -> None:
        """Show every covered cell's mine probability (the game becomes assisted)."""
        self.controls.assist.toggle_overlay()

    def action_autoplay(self) -> None:
        """Let the solver play on, move by move; again to stop (the game becomes assisted)."""
        self.controls.assist.toggle_autoplay()

    def action_autoplay_pace(self, steps: int) -> None:
        """Autoplay faster (-1) or slower (1)."""
        self.controls.assist.change_pace(steps)

    # ------------------------------------------------------------------ zoom
    def action_zoom(self, step: int) -> None:
        """One tile size larger (1) or smaller (-1), from the size on screen; kept."""
        self.controls.zoom.step(step)

    def action_zoom_fit(self) -> None:
        """Back to the largest size at which the whole board fits; kept."""
        self.controls.zoom.set(FIT)

    # ------------------------------------------------------------------ options
    def action_toggle_question_marks(self) -> None:
        """Switch question marks on or off (also in the running game)."""
        self.controls.options.toggle("question_marks", "Question marks")

    def action_toggle_left_click_chords(self) -> None:
        """Whether a left click on a revealed number chords."""
        self.controls.options.toggle("left_click_chords", "Left-click chording")

    def action_toggle_swap_mouse_buttons(self) -> None:
        """Left flags and right reveals, or back; kept in the settings. On a touch screen a
        tap is a left click and a long press a right one: said so, and in the hints."""
        if self.flow.host.keys.touch:
            said, on, off = (
                "Swap mouse buttons",
                "on: a tap flags, a long press opens",
                "off: a tap opens, a long press flags",
            )
        else:
            said, on, off = (
                "Mouse buttons:",
                "left flags, right reveals",
                "left reveals, right flags",
            )
        self.controls.options.toggle("swap_mouse_buttons", said, on=on, off=off)
        self.flow.show_state()

    def action_toggle_no_guess(self) -> None:
        """Boards that never need a guess, from the next game."""
        self.controls.options.toggle(
            "no_guess",
            "No-guess boards",
            on="on (from the next game)",
            off="off (from the next game)",
        )

    def action_first_click(self, rule: str) -> None:
        """Choose the first-click rule; it applies from the next game."""
        if self.controls.options.change(first_click=rule):
            self.app.notify(f"First click: {rule} (from the next game).", timeout=2)
