"""GameSession: one game's life outside the engine — its statistics record and its save.

The engine knows the rules; the store knows files. A session knows what lies between: when the
game started (for its statistics record), whether the player had help, that it is recorded
exactly once (won, lost or abandoned), and how it is saved on quit and resumed later. It never
imports Textual, so all of this is tested without a screen.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from datetime import UTC, date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textmines.engine import ActionKind, Change, Game, Status
from textmines.store.saves import (
    GAME_ID_KEY,
    LoadedGame,
    beside_notice,
    discard_own_save,
    new_game_id,
    release_save,
    save_game,
    save_own_game,
)
from textmines.store.stats import Group, Outcome, StatsError
from textmines.value import Value

# What only a game's end needs is imported there (``_finish``, ``_record``), not at start.
if TYPE_CHECKING:
    from textmines.engine.metrics import GameMetrics
    from textmines.store.stats import BestTime, StatsStore


def utc_now() -> datetime:
    return datetime.now(UTC)


class EndResult(Value):
    """What the end of a game meant for the statistics."""

    #: The fastest unassisted win of the group before this game ended, if any.
    previous_best: BestTime | None
    #: This win beat ``previous_best`` (or is the first win of its group).
    new_best: bool
    #: Why the game could not be recorded, for the player; None when it was.
    notice: str | None
    #: The game's figures (3BV, clicks, 3BV/s...), worked out once for its record, the
    #: status line and the game-over box.
    metrics: GameMetrics


class LeaveResult(Value):
    """What became of the game in play when the player left it for good
    (``GameSession.leave``)."""

    #: A game was in play (started, not over): there was something to keep.
    in_play: bool
    #: It was saved: it comes back next time.
    saved: bool
    #: For a game in play that was not saved: what became of it, for the player.
    said: str = ""


class MoveResult(Value):
    """What one move did."""

    #: The cells it changed (empty after the end, or for a move that changes nothing).
    change: Change
    #: This move started the game (its first reveal): the clock runs from here.
    started: bool
    #: When this move ended the game: what that meant for the statistics.
    finish: EndResult | None


class GameSession:
    """A game plus what the statistics and the save need to know about it.

    Every move goes through :meth:`play`, whoever makes it: the keyboard, the mouse, autoplay
    or a test.
    """

    def __init__(
        self,
        game: Game,
        *,
        stats: StatsStore | Callable[[], StatsStore | None] | None = None,
        save_path: Path | None = None,
        now: Callable[[], datetime] = utc_now,
        started_at: datetime | None = None,
        assisted: bool = False,
        restarted: bool = False,
        game_id: str | None = None,
    ) -> None:
        self.game = game
        self._stats = stats
        self.save_path = save_path
        self._now = now
        self.started_at = started_at
        self.assisted = assisted
        #: The player restarted a board whose mines they had seen: practice (``practice``).
        self.restarted = restarted
        self.recorded = False
        #: The statistics were busy when it was recorded: the store keeps its record and
        #: writes it later (as good as recorded).
        self.record_waiting = False
        #: The day whose daily board this game is (``textmines.engine.daily``), if it is one.
        self.daily: date | None = None
        self._practice = False
        #: Nobody chose its mines: a new game dealt at random, with no seed, board ID or
        #: replay (a browser tab ranks such a game on its host's leaderboard).
        self.dealt_at_random = False
        #: Actions made before the player took over: a practice game played on from a
        #: replay's moment begins with that game's clicks, which its review does not judge.
        self.played_on_from = 0
        #: The game's number in the statistics (``--review N``), once it is recorded.
        self.game_number: int | None = None
        #: Names this game in its save, so that another textmines never saves over it.
        self.game_id = game_id or new_game_id()
        #: True while a save file holds this game (a resumed game, or one saved on quit).
        self.saved = False
        #: The file that holds it: ``save_path``, or a file beside it when ``save_path``
        #: held another textmines's game (see ``saved_beside``).
        self.saved_to: Path | None = save_path

    @classmethod
    def resume(
        cls,
        loaded: LoadedGame,
        *,
        stats: StatsStore | Callable[[], StatsStore | None] | None = None,
        save_path: Path | None = None,
        now: Callable[[], datetime] = utc_now,
    ) -> GameSession:
        """The session of a saved game: it keeps its start time, so it is recorded once."""
        session = cls(
            loaded.game,
            stats=stats,
            save_path=save_path,
            now=now,
            started_at=loaded.started_at,
            assisted=loaded.assisted,
            restarted=loaded.restarted,
            game_id=loaded.game_id or None,
        )
        session.daily, session.practice = loaded.daily, loaded.practice
        session.dealt_at_random = loaded.dealt_at_random
        session.saved = True
        return session

    @property
    def stats(self) -> StatsStore | None:
        """The statistics this game is recorded in; None: it is not. Given as what opens
        them, they open when first asked for (the app opens them after its first frame)."""
        if callable(self._stats):
            self._stats = self._stats()
        return self._stats

    @property
    def saved_beside(self) -> str | None:
        """What to tell the player when this game was saved, but beside the save file
        (another textmines had saved its own game there first, or a folder is in the way:
        ``saves.beside_notice``); None otherwise."""
        if not self.saved or self.saved_to is None or self.save_path is None:
            return None
        return None if self.saved_to == self.save_path else beside_notice(self.save_path)

    @property
    def group(self) -> Group:
        return Group.for_game(self.game)

    def play(self, kind: ActionKind, x: int, y: int) -> MoveResult:
        """Make one move at ``(x, y)``: notes when the game started, and records it once it
        has ended."""
        was_ready = self.game.status == Status.READY
        change = self.game.act(kind, x, y)
        started = was_ready and self.game.status != Status.READY
        if self.started_at is None and self.game.status != Status.READY:
            # The player's first move: the first reveal, or the first move on a shared
            # board, whose first click was made for them.
            self.started_at = self._now()
        finish = None
        if self.game.status.is_over and not self.recorded:
            finish = self._finish()
        return MoveResult(change, started, finish)

    def note_cursor(self, x: int, y: int) -> None:
        """The player's cursor or mouse pointer went to ``(x, y)``: kept in the recording."""
        self.game.note_cursor(x, y)

    def note_press(self, x: int, y: int) -> None:
        """A mouse button went down on ``(x, y)``: kept in the recording."""
        self.game.note_press(x, y)

    def mark_assisted(self) -> None:
        """The player used a hint, the overlay or autoplay: no record for this game."""
        self.assisted = True

    @property
    def practice(self) -> bool:
        """A game on a board the player has seen: a later try of the day's daily board (said
        at its start, or found as it is recorded: another textmines recorded a try first), a
        restart of a board whose mines were seen, a game played on from a replay. It is
        recorded apart, in none of the figures of the player's own play."""
        return self._practice or self.restarted

    @practice.setter
    def practice(self, value: bool) -> None:
        self._practice = bool(value)

    @property
    def sets_records(self) -> bool:
        """Whether a win can set a record (a best time, the chart): not with help, nor in
        practice. An assisted game still counts as played, won or lost; practice does not."""
        return not (self.assisted or self.practice)

    @property
    def touched(self) -> bool:
        """Whether the player made a move (a shared board's first click is made for them):
        an untouched game is not recorded when left."""
        return self.started_at is not None

    def _finish(self) -> EndResult:
        from textmines.engine.metrics import game_metrics  # see the imports above

        won = self.game.status == Status.WON
        metrics = game_metrics(self.game)
        previous = None
        problem = None
        if self.stats is not None:
            try:
                previous = self.stats.best_time(self.group)
            except StatsError as error:  # reading must never end the game, nor its record
                problem = str(error)
        notice = self._record(Outcome.WON if won else Outcome.LOST, metrics) or problem
        new_best = (
            won
            and self.sets_records
            and notice is None
            and self.stats is not None
            and (previous is None or self.game.elapsed_ms < previous.time_ms)
        )
        return EndResult(previous, new_best, notice, metrics)

    def abandon(self) -> str | None:
        """The player leaves a game in play (new game, another board): record it as abandoned.

        Returns a notice if it could not be recorded. A game the player never touched (a
        shared board's first click, made for them) is not a game: it is not recorded, and
        its save, if it was saved, goes with it (it must not come back in place of the game
        the player goes on to).
        """
        if self.recorded or self.game.status != Status.PLAYING:
            return None
        if not self.touched:
            self._drop_save()
            return None
        return self._record(Outcome.ABANDONED)

    def _record(self, outcome: Outcome, metrics: GameMetrics | None = None) -> str | None:
        from textmines.records import record_for  # see the imports above

        self.recorded = True
        notice = None
        waiting = False
        if self.stats is not None:
            record = record_for(
                self.game,
                outcome=outcome,
                metrics=metrics,
                started_at=self.started_at or self._now(),
                ended_at=self._now(),
                assisted=self.assisted,
                daily=self.daily,
                practice=self.practice,
            )
            before = self.stats.pending
            written = self.stats.record_game(record)
            notice, self.game_number = written.notice, written.game_id
            # A daily try is practice when another textmines recorded the day's try first.
            self.practice = self.practice or written.practice
            # Kept by the store for later (the database was busy): as good as recorded.
            waiting = self.stats.pending > before
        self.record_waiting = waiting
        kept = notice is not None and not waiting and outcome == Outcome.ABANDONED
        if not kept:
            # Over or recorded: its save must not resume it again. A game left in play that
            # could not be recorded keeps its save, so it is not lost.
            self._drop_save()
        return notice

    def _drop_save(self) -> None:
        """Remove this game's save, if it has one."""
        if self.saved and self.saved_to is not None:
            discard_own_save(self.saved_to, self.game_id)
            self.saved = False

    @property
    def can_be_saved(self) -> bool:
        """Only a game in play is saved; one not started or over has nothing to resume."""
        return self.game.status == Status.PLAYING and not self.recorded

    def save(self, abandon_on_failure: bool = True) -> str | None:
        """Write the game to its save file (atomically); a notice if that failed.

        A game that cannot be resumed later is recorded as abandoned instead, so that
        quitting never loses it from the statistics; with ``abandon_on_failure`` False the
        caller decides (the player may keep playing), calling ``abandon`` if they leave.
        """
        if not self.can_be_saved:
            return None
        if self.save_path is None:
            return self.abandon()
        target, notice = save_own_game(self.save_path, self.game, self._extra(), self.game_id)
        if notice is not None:
            return (self.abandon() if abandon_on_failure else None) or notice
        self.saved, self.saved_to = True, target
        return None

    def _extra(self) -> dict[str, Any]:
        """What the save keeps beside the game itself."""
        return {
            "started_at": self.started_at,
            "assisted": self.assisted,
            "restarted": self.restarted,
            "daily": None if self.daily is None else self.daily.isoformat(),
            "practice": self.practice,
            "dealt_at_random": self.dealt_at_random,
            "preset": self.group.preset,
        }

    def leave(self) -> LeaveResult:
        """The player leaves the game in play for good (quits although it cannot be saved,
        closes the terminal, or textmines stops on an error): it is saved if it can be; else
        recorded as abandoned; else, with a save that failed, kept in a file in the system's
        temporary folder, which the player is told to move. What ``LeaveResult.said`` says is what
        happened, no more.
        """
        if not self.can_be_saved:
            return LeaveResult(in_play=False, saved=False)
        said: list[str] = []
        if self.save_path is not None:
            notice = self.save(abandon_on_failure=False)
            if notice is None:
                return LeaveResult(in_play=True, saved=True)
            said.append(_sentence(notice))
        if not self.touched:
            self.abandon()  # a shared board's first click, made for the player: not a game
            said.append("No move had been made in it: nothing was lost.")
            return LeaveResult(in_play=True, saved=False, said=" ".join(said))
        if self.stats is not None:
            problem = self.abandon()
            if problem is None:
                said.append("The game was recorded as abandoned.")
                return LeaveResult(in_play=True, saved=False, said=" ".join(said))
            said.append(_sentence(problem))  # the store says when it keeps the record for later
            if self.record_waiting:
                return LeaveResult(in_play=True, saved=False, said=" ".join(said))
        if self.save_path is None:
            said.append("This session does not save games: the game was not kept.")
        else:
            said.append(self._keep_elsewhere(self.save_path))
        return LeaveResult(in_play=True, saved=False, said=" ".join(said))

    def _keep_elsewhere(self, save_path: Path) -> str:
        """Save the game in the system's temporary folder, its save file's place being
        unwritable; says where it went (or that it could not), and what the old save is."""
        import hashlib  # here: only this rescue needs it, not the start

        digest = hashlib.sha256(self.game_id.encode("utf-8")).hexdigest()[:16]
        target = Path(tempfile.gettempdir()) / f"textmines-saved-game-{digest}.json"
        # Neither saved nor recorded: this copy is all there is of the game. Moved into
        # place, it is resumed, and recorded once, as any save is.
        notice = save_game(target, self.game, {**self._extra(), GAME_ID_KEY: self.game_id})
        earlier = (
            "its last save is kept: it comes back next time as it was then" if self.saved else None
        )
        if notice is None:
            until = f" (until then, {earlier})" if earlier else ""
            return f"The game was kept in {target}: move it to {save_path} to play it on{until}."
        kept = f"{earlier[0].upper()}{earlier[1:]}." if earlier else "The game was lost."
        return f"It could not be kept elsewhere either ({_sentence(notice)[:-1]}). {kept}"


