"""The depth policy's search: alpha-beta against plain negamax, its static evaluation, its habits."""

from __future__ import annotations

import math

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from service.engine import MISERE, NORMAL, Position, Variant, other
from service.engine.play.heuristic import WIN, depth_limited_move, search_value, static_value
from service.engine.play.strategy import completing_cells
from tests.engine.strategies import KINDS, played_positions
from tests.reference import all_reachable


def plain_negamax(position: Position, depth: int, ply: int = 0) -> int:
    """The same scores without pruning, through the public Position API."""
    if position.is_over:
        if position.status.value == "draw":
            return 0
        mover_won = position.status.value == f"{position.to_move.lower()}_won"
        return WIN - ply if mover_won else ply - WIN
    if depth == 0:
        return static_value(position)
    return max(-plain_negamax(position.play(c), depth - 1, ply + 1) for c in position.legal_moves())


@st.composite
def searches(draw: st.DrawFn) -> tuple[Position, int]:
    position = draw(played_positions(variants=KINDS))
    depth = draw(st.integers(1, position.geometry.max_depth))
    empty = position.cells.count(".")
    assume(not position.is_over and math.perm(empty, min(depth, empty)) <= 20_000)
    return position, depth


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(searches())
def test_alpha_beta_gives_the_plain_negamax_score_and_move(search: tuple[Position, int]) -> None:
    position, depth = search
    scores = {c: -plain_negamax(position.play(c), depth - 1, 1) for c in position.legal_moves()}
    best = max(scores.values())
    assert search_value(position, depth) == best
    assert depth_limited_move(position, depth) == min(c for c, s in scores.items() if s == best)


def test_static_value_counts_lines_and_forks() -> None:
    assert static_value(Position.empty()) == 0
    assert static_value(Position.parse("X........")) == -3  # three lines of one X, seen by O
    assert static_value(Position.parse("....X....")) == -4
    # O to move. X: rows 0-1-2 and columns 0-3-6 hold two each (-8, a fork -6), row 3-4-5 one (-1);
    # O: row 6-7-8 holds two (+4), column 2-5-8 one (+1); the rest are shared or empty.
    assert static_value(Position.parse("XX.X...OO")) == -10
    assert static_value(Position.parse("XX.X...OO", None, MISERE)) == 10


def reachable(variant: Variant) -> list[Position]:
    return [Position.parse(board, side, variant) for board, side in all_reachable("X").items()]


def test_finished_games_score_by_distance_beyond_any_guess() -> None:
    assert search_value(Position.parse("XXXOO...."), 3) == -WIN
    assert search_value(Position.parse("XXXOO....", None, MISERE), 3) == WIN
    # X wins at once: the nearest win, not a guess, decides the score at every depth.
    for depth in range(1, 9):
        assert search_value(Position.parse("XX.OO...."), depth) == WIN - 1


@pytest.mark.parametrize("depth", [1, 4, 8])
def test_it_takes_the_lowest_immediate_win_at_any_depth(depth: int) -> None:
    for position in reachable(NORMAL):
        wins = [] if position.is_over else completing_cells(position, position.to_move)
        if wins:
            assert depth_limited_move(position, depth) == wins[0], position.cells


def test_it_blocks_a_single_threat_from_depth_two_but_not_always_at_depth_one() -> None:
    missed = {1: 0, 2: 0, 5: 0}
    for position in reachable(NORMAL):
        if position.is_over or completing_cells(position, position.to_move):
            continue
        threats = completing_cells(position, other(position.to_move))
        if len(threats) == 1:
            for depth in missed:
                missed[depth] += depth_limited_move(position, depth) != threats[0]
    assert missed[2] == missed[5] == 0
    assert missed[1] > 0


@pytest.mark.parametrize("depth", [1, 3])
def test_under_misere_it_completes_its_own_line_only_when_forced(depth: int) -> None:
    for position in reachable(MISERE):
        if position.is_over:
            continue
        own = completing_cells(position, position.to_move)
        forced = set(position.legal_moves()) <= set(own)
        assert (depth_limited_move(position, depth) in own) == forced, position.cells


def test_it_is_deterministic_and_needs_a_depth_in_range() -> None:
    position = Position.parse("X...O....")
    assert len({depth_limited_move(position, 4) for _ in range(5)}) == 1
    for depth in (0, 9):
        with pytest.raises(ValueError, match="between 1 and 8"):
            depth_limited_move(position, depth)
