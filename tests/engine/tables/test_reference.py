"""Every supported variant of at most 12 cells (square, rectangular, torus, misère), position by position
against the brute-force reference; the larger ones on positions sampled from random games.

The reference takes seconds per 12-cell board, so the comparisons run in two worker processes, started
once per session; each test waits for its own variant.
"""

from __future__ import annotations

import pytest

from service.engine import Variant, supported_variants
from tests import background
from tests.background import WAIT_SECONDS, Work
from tests.engine.tables.boards import assert_agrees_on_samples, compare_with_reference, table_of

# The reference here knows no gravity; gravity variants have their own (test_gravity_tables).
SMALL = [v for v in supported_variants(12) if v.cells <= 12 and not v.gravity]
LARGE = [v for v in supported_variants(64) if v.cells > 12 and not v.gravity]
O_FIRST_TOO = 9  # up to this many cells, the game O opens is compared in full as well


def start_in_background() -> Work:
    # Slowest first (most cells), so that the workers finish together.
    ordered = sorted(SMALL, key=lambda v: -v.cells)
    jobs = {v.long_name: (compare_with_reference, (v.long_name, v.cells <= O_FIRST_TOO)) for v in ordered}
    return background.started("reference", jobs)


@pytest.fixture(scope="session")
def comparisons() -> Work:
    return start_in_background()


def test_every_small_variant_is_compared() -> None:
    shapes = {(v.rows, v.cols) for v in SMALL}
    assert {(3, 3), (3, 4), (4, 3), (2, 6), (6, 2), (2, 3)} <= shapes
    assert len(SMALL) == 100 and sum(v.torus for v in SMALL) == sum(v.misere for v in SMALL) == 50


@pytest.mark.slow
@pytest.mark.parametrize("variant", SMALL, ids=lambda v: v.long_name)
def test_small_variant_equals_the_reference(comparisons: Work, variant: Variant) -> None:
    assert comparisons[variant.long_name].result(timeout=WAIT_SECONDS) == []


@pytest.mark.parametrize(
    "name",
    [
        "4x4k3",
        "4x4k4-misere",
        "4x4k3-torus",
        "4x4k4-torus-misere",
        "3x5k3-misere",
        "5x3k4-torus",
        "2x8k4",
        "2x7k3-torus",
    ],
)
def test_large_variant_on_sampled_positions(name: str) -> None:
    from service.engine import get_variant

    variant = get_variant(name)
    assert variant in LARGE
    assert_agrees_on_samples(table_of(variant), seed=len(name), count=30, empty_left=7)
