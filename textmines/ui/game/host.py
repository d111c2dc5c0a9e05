"""What the app's controllers (``assist.AssistController``, ``replays.ReplayController``) need
of the app in common: the game in play, its session, and toasts. Each controller's own
protocol adds the rest; the controllers never import the app (no import cycle)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from textual.notifications import SeverityLevel

from textmines.engine import Game

if TYPE_CHECKING:
    from textmines.session import GameSession


class GameHost(Protocol):
    """The app as its controllers see it."""

    @property
    def game(self) -> Game: ...
    @property
    def session(self) -> GameSession: ...
    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
        kind: str | None = None,
    ) -> None: ...
