"""Proof zones (core/zones.c): a proof of the attacker's win holds whatever extra marks the defender
gets outside its zone, as alpha-beta (no provers) confirms; the guard cells are what make that so (with
them switched off, the same checks and the solved 3x3 table find wrong answers); and the replies and
moves the zones settle (`pruned`, core/zones.c) leave the answers as the table and alpha-beta have them.
(test_every_table_variant and test_provers_exhaustive check them on every board up to 16 cells: the
first 3,000 positions of the 4x4k4-torus table alone have 6,708 moves and replies settled so.)"""

from __future__ import annotations

import itertools
import random
import threading

import numpy as np
import pytest

from service.engine import Variant, get_variant, solve
from service.engine.rules.values import DECODED
from service.engine.search import Board
from service.engine.search.native import DEFAULT_OPTIONS, Game, Limits, ProverOptions, TranspositionTable
from service.engine.search.proof_number import ProofTable, Question, ask
from tests.engine.search.positions import masks_of, random_position
from tests.engine.search.prover_checks import (
    NO_LIMIT,
    UNGUARDED,
    alpha_beta_result,
    prover_disagreements,
    prover_result,
)


def zone_checks(
    name: str, empty: int, positions: int = 40, options: ProverOptions = DEFAULT_OPTIONS
) -> tuple[int, int]:
    """Every proof of either question about `positions` random positions with `empty` empty cells: each
    set of one or two extra defender's marks outside the proof's zone (no line of the defender completed)
    against alpha-beta. (checked, wrong): the sets checked, those where the attacker no longer wins. The
    questions are searched with `options`."""
    variant, rng = get_variant(name), random.Random(name)
    board = Board.of(variant)
    game, searcher = Game(board), TranspositionTable(16)
    checked = wrong = 0
    for _ in range(positions):
        mine, theirs = random_position(board, empty, rng)
        for attacker, defender, to_move in ((mine, theirs, True), (theirs, mine, False)):
            question = ask(game, ProofTable(14), attacker, defender, to_move, NO_LIMIT, options)
            if question.outcome != 1 or not question.zone:
                continue
            outside = [c for c in range(board.cells) if not (attacker | defender | question.zone) >> c & 1]
            for extra in itertools.chain.from_iterable(itertools.combinations(outside, n) for n in (1, 2)):
                more = defender | sum(1 << cell for cell in extra)
                if board.geometry.holds_line(more):
                    continue  # the game would be over: no such position arises
                if to_move:
                    wins = alpha_beta_result(game, searcher, attacker, more) == 1
                else:
                    wins = alpha_beta_result(game, searcher, more, attacker) == -1
                checked += 1
                wrong += not wins
    return checked, wrong


@pytest.mark.parametrize(
    ("name", "empty", "least"),
    [("4x4k3", 10, 800), ("5x5k4", 14, 900), ("5x5k4", 17, 600), ("6x6k5", 20, 800)],
)
def test_a_proof_holds_with_defender_marks_outside_its_zone(name: str, empty: int, least: int) -> None:
    checked, wrong = zone_checks(name, empty)
    assert checked >= least  # measured 1024, 1154, 834 and 1112: not a check of nothing
    assert wrong == 0


def test_without_the_guard_the_zones_are_wrong() -> None:
    _, wrong = zone_checks("5x5k4", 14, options=UNGUARDED)
    assert wrong > 0  # measured 380 of 1698: extra defender's marks outside such a zone make a four


def live_positions(variant: Variant) -> list[tuple[int, int, int]]:
    """Every reachable position of a game still going on: (mine, theirs, the table's score)."""
    values = solve(variant)
    ranks = np.flatnonzero(values)
    first, second = masks_of(variant.cells, ranks)
    board = Board.of(variant)
    positions = []
    for rank, x, o in zip(ranks.tolist(), first.tolist(), second.tolist(), strict=True):
        value = DECODED[int(values[rank])]
        assert value is not None
        mine, theirs = (x, o) if x.bit_count() == o.bit_count() else (o, x)
        if not board.is_over(mine, theirs):
            positions.append((mine, theirs, value.score))
    return positions


def test_unguarded_pruning_shows_against_the_solved_table() -> None:
    """Every reachable 3x3 position: the questions agree with the table, the zones settling some moves
    and replies; without the guard the replies settled wrongly make some answers wrong (4 positions)."""
    variant = get_variant("3x3k3")
    board, positions = Board.of(variant), live_positions(variant)
    assert prover_disagreements(variant, positions, limit=len(positions)) == []
    game, table, asked = Game(board), ProofTable(14), list[Question]()
    for mine, theirs, _ in positions:
        prover_result(game, table, mine, theirs, asked=asked)
    assert sum(question.pruned for question in asked) > 0  # measured 38: the zones did settle moves
    assert prover_disagreements(variant, positions, limit=len(positions), options=UNGUARDED) != []


@pytest.mark.slow
def test_two_threads_search_with_different_options_at_once() -> None:
    """The guard is the call's: while one thread searches every 3x3 position without it, another
    searching with it still agrees with the table (a process-wide switch, as the guard was, would have
    made both threads search without it), and the first finds the same wrong answers as alone."""
    variant = get_variant("3x3k3")
    positions, rounds = live_positions(variant), 12
    alone = prover_disagreements(variant, positions, limit=len(positions), options=UNGUARDED)
    assert alone != []
    unguarded: list[list[str]] = []

    def search_unguarded() -> None:
        for _ in range(rounds):
            unguarded.append(prover_disagreements(variant, positions, len(positions), UNGUARDED))

    thread = threading.Thread(target=search_unguarded)
    thread.start()
    guarded = [prover_disagreements(variant, positions, limit=len(positions)) for _ in range(rounds)]
    thread.join()
    assert guarded == [[]] * rounds
    assert unguarded == [alone] * rounds


def test_replies_settled_by_zones_leave_the_answers_as_alpha_beta_has_them() -> None:
    variant, rng = get_variant("6x6k5"), random.Random("6x6k5")
    board = Board.of(variant)
    game, table = Game(board), ProofTable(18)
    searcher, limits = TranspositionTable(18), Limits(0.0, 200_000)
    pruned = agreed = 0
    for _ in range(30):
        mine, theirs = random_position(board, 22, rng)
        want = alpha_beta_result(game, searcher, mine, theirs, limits)
        wins = ask(game, table, mine, theirs, True, limits)
        loses = ask(game, table, theirs, mine, False, limits)
        pruned += wins.pruned + loses.pruned
        if want is None or 0 in (wins.outcome, loses.outcome):
            continue
        got = 1 if wins.outcome == 1 else -1 if loses.outcome == 1 else 0
        assert got == want, f"{mine:#x}/{theirs:#x}: the provers {got}, alpha-beta {want}"
        agreed += 1
    assert pruned > 0  # measured 6: rare on boards this small (none on the 16-cell tables' positions)
    assert agreed >= 10  # measured 14
