"""The custom board dialog: width, height, mines with live validation."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, Static

from textmines.engine.presets import MAX_SIDE, MIN_SIDE, check_board, mine_limits
from textmines.ui.screens.dialog import Dialog
from textmines.ui.screens.typed_input import TypedInput

#: Below this many rows the dialog is drawn without borders round its fields and buttons.
COMPACT_BELOW = 20


class CustomBoardScreen(Dialog[tuple[int, int, int] | None]):
    """Ask for a custom board; dismisses with ``(width, height, mines)`` or ``None``."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", priority=True),
    ]

    DEFAULT_CSS = """
    CustomBoardScreen { align: center middle; }
    CustomBoardScreen > Vertical {
        width: 48; max-width: 100%; height: auto; max-height: 100%; padding: 0 1;
        border: round $primary; background: $surface;
    }
    CustomBoardScreen .field { height: auto; }
    CustomBoardScreen .field > Label { width: 8; height: 3; content-align: left middle; }
    CustomBoardScreen.-compact .field > Label { height: 1; }
    CustomBoardScreen.-compact #message { margin: 0; }
    CustomBoardScreen .field > Input { width: 1fr; }
    CustomBoardScreen #message { height: auto; min-height: 2; margin: 1 0 0 0; }
    CustomBoardScreen #message.-error { color: $error; }
    CustomBoardScreen Horizontal { height: auto; align-horizontal: right; }
    CustomBoardScreen Button { margin-left: 1; }
    """

    def __init__(self, width: int, height: int, mines: int, first_click: str) -> None:
        super().__init__()
        self._initial = (width, height, mines)
        self.first_click = first_click

    def compose(self) -> ComposeResult:
        width, height, mines = self._initial
        with Vertical():
            yield Static("[b]Custom board[/b]")
            for name, value, digits in (
                ("width", width, 4),
                ("height", height, 4),
                ("mines", mines, 7),
            ):
                with Horizontal(classes="field"):
                    yield Label(name.capitalize())
                    yield TypedInput(str(value), type="integer", id=name, max_length=digits)
            yield Static("", id="message")
            with Horizontal():
                yield Button("OK", variant="primary", id="ok")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        self.validate_board()

    def on_resize(self) -> None:
        # In a short terminal the fields and buttons lose their borders so that the whole
        # dialog, buttons included, still fits (a 40x12 terminal).
        small = self.size.height < COMPACT_BELOW
        self.set_class(small, "-compact")
        for widget in self.query("Input, Button"):
            widget.compact = small  # type: ignore[attr-defined]

    def values(self) -> tuple[int, int, int] | str:
        """The three numbers, or a message saying what is wrong."""
        numbers = []
        for name in ("width", "height", "mines"):
            text = self.query_one(f"#{name}", Input).value.strip()
            if not text.lstrip("-").isdigit():
                return f"{name.capitalize()} must be a whole number."
            numbers.append(int(text))
        width, height, mines = numbers
        try:
            check_board(width, height, mines, self.first_click)
        except ValueError as error:
            return str(error)[0].upper() + str(error)[1:] + "."
        return width, height, mines

    @on(Input.Changed)
    def validate_board(self) -> None:
        """Show the allowed ranges, or what is wrong, and enable OK only for a valid board."""
        result = self.values()
        message = self.query_one("#message", Static)
        ok = self.query_one("#ok", Button)
        if isinstance(result, str):
            message.update(result)
            message.add_class("-error")
            ok.disabled = True
            return
        width, height, _ = result
        low, high = mine_limits(width, height, self.first_click)
        message.update(f"Sides {MIN_SIDE}-{MAX_SIDE}; mines {low}-{high} on {width}x{height}.")
        message.remove_class("-error")
        ok.disabled = False

    @on(Input.Submitted)
    @on(Button.Pressed, "#ok")
    def accept(self) -> None:
        result = self.values()
        if not isinstance(result, str):
            self.dismiss(result)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
