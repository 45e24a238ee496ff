"""The search made visible, for learners: the game tree of a position to a chosen depth with every
node's value (`tree`), and the walks of minimax and alpha-beta over it, with the order of their visits
and each cut-off (`traces`). Pure Python over `GamePosition`: any game, board or not; trees are bounded
to a few thousand nodes, where Python is fast enough.

Imports the rules wing only: each game names its evaluation (the registry of games).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules.game import GamePosition
from .evaluations import Evaluation
from .traces import Algorithm, Cutoff, Trace, Visit, trace
from .tree import MAX_TREE_NODES, WIN, ExactValues, GameTree, Leaf, Node, TreeTooLargeError, grow


@dataclass(frozen=True)
class Count:
    nodes: int  # visited
    cutoffs: int


@dataclass(frozen=True)
class Lesson:
    """A position's tree, the walk of the algorithm asked for over it, and what each algorithm spent."""

    tree: GameTree
    trace: Trace
    counts: dict[Algorithm, Count]


def lesson(
    position: GamePosition,
    algorithm: Algorithm,
    evaluation: Evaluation,
    exact: ExactValues | None,
    depth: int | None = None,
    limit: int = MAX_TREE_NODES,
) -> Lesson:
    """The tree of `position` (`evaluation`: its game's guess at the horizon; `exact`: the table's values,
    if the game has one) and the walks of every algorithm over it: the one asked for in full, the others
    counted."""
    tree = grow(position, evaluation, exact, depth, limit)
    traces = {a: trace(tree, a) for a in Algorithm}
    counts = {a: Count(len(t.visits), len(t.cutoffs)) for a, t in traces.items()}
    return Lesson(tree, traces[algorithm], counts)


__all__ = [
    "MAX_TREE_NODES",
    "WIN",
    "Algorithm",
    "Count",
    "Cutoff",
    "Evaluation",
    "ExactValues",
    "GameTree",
    "Leaf",
    "Lesson",
    "Node",
    "Trace",
    "TreeTooLargeError",
    "Visit",
    "grow",
    "lesson",
    "trace",
]
