"""Quiet threes (core/threats.c): a move after which the side would win by fours were it to move again,
answered on that sequence's cells or by a four. In random positions from 5x5 to 8x8 where no tree of
ordinary threes is found, every first move a tree with quiet threes claims wins, and every move outside
the other side's quiet tree's zone loses, both by alpha-beta alone; under five or more and exactly five."""

from __future__ import annotations

import random

import pytest

from service.engine import get_variant
from service.engine.search import Board
from service.engine.search.native import Game, TranspositionTable, threes_tree
from tests.engine.search.positions import random_position
from tests.engine.search.prover_checks import alpha_beta_result

THREES = 2  # as many as a request's trees take with quiet threes (root_trees.DEEPENING)


def quiet_only(game: Game, attacker: int, defender: int) -> int | None:
    """The first move of a tree with quiet threes when no ordinary tree of as many threes is found."""
    if threes_tree(game, attacker, defender, THREES, 0, 0.0).first is not None:
        return None
    return threes_tree(game, attacker, defender, THREES, 0, 0.0, quiet=True).first


# Measured: 9, 16, 6, 6 and 3 first moves won only with quiet threes (9x9k5, alpha-beta's check too slow
# with enough empty cells for them, is test_root_trees.py's). Under exactly five a mark beside a window
# takes it away (core/board.h's flanks): a search that ignored it claims wins that are none.
@pytest.mark.parametrize(
    ("name", "empty", "positions", "least"),
    [
        ("5x5k4", 16, 1600, 8),
        ("6x6k5", 22, 4800, 3),
        ("7x7k5", 30, 1500, 5),
        ("8x8k5", 40, 600, 5),
        ("8x8k5-exact", 40, 300, 3),
    ],
)
def test_quiet_first_moves_win_and_moves_outside_the_zone_lose(
    name: str, empty: int, positions: int, least: int
) -> None:
    variant, rng = get_variant(name), random.Random(f"quiet {name}")
    board = Board.of(variant)
    game = Game(board)
    table = TranspositionTable(18)
    wins = losses = 0
    for _ in range(positions):
        mine, theirs = random_position(board, empty, rng)
        first = quiet_only(game, mine, theirs)
        if first is not None:
            assert not (mine | theirs) >> first & 1
            assert alpha_beta_result(game, table, theirs, mine | 1 << first) == -1, (mine, theirs, first)
            wins += 1
        if quiet_only(game, theirs, mine) is None:
            continue
        zone = threes_tree(game, theirs, mine, THREES, 0, 0.0, quiet=True).zone
        for cell in range(board.cells):
            if (mine | theirs | zone) >> cell & 1 or board.geometry.holds_line(mine | 1 << cell):
                continue
            assert alpha_beta_result(game, table, theirs, mine | 1 << cell) == 1, (mine, theirs, cell)
            losses += 1
    print(f"{name}: {wins} first moves won only with quiet threes, {losses} moves lost")
    assert wins >= least  # not a check of nothing
    assert losses >= 1
