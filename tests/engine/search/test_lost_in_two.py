"""A move after which the opponent completes a line at once is settled before any search (narrowing.py):
every move but a winning one when the opponent has two cells to complete a line on, every move but the
block when it has one. Checked against the brute-force reference (tests/reference.py) on positions of
random games where the side that just moved threatens, with a budget of one node, so that only the rule
can have settled what the answer proves; and on misère boards, where the rule must not act."""

from __future__ import annotations

import random

import pytest

from service.engine import get_variant
from service.engine.rules.position import Position
from service.engine.search import Budget, Searcher
from tests.reference import Reference, Rules, has_line_in, next_boards, opponent

BOARDS = [
    Rules(4, 4, 3),
    Rules(5, 5, 4, torus=True),
    Rules(5, 5, 4, gravity=True),
    Rules(4, 4, 3, misere=True),
]
EMPTY_CELLS = 9  # the reference values every position below these quickly
POSITIONS = 12  # per board


def threats_of(rules: Rules, board: str, mark: str) -> set[int]:
    """The cells `mark` could play now (under gravity, the lowest empty one of its column) to complete a
    line."""
    return {
        cell
        for cell in rules.moves(board)
        if has_line_in(rules, board[:cell] + mark + board[cell + 1 :], mark)
    }


def threatened(rules: Rules, rng: random.Random) -> list[tuple[str, str]]:
    """Positions of random games, EMPTY_CELLS left, no line yet, where the side that just moved could
    complete a line on its next move."""
    found: list[tuple[str, str]] = []
    for _ in range(20_000):
        board, to_move = "." * rules.size, "X"
        while board.count(".") > EMPTY_CELLS:
            _, board = rng.choice(next_boards(rules, board, to_move))
            to_move = opponent(to_move)
            if has_line_in(rules, board, opponent(to_move)):
                break
        else:
            if threats_of(rules, board, opponent(to_move)):
                found.append((board, to_move))
                if len(found) == POSITIONS:
                    return found
    return found


@pytest.mark.parametrize("rules", BOARDS, ids=lambda rules: rules.name)
def test_moves_that_let_a_line_be_completed_are_settled_without_a_search(rules: Rules) -> None:
    reference = Reference(rules)
    variant = get_variant(rules.name)
    searcher = Searcher(variant, table_bits=10)
    positions = threatened(rules, random.Random(11))
    assert len(positions) == POSITIONS
    settled = 0
    for board, to_move in positions:
        analysis = searcher.analyze(Position.parse(board, to_move, variant), Budget(nodes=1))
        expected = reference.moves(board, to_move)
        theirs = threats_of(rules, board, opponent(to_move))
        for move in analysis.moves:
            score, plies = expected[move.cell]
            if move.lower == move.upper:  # whatever settled it, it is the reference's
                assert move.lower == score, (board, move)
                assert move.remoteness in (None, plies), (board, move)
            ends_it = has_line_in(rules, board[: move.cell] + to_move + board[move.cell + 1 :], to_move)
            if not rules.misere and not ends_it and theirs - {move.cell}:
                assert (move.lower, move.upper, move.remoteness) == (-1, -1, 2), (board, move)
                settled += 1
    if not rules.misere:
        assert settled >= POSITIONS, settled


@pytest.mark.parametrize("name", ["15x15k5", "15x15k5-exact"])
def test_after_an_open_four_on_15x15_every_move_loses_in_two_within_one_node(name: str) -> None:
    """X's open four f8-i8 (h8 the centre), O's three above it, O to move: O cannot make five, and X
    makes five at e8 or j8 whatever O does. A quarter second of budget once proved none of it."""
    variant = get_variant(name)
    rows = ["." * 15] * 15
    rows[7] = "." * 5 + "XXXX" + "." * 6  # row 8 from the bottom is the 8th from the top too
    rows[6] = "." * 5 + "OOO" + "." * 7
    position = Position.parse("".join(rows), "O", variant)
    analysis = Searcher(variant, table_bits=10).analyze(position, Budget(nodes=1))
    assert len(analysis.moves) == 15 * 15 - 7
    assert {(move.lower, move.upper, move.remoteness) for move in analysis.moves} == {(-1, -1, 2)}
    assert analysis.nodes <= 1
