"""The game tree of a position to a depth, with every node's minimax value.

Values are read from the side to move at the root (MAX; the other side is MIN), as integers that order
every outcome: a game that ends at ply p from the root scores WIN - p for a win, p - WIN for a loss and 0
for a draw, so the winner hurries and the loser delays, as in the tables. The leaves are the ends of
games; at the depth's horizon, the table's exact value where the game has one (its remoteness adds to
the ply), else the named static evaluation, kept well inside the scores of a win or a loss. Every inner
node backs its children up by minimax, so a node is exact when every leaf below it is: with a table,
every node is (and equals the table, which the tests check).

A tree holds at most `limit` nodes: a depth that would exceed it raises TreeTooLargeError, and with no
depth asked the tree goes as deep as fits.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum

from ..errors import EngineError
from ..rules.game import GamePosition, final_score
from ..rules.values import Value
from .evaluations import Evaluation

WIN = 1000
EVALUATION_LIMIT = WIN // 2  # below any win or loss score (games end within 64 plies)
MAX_TREE_NODES = 5000  # 4x4 to depth 3 from the empty board: 3,617 nodes
ExactValues = Callable[[GamePosition], Value]  # a table's values, from the side to move


class TreeTooLargeError(EngineError):
    """The tree asked for holds more nodes than an answer may."""

    def __init__(self, depth: int, limit: int, fits: int) -> None:
        super().__init__(
            "tree_too_large",
            f"the tree to depth {depth} has more than {limit:,} nodes, the most one answer holds; "
            f"depth {fits} fits: ask for depth {fits} or less, or leave depth out for the deepest that fits",
            "depth",
        )
        self.depth, self.limit, self.fits = depth, limit, fits


class Leaf(StrEnum):
    END = "end"  # the game is over
    TABLE = "table"  # the horizon, valued by the table
    EVALUATION = "evaluation"  # the horizon, valued by the static evaluation


@dataclass(eq=False)
class Node:
    id: int  # in the order of a walk that takes the moves in their order (the minimax walk)
    move: int | None  # the move that led here; None at the root
    position: GamePosition
    ply: int
    maximizing: bool  # the root's side to move is to move here
    score: int = 0  # minimax value for the root's side
    value: Value | None = None  # exact value for this node's side to move, when every leaf below is exact
    leaf: Leaf | None = None
    guess: int = 0  # the static evaluation for the root's side (end of game: the score); orders moves
    children: list[Node] = field(default_factory=list)

    def walk(self) -> Iterator[Node]:
        yield self
        for child in self.children:
            yield from child.walk()


@dataclass(frozen=True)
class GameTree:
    root: Node
    depth: int
    size: int
    complete: bool  # every leaf is the end of a game
    cut_for_size: bool  # no depth was asked, and the game's end did not fit within the limit
    evaluation: Evaluation
    evaluated: bool  # some leaf was valued by the evaluation (no table, before the end)
    principal_variation: tuple[int, ...]  # the moves of best play from the root, as far as the tree goes
    principal_nodes: frozenset[int]  # the ids of the nodes along it, the root's included


def level_sizes(position: GamePosition, depth: int | None, limit: int) -> list[int]:
    """Nodes at each ply from the root, while the total stays within `limit` (one level more when it
    does not, to say so), to `depth` plies or the end of every game."""
    sizes, level = [1], [position]
    while depth is None or len(sizes) <= depth:
        size = sum(len(p.legal_moves()) for p in level)  # counted first: the level past the limit is not made
        if size == 0:
            break
        sizes.append(size)
        if sum(sizes) > limit:
            break
        level = [p.play(m) for p in level for m in p.legal_moves()]
    return sizes


def grow(
    position: GamePosition,
    evaluation: Evaluation,
    exact: ExactValues | None,
    depth: int | None = None,
    limit: int = MAX_TREE_NODES,
) -> GameTree:
    """The tree of `position` to `depth` plies (None: as deep as fits within `limit` nodes)."""
    sizes = level_sizes(position, depth, limit)
    fits = _deepest_fitting(sizes, limit)
    if depth is not None and fits < min(depth, len(sizes) - 1):
        raise TreeTooLargeError(depth, limit, fits)
    reached = fits if depth is None else min(depth, fits)
    grower = _Grower(position, evaluation, exact, reached)
    root = grower.node(position, None, 0)
    leaves = [n for n in root.walk() if n.leaf is not None]
    line = _principal_line(root)
    return GameTree(
        root=root,
        depth=reached,
        size=grower.next_id,
        complete=all(n.leaf is Leaf.END for n in leaves),
        cut_for_size=depth is None and reached < len(sizes) - 1,
        evaluation=evaluation,
        evaluated=any(n.leaf is Leaf.EVALUATION for n in leaves),
        principal_variation=tuple(n.move for n in line if n.move is not None),
        principal_nodes=frozenset(n.id for n in line),
    )


def _deepest_fitting(sizes: list[int], limit: int) -> int:
    total = 0
    for ply, size in enumerate(sizes):
        total += size
        if total > limit:
            return ply - 1
    return len(sizes) - 1


class _Grower:
    def __init__(self, root: GamePosition, evaluation: Evaluation, exact: ExactValues | None, depth: int):
        self.side, self.evaluation, self.exact, self.depth = root.to_move, evaluation, exact, depth
        self.next_id = 0

    def node(self, position: GamePosition, move: int | None, ply: int) -> Node:
        node = Node(self.next_id, move, position, ply, position.to_move is self.side)
        self.next_id += 1
        if position.is_over:
            node.value = Value(final_score(position), 0)
            node.leaf, node.score = Leaf.END, self._exact_score(node, node.value)
            node.guess = node.score
            return node
        node.guess = self._signed(node, _clamped(self.evaluation.of(position)))
        if ply < self.depth:
            node.children = [self.node(position.play(m), m, ply + 1) for m in position.legal_moves()]
            self._back_up(node)
        elif self.exact is not None:
            node.value = self.exact(position)
            node.leaf, node.score = Leaf.TABLE, self._exact_score(node, node.value)
        else:
            node.leaf, node.score = Leaf.EVALUATION, node.guess
        return node

    def _back_up(self, node: Node) -> None:
        scores = [child.score for child in node.children]
        node.score = max(scores) if node.maximizing else min(scores)
        values = [child.value for child in node.children]
        if all(v is not None for v in values):  # every leaf below is exact: so is the node
            node.value = min((v.after_move() for v in values if v is not None), key=Value.preference)

    def _signed(self, node: Node, score: int) -> int:
        """A score for the node's side to move, for the root's side."""
        return score if node.maximizing else -score

    def _exact_score(self, node: Node, value: Value) -> int:
        if value.score == 0:
            return 0
        return self._signed(node, value.score * (WIN - node.ply - value.remoteness))


def _clamped(score: int) -> int:
    return max(-EVALUATION_LIMIT, min(EVALUATION_LIMIT, score))


def _principal_line(root: Node) -> list[Node]:
    """The nodes of best play from the root, each the first child in move order that keeps its
    parent's value."""
    line = [root]
    while line[-1].children:
        line.append(next(child for child in line[-1].children if child.score == line[-1].score))
    return line
