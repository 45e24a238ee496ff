"""The provers against a table's values (run by test_every_table_variant on each board up to 16 cells
where they apply, and by test_provers_exhaustive): each position's result as the two proof-number
questions give it, a pairing found for the side not to move (the side to move must then not win), a
threat sequence or a tree of threes found for the side to move (it must then win)."""

from __future__ import annotations

from functools import cache

import numpy as np
import numpy.typing as npt

from service.engine import Variant, get_variant, solve
from service.engine.rules.values import DECODED
from service.engine.search import Board, native
from service.engine.search.native import DEFAULT_OPTIONS, Game, Limits, ProverOptions, TranspositionTable
from service.engine.search.proof_number import ProofTable, Question, applies, ask
from service.engine.tables.layout import layout_of
from tests.core_debug import find_pairing, threat_sequence, threat_tree

NO_LIMIT = Limits(deadline=0.0, nodes=0)
UNGUARDED = ProverOptions(guard_zones=False)  # proof zones without their guard cells: unsound, for tests
CHECKED = 1000  # positions per variant: the questions cost more than alpha-beta near the end
TREE_DEPTH, TREE_NODES = 3, 2000  # a tree of threes (core/threats.c) looked for in each position


def prover_result(
    game: Game,
    table: ProofTable,
    mine: int,
    theirs: int,
    limits: Limits = NO_LIMIT,
    asked: list[Question] | None = None,
    options: ProverOptions = DEFAULT_OPTIONS,
) -> int | None:
    """The result for the side to move (holding `mine`) as the two questions give it: 1 it forces a
    line, -1 the other side does (the side to move moving first), 0 neither; None when a question is
    not settled within `limits` or both are proven (a contradiction). `asked`: gets both answers."""
    questions = [
        ask(game, table, mine, theirs, True, limits, options),
        ask(game, table, theirs, mine, False, limits, options),
    ]
    if asked is not None:
        asked += questions
    wins, loses = (question.outcome for question in questions)
    if wins == 0 or loses == 0 or (wins == 1 and loses == 1):
        return None
    return 1 if wins == 1 else -1 if loses == 1 else 0


def alpha_beta_result(
    game: Game, table: TranspositionTable, mine: int, theirs: int, limits: Limits = NO_LIMIT
) -> int | None:
    """The result for the side to move by alpha-beta alone (no provers: the independent check), None
    when not proven within `limits`."""
    outcome = native.prove(
        game, table, mine, theirs, native.GOAL_RESULT, limits, native.SCORE_MIN, native.SCORE_MAX
    )
    if outcome.lower >= 1 or outcome.upper <= -1:
        return 1 if outcome.lower >= 1 else -1
    return 0 if outcome.lower == outcome.upper else None


def prover_disagreements(
    variant: Variant,
    positions: list[tuple[int, int, int]],
    limit: int = CHECKED,
    options: ProverOptions = DEFAULT_OPTIONS,
) -> list[str]:
    """`positions`: (mine, theirs, the table's result for the side to move: 1, 0, -1), none over; the
    first `limit` of them are checked, the questions searched with `options`."""
    if not applies(variant):
        return []
    game, table = Game(Board.of(variant)), ProofTable(14)
    found = []
    for mine, theirs, want in positions[:limit]:
        got = prover_result(game, table, mine, theirs, options=options)
        if got != want:
            found.append(f"{variant.name} {mine:#x}/{theirs:#x}: the provers {got}, the table {want}")
        if want == 1 and find_pairing(game, mine, theirs, defender_to_move=False) is not None:
            found.append(f"{variant.name} {mine:#x}/{theirs:#x}: a pairing against a win")
        if want != 1 and threat_sequence(game, mine, theirs) is not None:
            found.append(f"{variant.name} {mine:#x}/{theirs:#x}: a threat sequence where no win is")
        if want != 1 and threat_tree(game, mine, theirs, TREE_DEPTH, TREE_NODES) is not None:
            found.append(f"{variant.name} {mine:#x}/{theirs:#x}: a tree of threes where no win is")
    return found


@cache
def solved(name: str) -> npt.NDArray[np.uint8]:
    return solve(get_variant(name))


def opening(board: Board, plies: int) -> list[tuple[int, int]]:
    """Every position (mine, theirs: the side to move first) within `plies` of the empty board, none
    over."""
    level, found = {(0, 0)}, [(0, 0)]
    for _ in range(plies):
        following = set()
        for mine, theirs in level:
            for cell in range(board.cells):
                if (mine | theirs) >> cell & 1:
                    continue
                child = (theirs, mine | 1 << cell)
                if not board.is_over(*child):
                    following.add(child)
        level = following
        found += sorted(level)
    return found


# (board, plies, the results the table gives them): 4x4 with four in a row is a draw after any 4 plies (so
# its positions test the disproofs: zones, pairings), with three in a row every result occurs.
OPENINGS = [("4x4k4", 4, {0}), ("4x4k3", 4, {1, 0, -1}), ("4x4k4-torus", 3, {0}), ("4x4k3-torus", 3, {1, -1})]


def check_openings(
    name: str, plies: int, results: set[int], options: ProverOptions = DEFAULT_OPTIONS
) -> None:
    """Every position within `plies` of the empty board: the provers (searching with `options`) give
    the table's result, and the table gives `results`."""
    variant = get_variant(name)
    board, layout, values = Board.of(variant), layout_of(variant.cells), solved(name)
    positions = []
    for mine, theirs in opening(board, plies):
        x, o = (mine, theirs) if mine.bit_count() == theirs.bit_count() else (theirs, mine)
        value = DECODED[int(values[layout.rank(x, o)])]
        assert value is not None
        positions.append((mine, theirs, value.score))
    assert len(positions) == (12857 if plies == 4 else 1937)  # 1 + 16 + 240 + 1680 (+ 10920)
    assert {score for _, _, score in positions} == results
    assert prover_disagreements(variant, positions, limit=len(positions), options=options) == []
