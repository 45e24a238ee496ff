"""Property tests on every kind of board (square, rectangular, torus, misère): random legal games against
the reference, symmetric images, colour swap, finished positions."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from service.engine import Position, Table
from tests.engine.strategies import KINDS, played_positions
from tests.engine.tables.boards import TABLES
from tests.reference import minimax, move_values, opponent, rules_of

LABELS = "abcdefghijklmnop"


def any_board() -> st.SearchStrategy[Position]:
    return played_positions(variants=KINDS)


def table_for(position: Position) -> Table:
    return TABLES[position.variant.name]


def cell_maps(position: Position) -> list[dict[int, int]]:
    """For each symmetry the reference knows for this board, where every cell goes."""
    labels = LABELS[: position.variant.cells]
    return [
        {labels.index(label): new for new, label in enumerate(image)}
        for image in rules_of(position.variant).images(labels)
    ]


def moved(board: str, where: dict[int, int]) -> str:
    out = [""] * len(board)
    for old, new in where.items():
        out[new] = board[old]
    return "".join(out)


@settings(max_examples=300, deadline=None)
@given(played_positions())
def test_random_classic_games_agree_with_brute_force(position: Position) -> None:
    misere = position.variant.misere
    analysis = table_for(position).lookup(position)
    assert tuple(analysis.value) == minimax(position.cells, position.to_move, misere)
    expected = move_values(position.cells, position.to_move, misere)
    assert {m.cell: tuple(m.value) for m in analysis.moves} == expected


@settings(max_examples=200, deadline=None)
@given(any_board())
def test_symmetric_images_get_symmetric_answers(position: Position) -> None:
    table = table_for(position)
    original = table.lookup(position)
    by_cell = {m.cell: m.value for m in original.moves}
    maps = cell_maps(position)
    assert len(maps) == len(position.geometry.symmetries)
    for where in maps:
        image = table.lookup(Position.parse(moved(position.cells, where), position.to_move, position.variant))
        assert image.value == original.value
        assert {m.cell: m.value for m in image.moves} == {where[c]: v for c, v in by_cell.items()}
        assert sorted(image.best_moves) == sorted(where[c] for c in original.best_moves)


@settings(max_examples=200, deadline=None)
@given(any_board())
def test_swapping_colours_and_side_gives_the_same_answers(position: Position) -> None:
    swapped_board = position.cells.translate(str.maketrans("XO", "OX"))
    swapped = Position.parse(swapped_board, opponent(position.to_move), position.variant)
    table = table_for(position)
    assert swapped.first == position.first.other
    assert table.lookup(swapped).moves == table.lookup(position).moves
    assert table.value(swapped) == table.value(position)


@settings(max_examples=200, deadline=None)
@given(any_board())
def test_finished_positions_have_no_moves(position: Position) -> None:
    analysis = table_for(position).lookup(position)
    if position.is_over:
        assert analysis.moves == () and analysis.best_move is None and analysis.best_moves == ()
        assert analysis.value.remoteness == 0
    else:
        assert analysis.moves and analysis.best_move is not None
        assert analysis.value.remoteness >= 1
