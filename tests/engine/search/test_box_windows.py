"""A box's lines as windows (core/board.c, windows_setup): the 13 steps of a box of layers, each window a
step at a time, as a flat board's 4. The core's threats and its threat sequences' first moves against
the lines read one by one here, on boxes of the 64- and 128-cell builds, k the side and below it."""

from __future__ import annotations

import random

import pytest

from service.engine import get_variant
from service.engine.rules.geometry import geometry_of
from service.engine.search import Board
from service.engine.search.native import Game, threats
from tests.core_debug import threat_sequence

BOXES = ["3x3x3k3", "4x4x4k4", "4x4x4k3", "2x3x4k3", "5x5x5k5", "5x5x5k4"]


def completions(lines: tuple[int, ...], mine: int, theirs: int) -> int:
    """The empty cells that complete a line of `mine` free of `theirs`."""
    found = 0
    for line in lines:
        missing = line & ~mine
        if not line & theirs and missing.bit_count() == 1:
            found |= missing
    return found


@pytest.mark.parametrize("name", BOXES)
def test_a_boxs_threats_are_its_lines(name: str) -> None:
    variant = get_variant(name)
    lines = geometry_of(variant).lines
    game, rng = Game(Board.of(variant)), random.Random(name)
    for _ in range(300):
        marks = rng.sample(range(variant.cells), rng.randint(2, variant.cells * 3 // 4))
        mine = sum(1 << c for c in marks[::2])
        theirs = sum(1 << c for c in marks[1::2])
        assert threats(game, mine, theirs) == completions(lines, mine, theirs), (mine, theirs)


@pytest.mark.parametrize("name", ["4x4x4k4", "4x4x4k3"])  # the 64-cell build's debug calls
def test_a_threat_sequences_moves_each_make_a_threat(name: str) -> None:
    """A sequence found in the core holds its attacker's moves: the first of them (the cell whose move
    leaves the defender a forced reply) makes a threat, read from the lines here."""
    variant = get_variant(name)
    lines = geometry_of(variant).lines
    game, rng, found = Game(Board.of(variant)), random.Random(name), 0
    for _ in range(400):
        marks = rng.sample(range(variant.cells), rng.randint(6, variant.cells // 3))
        mine = sum(1 << c for c in marks[::2])
        theirs = sum(1 << c for c in marks[1::2])
        if completions(lines, mine, theirs) or completions(lines, theirs, mine):
            continue
        cells = threat_sequence(game, mine, theirs, 2000)
        if cells is None:
            continue
        found += 1
        empty = (1 << variant.cells) - 1 & ~(mine | theirs)
        makers = [c for c in range(variant.cells) if cells >> c & 1 and empty >> c & 1]
        assert any(completions(lines, mine | 1 << c, theirs) for c in makers), (mine, theirs)
    assert found >= 5
