"""Trees of threes at the root, deepened (search/root_trees.py): in random positions on boards from 5x5
to 9x9, five or more in a row and exactly five, each tree's first move wins and each move outside the
other side's tree's zone loses, both by alpha-beta alone; some trees need more threes than the
proof-number search's own (two at most)."""

from __future__ import annotations

import random

import pytest

from service.engine import get_variant
from service.engine.search import Board
from service.engine.search.budget import Budget, Spending
from service.engine.search.native import Game, TranspositionTable, threes_tree
from service.engine.search.root_trees import deepened_tree
from tests.engine.search.positions import random_position
from tests.engine.search.prover_checks import alpha_beta_result


def unlimited() -> Spending:
    return Spending.of(Budget())


# Measured: 255, 32, 39, 92, 22, 25 and 80 first moves won, 4, 0, 2, 6, 1, 1 and 4 of them by more than
# two threes. Under exactly five the trees read each window's flanks: without, 47 of 600 7x7k5-exact
# claims were wrong.
@pytest.mark.parametrize(
    ("name", "empty", "positions", "least_deep"),
    [
        ("5x5k4", 16, 600, 1),
        ("6x6k5", 22, 300, 0),
        ("7x7k5", 30, 150, 1),
        ("8x8k5", 40, 150, 1),
        ("9x9k5", 30, 60, 1),
        ("7x7k5-exact", 30, 80, 0),
        ("8x8k5-exact", 40, 150, 0),
    ],
)
def test_first_moves_win_and_moves_outside_the_zone_lose(
    name: str, empty: int, positions: int, least_deep: int
) -> None:
    variant, rng = get_variant(name), random.Random(name)
    board = Board.of(variant)
    game = Game(board)
    table = TranspositionTable(18)
    wins = deep = losses = 0
    for _ in range(positions):
        mine, theirs = random_position(board, empty, rng)
        tree = deepened_tree(game, mine, theirs, unlimited())
        if tree.first is not None:
            assert not (mine | theirs) >> tree.first & 1
            assert alpha_beta_result(game, table, theirs, mine | 1 << tree.first) == -1
            wins += 1
            deep += fewest_threes(game, mine, theirs) > 2
        passing = deepened_tree(game, theirs, mine, unlimited())
        if passing.first is None:
            continue
        for cell in range(board.cells):
            if (mine | theirs | passing.zone) >> cell & 1 or board.geometry.holds_line(mine | 1 << cell):
                continue
            assert alpha_beta_result(game, table, theirs, mine | 1 << cell) == 1, cell
            losses += 1
    print(f"{name}: {wins} first moves won ({deep} by more than two threes), {losses} moves lost")
    assert wins >= 20  # not a check of nothing
    assert deep >= least_deep  # trees the proof-number search's own (two threes at most) miss
    assert losses >= 100


def fewest_threes(game: Game, attacker: int, defender: int) -> int:
    """The fewest threes of the attacker's tree (0: none)."""
    for threes in range(1, 9):
        if threes_tree(game, attacker, defender, threes, 0, 0.0).first is not None:
            return threes
    return 0
