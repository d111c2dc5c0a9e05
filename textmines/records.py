"""The statistics record of a finished game: where the engine's game meets the store's row.

The store keeps rows and knows nothing of games; the engine knows games and nothing of rows.
The session calls ``record_for`` when a game ends and hands the record to ``StatsStore.record``.
A stored game comes back as an .evf file (``stored_evf``) and a replay's title
(``stored_title``: its number, and whether it was practice).
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Final

from textmines.engine.game import Game, Status
from textmines.engine.metrics import GameMetrics, game_metrics
from textmines.replays.evf import export_evf
from textmines.replays.recording import Recording
from textmines.store.stats import OUTCOMES, GameRecord, Group, Outcome, StoredReplay

_STATUS_FOR: Final = {
    Outcome.WON: Status.WON,
    Outcome.LOST: Status.LOST,
    Outcome.ABANDONED: Status.PLAYING,
}


def record_for(
    game: Game,
    *,
    outcome: Outcome,
    started_at: datetime,
    ended_at: datetime,
    assisted: bool,
    daily: date | None = None,
    practice: bool = False,
    metrics: GameMetrics | None = None,
) -> GameRecord:
    """The record of ``game`` as it ends now.

    ``outcome`` must match the game: ``won`` and ``lost`` for a game over, ``abandoned`` for a
    game still running; a game without a first reveal is never recorded. Anything else raises
    ``ValueError`` (a programming error, not a runtime condition). ``metrics`` are the
    game's, when the caller has them already. ``practice``: a game on a board the player had
    seen, daily or not (``GameSession.practice``).
    """
    expected = _STATUS_FOR.get(outcome)
    if expected is None:
        raise ValueError(f"outcome must be one of {', '.join(OUTCOMES)}, not {outcome!r}")
    if game.status != expected:
        raise ValueError(f"a game that is {game.status} cannot be recorded as {outcome}")
    if metrics is None:
        metrics = game_metrics(game)
    group = Group.for_game(game)
    return GameRecord(
        started_at=started_at,
        ended_at=ended_at,
        preset=group.preset,
        width=game.width,
        height=game.height,
        mines=game.mines,
        first_click=game.first_click,
        seed=game.seed,
        outcome=outcome,
        time_ms=metrics.elapsed_ms,
        bbbv=metrics.bbbv,
        solved_bbbv=metrics.solved_bbbv,
        left_clicks=metrics.left_clicks,
        right_clicks=metrics.right_clicks,
        chord_clicks=metrics.chord_clicks,
        efficiency=metrics.efficiency,
        bbbv_per_s=metrics.bbbv_per_second,
        assisted=bool(assisted),
        no_guess=group.no_guess,
        effective_clicks=metrics.effective_clicks,
        flags_placed=metrics.flags_placed,
        rqp=metrics.rqp,
        stnb=metrics.stnb,
        replay=Recording.of(game).encode(),
        daily=daily.isoformat() if daily is not None else None,
        practice=bool(practice),
    )


def stored_evf(stored: StoredReplay) -> bytes:
    """The Metasweeper .evf file of a game kept in the statistics, with its start and end
    times, whether it was played without help, and its number. Raises ``ValueError`` for a
    damaged recording (``RecordingError``) or a board too large for the format."""
    return export_evf(
        Recording.decode(stored.data),
        started_us=int(stored.started_at.timestamp() * 1_000_000),
        ended_us=int(stored.ended_at.timestamp() * 1_000_000),
        fair=not stored.assisted,
        unique_id=f"textmines-{stored.game_id}",
    )


def replay_title(
    label: str, outcome: str, *, number: int | None = None, practice: bool = False
) -> str:
    """The title of a textmines game's replay: ``Game #12: Expert, won`` when it is game 12
    of the statistics (the number ``--review`` and ``--export-replay`` ask for), ``Replay:
    Expert, playing`` when it is not recorded; `` (practice)`` after a practice game's."""
    head = "Replay" if number is None else f"Game #{number}"
    return f"{head}: {label}, {outcome}" + (" (practice)" if practice else "")


def stored_title(stored: StoredReplay, recording: Recording) -> str:
    """``replay_title`` of game ``stored`` of the statistics, whose recording is
    ``recording``."""
    board = recording.board
    group = Group.for_board(
        board.width, board.height, board.mine_count, no_guess=recording.no_guess
    )
    return replay_title(
        group.label, stored.outcome.value, number=stored.game_id, practice=stored.practice
    )
