"""The look of a small dialog (a framed box centred over the game, a message line, buttons at
the right), shared by the dialogs that ask for one thing."""

from __future__ import annotations


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
