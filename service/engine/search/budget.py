"""What an analysis may spend (time, nodes, a cancel flag another thread sets) and how it is shared
out between its steps and the core's calls."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from .native import NO_CANCEL, Limits, cancel_cell, monotonic


class Spent(Protocol):
    """What one call to the core spent (an alpha-beta outcome, a proof-number question)."""

    @property
    def nodes(self) -> int: ...
    @property
    def depth(self) -> int: ...
    @property
    def cutoffs(self) -> int: ...
    @property
    def tt_hits(self) -> int: ...


class Cancel:
    """A flag that stops a search from another thread; the core reads it every few thousand nodes."""

    def __init__(self) -> None:
        self.cell: Any = cancel_cell()

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

    @property
    def unlimited(self) -> bool:
        return self.seconds is None and self.nodes is None and self.cancel is None


class Deadline:
    """A moment on the core's clock that several answers share (the items of a batch, the plies of a
    review): each gets what is left of it when it starts, and the cancel flag that stops them all (set
    when the answer is no longer wanted: its client went away)."""

    def __init__(self, at: float) -> None:
        self.at = at
        self.cancel = Cancel()

    @classmethod
    def after(cls, seconds: float) -> Deadline:
        return cls(monotonic() + max(seconds, 0.0))

    def left(self) -> float:
        return max(0.0, self.at - monotonic())

    def budget(self) -> Budget:
        return Budget(self.left(), cancel=self.cancel)


class Spending:
    """A budget being spent: an absolute deadline (0: none) and node cap (None: none); a part of it
    (one step of an analysis) charges its own counts and its parent's."""

    def __init__(
        self, deadline: float, node_cap: int | None, cancel: Cancel | None, parent: Spending | None = None
    ) -> None:
        self.deadline, self.node_cap, self.cancel, self.parent = deadline, node_cap, cancel, parent
        self.started = monotonic()
        self.given = max(deadline - self.started, 0.0) if deadline > 0 else 0.0  # seconds, at the start
        self.nodes = 0
        self.depth = 0  # the most plies below a searched position any call reached
        self.cutoffs = self.tt_hits = 0

    @classmethod
    def of(cls, budget: Budget) -> Spending:
        deadline = 0.0 if budget.seconds is None else monotonic() + max(budget.seconds, 0.0)
        return cls(deadline, budget.nodes, budget.cancel)

    @property
    def unlimited(self) -> bool:
        """No deadline, no node cap, no cancel flag: a search may run until it has proven everything."""
        return self.deadline == 0 and self.node_cap is None and self.cancel is None

    @property
    def elapsed(self) -> float:
        return monotonic() - self.started

    @property
    def nodes_left(self) -> int | None:
        return None if self.node_cap is None else self.node_cap - self.nodes

    @property
    def spent(self) -> bool:
        left = self.nodes_left
        deadline = self.earliest_deadline()
        return (
            (deadline > 0 and monotonic() >= deadline)
            or (left is not None and left <= 0)
            or (self.cancel is not None and self.cancel.is_set)
        )

    def earliest_deadline(self) -> float:
        """This spending's deadline, or an earlier one of the spending it is a part of (0: none): a
        whole that ends early (`end_early`) ends its parts with it."""
        earliest = 0.0
        spending: Spending | None = self
        while spending is not None:
            if spending.deadline > 0 and (earliest == 0 or spending.deadline < earliest):
                earliest = spending.deadline
            spending = spending.parent
        return earliest

    def end_early(self, fraction: float) -> None:
        """End by `fraction` of the time this spending was given, from now, at the latest (asked again
        later, it ends no sooner), and every part of it with it; one with no deadline (a node cap alone)
        runs on."""
        if self.deadline > 0:
            self.deadline = min(self.deadline, monotonic() + self.given * fraction)

    def part(self, fraction: float) -> Spending:
        """`fraction` of what is left, to spend on one step."""
        limits = self.share(fraction)
        return Spending(
            limits.deadline, limits.nodes if self.node_cap is not None else None, self.cancel, self
        )

    def share(self, fraction: float = 1.0) -> Limits:
        """Limits for the next call: `fraction` of the time and nodes left."""
        deadline = self.earliest_deadline()
        if deadline > 0:
            now = monotonic()
            deadline = now + max(deadline - now, 0.0) * fraction
        left = self.nodes_left
        nodes = 0 if left is None else max(1, int(left * fraction))
        return Limits(deadline, nodes, NO_CANCEL if self.cancel is None else self.cancel.cell)

    def charge(self, outcome: Spent) -> None:
        self.nodes += outcome.nodes
        self.depth = max(self.depth, outcome.depth)
        self.cutoffs += outcome.cutoffs
        self.tt_hits += outcome.tt_hits
        if self.parent is not None:
            self.parent.charge(outcome)
