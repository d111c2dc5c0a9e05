"""Board IDs on screen: Game > Board info (the ID, C copies it) and Game > Play a board ID..."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Static

from textmines.engine.board_id import BoardId, BoardIdError, parse_board_id
from textmines.ui.screens.dialog import Dialog, dialog_css
from textmines.ui.screens.typed_input import TypedInput


class BoardInfoScreen(Dialog[None]):
    """What the board in play is, with its ID; C (or Copy) puts the ID on the clipboard."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "copy", "Copy the ID", priority=True),
        Binding("escape,q", "close", "Close", priority=True),
    ]
    DEFAULT_CSS = dialog_css("BoardInfoScreen", 96)

    def __init__(self, description: str, board_id: str | None, why_none: str = "") -> None:
        """``why_none`` says why there is no ``board_id`` (``none yet: ...``)."""
        super().__init__()
        self.description = description
        self.board_id = board_id
        self.why_none = why_none

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("[b]Board info[/b]")
            yield Static(self.description, id="description", markup=False)
            yield Static("Board ID:")
            yield Static(self.board_id or self.why_none, id="board-id", markup=False)
            shared = "Anyone who plays this ID gets these mines, the first click made."
            yield Static(shared if self.board_id else "", id="message", markup=False)
            with Horizontal():
                if self.board_id:  # nothing to copy: no button that does nothing
                    yield Button("Copy", variant="primary", id="copy", compact=True)
                yield Button("Close", variant="default", id="close", compact=True)

    def on_resize(self) -> None:
        if self.board_id:
            shown = self.query_one("#board-id", Static)
            shown.update(broken_at_dashes(self.board_id, shown.content_region.width or 1))

    @on(Button.Pressed, "#copy")
    def action_copy(self) -> None:
        if self.board_id:
            self.app.copy_to_clipboard(self.board_id)
            self.query_one("#message", Static).update(
                "Sent to the clipboard through the terminal (a terminal that does not allow "
                "that copies nothing: select the ID above instead)."
            )
        else:
            self.query_one("#message", Static).update("Nothing to copy: this board has no ID.")

    @on(Button.Pressed, "#close")
    def action_close(self) -> None:
        self.dismiss(None)


def broken_at_dashes(board_id: str, width: int) -> str:
    """``board_id`` on one line if it fits in ``width`` columns, else with a line break after
    its last dash (the board, then its mines): a copy of both lines still plays, since
    ``parse_board_id`` leaves out spaces and line breaks."""
    if len(board_id) <= width or "-" not in board_id:
        return board_id
    cut = board_id.rindex("-") + 1
    return f"{board_id[:cut]}\n{board_id[cut:]}"


class PlayBoardIdScreen(Dialog[BoardId | None]):
    """Ask for a board ID; dismisses with what it names, or None. A bad ID is said here."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel", priority=True)]
    DEFAULT_CSS = dialog_css("PlayBoardIdScreen", 96)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("[b]Play a board ID[/b]")
            yield TypedInput(placeholder="e.g. 9x9-10-o4.4-1ef8z1e8y1s", id="id")
            yield Static("Paste or type a board ID.", id="message", markup=False)
            with Horizontal():
                yield Button("Play", variant="primary", id="play", compact=True)
                yield Button("Cancel", id="cancel", compact=True)

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    @on(Button.Pressed, "#play")
    def _play(self) -> None:
        try:
            self.dismiss(parse_board_id(self.query_one(Input).value))
        except BoardIdError as error:
            message = self.query_one("#message", Static)
            message.update(str(error))
            message.add_class("-error")

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
