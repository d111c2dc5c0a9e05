"""GameClock: a game's time, from its first reveal to its end, pauses left out.

Time comes from an injected ``Clock`` (a callable returning seconds, ``time.monotonic`` by
default), so tests and snapshots move it by hand. The game tells its clock when it starts
(the first reveal), when a move is made and when it ends; the player (through the UI) pauses
and resumes it.
"""

from __future__ import annotations

import time
from collections.abc import Callable

Clock = Callable[[], float]


class GameClock:
    """The time of one game in milliseconds.

    Before ``start`` and after ``stop`` it stands still, and ``pause`` does nothing. Held
    until a move (``hold_until_move``), it stays paused whoever asks it to ``resume``: only
    the next move (``at_move``) lets it run again.
    """

    def __init__(self, now: Clock = time.monotonic) -> None:
        self._now = now
        #: Time counted up to ``_running_since`` (or in all, when it is None).
        self._elapsed_ms = 0
        #: When the clock last began to run; None while it stands still.
        self._running_since: float | None = None
        self._started = False
        self._paused = False
        #: A shared board starts with its first click made: the player's time starts at
        #: their own first move, whatever resumes the clock before it.
        self._held_until_move = False
        #: The time is held and has not begun for the player (a shared board's).
        self._not_begun = False

    @property
    def elapsed_ms(self) -> int:
        """Game time in milliseconds: from the first reveal to the end, pauses excluded."""
        if self._running_since is None:
            return self._elapsed_ms
        return self._elapsed_ms + round((self._now() - self._running_since) * 1000)

    @property
    def running(self) -> bool:
        """Whether the time goes on: started, not paused and not stopped."""
        return self._running_since is not None

    @property
    def paused(self) -> bool:
        """Whether the clock is stopped by ``pause`` (or held until a move)."""
        return self._paused

    @property
    def started(self) -> bool:
        """Whether the player's time has begun: at the first reveal, or on a shared board
        (its first click made for the player) at their own first move."""
        return self._started and not self._not_begun

    def start(self) -> None:
        """The first reveal: the time runs from now."""
        self._started = True
        self._running_since = self._now()

    def stop(self, at_ms: int) -> None:
        """The game ended at ``at_ms``: the time stands there for good."""
        self._elapsed_ms = at_ms
        self._running_since = None
        self._paused = False

    def pause(self) -> bool:
        """Stop the time of a running game; returns whether it was running."""
        if not self.running:
            return False
        self._elapsed_ms = self.elapsed_ms
        self._running_since = None
        self._paused = True
        return True

    def resume(self) -> bool:
        """Run again after ``pause``, unless held until a move; returns whether it was
        paused (and now runs)."""
        if not self._paused or self._held_until_move:
            return False
        self._paused = False
        self._running_since = self._now()
        return True

    def hold_until_move(self, *, begun: bool = False) -> None:
        """Pause until the next move, whoever asks to ``resume`` meanwhile (a shared board
        starts with its first click made: the player's time starts at their own move).
        ``begun``: the player's time has begun already and shows meanwhile (a game played on
        from a replay's moment, whose time stands there)."""
        self.pause()
        self._held_until_move = self._paused
        self._not_begun = self._paused and not begun

    def at_move(self) -> int:
        """The time of a move made now: making one is playing, so a held or paused clock
        runs again from here."""
        self._held_until_move = self._not_begun = False
        self.resume()
        return self.elapsed_ms

    def pause_at(self, ms: int) -> None:
        """Stand at ``ms`` (a replayed game, at its last action): paused if the time was
        running, so that ``resume`` goes on from there."""
        self._paused = self.running
        self._elapsed_ms = ms
        self._running_since = None

    def set_elapsed(self, ms: int) -> None:
        """Stand at ``ms`` (a saved game's time) and, if the time was running, run on from
        there now."""
        self._elapsed_ms = ms
        if self._running_since is not None:
            self._running_since = self._now()


__all__ = ["Clock", "GameClock"]
