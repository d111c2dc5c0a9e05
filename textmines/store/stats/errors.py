"""What can go wrong with ``stats.db``: the failures the store raises. The short reasons the
player is shown for SQLite's own errors are ``reasons`` (it needs SQLite, which a game's start
does not load)."""

from __future__ import annotations


class StatsError(Exception):
    """A statistics query failed; the message is meant for the player."""


class UnusableDatabase(Exception):
    """The file is not a statistics database this version can use; the message says why.

    Raised while opening only: ``open_stats`` moves such a file aside and starts a new one.
    """
