"""The walks of minimax and alpha-beta over one game tree, recorded for a learner: the order of the
visits with the window (alpha, beta) each node was entered with and the value it returned, and each
cut-off: which node, which bound, alpha and beta at that moment, and the children left unvisited.

As in the textbooks (Russell and Norvig's MAX-VALUE and MIN-VALUE, Knuth and Moore's fail-soft
alpha-beta), values are for MAX, the side to move at the root: a MAX node stops when its value reaches
beta (the best MIN can already force elsewhere), a MIN node when its value falls to alpha. Alpha-beta
returns the root's minimax value and visits no more nodes than minimax; with ordering it tries first
the children the static evaluation likes best (for the side to move there).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .tree import GameTree, Node

UNBOUNDED = 10**9  # beyond every score: the window's open ends


class Algorithm(StrEnum):
    MINIMAX = "minimax"
    ALPHABETA = "alphabeta"
    ALPHABETA_ORDERED = "alphabeta-ordered"


@dataclass
class Visit:
    node: int
    alpha: int | None  # None: unbounded (minus infinity); minimax has no window
    beta: int | None  # None: unbounded (plus infinity)
    value: int = 0  # what the node returned: exact inside the window, else a bound


@dataclass(frozen=True)
class Cutoff:
    node: int
    after: int  # the child whose value made the rest needless
    bound: str  # "beta" (a MAX node reached beta) or "alpha" (a MIN node fell to alpha)
    value: int  # the node's value so far: at least it (MAX), at most it (MIN)
    alpha: int | None
    beta: int | None
    pruned: tuple[int, ...]  # the children left unvisited (with everything below them)


@dataclass(frozen=True)
class Trace:
    algorithm: Algorithm
    value: int  # the root's value
    visits: tuple[Visit, ...]
    cutoffs: tuple[Cutoff, ...]


def trace(tree: GameTree, algorithm: Algorithm) -> Trace:
    walker = _Walker(algorithm)
    if algorithm is Algorithm.MINIMAX:
        value = walker.minimax(tree.root)
    else:
        value = walker.alphabeta(tree.root, -UNBOUNDED, UNBOUNDED)
    return Trace(algorithm, value, tuple(walker.visits), tuple(walker.cutoffs))


def _open(bound: int) -> int | None:
    return None if abs(bound) >= UNBOUNDED else bound


class _Walker:
    def __init__(self, algorithm: Algorithm) -> None:
        self.ordered = algorithm is Algorithm.ALPHABETA_ORDERED
        self.visits: list[Visit] = []
        self.cutoffs: list[Cutoff] = []

    def minimax(self, node: Node) -> int:
        visit = Visit(node.id, None, None)
        self.visits.append(visit)
        if node.children:
            scores = [self.minimax(child) for child in node.children]
            visit.value = max(scores) if node.maximizing else min(scores)
        else:
            visit.value = node.score
        return visit.value

    def alphabeta(self, node: Node, alpha: int, beta: int) -> int:
        visit = Visit(node.id, _open(alpha), _open(beta))
        self.visits.append(visit)
        if not node.children:
            visit.value = node.score
            return visit.value
        children = self._in_order(node)
        value = -UNBOUNDED if node.maximizing else UNBOUNDED
        for i, child in enumerate(children):
            score = self.alphabeta(child, alpha, beta)
            if node.maximizing:
                value = max(value, score)
                refuted = value >= beta
            else:
                value = min(value, score)
                refuted = value <= alpha
            if refuted:
                if i + 1 < len(children):
                    bound = "beta" if node.maximizing else "alpha"
                    left = tuple(c.id for c in children[i + 1 :])
                    self.cutoffs.append(
                        Cutoff(node.id, child.id, bound, value, _open(alpha), _open(beta), left)
                    )
                break
            if node.maximizing:
                alpha = max(alpha, value)
            else:
                beta = min(beta, value)
        visit.value = value
        return value

    def _in_order(self, node: Node) -> list[Node]:
        if not self.ordered:
            return node.children
        # best guess first for the side to move here; sorted() keeps move order among equals
        return sorted(node.children, key=lambda c: -c.guess if node.maximizing else c.guess)