class SavedGameChoice(Value):
    """What becomes of a saved game when the player starts textmines with a board option."""

    #: The saved game to play on, or None: a new game starts.
    resumed: LoadedGame | None
    #: Where this run saves its game on quit (None: it does not, to keep the old save).
    save_path: Path | None
    #: What the player is told about the saved game, if anything.
    notice: str | None


def settle_saved_game(
    loaded: LoadedGame,
    board: tuple[int, int, int] | None,
    *,
    stats: StatsStore | None,
    save_path: Path,
    now: Callable[[], datetime] = utc_now,
    asked: str = "another board",
    options: str = "a board option",
) -> SavedGameChoice:
    """The player asked for ``board`` (``(width, height, mines)``; None: a board dealt another
    way, by a seed, a board ID or the daily board) while a game is saved. A save is never
    dropped without trace:

    * the same board (and no seed): the saved game comes back;
    * another board: the saved game is recorded as abandoned (as a new game would record it),
      and the player is told;
    * another board while statistics cannot be written: the save is kept for next time and this
      run does not save over it.

    What the player is told names what they asked for (``asked``: "seed 5", "today's daily
    board"; "another board" for another size) and which options to leave out next time to
    play a saved game on (``options``).
    """
    game = loaded.game
    if board == (game.width, game.height, game.mines):
        return SavedGameChoice(loaded, save_path, None)
    session = GameSession.resume(loaded, stats=stats, save_path=save_path, now=now)
    label = session.group.label
    progress = f"{percent_cleared_text(game)} cleared"
    if stats is None:
        release_save(save_path)  # kept for a later run, not played in this one
        return SavedGameChoice(
            None,
            None,
            f"Your saved {label} game ({progress}) is kept: start textmines without {options} "
            "to play on. This game will not be saved when you quit.",
        )
    if not session.touched:  # a shared board's first click, made for the player: nothing lost
        discard_own_save(save_path, session.game_id)
        return SavedGameChoice(None, save_path, None)
    problem = session.abandon()
    if problem is not None and not session.record_waiting:
        release_save(save_path)
        return SavedGameChoice(
            None,
            None,
            f"Your saved {label} game ({progress}) is kept ({problem}): start textmines "
            f"without {options} to play on. This game will not be saved when you quit.",
        )
    # Recorded, or (the statistics busy) kept by the store to be recorded: its save is gone.
    recorded = "was recorded" if problem is None else "will be recorded"
    later = "" if problem is None else f" ({problem.rstrip('.')})"
    return SavedGameChoice(
        None,
        save_path,
        f"Your saved {label} game ({progress}) {recorded} as abandoned, as you asked for "
        f"{asked}{later}. (Next time, start textmines without {options} to play a saved game "
        "on.)",
    )


def _sentence(text: str) -> str:
    """``text`` ending with one full stop."""
    return text.rstrip().rstrip(".") + "."


def percent_cleared_text(game: Game) -> str:
    """``62%``: the share of safe cells revealed, rounded down, so 100% only when cleared."""
    safe = game.width * game.height - game.mines
    return f"{100 * (safe - game.safe_left) // safe}%"
