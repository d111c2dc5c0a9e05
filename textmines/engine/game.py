"""The game state machine: reveal, mark, chord, win and loss.

Its time is a ``GameClock`` (``clock.py``); its saved form is in ``saved_game.py``; its
effective clicks are counted by a ``ClickTally`` (``clicks.py``).

The game keeps its own copy of the packed board bytes and stores the player's state for
each cell in bits 5-6 of the same byte (see ``board.py``). A covered zero cell is then the
byte 0x00 and a question-marked one 0x60, so the flood fill finds whole runs of cells to
open with a regular expression instead of visiting neighbours one by one.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable, Iterable, Iterator
from enum import StrEnum
from functools import cache
from typing import TYPE_CHECKING, Final

from textmines.engine.actions import MOVES, OFF_BOARD, ActionKind
from textmines.engine.board import COUNT_MASK, MINE, Board, cell_index, neighbour_indices
from textmines.engine.clicks import ClickTally, EffectiveClicks
from textmines.engine.clock import Clock, GameClock
from textmines.engine.generate import clear_first_click, deal_board
from textmines.engine.presets import FirstClick, check_board, check_first_click
from textmines.engine.view_alphabet import ViewChar
from textmines.value import Value

if TYPE_CHECKING:
    from textmines.engine.generate import DealProgress

COVERED: Final = 0x00
REVEALED: Final = 0x20
FLAG: Final = 0x40
QUESTION: Final = 0x60
STATE_MASK: Final = 0x60
LAYOUT_MASK: Final = 0x1F

# Covered or question-marked safe cells, whatever their number: what a flood may open.
_OPENABLE_RUN: Final = rb"[\x00-\x08\x60-\x68]+"
# Covered or question-marked zeros, the cells a flood keeps spreading through.
_FLOODABLE_ZEROS: Final = rb"[\x00\x60]*"
_REVEALED_ZEROS: Final = rb"\x20+"
# After a loss: the covered mines and the flags on safe cells (exploded mines are already
# in the change: they were just opened).
_SHOWN_AT_LOSS: Final = rb"[\x10-\x1f\x70-\x7f\x40-\x48]"
_UNFLAGGED_MINE: Final = rb"[\x10-\x1f\x70-\x7f]"


@cache
def _pattern(source: bytes) -> re.Pattern[bytes]:
    """One of the byte patterns above, compiled at the first move that needs it: a start
    shows its board before any (compiling the five costs 1.8M instructions)."""
    return re.compile(source)


def _table(pick: Callable[[int], str]) -> bytes:
    return bytes(ord(pick(b)) for b in range(256))


def _playing_char(b: int) -> str:
    state = b & STATE_MASK
    if state == REVEALED:
        # Counts above 8 never happen; the table covers every byte all the same.
        return ViewChar.EXPLODED if b & MINE else "0123456789abcdef"[b & COUNT_MASK]
    return {COVERED: ViewChar.COVERED, FLAG: ViewChar.FLAG, QUESTION: ViewChar.QUESTION}[state]


def _lost_char(b: int) -> str:
    state, mine = b & STATE_MASK, bool(b & MINE)
    if state == FLAG:
        return ViewChar.FLAG if mine else ViewChar.WRONG_FLAG
    if mine:
        return ViewChar.EXPLODED if state == REVEALED else ViewChar.MINE
    return _playing_char(b)


_PLAYING_VIEW: Final = _table(_playing_char)


@cache
def _lost_view() -> bytes:
    """The view after a loss (made at the first loss, not when the engine loads)."""
    return _table(_lost_char)


_REVEAL: Final = bytes((b & LAYOUT_MASK) | REVEALED for b in range(256))
_STATE_ONLY: Final = bytes(b & STATE_MASK for b in range(256))
_FLAG_MINES: Final = bytes((b & LAYOUT_MASK) | FLAG if b & MINE else b for b in range(256))


class Status(StrEnum):
    """Where a game is: before the first reveal, running, or over."""

    READY = "ready"
    PLAYING = "playing"
    WON = "won"
    LOST = "lost"

    @property
    def is_over(self) -> bool:
        """True once the game is won or lost; nothing changes the board after that."""
        return self in (Status.WON, Status.LOST)


class Action(Value):
    """One recorded player action.

    For ``ActionKind.QUESTION_MARKS`` (a change of that option, kept so a replay cycles marks
    exactly as the player did) ``x`` holds the new value. ``ActionKind.CURSOR`` is where the
    cursor or the mouse pointer went. ``t_ms`` is the game time of the action in milliseconds.
    """

    kind: ActionKind
    x: int
    y: int
    t_ms: int


class Change(Value):
    """What one action changed: cells to redraw (as index runs) and the status. False when
    nothing did."""

    width: int
    runs: tuple[tuple[int, int], ...]
    status: Status
    status_changed: bool = False

    @property
    def cell_count(self) -> int:
        """How many cells changed."""
        return sum(stop - start for start, stop in self.runs)

    def __bool__(self) -> bool:
        return bool(self.runs) or self.status_changed

    def cells(self) -> Iterator[tuple[int, int]]:
        """Every changed cell as ``(x, y)``."""
        w = self.width
        for start, stop in self.runs:
            for i in range(start, stop):
                yield i % w, i // w

    def bounds(self) -> tuple[int, int, int, int] | None:
        """The smallest rectangle holding every changed cell, as ``(left, top, right,
        bottom)`` (inclusive), or None when no cell changed; in time of the runs, not of the
        cells (a first click on a huge empty board opens a million)."""
        if not self.runs:
            return None
        w = self.width
        top = min(start for start, _ in self.runs) // w
        bottom = (max(stop for _, stop in self.runs) - 1) // w
        if any(start // w != (stop - 1) // w for start, stop in self.runs):
            return 0, top, w - 1, bottom  # a run crossing a row's end spans every column
        left = min(start % w for start, _ in self.runs)
        right = max((stop - 1) % w for _, stop in self.runs)
        return left, top, right, bottom

    def rows(self) -> list[int]:
        """The rows holding a changed cell, ascending."""
        w = self.width
        rows: set[int] = set()
        for start, stop in self.runs:
            rows.update(range(start // w, (stop - 1) // w + 1))
        return sorted(rows)


class Deal(Value):
    """The mines for a game's first reveal at ``cell`` (an index); ``solved`` is False when a
    no-guess deal ran out of time and fell back to an ordinary board."""

    cell: int
    board: Board
    solved: bool


class Game:
    """One game of Minesweeper.

    Mines are placed at the first reveal (``Game.from_board`` fixes them up front). Every
    action returns a ``Change``; once the game is won or lost, actions change nothing.
    """

    def __init__(
        self,
        width: int,
        height: int,
        mines: int,
        *,
        seed: int | None = None,
        first_click: str = "opening",
        question_marks: bool = True,
        clock: Clock = time.monotonic,
        no_guess: bool = False,
    ) -> None:
        check_board(width, height, mines, first_click)
        chosen = seed is not None
        if seed is None:
            seed = random.SystemRandom().getrandbits(63)
        elif isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ValueError(f"seed must be a whole number of 0 or more, not {seed!r}")
        self._setup(
            width,
            height,
            mines,
            seed,
            check_first_click(first_click),
            question_marks,
            clock,
            no_guess=no_guess,
        )
        #: The caller chose the seed (a date's, ``--seed``): its board must be the same on
        #: every machine, so its no-guess deal stops on its work budget alone. A drawn seed
        #: may also stop on the safety clock (its board ID, not its seed, shares it).
        self.seed_chosen = chosen

    @classmethod
    def from_board(
        cls, board: Board, *, question_marks: bool = True, clock: Clock = time.monotonic
    ) -> Game:
        """A game on a fixed layout; the first reveal may hit a mine."""
        if board.safe_count < 1:
            raise ValueError("a board needs at least one safe cell to be played")
        game = cls.__new__(cls)
        game._setup(
            board.width, board.height, board.mine_count, None, "safe", question_marks, clock
        )
        game._board = board
        game._cells = bytearray(board.cells)
        return game

    def _setup(
        self,
        width: int,
        height: int,
        mines: int,
        seed: int | None,
        first_click: FirstClick,
        question_marks: bool,
        clock: Clock,
        *,
        no_guess: bool = False,
    ) -> None:
        self.width = width
        self.height = height
        self.mines = mines
        self.seed = seed
        self.seed_chosen = True
        self.first_click = first_click
        self._question_marks = bool(question_marks)
        self._question_marks_at_start = self._question_marks
        #: The game's time: running from the first reveal, stopped at the end.
        self.clock = GameClock(clock)
        self._board: Board | None = None
        self._cells = bytearray(width * height)
        self._status = Status.READY
        self._flags = 0
        self._safe_left = width * height - mines
        self._actions: list[Action] = []
        #: The cell the player last acted on or pointed at (see ``note_cursor``).
        self._cursor: int | None = None
        #: The cell of the first reveal that opened one (see ``first_reveal``).
        self._first_reveal: int | None = None
        #: The effective clicks and the flags placed, by Metasweeper's rules (``clicks.py``).
        self._clicks = ClickTally()
        #: Mines are placed so that the solver clears the board from the first click
        #: without guessing (``noguess.py``).
        self.no_guess = bool(no_guess)
        #: True when no-guess generation ran out of time and an ordinary board was used.
        self.no_guess_failed = False
        #: A laid board whose first reveal obeys ``first_click`` all the same (see
        #: ``keep_first_click_rule``); a laid board's first reveal may otherwise hit a mine.
        self._clears_first_click = False

    # ------------------------------------------------------------------ state
    @property
    def status(self) -> Status:
        """``ready``, ``playing``, ``won`` or ``lost``."""
        return self._status

    @property
    def first_reveal(self) -> tuple[int, int] | None:
        """``(x, y)`` of the game's first click: the first reveal that opened a cell (one on a
        flag or a revealed cell does nothing and is not it); None before it."""
        index = self._first_reveal
        return None if index is None else (index % self.width, index // self.width)

    @property
    def board(self) -> Board | None:
        """The mine layout, or ``None`` before the first reveal of a generated game."""
        return self._board

    @property
    def question_marks(self) -> bool:
        """Whether ``toggle_mark`` cycles through a question mark."""
        return self._question_marks

    @question_marks.setter
    def question_marks(self, value: bool) -> None:
        value = bool(value)
        if value != self._question_marks and not self._status.is_over:
            self._actions.append(Action(ActionKind.QUESTION_MARKS, int(value), 0, self.elapsed_ms))
        self._question_marks = value

    @property
    def question_marks_at_start(self) -> bool:
        """The question-mark option when the game began (a replay starts from it)."""
        return self._question_marks_at_start

    @property
    def mines_left(self) -> int:
        """Mines minus flags; negative when the player placed too many flags."""
        return self.mines - self._flags

    @property
    def flags(self) -> int:
        """Number of flags on the board."""
        return self._flags

    @property
    def safe_left(self) -> int:
        """Safe cells still covered."""
        return self._safe_left

    @property
    def percent_cleared(self) -> float:
        """Share of the safe cells revealed, 0-100."""
        safe = self.width * self.height - self.mines
        return 100.0 * (safe - self._safe_left) / safe

    @property
    def cells(self) -> bytes:
        """A snapshot of the packed cells: layout bits (see ``board.py``) and state bits."""
        return bytes(self._cells)

    @property
    def actions(self) -> tuple[Action, ...]:
        """Every action taken, in order."""
        return tuple(self._actions)

    @property
    def effective_clicks(self) -> int:
        """Clicks that did something (Metasweeper's Ce): see ``EffectiveClicks``."""
        return sum(self._clicks.effective)

    @property
    def effective(self) -> EffectiveClicks:
        """The effective clicks by button."""
        return self._clicks.effective

    @property
    def flags_placed(self) -> int:
        """How many times a flag was put on the board in this game."""
        return self._clicks.flags_placed

    @property
    def elapsed_ms(self) -> int:
        """Game time in milliseconds (see ``clock``)."""
        return self.clock.elapsed_ms

    # ------------------------------------------------------------------ view
    def view_row(self, y: int) -> str:
        """One row of the player's view (see ``view_text``)."""
        if not 0 <= y < self.height:
            raise ValueError(f"row {y} is outside the {self.width}x{self.height} board")
        table = _lost_view() if self._status == Status.LOST else _PLAYING_VIEW
        start = y * self.width
        return self._cells[start : start + self.width].translate(table).decode("ascii")

    def view_text(self) -> str:
        """What the player sees, one line per row (the alphabet is ``ViewChar``).

        ``#`` covered, ``F`` flag, ``?`` question mark, ``0``-``8`` revealed; after a loss
        ``*`` a mine, ``X`` the mine that exploded and ``W`` a wrong flag.
        """
        table = _lost_view() if self._status == Status.LOST else _PLAYING_VIEW
        text = self._cells.translate(table).decode("ascii")
        w = self.width
        return "\n".join(text[i : i + w] for i in range(0, len(text), w))

    def cell(self, x: int, y: int) -> str:
        """The view character of one cell (see ``ViewChar``)."""
        self._index(x, y)
        return self.view_row(y)[x]

    def is_revealed(self, x: int, y: int) -> bool:
        """Whether the cell is open."""
        return self._cells[self._index(x, y)] & STATE_MASK == REVEALED

    def _index(self, x: int, y: int) -> int:
        return cell_index(x, y, self.width, self.height)

    # ------------------------------------------------------------------ dealing
    def needs_deal(self, x: int, y: int) -> bool:
        """Whether revealing ``(x, y)`` now would first deal a no-guess board, which can take
        seconds on a big board: callers may then ``deal`` off their UI thread first."""
        index = self._index(x, y)
        return (
            self._board is None
            and self.no_guess
            and self._cells[index] & STATE_MASK in (COVERED, QUESTION)
        )

    def deal(
        self,
        x: int,
        y: int,
        *,
        should_stop: Callable[[], bool] | None = None,
        on_progress: Callable[[DealProgress], None] | None = None,
    ) -> Deal:
        """The mines a first reveal at ``(x, y)`` gets; the game itself does not change, so
        this may run on another thread. A no-guess deal raises ``DealCancelled`` when
        ``should_stop`` returns True and reports to ``on_progress`` (see ``noguess.py``)."""
        return self._deal(self._index(x, y), should_stop, on_progress)

    def _deal(
        self,
        index: int,
        should_stop: Callable[[], bool] | None = None,
        on_progress: Callable[[DealProgress], None] | None = None,
    ) -> Deal:
        board, solved = deal_board(
            self.width,
            self.height,
            self.mines,
            index,
            random.Random(self.seed),
            self.first_click,
            self.no_guess,
            safety_clock=not self.seed_chosen,
            should_stop=should_stop,
            on_progress=on_progress,
        )
        return Deal(index, board, solved)

    def keep_first_click_rule(self) -> None:
        """Make the first reveal of this laid board (``from_board``) obey ``first_click`` as
        a dealt board's does: the mines in its way move (``generate.clear_first_click``), the
        others stay. For a practice game from a replay's start, whose player saw the mines
        but made no click: a first click must never lose."""
        self._clears_first_click = True

    def accept_deal(self, deal: Deal) -> None:
        """Lay the mines of ``deal`` (made by ``deal`` for this game's first reveal)."""
        if self._board is not None:
            raise ValueError("this game already has its mines")
        self.no_guess_failed = self.no_guess and not deal.solved
        self._set_board(deal.board)

    # ------------------------------------------------------------------ actions
    def act(self, kind: ActionKind, x: int, y: int) -> Change:
        """Make one move (any kind in ``MOVES``) at ``(x, y)``; after the end nothing changes."""
        if kind not in MOVES:
            raise ValueError(f"{kind!r} is not a move")
        index = self._index(x, y)
        if self._status.is_over:
            return Change(self.width, (), self._status)
        return self._apply(kind, index, self.clock.at_move())

    def reveal(self, x: int, y: int) -> Change:
        """Open a covered or question-marked cell; a 0 floods its region."""
        return self.act(ActionKind.REVEAL, x, y)

    def toggle_mark(self, x: int, y: int) -> Change:
        """Cycle covered -> flag -> question mark (if enabled) -> covered."""
        return self.act(ActionKind.MARK, x, y)

    def flag(self, x: int, y: int) -> Change:
        """Put a flag on a covered or question-marked cell (a flag stays as it is)."""
        return self.act(ActionKind.FLAG, x, y)

    def chord(self, x: int, y: int) -> Change:
        """On a revealed cell with as many adjacent flags as its number, 0 included, open
        every other covered neighbour (as Arbiter and Viennasweeper do)."""
        return self.act(ActionKind.CHORD, x, y)

    def note_cursor(self, x: int, y: int) -> None:
        """Note in the recording that the cursor or mouse pointer went to ``(x, y)``.

        Only while the clock runs (a replay's time starts at the first reveal), and only when
        the cell differs from the last one pointed at or acted on. Never changes the board.
        """
        self._note(ActionKind.CURSOR, x, y)

    def note_press(self, x: int, y: int) -> None:
        """Note in the recording that a mouse button went down on ``(x, y)`` (its release
        makes the move); only while the clock runs."""
        self._note(ActionKind.PRESS, x, y)

    def _note(self, kind: ActionKind, x: int, y: int) -> None:
        index = self._index(x, y)
        if not self.clock.running:
            return
        if kind == ActionKind.CURSOR and index == self._cursor:
            return  # the cursor did not move
        self._cursor = index
        self._actions.append(Action(kind, x, y, self.elapsed_ms))

    def _apply(self, kind: ActionKind, index: int, t_ms: int) -> Change:
        before = self._status
        self._cursor = index
        self._actions.append(Action(kind, index % self.width, index // self.width, t_ms))
        runs: list[tuple[int, int]] = []
        if kind == ActionKind.REVEAL:
            self._do_reveal(index, runs)
        elif kind == ActionKind.CHORD:
            self._do_chord(index, runs)
        else:
            self._do_mark(index, runs, cycle=kind == ActionKind.MARK)
        if runs:
            b = self._cells[index]
            self._clicks.count(kind, index, mine=bool(b & MINE), flagged=b & STATE_MASK == FLAG)
        if self._status.is_over and not before.is_over:
            self.clock.stop(t_ms)
        return Change(self.width, tuple(runs), self._status, self._status != before)

    def _do_reveal(self, index: int, runs: list[tuple[int, int]]) -> None:
        if self._cells[index] & STATE_MASK in (REVEALED, FLAG):
            return
        if self._board is None:
            self.accept_deal(self._deal(index))
        elif self._clears_first_click and self._status == Status.READY:
            board = clear_first_click(self._board, index, self.first_click)
            # Marks made before the first reveal stay; the layout is the new board's.
            self._cells = bytearray(self._cells.translate(_STATE_ONLY))
            self._set_board(board)
        if self._status == Status.READY:
            self._status = Status.PLAYING
            self._first_reveal = index
            self.clock.start()
        self._open([index], runs)

    def _do_mark(self, index: int, runs: list[tuple[int, int]], *, cycle: bool) -> None:
        b = self._cells[index]
        state = b & STATE_MASK
        if state == REVEALED or (state == FLAG and not cycle):
            return
        if state == COVERED or not cycle:  # a flag (not cycling) never gets here
            new = FLAG
        elif state == FLAG:
            new = QUESTION if self._question_marks else COVERED
        else:
            new = COVERED
        self._flags += (new == FLAG) - (state == FLAG)
        self._cells[index] = (b & LAYOUT_MASK) | new
        runs.append((index, index + 1))

    def _do_chord(self, index: int, runs: list[tuple[int, int]]) -> None:
        b = self._cells[index]
        number = b & COUNT_MASK
        # A 0 chords too: flags can stop a flood (set before the first click, say) and be
        # taken off later, leaving covered cells beside an open 0, which Arbiter's and
        # Viennasweeper's chord opens.
        if b & STATE_MASK != REVEALED:
            return
        around = neighbour_indices(index, self.width, self.height)
        if sum(1 for n in around if self._cells[n] & STATE_MASK == FLAG) != number:
            return
        self._open(around, runs)

    def _set_board(self, board: Board) -> None:
        self._board = board
        # Keep marks placed before the first reveal; take counts and mines from the layout.
        merged = int.from_bytes(self._cells, "little") | int.from_bytes(board.cells, "little")
        self._cells = bytearray(merged.to_bytes(len(self._cells), "little"))

    # ------------------------------------------------------------------ opening cells
    def _open(self, indices: list[int], runs: list[tuple[int, int]]) -> None:
        """Open each covered/question cell of ``indices``; end the game if that decides it."""
        cells = self._cells
        exploded = False
        for i in indices:
            b = cells[i]
            if b & STATE_MASK in (REVEALED, FLAG):
                continue
            cells[i] = (b & LAYOUT_MASK) | REVEALED
            runs.append((i, i + 1))
            if b & MINE:
                exploded = True
                continue
            self._safe_left -= 1
            if b & COUNT_MASK == 0:
                self._flood(i, runs)
        if exploded:
            self._lose(runs)
        elif self._safe_left == 0:
            self._win(runs)

    def _flood(self, start: int, runs: list[tuple[int, int]]) -> None:
        """Open the region of zeros around the revealed zero at ``start`` and its border.

        Works on horizontal runs (scanline fill with an explicit stack): each run of zeros
        opens the cells of the rows above, beside and below it, and every run of zeros
        among those becomes a new stack entry. Every cell is opened once.
        """
        cells, w, h = self._cells, self.width, self.height
        openable, revealed_zeros = _pattern(_OPENABLE_RUN), _pattern(_REVEALED_ZEROS)
        stack: list[tuple[int, int, int]] = []
        y = start // w
        self._spread_zeros(y, start, start + 1, stack, runs)
        while stack:
            y, x0, x1 = stack.pop()
            lo, hi = max(x0 - 1, 0), min(x1 + 1, w)
            for row in (y - 1, y, y + 1):
                if not 0 <= row < h:
                    continue
                base = row * w
                pos, end = base + lo, base + hi
                while (match := openable.search(cells, pos, end)) is not None:
                    s, e = match.span()
                    cells[s:e] = cells[s:e].translate(_REVEAL)
                    runs.append((s, e))
                    self._safe_left -= e - s
                    for zeros in list(revealed_zeros.finditer(cells, s, e)):
                        self._spread_zeros(row, zeros.start(), zeros.end(), stack, runs)
                    pos = e

    def _spread_zeros(
        self,
        row: int,
        start: int,
        stop: int,
        stack: list[tuple[int, int, int]],
        runs: list[tuple[int, int]],
    ) -> None:
        """Grow the newly opened zeros ``[start, stop)`` along their row and stack them."""
        cells, w = self._cells, self.width
        base = row * w
        right = _pattern(_FLOODABLE_ZEROS).match(cells, stop, base + w)
        new_stop = right.end() if right else stop
        new_start = start
        while new_start > base and cells[new_start - 1] in (COVERED, QUESTION):
            new_start -= 1
        for s, e in ((new_start, start), (stop, new_stop)):
            if e > s:
                cells[s:e] = bytes([REVEALED]) * (e - s)
                runs.append((s, e))
                self._safe_left -= e - s
        stack.append((row, new_start - base, new_stop - base))

    def _lose(self, runs: list[tuple[int, int]]) -> None:
        self._status = Status.LOST
        runs.extend((m.start(), m.end()) for m in _pattern(_SHOWN_AT_LOSS).finditer(self._cells))

    def _win(self, runs: list[tuple[int, int]]) -> None:
        self._status = Status.WON
        runs.extend((m.start(), m.end()) for m in _pattern(_UNFLAGGED_MINE).finditer(self._cells))
        self._cells[:] = self._cells.translate(_FLAG_MINES)
        self._flags = self.mines

    # ------------------------------------------------------------------ replaying
    def replay_action(self, action: Action) -> None:
        """Take one recorded action again, at its recorded time (a replay going forward).
        Raises ``ValueError`` if it cannot be taken (see ``replayed``)."""
        self._replay_one(len(self._actions) + 1, action)

    def _replay_one(self, number: int, action: Action) -> None:
        """Take recorded action ``number`` again (raises ``ValueError`` if it cannot be)."""
        kind, x, y, t_ms = action
        if self._actions and t_ms < self._actions[-1].t_ms:
            raise ValueError(f"action {number} is earlier than the one before it")
        if self._status.is_over:
            raise ValueError(f"action {number} comes after the end of the game")
        if kind == ActionKind.QUESTION_MARKS:
            self._question_marks = bool(x)
            self._actions.append(Action(kind, int(bool(x)), 0, t_ms))
        elif kind in (ActionKind.CURSOR, ActionKind.PRESS, *OFF_BOARD):
            self._cursor = self._index(x, y)
            self._actions.append(Action(kind, x, y, t_ms))
        else:
            self._apply(kind, self._index(x, y), t_ms)

    @classmethod
    def replayed(
        cls,
        board: Board,
        actions: Iterable[Action],
        *,
        question_marks: bool,
        clock: Clock = time.monotonic,
    ) -> Game:
        """The game on ``board`` after ``actions`` (a recording), from ``question_marks`` at
        the start. Its clock stands at the last action until it is resumed. Raises
        ``ValueError`` naming the first action that cannot be taken."""
        game = cls.from_board(board, question_marks=question_marks, clock=clock)
        for number, action in enumerate(actions, 1):
            game._replay_one(number, action)
        game.clock.pause_at(game._actions[-1].t_ms if game._actions else 0)
        return game


__all__ = [
    "Action",
    "Change",
    "EffectiveClicks",
    "Game",
    "Status",
]
