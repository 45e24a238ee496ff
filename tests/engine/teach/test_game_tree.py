"""The game tree for learners: every node's value against the tables, alpha-beta against minimax, the
cut-offs of two hand-worked textbook trees, and the bound on a tree's size."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import pytest

from service.engine import (
    GamePosition,
    Mark,
    Position,
    Status,
    TableStore,
    Value,
    get_variant,
    start_position,
)
from service.engine.games import exact_values, game_of
from service.engine.teach import (
    WIN,
    Algorithm,
    Cutoff,
    Evaluation,
    GameTree,
    Leaf,
    TreeTooLargeError,
    grow,
    lesson,
    trace,
)
from tests.reference import minimax


def evaluation_of(position: GamePosition) -> Evaluation:
    """The evaluation the registry names for the position's game."""
    evaluation = game_of(position).evaluation
    assert evaluation is not None
    return evaluation


def tree_of(store: TableStore, position: GamePosition, depth: int | None = None) -> GameTree:
    exact = exact_values(position, lambda v: store.get(v) if v.has_table else None)
    return grow(position, evaluation_of(position), exact, depth)


def random_position(name: str, plies: int, seed: int) -> GamePosition:
    rng = random.Random(seed)
    position = start_position(name, rng.choice("XO"))
    for _ in range(plies):
        if position.is_over:
            break
        position = position.play(rng.choice(position.legal_moves()))
    return position


SMALL = [("normal", 4), ("normal", 6), ("misere", 5), ("3x4k3", 7), ("4x4k3", 10), ("4x4k4-misere", 11)]


@pytest.mark.parametrize(("name", "plies"), SMALL)
def test_every_node_has_the_tables_value(store: TableStore, name: str, plies: int) -> None:
    for seed in range(3):
        position = random_position(name, plies, seed)
        tree = tree_of(store, position, depth=3)
        table = store.get(get_variant(name))
        for node in tree.root.walk():
            assert isinstance(node.position, Position)
            truth = table.value(node.position)
            assert node.value == truth, (node.position.cells, node.value, truth)
            # the score is the same value for the root's side: the ply the game ends at, from the root
            sign = 1 if node.position.to_move is position.to_move else -1
            end = node.ply + truth.remoteness
            assert node.score == (0 if truth.score == 0 else sign * truth.score * (WIN - end))


def test_a_whole_tree_near_the_end_agrees_with_brute_force(store: TableStore) -> None:
    """3x3 after four moves, to the end of every game: each node against the reference solver written
    apart from the engine (no table, no bitmasks)."""
    position = Position.parse("XO..XO...")
    tree = tree_of(store, position)
    assert tree.complete and not tree.cut_for_size and not tree.evaluated and tree.depth == 5
    for node in tree.root.walk():
        assert node.value == Value(*minimax(node.position.cells, node.position.to_move, False))


CASES = [
    ("normal", 3, None),
    ("misere", 2, None),
    ("4x4k3", 9, None),
    ("5x5k4", 8, 2),
    ("connect4", 6, 3),
    ("eight", 1, None),
]


@pytest.mark.parametrize(("name", "plies", "depth"), CASES)
def test_alphabeta_equals_minimax_and_visits_no_more(
    store: TableStore, name: str, plies: int, depth: int | None
) -> None:
    for seed in range(3):
        position = random_position(name, plies, seed)
        tree = tree_of(store, position, depth)
        walks = {a: trace(tree, a) for a in Algorithm}
        full = walks[Algorithm.MINIMAX]
        assert len(full.visits) == tree.size and not full.cutoffs
        by_id = {node.id: node for node in tree.root.walk()}
        for algorithm in (Algorithm.ALPHABETA, Algorithm.ALPHABETA_ORDERED):
            walk = walks[algorithm]
            assert walk.value == full.value == tree.root.score
            assert len(walk.visits) <= len(full.visits)
            for visit in walk.visits:  # fail-soft: exact inside the window, a bound outside it
                true = by_id[visit.node].score
                if visit.alpha is not None and visit.value <= visit.alpha:
                    assert true <= visit.value
                elif visit.beta is not None and visit.value >= visit.beta:
                    assert true >= visit.value
                else:
                    assert true == visit.value
            pruned = {n.id for c in walk.cutoffs for p in c.pruned for n in by_id[p].walk()}
            assert pruned.isdisjoint(v.node for v in walk.visits)
            assert len(pruned) + len(walk.visits) == tree.size


@dataclass(frozen=True)
class ToyGame:
    name: str = "toy"
    rules: str = "a textbook tree: MAX and MIN choose in turn; the leaves hold MAX's evaluation"


@dataclass(frozen=True)
class Toy:
    """A position of a textbook tree given as nested tuples of MAX's leaf values."""

    tree: Any
    path: tuple[int, ...] = ()
    to_move: Mark = Mark.X
    variant: ToyGame = ToyGame()
    status: Status = Status.IN_PROGRESS
    is_over: bool = False
    completed_lines: tuple[tuple[int, ...], ...] = ()

    @property
    def here(self) -> Any:
        at = self.tree
        for i in self.path:
            at = at[i]
        return at

    @property
    def cells(self) -> str:
        return ".".join(map(str, self.path))

    def legal_moves(self) -> list[int]:
        return list(range(len(self.here))) if isinstance(self.here, tuple) else []

    def play(self, move: int) -> Toy:
        return Toy(self.tree, (*self.path, move), self.to_move.other)


