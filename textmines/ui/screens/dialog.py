"""What the dialogs share: ``Dialog``, a modal screen dismissed only while it is on top, and
the look of a small dialog (a framed box centred over the game, a message line, buttons at the
right) for those that ask for one thing."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, TypeVar

from textual.await_complete import AwaitComplete
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen

if TYPE_CHECKING:
    from textual.widgets import Button

ResultT = TypeVar("ResultT")


class Dialog(ModalScreen[ResultT]):
    """A modal screen that is dismissed once, and only while it is on top, and whose keys run
    in the order they were typed.

    Textual's ``dismiss`` pops whatever screen is on top. Two presses read together (keys typed
    fast) dismissed twice: the second closed the screen under the dialog (the game's own: a
    crash) or the dialog the first press had just opened over it.

    Enter on a button, Tab and Shift+Tab are priority bindings here, as the dialogs' other
    keys are: each runs as its key arrives, so a key typed after another cannot overtake it
    (Enter then Left pressed the button the arrow went to; Tab then Enter the button Tab left;
    text typed after Tab went into the field Tab left). On anything but a button (a text field,
    a list) Enter is that widget's own.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "press_focused", "Press", show=False, priority=True),
        Binding("tab", "app.focus_next", "Next", show=False, priority=True),
        Binding("shift+tab", "app.focus_previous", "Previous", show=False, priority=True),
    ]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "press_focused":
            return _button(self.focused) is not None
        return True

    def action_press_focused(self) -> None:
        button = _button(self.focused)
        if button is not None:
            button.press()

    def dismiss(self, result: ResultT | None = None) -> AwaitComplete:
        if not self.is_active:
            done: AwaitComplete = AwaitComplete.nothing()  # type: ignore[no-untyped-call]
            return done
        return super().dismiss(result)


def _button(widget: object) -> Button | None:
    """``widget`` if it is a button. Textual's buttons load with the first dialog that has
    some, not at start-up (the menu bar's drop-down is a Dialog)."""
    from textual.widgets import Button

    return widget if isinstance(widget, Button) else None


def dialog_css(name: str, width: int) -> str:
    """CSS for dialog screen class ``name``: its box ``width`` columns wide at most."""
    return f"""
    {name} {{ align: center middle; }}
    {name} > Vertical {{
        width: {width}; max-width: 100%; height: auto; max-height: 100%; padding: 0 1;
        border: round $primary; background: $surface;
    }}
    {name} #message {{ height: auto; min-height: 2; margin: 1 0 0 0; }}
    {name} #message.-error {{ color: $error; }}
    {name} Horizontal {{ height: auto; align-horizontal: right; margin-top: 1; }}
    {name} Button {{ margin-left: 1; }}
    """
