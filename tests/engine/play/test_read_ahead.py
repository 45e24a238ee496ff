"""The depth policy's read within a budget (`read_ahead`): one ply deeper at a time, the move of the
deepest read finished, and at least one ply whatever the budget."""

from __future__ import annotations

import itertools

from service.engine import Position, get_variant, read_ahead
from service.engine.play.heuristic import depth_limited_move


def test_a_read_that_is_not_stopped_is_the_depth_policys_move() -> None:
    for name, board in [
        ("normal", "X...O...."),
        ("4x4k4", "X....O.........."),
        ("7x7k5", "." * 24 + "X" + "." * 24),
    ]:
        position = Position.parse(board, None, get_variant(name))
        depth = min(3, position.geometry.max_depth)
        reading = read_ahead(position, depth)
        assert (reading.cell, reading.depth) == (depth_limited_move(position, depth), depth)


def test_a_stopped_read_plays_the_deepest_read_finished() -> None:
    position = Position.empty(get_variant("8x8k5"))
    asked = itertools.count()
    reading = read_ahead(position, 3, lambda: next(asked) > 20)  # stops within the third ply's read
    assert reading.depth == 2 and reading.cell == depth_limited_move(position, 2)


def test_one_ply_is_read_whatever_the_budget() -> None:
    position = Position.empty(get_variant("8x8k5"))
    reading = read_ahead(position, 3, lambda: True)  # no time at all
    assert reading.depth == 1 and reading.cell == depth_limited_move(position, 1)


def test_a_small_read_finishes_before_it_is_asked_to_stop() -> None:
    """`stop` is asked every few hundred nodes: a read smaller than that is always whole."""
    reading = read_ahead(Position.parse("XX.OO...."), 5, lambda: True)
    assert (reading.cell, reading.depth) == (2, 5)  # the win in one
