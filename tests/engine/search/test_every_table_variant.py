"""The search against the tables on every variant a table holds up to 16 cells (square, rectangular,
torus, misère, gravity; 440 of them): the value and remoteness of 5,000 positions each (every
reachable one on the smaller boards), drawn uniformly from the table itself; the score of the won or
lost ones among the first 1,000 again from their result's bounds alone (as the provers give it); and,
where they apply, the provers' results (prover_checks.py) on the first 1,000 of them. Run in two
processes."""

from __future__ import annotations

import numpy as np
import pytest

from service.engine import Variant, get_variant, solve, supported_variants
from service.engine.rules.values import DECODED
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
from tests import background
from tests.background import WAIT_SECONDS, Work
from tests.engine.search.exact_scores import score_of
from tests.engine.search.positions import masks_of
from tests.engine.search.prover_checks import prover_disagreements

VARIANTS = supported_variants(16)
SAMPLE = 5_000
KNOWN_RESULTS = 1_000  # positions whose score is also found from their result's bounds alone


def disagreements(name: str) -> list[str]:
    variant = get_variant(name)
    values = solve(variant)
    reachable = np.flatnonzero(values)
    rng = np.random.default_rng(variant.cells)
    ranks = reachable if len(reachable) <= SAMPLE else rng.choice(reachable, SAMPLE, replace=False)
    first, second = masks_of(variant.cells, ranks)
    board = Board.of(variant)
    game, table = Game(board), TranspositionTable(16)
    limits = Limits(deadline=0.0, nodes=0)
    found, live = [], []
    for rank, x, o in zip(ranks.tolist(), first.tolist(), second.tolist(), strict=True):
        value = DECODED[int(values[rank])]
        assert value is not None
        marks = (x | o).bit_count()
        mine, theirs = (x, o) if x.bit_count() == o.bit_count() else (o, x)
        if board.is_over(mine, theirs):
            continue  # a finished game: nothing to search (the rules tests cover it)
        live.append((mine, theirs, value.score))
        outcome = prove(game, table, mine, theirs, GOAL_SCORE, limits, SCORE_MIN, SCORE_MAX)
        want = score_of(value, marks, variant.cells)
        if not outcome.lower == outcome.upper == want:
            found.append(f"{name} rank {rank}: search [{outcome.lower}, {outcome.upper}], table {want}")
        if want and len(live) <= KNOWN_RESULTS:
            # the result known from elsewhere, as the provers give it: a win or a loss, its length open
            win = BIG - variant.cells
            known = (win, SCORE_MAX) if want > 0 else (SCORE_MIN, -win)
            outcome = prove(game, table, mine, theirs, GOAL_SCORE, limits, *known)
            if not outcome.lower == outcome.upper == want:
                found.append(
                    f"{name} rank {rank}: from {known} [{outcome.lower}, {outcome.upper}], table {want}"
                )
    found += prover_disagreements(variant, live)
    return [f"{name}: {len(ranks)} of {len(reachable)} positions", *found[:10]]


def start_in_background() -> Work:
    ordered = sorted(VARIANTS, key=lambda v: -v.cells)  # slowest first: the workers finish together
    return background.started(
        "every table variant", {v.long_name: (disagreements, (v.long_name,)) for v in ordered}
    )


@pytest.fixture(scope="module")
def comparisons() -> Work:
    return start_in_background()


@pytest.mark.slow
def test_every_variant_up_to_16_cells_is_compared() -> None:
    assert len(VARIANTS) == 440 and {v.cells for v in VARIANTS} == set(range(6, 17)) - {7, 11, 13}
    assert (
        sum(v.torus for v in VARIANTS)
        == sum(v.misere for v in VARIANTS)
        == sum(v.gravity for v in VARIANTS)
        == 220
    )


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.long_name)
def test_the_search_agrees_with_the_table(comparisons: Work, variant: Variant) -> None:
    summary, *problems = comparisons[variant.long_name].result(timeout=WAIT_SECONDS)
    assert problems == []
    counted, _, reachable = summary.split(": ")[1].split()[:3]
    assert int(counted) == min(SAMPLE, int(reachable))
