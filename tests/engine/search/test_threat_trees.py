"""Threat-space search with threes (core/threats.c): a constructed double three that no sequence of
fours wins, checked by alpha-beta; trees found in random positions beyond the fours, each checked by
alpha-beta, and with every set of one or two extra defender's marks outside its zone (the guard makes
the zone sound: without it the same check finds wrong sets). Against the tables on every board up to 16
cells: prover_checks (test_every_table_variant, test_provers_exhaustive)."""

from __future__ import annotations

import itertools
import random

import pytest

from service.engine import get_variant
from service.engine.search import Board
from service.engine.search.native import DEFAULT_OPTIONS, Game, ProverOptions, TranspositionTable
from service.engine.search.proof_number import ProofTable, Prover, ask
from tests.core_debug import threat_sequence, threat_tree
from tests.engine.search.positions import masks, random_position
from tests.engine.search.prover_checks import NO_LIMIT, UNGUARDED, alpha_beta_result

# 8x8, five in a row, X to move. X holds two twos, on row 3 (r3c2, r3c3) and on column 4 (r1c4, r2c4),
# no line with three: no four can be made, so no sequence of fours. X on r3c4 (cell 28) makes two open
# threes at once; O blocks one, X makes an open four with the other and wins.
DOUBLE_THREE = (
    ".......O"  # row 0
    "....X..."
    "....X..."
    "..XX...."
    "........"
    "........"
    ".O......"
    "O......O"
)


def tree(
    game: Game, attacker: int, defender: int, depth: int, options: ProverOptions = DEFAULT_OPTIONS
) -> int | None:
    """The zone of a tree of threes the attacker (to move) wins by, None when none is found."""
    return threat_tree(game, attacker, defender, depth, options=options)


def fours(game: Game, attacker: int, defender: int) -> bool:
    return threat_sequence(game, attacker, defender) is not None


def test_a_double_three_wins_where_no_fours_do() -> None:
    x, o = masks(DOUBLE_THREE)
    assert x.bit_count() == o.bit_count() == 4
    game = Game(Board.of(get_variant("8x8k5")))
    assert not fours(game, x, o)
    assert tree(game, x, o, 0) is None  # depth 0: fours only
    zone = tree(game, x, o, 1)
    assert zone is not None and zone >> 28 & 1
    searcher = TranspositionTable(18)
    assert alpha_beta_result(game, searcher, x, o) == 1  # independently: X wins
    question = ask(game, ProofTable(16), x, o, True, NO_LIMIT)
    assert question.outcome == 1 and question.prover == Prover.THREAT_SPACE  # settled at the root


def beyond_fours(
    name: str, empty: int, positions: int, options: ProverOptions
) -> list[tuple[Game, Board, int, int, int]]:
    """Trees found (depth 2, their zones by `options`) for either side, to move, in random positions
    where no fours win: (game, board, attacker, defender, zone)."""
    variant, rng = get_variant(name), random.Random(name)
    board = Board.of(variant)
    game = Game(board)
    found = []
    for _ in range(positions):
        mine, theirs = random_position(board, empty, rng)
        for attacker, defender in ((mine, theirs), (theirs, mine)):
            if fours(game, attacker, defender):
                continue
            zone = tree(game, attacker, defender, 2, options)
            if zone is not None:
                found.append((game, board, attacker, defender, zone))
    return found


def zone_checks(
    name: str, empty: int, positions: int, options: ProverOptions = DEFAULT_OPTIONS
) -> tuple[int, int, int]:
    """(trees, sets checked, sets wrong): each tree's win by alpha-beta, then with each set of one or
    two extra defender's marks outside its zone (no line of the defender completed)."""
    trees = beyond_fours(name, empty, positions, options)
    searcher = TranspositionTable(18)
    checked = wrong = 0
    for game, board, attacker, defender, zone in trees:
        assert alpha_beta_result(game, searcher, attacker, defender) == 1
        outside = [c for c in range(board.cells) if not (attacker | defender | zone) >> c & 1]
        for extra in itertools.chain.from_iterable(itertools.combinations(outside, n) for n in (1, 2)):
            more = defender | sum(1 << cell for cell in extra)
            if board.geometry.holds_line(more):
                continue  # the game would be over: no such position arises
            checked += 1
            wrong += alpha_beta_result(game, searcher, attacker, more) != 1
    return len(trees), checked, wrong


@pytest.mark.parametrize(
    ("name", "empty", "positions", "least"),
    [("5x5k4", 17, 1000, 100), ("5x5k4", 15, 1000, 50), ("6x6k5", 22, 400, 10)],
)
def test_trees_win_and_hold_outside_their_zones(name: str, empty: int, positions: int, least: int) -> None:
    trees, checked, wrong = zone_checks(name, empty, positions)
    assert trees >= least  # measured 112, 61 and 11 trees: not a check of nothing
    assert checked > 80  # measured 121, 89, 124 sets
    assert wrong == 0


def test_without_the_guard_the_trees_zones_are_wrong() -> None:
    _, checked, wrong = zone_checks("5x5k4", 15, 1000, UNGUARDED)
    assert 0 < wrong <= checked  # measured 504 of 740
