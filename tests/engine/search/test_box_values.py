"""The search on boxes of layers (3-D boards): every move's exact value against a plain negamax written
here, on positions played at random.

A fact from outside the project: 3x3x3 three in a row is won by the first player at its 7th mark, the
centre first (Beck, "Combinatorial Games: Tic-Tac-Toe Theory", and every solver since).
"""

from __future__ import annotations

import random
from functools import cache

import pytest

from service.engine import Position, geometry_of, get_variant
from service.engine.search import Budget, Searcher


@cache
def brute_value(lines: tuple[int, ...], cells: int, mine: int, theirs: int) -> tuple[int, int]:
    """(result, plies to the end) of the side to move by plain negamax: the winner hurries, the loser
    delays."""
    full = (1 << cells) - 1
    if (mine | theirs) == full:
        return 0, 0
    best: tuple[int, int] | None = None
    for cell in range(cells):
        if (mine | theirs) >> cell & 1:
            continue
        played = mine | 1 << cell
        if any(played & line == line for line in lines):
            found = (1, 1)
        else:
            result, plies = brute_value(lines, cells, theirs, played)
            found = (-result, plies + 1)
        if best is None or _better(found, best):
            best = found
    assert best is not None
    return best


def _better(a: tuple[int, int], b: tuple[int, int]) -> bool:
    if a[0] != b[0]:
        return a[0] > b[0]
    return a[1] < b[1] if a[0] > 0 else a[1] > b[1] if a[0] < 0 else False


def random_position(name: str, marks: int, rng: random.Random) -> Position:
    """A position of `marks` marks played at random, with no line yet."""
    variant = get_variant(name)
    while True:
        position = Position.empty(variant)
        for _ in range(marks):
            if position.is_over:
                break
            position = position.play(rng.choice(position.legal_moves()))
        if not position.is_over:
            return position


@pytest.mark.parametrize(
    ("name", "marks"), [("3x3x3k3", 17), ("3x3x3k3", 15), ("2x3x4k3", 13), ("3x3x4k3", 25)]
)
def test_the_search_agrees_with_a_brute_force_on_boxes(name: str, marks: int) -> None:
    """Every move's exact value, by the compiled search, against the negamax above."""
    rng = random.Random(f"{name}/{marks}")
    variant = get_variant(name)
    lines = geometry_of(variant).lines
    searcher = Searcher(variant, table_bits=14)
    for _ in range(4):
        position = random_position(name, marks, rng)
        report = searcher.analyze(position, Budget())
        assert report.exact
        for move in report.moves:
            played = position.mine | 1 << move.cell
            if any(played & line == line for line in lines):
                want = (1, 1)
            else:
                result, plies = brute_value(lines, variant.cells, position.theirs, played)
                want = (-result, plies + 1)
            assert (move.lower, move.remoteness) == want, (position.cells, move)


def test_the_first_player_wins_3x3x3_with_the_seventh_mark() -> None:
    searcher = Searcher(get_variant("3x3x3k3"), table_bits=16)
    report = searcher.analyze(Position.empty(get_variant("3x3x3k3")), Budget())
    assert report.exact and report.value is not None
    assert report.value.score == 1 and report.value.remoteness == 7
    centre = next(move for move in report.moves if move.cell == 13)
    assert (centre.lower, centre.remoteness) == (1, 7)