def textbook(tree: Any, depth: int) -> GameTree:
    """The game tree grown from a textbook tree, its leaves valued by the figure's numbers."""
    root = Toy(tree)

    def leaf(position: GamePosition) -> int:
        assert isinstance(position, Toy)
        value = position.here if isinstance(position.here, int) else 0
        return value if position.to_move is Mark.X else -value  # for the side to move

    return grow(root, Evaluation("leaves", "the figure's numbers", leaf), None, depth)


def named(tree: GameTree, names: str) -> dict[str, int]:
    """Names for the nodes in the order of a walk in move order (the order of the figures)."""
    return {name: node.id for name, node in zip(names.split(), tree.root.walk(), strict=True)}


def test_the_cutoffs_of_russell_and_norvigs_figure() -> None:
    """Russell and Norvig, Artificial Intelligence: A Modern Approach, figure 5.5: MAX at A over MIN
    nodes B (3, 12, 8), C (2, 4, 6) and D (14, 5, 2). Worked by hand: B is 3, so A's alpha is 3; C's
    first leaf, 2, makes C at most 2 <= alpha: C's other two leaves are pruned; D's leaves bring it
    down to 2, but the last of them leaves nothing to prune. A is 3, after 11 of the 13 nodes."""
    tree = textbook(((3, 12, 8), (2, 4, 6), (14, 5, 2)), depth=2)
    ids = named(tree, "A B b3 b12 b8 C c2 c4 c6 D d14 d5 d2")
    walk = trace(tree, Algorithm.ALPHABETA)
    assert walk.value == 3 and trace(tree, Algorithm.MINIMAX).value == 3
    assert [v.node for v in walk.visits] == [
        ids[k] for k in ["A", "B", "b3", "b12", "b8", "C", "c2", "D", "d14", "d5", "d2"]
    ]
    assert walk.cutoffs == (Cutoff(ids["C"], ids["c2"], "alpha", 2, 3, None, (ids["c4"], ids["c6"])),)
    windows = {v.node: (v.alpha, v.beta, v.value) for v in walk.visits}
    assert windows[ids["C"]] == (3, None, 2) and windows[ids["D"]] == (3, None, 2)
    assert windows[ids["d5"]] == (3, 14, 5) and windows[ids["d2"]] == (3, 5, 2)


def test_the_cutoffs_of_the_articles_tree() -> None:
    """The first article's toy tree (seed 000), read three plies deep: R (MAX) over A and B (MIN) over
    C, D and E, F (MAX) over the leaves G H, I J, K L, M N. The article gives G = 1, H = 3 (so C = 3),
    D = 4 and B = 2; the other leaves are ours: I = 4, J = 2, K = 2, L = 1, M = 5, N = 3. By hand: C is 3,
    so A's beta is 3; D's first leaf I = 4 reaches that beta: J is pruned (a beta cut-off, D >= 4). A is
    3, R's alpha 3; E is max(2, 1) = 2, so B is at most 2 <= alpha: F is pruned with M and N (an alpha
    cut-off). R is 3, as minimax says, after 11 of the 15 nodes."""
    tree = textbook((((1, 3), (4, 2)), ((2, 1), (5, 3))), depth=3)
    ids = named(tree, " ".join("RACGHDIJBEKLFMN"))
    walk = trace(tree, Algorithm.ALPHABETA)
    assert walk.value == 3 == trace(tree, Algorithm.MINIMAX).value
    assert [v.node for v in walk.visits] == [ids[k] for k in "RACGHDIBEKL"]
    assert walk.cutoffs == (
        Cutoff(ids["D"], ids["I"], "beta", 4, None, 3, (ids["J"],)),
        Cutoff(ids["B"], ids["E"], "alpha", 2, 3, None, (ids["F"],)),
    )
    assert tree.principal_variation == (0, 0, 1)  # A, C, H


def test_a_tree_too_large_is_refused_and_the_deepest_that_fits_is_said(store: TableStore) -> None:
    empty = Position.empty(get_variant("4x4k4"))
    assert tree_of(store, empty, depth=3).size == 1 + 16 + 16 * 15 + 16 * 15 * 14  # 3,617
    with pytest.raises(TreeTooLargeError) as refused:
        tree_of(store, empty, depth=4)
    assert (refused.value.fits, refused.value.field, refused.value.code) == (3, "depth", "tree_too_large")
    deepest = tree_of(store, empty)
    assert (deepest.depth, deepest.cut_for_size, deepest.complete) == (3, True, False)
    small = grow(empty, evaluation_of(empty), None, depth=1, limit=17)
    assert small.size == 17
    with pytest.raises(TreeTooLargeError):
        grow(empty, evaluation_of(empty), None, depth=2, limit=17)


def test_without_a_table_the_leaves_are_evaluated() -> None:
    position = Position.parse("......../" * 7 + "........", variant=get_variant("8x8k5"))
    taught = lesson(position, Algorithm.ALPHABETA_ORDERED, evaluation_of(position), None, depth=2)
    leaves = [n for n in taught.tree.root.walk() if n.leaf is not None]
    assert {n.leaf for n in leaves} == {Leaf.EVALUATION} and taught.tree.evaluated
    assert all(n.value is None for n in taught.tree.root.walk())
    assert taught.tree.evaluation.name == "open-lines"
    counts = taught.counts
    assert counts[Algorithm.ALPHABETA_ORDERED].nodes <= counts[Algorithm.MINIMAX].nodes == 1 + 64 + 64 * 63
