"""The alpha-beta search's double-threat rule (core/alphabeta.c, settle_doubles): a move that makes two
threats at once wins two plies later; against the opponent's, a move that neither answers it nor makes a
threat loses at the earliest loss there is, so the search leaves it out and the score stays exact.

Checked where the rule acts, against the brute-force reference (tests/reference.py) on square,
rectangular and torus boards; and what it is for: the remoteness of a 7x7k5 loss within a node count
the search without it needed five times over."""

from __future__ import annotations

import random

import pytest

from service.engine import get_variant
from service.engine.search import Board
from service.engine.search.native import (
    BIG,
    GOAL_SCORE,
    SCORE_MAX,
    SCORE_MIN,
    Game,
    Limits,
    TranspositionTable,
    prove,
)
from tests.reference import Reference, Rules

BOARDS = [Rules(5, 5, 4), Rules(4, 6, 4), Rules(5, 5, 4, torus=True)]
EMPTY_CELLS = 10  # the reference values every position below these quickly
POSITIONS = 6  # of each kind, per board


def threats_of(rules: Rules, board: str, mark: str) -> set[int]:
    """The cells where `mark` would complete a line."""
    threats = set()
    for line in rules.lines:
        empty = [c for c in line if board[c] == "."]
        if len(empty) == 1 and all(board[c] in (mark, ".") for c in line):
            threats.add(empty[0])
    return threats


def gaps_after(rules: Rules, board: str, mark: str, cell: int) -> set[int]:
    """The cells where `mark` would complete a line after playing `cell` (its new threats)."""
    return threats_of(rules, board[:cell] + mark + board[cell + 1 :], mark)


def kind_of(rules: Rules, board: str) -> str | None:
    """'double': X (to move) makes two threats with one move, O threatens nothing; 'cut': O could, X
    threatens nothing and has a move that neither answers O's double nor makes a threat (the rule
    leaves it out); else None."""
    empty = [i for i, c in enumerate(board) if c == "."]
    if threats_of(rules, board, "X") or threats_of(rules, board, "O"):
        return None
    if any(len(gaps_after(rules, board, "X", cell)) >= 2 for cell in empty):
        return "double"
    doubles = [cell for cell in empty if len(gaps_after(rules, board, "O", cell)) >= 2]
    for move in empty:
        if gaps_after(rules, board, "X", move):
            continue
        after = board[:move] + "X" + board[move + 1 :]
        if any(len(gaps_after(rules, after, "O", d)) >= 2 for d in doubles if d != move):
            return "cut"
    return None


def positions(rules: Rules, rng: random.Random) -> dict[str, list[str]]:
    """Random positions with X to move, EMPTY_CELLS empty and no line, of each kind."""
    found: dict[str, list[str]] = {"double": [], "cut": []}
    marks = rules.size - EMPTY_CELLS
    for _ in range(200_000):
        if all(len(boards) >= POSITIONS for boards in found.values()):
            break
        cells = rng.sample(range(rules.size), marks)
        board = "".join(
            "X" if i in cells[: marks // 2] else "O" if i in cells[marks // 2 :] else "."
            for i in range(rules.size)
        )
        if rules.holds_line(board, "X") or rules.holds_line(board, "O"):
            continue
        kind = kind_of(rules, board)
        if kind is not None and len(found[kind]) < POSITIONS:
            found[kind].append(board)
    return found


def name_of(rules: Rules) -> str:
    return f"{rules.rows}x{rules.cols}k{rules.k}" + ("-torus" if rules.torus else "")


@pytest.mark.slow
@pytest.mark.parametrize("rules", BOARDS, ids=name_of)
def test_where_the_rule_acts_every_moves_score_is_the_references(rules: Rules) -> None:
    reference = Reference(rules)
    game = Game.of(Board.of(get_variant(name_of(rules))))
    found = positions(rules, random.Random(7))
    assert all(len(boards) == POSITIONS for boards in found.values()), {k: len(v) for k, v in found.items()}
    marks = rules.size - EMPTY_CELLS
    for kind, boards in found.items():
        for board in boards:
            mine = sum(1 << i for i, c in enumerate(board) if c == "X")
            theirs = sum(1 << i for i, c in enumerate(board) if c == "O")
            score, plies = reference.value(board, "X")
            if kind == "double":
                assert (score, plies) == (1, 3), board
            expected = BIG - (marks + plies) if score > 0 else (marks + plies) - BIG if score < 0 else 0
            found_score = prove(
                game,
                TranspositionTable(12),
                mine,
                theirs,
                GOAL_SCORE,
                Limits(0.0, 0),
                SCORE_MIN,
                SCORE_MAX,
            )
            assert (found_score.lower, found_score.upper) == (expected, expected), (kind, board)
            for cell, (move_score, move_plies) in reference.moves(board, "X").items():
                after = prove(
                    game,
                    TranspositionTable(12),
                    theirs,
                    mine | 1 << cell,
                    GOAL_SCORE,
                    Limits(0.0, 0),
                    SCORE_MIN,
                    SCORE_MAX,
                )
                n = marks + 1
                end = n + move_plies - 1
                want = BIG - end if move_score > 0 else end - BIG if move_score < 0 else 0
                assert -after.lower == want, (kind, board, cell)


# Position 14 of tests/bench/search_bench's 7x7k5 positions after 12 random plies (seed 1), X to move;
# X's move on cell 6 loses (O completes a line 13 plies later: 26 marks). The search found that score in
# 1.1 million nodes before the rule, 211,000 with it.
X_MARKS, O_MARKS, LOSING_MOVE, O_WINS_AT = 0xC08C00000400, 0x4002520800, 6, 26
NODE_CAP = 400_000


def test_the_rule_finds_the_remoteness_of_a_7x7k5_loss_within_the_node_cap() -> None:
    game = Game.of(Board.of(get_variant("7x7k5")))
    outcome = prove(
        game,
        TranspositionTable(20),
        O_MARKS,
        X_MARKS | 1 << LOSING_MOVE,
        GOAL_SCORE,
        Limits(0.0, NODE_CAP),
        SCORE_MIN,
        SCORE_MAX,
    )
    assert (outcome.lower, outcome.upper) == (BIG - O_WINS_AT, BIG - O_WINS_AT)
    assert outcome.nodes < NODE_CAP
