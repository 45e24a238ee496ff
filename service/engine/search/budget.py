"""What an analysis may spend (time, nodes, a cancel flag another thread sets) and how it is shared
out between the core's calls."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ._core import ffi
from .native import Limits, Outcome, monotonic


class Cancel:
    """A flag that stops a search from another thread; the core reads it every few thousand nodes."""

    def __init__(self) -> None:
        self.cell: Any = ffi.new("int32_t *")

    def set(self) -> None:
        self.cell[0] = 1

    def clear(self) -> None:
        self.cell[0] = 0

    @property
    def is_set(self) -> bool:
        return bool(self.cell[0])


@dataclass(frozen=True)
class Budget:
    """None: no limit of that kind. With neither limit a search runs until it has proven everything."""

    seconds: float | None = None
    nodes: int | None = None
    cancel: Cancel | None = None


class Spending:
    """One analysis spending its budget: each call gets a share of what is left."""

    def __init__(self, budget: Budget) -> None:
        self.deadline = 0.0 if budget.seconds is None else monotonic() + max(budget.seconds, 0.0)
        self.nodes_left = budget.nodes
        self.cancel = budget.cancel
        self.nodes = 0
        self.seconds = 0.0
        self.depth = 0

    @property
    def spent(self) -> bool:
        return (
            (self.deadline > 0 and monotonic() >= self.deadline)
            or (self.nodes_left is not None and self.nodes_left <= 0)
            or (self.cancel is not None and self.cancel.is_set)
        )

    def share(self, fraction: float = 1.0) -> Limits:
        """Limits for the next call: `fraction` of the time and nodes left."""
        deadline = 0.0
        if self.deadline > 0:
            now = monotonic()
            deadline = now + max(self.deadline - now, 0.0) * fraction
        nodes = 0 if self.nodes_left is None else max(1, int(self.nodes_left * fraction))
        return Limits(deadline, nodes, ffi.NULL if self.cancel is None else self.cancel.cell)

    def charge(self, outcome: Outcome) -> None:
        self.nodes += outcome.nodes
        self.seconds += outcome.seconds
        self.depth = max(self.depth, outcome.depth)
        if self.nodes_left is not None:
            self.nodes_left -= outcome.nodes
