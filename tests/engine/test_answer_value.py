"""A position's value from its moves' proofs (answer.py's Answer.value): a win at once is the value even
while other moves are unproven, since every source settles the moves that end the game; a later win is
not. Checked against the brute-force reference (tests/reference.py) on positions of random 4x4k3 games
where the side to move can complete a line."""

from __future__ import annotations

import random

from service.engine import Position, Value, get_variant
from service.engine.answer import Answer, Source
from service.engine.rules.known_move import KnownMove
from tests.reference import Reference, Rules, has_line_in, next_boards, opponent

RULES = Rules(4, 4, 3)


def winning_at_once(rng: random.Random, count: int) -> list[tuple[str, str]]:
    """Positions of random games, no line yet, where the side to move completes one with some move."""
    found: list[tuple[str, str]] = []
    while len(found) < count:
        board, to_move = "." * RULES.size, "X"
        for _ in range(rng.randrange(4, 9)):
            _, board = rng.choice(next_boards(RULES, board, to_move))
            to_move = opponent(to_move)
            if has_line_in(RULES, board, opponent(to_move)):
                break
        else:
            wins = [
                c
                for c in RULES.moves(board)
                if has_line_in(RULES, board[:c] + to_move + board[c + 1 :], to_move)
            ]
            if wins:
                found.append((board, to_move))
    return found


def test_a_win_at_once_is_the_value_while_other_moves_are_unproven() -> None:
    reference, variant = Reference(RULES), get_variant(RULES.name)
    for board, to_move in winning_at_once(random.Random(5), 40):
        moves = reference.moves(board, to_move)
        # only the moves that end the game proven, as a search that ran out of time leaves them
        proofs = [
            KnownMove(cell, 1, 1, 1) if (score, plies) == (1, 1) else KnownMove(cell, -1, 1, None)
            for cell, (score, plies) in moves.items()
        ]
        answer = Answer.of_proofs(Position.parse(board, to_move, variant), proofs, Source.SEARCH)
        assert answer.value == Value(*reference.value(board, to_move)) == Value(1, 1), board
        assert answer.best_moves == tuple(sorted(c for c, v in moves.items() if v == (1, 1)))
        assert answer.exact is all(v == (1, 1) for v in moves.values())


def test_a_later_win_is_not_the_value_while_a_move_may_win_sooner() -> None:
    variant = get_variant(RULES.name)
    position = Position.parse("XX..OO..........", "X", variant)
    proofs = [KnownMove(cell, -1, 1, None) for cell in position.legal_moves()]
    proofs[0] = KnownMove(proofs[0].cell, 1, 1, 3)
    answer = Answer.of_proofs(position, proofs, Source.SEARCH)
    assert answer.result is not None and answer.value is None and answer.best_moves == ()
