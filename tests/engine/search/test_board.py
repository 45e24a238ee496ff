"""The rules a searcher takes: board limits, the positions it accepts, symmetries under gravity,
and the heuristic estimates for moves no proof reaches."""

from __future__ import annotations

import random

import pytest

from service.engine import Position, Variant, geometry_of, get_variant
from service.engine.rules.known_move import Estimate
from service.engine.search import Board, Budget, Searcher
from service.engine.search.estimates import estimate_nodes
from service.engine.search.native import BIG, HEURISTIC_UNIT, Limits, TranspositionTable, estimate
from tests.engine.search.positions import position_of
from tests.reference import Rules


def test_a_variant_becomes_a_board_once() -> None:
    variant = get_variant("4x4k3-torus-misere")
    board = Board.of(variant)
    assert board.variant is variant and board.cells == 16
    assert board.name == "4x4k3-torus-misere" and board.lines == geometry_of(variant).lines
    assert Board.of(get_variant("4x4k3-torus-misere")) is board  # its permuters are built once


def test_an_engine_refuses_another_variants_position() -> None:
    with pytest.raises(ValueError, match="4x4k3"):
        Searcher(Variant(5, 5, 4), table_bits=10).analyze(Position.empty(Variant(4, 4, 3)), Budget())


def test_gravity_keeps_only_the_symmetries_that_keep_rows() -> None:
    assert len(geometry_of(Variant(4, 4, 3)).symmetries) == 8
    assert len(geometry_of(Variant(4, 4, 3, gravity=True)).symmetries) == 2  # and the mirror
    # shifts along rows, mirrored
    assert len(geometry_of(Variant(3, 4, 3, torus=True, gravity=True)).symmetries) == 8


def test_a_finished_game_has_no_moves() -> None:
    variant = Variant(4, 5, 4)
    position = position_of(variant, 0b111 << 5, 0b1111)
    analysis = Searcher(variant, table_bits=10).analyze(position, Budget())
    assert analysis.moves == () and analysis.exact and analysis.value is None


def test_moves_that_a_symmetry_maps_onto_each_other_have_equal_values() -> None:
    analysis = Searcher(Variant(4, 5, 3), table_bits=14).analyze(Position.empty(Variant(4, 5, 3)), Budget())
    value = {move.cell: move.value for move in analysis.moves}
    assert value[0] == value[4] == value[15] == value[19]


def test_an_estimate_finds_a_forced_win_within_its_horizon() -> None:
    searcher = Searcher(Variant(6, 6, 5), table_bits=14)
    # X to move holds three in the middle of the top row, both ends open: an open four next, then five
    mine, theirs = 0b011100, (1 << 30) | (1 << 32) | (1 << 34)
    limits = Limits(deadline=0.0, nodes=0)
    outcome = estimate(searcher.game, searcher.table, mine, theirs, 3, limits)
    assert outcome.estimate == (BIG - 9) * HEURISTIC_UNIT  # the ninth mark completes the line
    quiet = estimate(searcher.game, searcher.table, 1 << 14, 1 << 21, 2, limits)
    assert quiet.depth == 2 and abs(quiet.estimate) < (BIG - searcher.board.cells) * HEURISTIC_UNIT


@pytest.mark.slow
def test_moves_left_unproven_get_estimates_when_asked() -> None:
    # 8x8k5: nothing there is proven within these nodes (since the provers, much of 7x7k5 is).
    searcher = Searcher(Variant(8, 8, 5), table_bits=14)
    analysis = searcher.analyze(
        Position.empty(searcher.variant), Budget(nodes=30_000), estimates=True
    )  # not timed: no flakes
    unproven = [move for move in analysis.moves if move.result is None]
    assert unproven and all(move.estimate is not None and move.estimate.depth >= 2 for move in unproven)
    centre = next(move for move in analysis.moves if move.cell == 27)
    corner = next(move for move in analysis.moves if move.cell == 0)
    assert centre.estimate is not None and corner.estimate is not None
    assert centre.estimate.score > corner.estimate.score


