"""Policies: the registry and its errors, then each policy against what it promises."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.engine import (
    MISERE,
    NORMAL,
    POLICIES,
    VARIANTS,
    EngineError,
    PolicyError,
    Position,
    choose_move,
    player,
)
from service.engine.play.strategy import strategy_move
from tests.engine.strategies import played_positions
from tests.engine.tables.boards import TABLES
from tests.reference import LINES, all_reachable, minimax, move_values, opponent

SOLVERS = TABLES


def in_progress(variant: str, first: str = "X") -> list[Position]:
    boards = all_reachable(first)
    positions = [Position.parse(b, m, VARIANTS[variant]) for b, m in sorted(boards.items())]
    return [p for p in positions if not p.is_over]


def positions() -> st.SearchStrategy[Position]:
    """A game in progress (a finished one is replaced by the empty board)."""
    return played_positions(max_plies=8).map(lambda p: Position.empty(p.variant) if p.is_over else p)


def reference_best(board: str, to_move: str, misere: bool) -> tuple[int, ...]:
    values = move_values(board, to_move, misere)
    best = minimax(board, to_move, misere)
    return tuple(sorted(c for c, v in values.items() if v == best))


def test_the_registry_names_six_policies() -> None:
    assert list(POLICIES) == ["perfect", "random-best", "human", "strategy", "depth", "random"]
    assert {n for n, p in POLICIES.items() if p.uses_seed} == {"random-best", "random"}
    assert {n for n, p in POLICIES.items() if p.uses_depth} == {"depth"}
    assert all(p.summary.endswith(".") for p in POLICIES.values())


@pytest.mark.parametrize(
    ("board", "policy", "depth", "code", "field"),
    [
        (".........", "best", None, "unknown_policy", "policy"),
        (".........", "Perfect", None, "unknown_policy", "policy"),
        (".........", "depth", 0, "bad_depth", "depth"),
        (".........", "depth", 9, "bad_depth", "depth"),
        (".........", "perfect", -1, "bad_depth", "depth"),
        ("XXXOO....", "perfect", None, "game_over", "board"),
        ("XOXXOOOXX", "random", None, "game_over", "board"),
    ],
)
def test_bad_requests_name_their_cause(
    board: str, policy: str, depth: int | None, code: str, field: str
) -> None:
    with pytest.raises(PolicyError) as caught:
        choose_move(SOLVERS["normal"], Position.parse(board), policy, depth)
    assert isinstance(caught.value, EngineError)
    assert (caught.value.code, caught.value.field) == (code, field)
    assert str(caught.value) == caught.value.message


def test_unknown_policy_lists_the_known_ones() -> None:
    with pytest.raises(PolicyError, match="known policies: perfect, random-best, human"):
        player("minimax")


@settings(max_examples=200, deadline=None)
@given(positions(), st.sampled_from(sorted(POLICIES)), st.integers(1, 8), st.integers(0, 2**32))
def test_every_policy_plays_a_legal_move_and_a_seed_repeats_it(
    position: Position, policy: str, depth: int, seed: int
) -> None:
    solver = SOLVERS[position.variant.name]
    cell = choose_move(solver, position, policy, depth, seed)
    assert cell in position.legal_moves()
    assert choose_move(solver, position, policy, depth, seed) == cell


@pytest.mark.parametrize("variant", ["normal", "misere"])
def test_perfect_plays_the_lowest_best_move_of_the_reference(variant: str) -> None:
    solver, misere = SOLVERS[variant], variant == "misere"
    for position in in_progress(variant, "O"):
        best = reference_best(position.cells, position.to_move, misere)
        assert choose_move(solver, position, "perfect") == best[0], position.cells


def test_random_best_draws_every_best_move_and_nothing_else() -> None:
    solver = SOLVERS["misere"]
    for board in (".........", "....X....", "X...O...."):
        position = Position.parse(board, None, MISERE)
        best = set(reference_best(position.cells, position.to_move, True))
        seen = {choose_move(solver, position, "random-best", seed=s) for s in range(200)}
        assert seen == best, board
    normal = {choose_move(SOLVERS["normal"], Position.empty(), "random-best", seed=s) for s in range(200)}
    assert normal == set(range(9))


def test_random_draws_every_legal_move_and_a_player_keeps_one_generator() -> None:
    position = Position.parse("XO.......")
    seen = {choose_move(SOLVERS["normal"], position, "random", seed=s) for s in range(200)}
    assert seen == set(range(2, 9))
    # One player draws a fresh number per call: the same position need not get the same move twice.
    chooser = player("random", seed=7)
    assert len({chooser(SOLVERS["normal"], position) for _ in range(50)}) > 1


class Untouchable:
    """Stands in for a table: any use of it fails the test."""

    def __getattr__(self, name: str) -> object:
        raise AssertionError(f"the policy read the table ({name})")


@pytest.mark.parametrize("policy", ["strategy", "depth", "random"])
def test_policies_without_exact_values_never_read_the_table(policy: str) -> None:
    for variant in (NORMAL, MISERE):
        for board in (".........", "X...O....", "XO..X...."):
            untouchable: Any = Untouchable()
            choose_move(untouchable, Position.parse(board, None, variant), policy, 8, seed=1)


# The human policy, checked against counts taken from the reference.


def mistakes_left(board: str, to_move: str, misere: bool) -> int:
    """Replies in `board` that give `to_move` a worse result than its best."""
    best = minimax(board, to_move, misere)[0]
    return sum(v[0] < best for v in move_values(board, to_move, misere).values())


def expected_human(board: str, to_move: str, misere: bool) -> int:
    values = move_values(board, to_move, misere)
    best = minimax(board, to_move, misere)
    candidates = values if best[0] < 0 else {c: v for c, v in values.items() if v == best}

    def rank(cell: int) -> tuple[int, int, int]:
        child = board[:cell] + to_move + board[cell + 1 :]
        score, plies = candidates[cell]
        return (-mistakes_left(child, opponent(to_move), misere), -score, plies if score > 0 else -plies)

    return min(sorted(candidates), key=rank)


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["normal", "misere"])
def test_human_matches_its_definition_in_every_position(variant: str) -> None:
    solver, misere = SOLVERS[variant], variant == "misere"
    differs = 0
    for position in in_progress(variant):
        cell = choose_move(solver, position, "human")
        assert cell == expected_human(position.cells, position.to_move, misere), position.cells
        differs += cell != choose_move(solver, position, "perfect")
    assert differs > 100  # it is not perfect play under another name


def test_human_when_lost_sets_the_most_traps() -> None:
    # O is lost: every move loses in 2 plies. After O takes 1, X's replies 0 and 2 only draw;
    # after O takes 0, only X's reply 2 goes wrong. Perfect play takes the lowest cell, 0.
    position = Position.parse("....XXOXO")
    assert set(move_values(position.cells, "O", False).values()) == {(-1, 2)}
    assert mistakes_left(".O..XXOXO", "X", False) == 2
    assert mistakes_left("O...XXOXO", "X", False) == 1
    assert choose_move(SOLVERS["normal"], position, "perfect") == 0
    assert choose_move(SOLVERS["normal"], position, "human") == 1


# The strategy policy, against the rules of article 000 written out with plain lists.


@cache
def completing(board: str, mark: str) -> tuple[int, ...]:
    cells = set()
    for line in LINES:
        marks = [board[i] for i in line]
        if marks.count(mark) == 2 and marks.count(".") == 1:
            cells.add(line[marks.index(".")])
    return tuple(sorted(cells))


def article_rules(board: str, me: str) -> int:
    free = [i for i in range(9) if board[i] == "."]
    for choice in (completing(board, me), completing(board, opponent(me)), (4,), (0, 2, 6, 8), free):
        for cell in choice:
            if board[cell] == ".":
                return cell
    raise AssertionError("no free cell")


@pytest.mark.slow
def test_strategy_follows_the_article_in_every_normal_position() -> None:
    for position in in_progress("normal") + in_progress("normal", "O"):
        assert strategy_move(position) == article_rules(position.cells, position.to_move), position.cells


def test_strategy_plays_the_articles_game_against_itself() -> None:
    # Article 000 prints this game, O first in the centre, and its result: a draw.
    position, cells = Position.empty(NORMAL, "O"), []
    while not position.is_over:
        cells.append(strategy_move(position))
        position = position.play(cells[-1])
    assert cells == [4, 0, 2, 6, 3, 5, 8, 1, 7]
    assert position.cells == "XXOOOXXOO" and position.status.value == "draw"


@pytest.mark.parametrize("board", ["XX.OO....", "OO.XX...X"])
def test_strategy_wins_before_it_blocks(board: str) -> None:
    assert strategy_move(Position.parse(board)) == 2


def worst_result(position: Position, me: str) -> int:
    """The worst that can happen to `me` playing the strategy, whatever the opponent does."""
    if position.is_over:
        winner = {"x_won": "X", "o_won": "O"}.get(position.status.value)
        return 0 if winner is None else 1 if winner == me else -1
    if position.to_move == me:
        return worst_result(position.play(strategy_move(position)), me)
    return min(worst_result(position.play(c), me) for c in position.legal_moves())


@pytest.mark.parametrize(
    ("variant", "me", "worst"),
    [("normal", "X", 0), ("normal", "O", -1), ("misere", "X", 0), ("misere", "O", 0)],
)
def test_strategy_against_every_opponent(variant: str, me: str, worst: int) -> None:
    # Normal rules: first it cannot be beaten, second it falls to a fork. Misère: never beaten.
    assert worst_result(Position.empty(VARIANTS[variant]), me) == worst


def test_misere_strategy_opens_in_the_centre_and_mirrors() -> None:
    assert strategy_move(Position.empty(MISERE)) == 4
    assert strategy_move(Position.parse("O...X....", None, MISERE)) == 8
    assert strategy_move(Position.parse(".O..X....", None, MISERE)) == 7
    assert strategy_move(Position.parse(".O.OX..X.", None, MISERE)) == 5


def test_misere_strategy_completes_its_own_line_only_when_forced() -> None:
    for position in in_progress("misere"):
        cell = strategy_move(position)
        own = completing(position.cells, position.to_move)
        forced = set(position.legal_moves()) <= set(own)
        assert (cell in own) == forced, position.cells
