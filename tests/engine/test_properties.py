"""Property tests: random legal games against the reference, symmetry and colour swap."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from service.engine import Position, Solver, warm_solvers
from tests.engine.games import played_positions
from tests.reference import images, minimax, move_values, opponent

SOLVERS = warm_solvers()


def positions() -> st.SearchStrategy[Position]:
    return played_positions()


def solver_for(position: Position) -> Solver:
    return SOLVERS[position.variant.name]


def cell_images(board: str) -> list[tuple[str, dict[int, int]]]:
    """Each symmetric image of `board` with where every cell went."""
    labels = "abcdefghi"
    out = []
    for image, labelled in zip(images(board), images(labels), strict=True):
        out.append((image, {labels.index(ch): new for new, ch in enumerate(labelled)}))
    return out


@settings(max_examples=300, deadline=None)
@given(positions())
def test_random_games_agree_with_brute_force(position: Position) -> None:
    misere = position.variant.misere
    analysis = solver_for(position).analyze(position)
    assert tuple(analysis.value) == minimax(position.cells, position.to_move, misere)
    expected = move_values(position.cells, position.to_move, misere)
    assert {m.cell: tuple(m.value) for m in analysis.moves} == expected


@settings(max_examples=200, deadline=None)
@given(positions())
def test_symmetric_images_get_symmetric_answers(position: Position) -> None:
    solver = solver_for(position)
    original = solver.analyze(position)
    by_cell = {m.cell: m.value for m in original.moves}
    for board, where in cell_images(position.cells):
        image = solver.analyze(Position.parse(board, position.to_move, position.variant))
        assert image.value == original.value
        assert {m.cell: m.value for m in image.moves} == {where[c]: v for c, v in by_cell.items()}
        assert sorted(image.best_moves) == sorted(where[c] for c in original.best_moves)


@settings(max_examples=200, deadline=None)
@given(positions())
def test_swapping_colours_and_side_gives_the_same_answers(position: Position) -> None:
    swapped_board = position.cells.translate(str.maketrans("XO", "OX"))
    swapped = Position.parse(swapped_board, opponent(position.to_move), position.variant)
    solver = solver_for(position)
    assert solver.analyze(swapped).moves == solver.analyze(position).moves
    assert solver.value(swapped) == solver.value(position)


@settings(max_examples=200, deadline=None)
@given(positions())
def test_finished_positions_have_no_moves(position: Position) -> None:
    analysis = solver_for(position).analyze(position)
    if position.is_over:
        assert analysis.moves == () and analysis.best_move is None and analysis.best_moves == ()
        assert analysis.value.remoteness == 0
    else:
        assert analysis.moves and analysis.best_move is not None
