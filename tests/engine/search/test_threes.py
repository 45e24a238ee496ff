"""Wins by threes and fours under each of gomoku's rules (search/threes.py): every certificate found in
random 9x9 positions replays against every reply of the defender, by the tests' own checker (its own
fives: exactly five for the standard rule and renju's black, and renju's forbidden points by the tests'
own reading of the rules, asked of each black move, `otherwise` after each reply included)."""

from __future__ import annotations

import random

import pytest

from service.engine import Position, get_variant
from service.engine.search.threes import threes_win
from tests.engine.rules.renju_reference import reference_shape
from tests.engine.search.continuous_fours import Rules
from tests.engine.search.test_win_tree import Sides, has_three, replays

SIZE = 9


def black_allowed(black: int, white: int, cell: int) -> bool:
    return reference_shape(SIZE, SIZE, black, white, cell) is None


def sides_of(position: Position) -> Sides:
    """The checker's rules for the side to move (the attacker) and the other."""
    variant = position.variant
    if not variant.renju:
        return Sides.alike(Rules(size=SIZE, exact=variant.exact))
    black, white = Rules(size=SIZE, exact=True), Rules(size=SIZE, exact=False)
    if position.to_move is position.first:
        return Sides(black, white, black_allowed)
    return Sides(white, black, defender_allowed=black_allowed)


def random_position(name: str, rng: random.Random, marks: int) -> Position | None:
    position = Position.empty(get_variant(name))
    for _ in range(marks):
        moves = position.legal_moves()
        if position.is_over or not moves:
            return None
        position = position.play(rng.choice(moves))
    return None if position.is_over else position


# Measured (100 positions of 20 to 32 marks each): certificates 51, 44 and 58, with a three 9, 5 and 8.
@pytest.mark.parametrize(("name", "least_threes"), [("9x9k5", 8), ("9x9k5-exact", 5), ("9x9k5-renju", 5)])
def test_every_certificate_replays_against_every_reply(name: str, least_threes: int) -> None:
    rng = random.Random(name)
    checked = threes = 0
    for _ in range(100):
        position = random_position(name, rng, rng.randrange(20, 33))
        if position is None:
            continue
        tree = threes_win(position, 0.0, nodes=300)
        if tree is None:
            continue
        mover = position.to_move
        att, dfn = position.mask(mover), position.mask(mover.other)
        assert replays(sides_of(position), tree, att, dfn) <= tree.plies
        checked += 1
        threes += has_three(tree)
    print(f"{name}: {checked} certificates replayed, {threes} with a three")
    assert checked >= 20 and threes >= least_threes
