"""The provers benchmark's interval for a row's rate of exact positions (tests/bench/provers_bench.py)."""

import pytest

from tests.bench.provers_bench import wilson_interval

# Newcombe, "Two-sided confidence intervals for the single proportion: comparison of seven methods",
# Statistics in Medicine 17 (1998), table I, method 3 (the score method without continuity correction).
NEWCOMBE = [
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
]


@pytest.mark.parametrize(("successes", "trials", "low", "high"), NEWCOMBE)
def test_the_interval_is_wilsons_as_published(successes: int, trials: int, low: float, high: float) -> None:
    assert wilson_interval(successes, trials) == pytest.approx((low, high), abs=5e-5)


def test_the_interval_holds_the_rate_and_stays_within_zero_and_one() -> None:
    for trials in (1, 10, 30, 100, 300):
        for successes in range(trials + 1):
            low, high = wilson_interval(successes, trials)
            assert 0.0 <= low <= successes / trials <= high <= 1.0


def test_a_larger_sample_narrows_the_interval() -> None:
    widths = [high - low for low, high in (wilson_interval(9 * n, 10 * n) for n in (3, 10, 30))]
    assert widths == sorted(widths, reverse=True)


@pytest.mark.parametrize(("successes", "trials"), [(1, 0), (-1, 10), (11, 10)])
def test_an_impossible_count_is_refused(successes: int, trials: int) -> None:
    with pytest.raises(ValueError):
        wilson_interval(successes, trials)
