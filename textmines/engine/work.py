"""Budgets of work: what a seed, a board ID or a date promises must end the same way on every
machine, so a search that may run long stops after so much work, never after so much time.

A unit of work is whatever the counting code says it is (a cell looked at, a layout state
tried); what matters is that the same search spends the same units wherever it runs.
"""

from __future__ import annotations


class WorkBudget:
    """Units of work allowed, and those spent so far."""

    __slots__ = ("limit", "used")

    def __init__(self, limit: int) -> None:
        if limit < 0:
            raise ValueError(f"a work budget cannot be negative, not {limit}")
        self.limit = limit
        self.used = 0

    def spend(self, units: int) -> bool:
        """Count ``units`` more work; False once more than the limit has been spent."""
        self.used += units
        return self.used <= self.limit

    @property
    def exhausted(self) -> bool:
        """Whether more than the limit has been spent."""
        return self.used > self.limit

    @property
    def share(self) -> float:
        """The part of the budget spent, from 0 to 1."""
        return min(1.0, self.used / self.limit) if self.limit else 1.0
