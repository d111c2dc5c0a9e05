"""The yardstick of the UI benchmarks: a Textual app with one Static, updated on every key.

Imports nothing but Textual, so the start-up benchmark can launch it as a program of its own.
"""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import Static


class TrivialApp(App[None]):
    """One Static, updated on every key."""

    def compose(self) -> ComposeResult:
        yield Static("0", id="counter")

    def on_key(self) -> None:
        counter = self.query_one(Static)
        counter.update(str(int(str(counter.render())) + 1))


if __name__ == "__main__":
    TrivialApp().run()
