"""Gravity boards (a move is the lowest empty cell of a column) against the brute-force reference, and
the small Connect Four boards from empty against Tromp's table."""

from __future__ import annotations

import random

import pytest

from service.engine import Position, Value, Variant
from service.engine.search import Budget, Searcher
from tests.reference import Reference, Rules
from tests.reference import opponent as other

# rows, cols, k, misère, torus; the larger ones on positions some plies deep, where the reference is quick
WHOLE = [
    Rules(3, 4, 3, gravity=True),
    Rules(3, 4, 3, misere=True, gravity=True),
    Rules(4, 3, 3, gravity=True),
]
DEEP = [
    (Rules(4, 4, 3, gravity=True), 5),
    (Rules(4, 4, 3, misere=True, gravity=True), 6),
    (Rules(4, 4, 3, torus=True, gravity=True), 6),
    (Rules(4, 5, 4, gravity=True), 9),
    (Rules(4, 5, 4, misere=True, gravity=True), 10),
]
SAMPLES = 40


def variant_of(rules: Rules) -> Variant:
    return Variant(rules.rows, rules.cols, rules.k, rules.misere, rules.torus, gravity=True)


def searcher_values(searcher: Searcher, board: str, to_move: str) -> dict[int, tuple[int, int]]:
    analysis = searcher.analyze(Position.parse(board, to_move, searcher.variant), Budget())
    assert analysis.exact
    return {m.cell: (m.value.score, m.value.remoteness) for m in analysis.moves if m.value is not None}


@pytest.mark.parametrize("rules", WHOLE, ids=repr)
def test_every_position_of_a_small_gravity_board(rules: Rules) -> None:
    reference, searcher = Reference(rules), Searcher(variant_of(rules), table_bits=14)
    reference.value("." * rules.size, "X")  # fills the memo with every position reachable from empty
    positions = list(reference.memo)
    assert len(positions) > 1000
    for board, to_move in positions:
        over = rules.holds_line(board, other(to_move)) or "." not in board
        want = {} if over else reference.moves(board, to_move)
        assert searcher_values(searcher, board, to_move) == want, (board, to_move)


def random_position(rules: Rules, plies: int, rng: random.Random) -> tuple[str, str]:
    board, to_move = "." * rules.size, "X"
    for _ in range(plies):
        if rules.holds_line(board, other(to_move)) or "." not in board:
            break
        cell = rng.choice(rules.moves(board))
        board, to_move = board[:cell] + to_move + board[cell + 1 :], other(to_move)
    return board, to_move


@pytest.mark.parametrize(("rules", "plies"), DEEP, ids=repr)
def test_positions_of_random_gravity_games(rules: Rules, plies: int) -> None:
    reference, searcher = Reference(rules), Searcher(variant_of(rules), table_bits=14)
    rng = random.Random(plies)
    for _ in range(SAMPLES):
        board, to_move = random_position(rules, plies + rng.randrange(4), rng)
        over = rules.holds_line(board, other(to_move)) or "." not in board
        want = {} if over else reference.moves(board, to_move)
        assert searcher_values(searcher, board, to_move) == want, (board, to_move)


# Columns x rows as Tromp gives them, four in a row, from the empty board: the first player's result and
# the ply the game ends on under perfect play (Steininger's table; a draw fills the board).
TROMP = [(4, 4, 0, 16), (5, 4, 0, 20), (6, 4, -1, 24), (4, 5, 0, 20), (5, 5, 0, 25), (6, 5, 0, 30)]
TROMP += [(4, 6, 0, 24), (5, 6, 0, 30)]


@pytest.mark.parametrize(("cols", "rows", "result", "ply"), TROMP, ids=lambda v: str(v))
def test_small_connect_four_boards_from_empty(cols: int, rows: int, result: int, ply: int) -> None:
    variant = Variant(rows, cols, 4, gravity=True)
    searcher = Searcher(variant, table_bits=20)
    assert searcher.analyze(Position.empty(variant), Budget()).value == Value(result, ply)
