"""The main line: perfect play to the end, as long as the remoteness and ending as the value says."""

from __future__ import annotations

import pytest

from service.engine import MISERE, NORMAL, VARIANTS, Position, Status, Table, main_line
from tests.reference import all_reachable, minimax, move_values


def expected_status(position: Position, score: int) -> Status:
    """How the game ends for a side to move that gets `score`."""
    if score == 0:
        return Status.DRAW
    winner = position.to_move if score > 0 else ("O" if position.to_move == "X" else "X")
    return Status.X_WON if winner == "X" else Status.O_WON


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["normal", "misere"])
@pytest.mark.parametrize("first", ["X", "O"])
def test_every_main_line_lasts_the_remoteness_and_ends_as_the_value_says(
    tables: dict[str, Table], variant: str, first: str
) -> None:
    solver, misere = tables[variant], variant == "misere"
    for board, to_move in all_reachable(first).items():
        position = Position.parse(board, to_move, VARIANTS[variant])
        line = main_line(solver, position)
        score, remoteness = minimax(board, to_move, misere)
        assert tuple(line.value) == (score, remoteness)
        assert len(line.cells) == remoteness, board
        assert line.status is line.final.status is expected_status(position, score), board
        assert line.start == position


@pytest.mark.parametrize("variant", ["normal", "misere"])
def test_each_ply_of_the_main_line_is_the_lowest_best_move(tables: dict[str, Table], variant: str) -> None:
    solver, misere = tables[variant], variant == "misere"
    for board, to_move in all_reachable("X").items():
        position = Position.parse(board, to_move, VARIANTS[variant])
        line = main_line(solver, position)
        for cell in line.cells:
            values = move_values(position.cells, position.to_move, misere)
            best = minimax(position.cells, position.to_move, misere)
            assert cell == min(c for c, v in values.items() if v == best)
            position = position.play(cell)
        assert position == line.final
        assert solver.value(position).remoteness == 0


def test_known_main_lines(tables: dict[str, Table]) -> None:
    normal = main_line(tables["normal"], Position.empty(NORMAL))
    assert normal.cells == (0, 4, 1, 2, 6, 3, 5, 7, 8) and normal.status is Status.DRAW
    misere = main_line(tables["misere"], Position.empty(MISERE))
    assert misere.cells[0] == 4 and len(misere.cells) == 9 and misere.status is Status.DRAW
    won = main_line(tables["normal"], Position.parse("XX.OO...."))
    assert won.cells == (2,) and won.status is Status.X_WON


def test_a_finished_game_has_an_empty_main_line(tables: dict[str, Table]) -> None:
    finished = Position.parse("XXXOO....")
    line = main_line(tables["normal"], finished)
    assert line.cells == () and line.final == finished and line.status is Status.X_WON
    assert tuple(line.value) == (-1, 0)
