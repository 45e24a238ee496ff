"""Boxes under gravity (Score Four is 4x4x4k4-gravity): a mark falls through the layers to the lowest
empty cell of its place, the last layer the bottom. The rules against a model written here (each place a
stack), the compiled search against a plain negamax over that model, and the symmetries that keep the
layers in place.

Facts from outside the project: Score Four is played on 16 pegs of four beads (Funtastic, 1968); a
square's reflections and turns are 8.
"""

from __future__ import annotations

import random
from functools import cache

import pytest

from service.engine import Position, get_variant
from service.engine.errors import InvalidPositionError, UnknownVariantError
from service.engine.play.review import moves_from_columns
from service.engine.rules.geometry import geometry_of
from service.engine.search import Budget, Searcher
from tests.engine.rules.test_boxes import reference_lines

SMALL = ["3x2x2k3-gravity", "3x2x3k3-gravity", "3x2x2k3-gravity-misere", "2x2x3k3-gravity-misere"]


def stack_moves(sides: tuple[int, ...], taken: set[int]) -> list[int]:
    """The model: each place of a layer is a stack filled from the last layer up; a move takes the
    lowest empty cell of a place that has one."""
    layers, per_layer = sides[0], sides[1] * sides[2]
    moves = []
    for place in range(per_layer):
        for layer in range(layers - 1, -1, -1):
            cell = layer * per_layer + place
            if cell not in taken:
                moves.append(cell)
                break
    return sorted(moves)


def test_names_and_rules() -> None:
    score_four = get_variant("4x4x4k4-gravity")
    assert score_four.gravity and score_four.layers == 4 and score_four.shape.gravity_axis == 0
    assert "falls through the layers" in score_four.rules
    assert get_variant("4x4x4k4-gravity-misere").misere
    with pytest.raises(UnknownVariantError, match="takes no -torus"):
        get_variant("3x3x3k3-torus")


@pytest.mark.parametrize("name", ["4x4x4k4-gravity", *SMALL])
def test_legal_moves_are_the_models_along_random_games(name: str) -> None:
    variant = get_variant(name)
    rng = random.Random(name)
    for _ in range(20):
        position, taken = Position.empty(variant), set()
        while not position.is_over:
            assert position.legal_moves() == stack_moves(variant.sides, taken)
            cell = rng.choice(position.legal_moves())
            position, taken = position.play(cell), taken | {cell}


def count_games(sides: tuple[int, ...], lines: list[frozenset[int]], depth: int) -> int:
    """Move sequences of `depth` plies in the model, a game ending at its first line (perft)."""

    def walk(x: frozenset[int], o: frozenset[int], plies: int) -> int:
        if plies == 0:
            return 1
        total = 0
        for cell in stack_moves(sides, set(x | o)):
            after = x | {cell}
            if any(line <= after for line in lines):
                total += 1
            else:
                total += walk(o, after, plies - 1)
        return total

    return walk(frozenset(), frozenset(), depth)


def engine_games(position: Position, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(
        1 if position.play(cell).is_over else engine_games(position.play(cell), depth - 1)
        for cell in position.legal_moves()
    )


@pytest.mark.parametrize(("name", "depth"), [("4x4x4k4-gravity", 3), ("3x2x2k3-gravity", 7)])
def test_move_sequences_are_the_models(name: str, depth: int) -> None:
    variant = get_variant(name)
    lines = list(reference_lines(variant.sides, variant.k))
    assert engine_games(Position.empty(variant), depth) == count_games(variant.sides, lines, depth)


def test_a_floating_mark_and_a_wrong_drop_are_refused() -> None:
    variant = get_variant("4x4x4k4-gravity")
    with pytest.raises(InvalidPositionError, match="bottom layer") as floating:
        Position.parse("X" + "." * 63, None, variant)
    assert floating.value.code == "floating_mark"
    with pytest.raises(Exception, match="falls to cell 53 \\(layer 3\\)"):
        Position.empty(variant).play(5)
    # the same place twice: X on the bottom, O on it; as cells, and as columns (places of a layer)
    assert moves_from_columns([5, 5], "X", variant) == [53, 37]


def test_a_board_play_cannot_build_is_refused() -> None:
    """One place holds X, X, O from the bottom, X first: an O from another place must come between
    the two X's, and there is none."""
    variant = get_variant("3x2x2k3-gravity")
    with pytest.raises(InvalidPositionError) as error:
        Position.parse("O.../X.../X...".replace("/", ""), None, variant)
    assert error.value.code == "unreachable"


def test_score_fours_symmetries_keep_the_layers() -> None:
    geometry = geometry_of(get_variant("4x4x4k4-gravity"))
    assert len(geometry.symmetries) == 8
    for symmetry in geometry.symmetries:
        assert all(symmetry[cell] // 16 == cell // 16 for cell in range(64))


@cache
def negamax(name: str, x: frozenset[int], o: frozenset[int]) -> tuple[int, int]:
    """(result, plies to the end) for the side to move in the model: the winner hurries, the loser
    delays; misère turns a line into a loss for its maker."""
    best: tuple[int, int] | None = None
    for cell in stack_moves(get_variant(name).sides, set(x | o)):
        value = move_value(name, x, o, cell)
        if best is None or _better(value, best):
            best = value
    assert best is not None
    return best


def move_value(name: str, x: frozenset[int], o: frozenset[int], cell: int) -> tuple[int, int]:
    """(result, plies to the end counting the move) of the side to move (holding `x`) playing `cell`."""
    variant, after = get_variant(name), x | {cell}
    if any(line <= after for line in _lines(name)):
        return (-1, 1) if variant.misere else (1, 1)
    if len(after | o) == variant.cells:
        return (0, 1)
    result, plies = negamax(name, o, after)
    return (-result, plies + 1)


@cache
def _lines(name: str) -> list[frozenset[int]]:
    variant = get_variant(name)
    return list(reference_lines(variant.sides, variant.k))


def _better(a: tuple[int, int], b: tuple[int, int]) -> bool:
    if a[0] != b[0]:
        return a[0] > b[0]
    return a[1] < b[1] if a[0] > 0 else a[1] > b[1] if a[0] < 0 else False


@pytest.mark.slow
@pytest.mark.parametrize("name", SMALL)
def test_the_search_is_the_plain_negamax(name: str) -> None:
    """Every move's value and distance, from the empty board and after a few random plies."""
    variant = get_variant(name)
    searcher = Searcher(variant, table_bits=16)
    rng = random.Random(name)
    for plies in (0, 2, 4, 6):
        position, x, o = Position.empty(variant), frozenset[int](), frozenset[int]()
        for _ in range(plies):
            if position.is_over:
                break
            cell = rng.choice(position.legal_moves())
            position, x, o = position.play(cell), o, x | {cell}
        if position.is_over:
            continue
        report = searcher.analyze(position, Budget())
        for move in report.moves:
            want = move_value(name, x, o, move.cell)
            assert move.lower == move.upper == want[0], (plies, move)
            assert move.remoteness == want[1], (plies, move)