@pytest.mark.slow
def test_estimates_repeat_within_a_time_budget_all_read_to_one_depth() -> None:
    """The same position asked three times a second apart gave three orders, the estimates
    deepened as far as the time allowed, each move to its own depth, in a table earlier searches had
    filled. They now spend a node budget that follows from the time budget, all to one depth, in a
    table of their own: the same position and budget give the same estimates. (Misère: on the normal
    board the provers, whose table a thread keeps from one analysis to the next, prove more of the
    moves each time it is asked, and the moves left to estimate change.)"""
    variant = Variant(7, 7, 5, misere=True)
    shared = TranspositionTable(14)
    position = Position.empty(variant).play(24).play(25)  # nothing proven here within a second

    def estimates() -> dict[int, Estimate | None]:
        analysis = Searcher(variant, table=shared).analyze(position, Budget(0.5), estimates=True)
        return {move.cell: move.estimate for move in analysis.moves if move.result is None}

    first = estimates()
    Searcher(variant, table=shared).analyze(position.play(17), Budget(0.2))  # other work between
    assert estimates() == first == estimates() and len(first) == 47
    depths = {estimate.depth for estimate in first.values() if estimate is not None}
    assert len(depths) == 1 and None not in first.values(), depths


def test_the_estimates_node_budget_ignores_the_moments_before_a_search() -> None:
    """A request's search starts a few milliseconds into its budget (parsing, a slot): the estimates'
    nodes are the same for what is left then, and grow with the budget asked for."""
    assert estimate_nodes(Budget(0.9993)) == estimate_nodes(Budget(0.96)) == estimate_nodes(Budget(1.0))
    assert estimate_nodes(Budget(2.0)) == 2 * estimate_nodes(Budget(1.0)) > estimate_nodes(Budget(0.5))
    assert estimate_nodes(Budget(nodes=1_000_000)) < 1_000_000


@pytest.mark.parametrize(
    ("rows", "cols", "k"), [(6, 7, 4), (5, 5, 4), (4, 7, 5), (8, 8, 4), (2, 11, 4), (7, 3, 3)]
)
def test_lines_found_by_shifts_are_the_references(rows: int, cols: int, k: int) -> None:
    """A flat board finds lines by shifting masks along each direction; the reference walks the grid."""
    board, lines = geometry_of(Variant(rows, cols, k)), Rules(rows, cols, k).lines
    rng = random.Random(rows * cols + k)
    for _ in range(3000):
        mask = rng.getrandbits(board.cells) & rng.getrandbits(board.cells)  # about a quarter of the cells
        assert board.holds_line(mask) == any(all(mask >> c & 1 for c in line) for line in lines), bin(mask)


@pytest.mark.parametrize("name", ["9x9k5-torus", "5x5k4-torus", "8x8k5-torus"])
def test_the_symmetries_that_fix_a_torus_position_are_found_past_64_cells(name: str) -> None:
    """A 9x9 torus has 81 cells: the marks past cell 63 are read as well (they overflowed a 64-bit
    integer before). Against every symmetry tried one by one."""
    variant = get_variant(name)
    board, rng = Board.of(variant), random.Random(name)
    for _ in range(30):
        cells = rng.sample(range(variant.cells), rng.randint(0, 4))
        mine = sum(1 << c for c in cells[::2])
        theirs = sum(1 << c for c in cells[1::2])
        if rng.random() < 0.3:  # a position some symmetry is sure to fix: its image added to itself
            image = board.geometry.symmetries[rng.randrange(len(board.geometry.symmetries))]
            mine |= board.geometry.permute(mine, image)
            theirs = theirs & ~mine
        want = [
            s
            for s in board.geometry.symmetries[1:]
            if board.geometry.permute(mine, s) == mine and board.geometry.permute(theirs, s) == theirs
        ]
        assert board.fixing(mine, theirs) == want
