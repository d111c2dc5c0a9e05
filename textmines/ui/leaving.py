"""Leaving textmines, however it happens: Q, a signal (the terminal closed, kill), a browser's
tab closed, an unexpected error. The game in play is saved first (it comes back next time);
one that cannot be is recorded as abandoned, or kept where it can be, and the player is told
which, always truthfully (``GameSession.leave``)."""

from __future__ import annotations

import signal
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from textmines.crash import crash_message, write_crash_log, write_report
from textmines.session import GameSession
from textmines.ui.quit_signals import QuitSignals

if TYPE_CHECKING:
    from textmines.store.stats import StatsStore


class LeaveHost(Protocol):
    """What ``LeaveController`` needs of the app."""

    crash_log: Path | None
    #: What the player must still be told once the screen is gone (a save problem).
    exit_message: str | None

    @property
    def stats(self) -> StatsStore | None: ...

    @property
    def session(self) -> GameSession: ...
    @property
    def is_web(self) -> bool: ...
    def exit(self, result: Any = None, return_code: int = 0) -> None: ...
    def push_screen(self, screen: Any, callback: Any = None) -> object: ...


class LeaveController:
    """How ``host`` leaves, with ``new_game`` to start one when a browser's player asks."""

    def __init__(self, host: LeaveHost, new_game: Callable[[], None]) -> None:
        self.host = host
        self.new_game = new_game
        #: The quit signals' handlers, once the app runs (``catch_signals``).
        self._signals: QuitSignals | None = None

    def catch_signals(self, leave: Callable[[], None] | None, *, watch: bool) -> None:
        """Closing the terminal, kill, kill -INT: the game is saved (``on_signal``); ``leave``
        gives up on the terminal; ``watch`` False (a test's app) never ends the process."""
        self._signals = QuitSignals(
            self.on_signal, lambda: self.host.session.can_be_saved, self.host.crash_log, watch=watch
        )
        self._signals.install(leave)

    def release_signals(self) -> None:
        if self._signals is not None:
            self._signals.restore()

    def quit(self) -> None:
        """Save a game in play (it comes back next time), then leave. When it cannot be
        saved, or this run saves no game, the player is told and chooses: keep playing, or
        quit anyway (the game is recorded as abandoned, or kept where it can be, and the
        player is told which, ``GameSession.leave``; exit status 1 when the save failed)."""
        host = self.host
        session = host.session
        if session.can_be_saved and session.save_path is None and session.touched:
            # A run that keeps the game saved before it (--replay, or a board option with a
            # game saved): quitting would end this one without a word.
            recorded = " and is recorded as abandoned" if host.stats is not None else ""
            self._ask_to_quit(
                "This run keeps the game saved before it, so it saves none of its own: if you "
                f"quit now, this game cannot be played on{recorded}.",
                title="This game is not saved",
                failed=False,
            )
            return
        notice = session.save(abandon_on_failure=False)
        if notice is None and host.is_web:
            self.offer_play_on()
            return
        if notice is None:
            host.exit_message = session.saved_beside
            host.exit()
            return
        # Only what is sure now: whether the statistics can be written shows when they are.
        fate = (
            "textmines records it as abandoned or, if it cannot, keeps it where it can and "
            "says where"
            if host.stats is not None
            else "textmines keeps it where it can and says where, or says that it could not"
        )
        message = f"{notice}\n\nIf you quit now, this game cannot be played on from here: {fate}."
        self._ask_to_quit(message, title="Your game cannot be saved", failed=True)

    def _ask_to_quit(self, message: str, *, title: str, failed: bool) -> None:
        """Keep playing, or quit anyway and leave the game for good (``failed``: its save
        failed, which the exit status says)."""
        from textmines.ui.screens.confirm import ConfirmScreen

        host = self.host

        def chosen(quit_anyway: bool | None) -> None:
            if quit_anyway:
                left = host.session.leave()  # the save is tried once more
                host.exit_message = host.session.saved_beside if left.saved else left.said
                host.exit(return_code=1 if failed and not left.saved else 0)

        host.push_screen(
            ConfirmScreen(
                message, title=title, confirm_label="Quit anyway", cancel_label="Keep playing"
            ),
            chosen,
        )

    def offer_play_on(self) -> None:
        """Quit in a browser's tab: a page has no shell to go back to, and the page left
        dead would only offer to start again. Closing the tab is how a page is left, and it
        keeps the game; so the saved game stays on the page, and the player chooses."""
        from textmines.ui.screens.confirm import ConfirmScreen

        session = self.host.session
        if session.can_be_saved:  # in play, and saved by quit
            title, back = "Your game is saved", "Play on"
            text = (
                "Close this tab whenever you like: this browser gets the game back when it "
                "opens this page again."
            )
            if session.saved_beside:
                text += " (Another tab saved its game first: this one comes back after it.)"
        else:
            title, back = "No game in play", "Back"
            text = (
                "There is nothing to save. Close this tab whenever you like: your statistics "
                "and settings stay with this browser."
            )

        def chosen(new_game: bool | None) -> None:
            if new_game:
                self.new_game()

        self.host.push_screen(
            ConfirmScreen(text, title=title, confirm_label="New game", cancel_label=back),
            chosen,
        )

    def on_signal(self, signal_number: int = signal.SIGTERM) -> None:
        """A quit signal: no one to ask, so a game that cannot be saved is recorded as
        abandoned, or kept; then the signals' watch may let the process end."""
        host = self.host
        try:
            left = host.session.leave()
        finally:
            if self._signals is not None:
                self._signals.kept()
        if left.saved:
            host.exit_message = host.session.saved_beside or host.exit_message
        elif left.in_play:
            host.exit_message = left.said
            if host.crash_log is not None:
                # The terminal may be gone, and the message with it: the log keeps where the
                # game went.
                name = signal.Signals(signal_number).name
                write_report(host.crash_log, f"textmines ended on {name}: {left.said}")
        # A process stopped by a signal says so in its status, as shells expect (128 + n).
        host.exit(return_code=128 + signal_number)

    def page_closed(self) -> None:
        """A browser's tab closed, or the server stopped: no one to ask. The game in play is
        saved in the browser's profile (it comes back when that browser opens the page
        again); one that cannot be is recorded as abandoned, or kept."""
        host = self.host
        left = host.session.leave()
        if left.in_play and not left.saved:
            host.exit_message = left.said  # to the server's output: the page is gone
            if host.crash_log is not None:
                write_report(host.crash_log, f"textmines: a browser's page closed: {left.said}")
        host.exit()

    def after_crash(self, error: BaseException) -> str:
        """Save the game in play after an unexpected error, log the error; the one line to
        leave the player instead of a screenful of locals."""
        try:
            left = self.host.session.leave()
        except Exception as save_error:  # the save must not hide the first error
            saved = f"Your game could not be saved ({type(save_error).__name__}: {save_error})."
        else:
            if not left.in_play:
                saved = "No game was in play."
            elif left.saved:
                saved = "Your game was saved and comes back next time."
            else:
                saved = left.said
        log = self.host.crash_log
        problem = write_crash_log(log, error) if log is not None else None
        return crash_message(error, log, problem, saved, public=self.host.is_web)
