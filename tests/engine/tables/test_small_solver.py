"""The small boards' solver (every arrangement at once, `tables/small_solver.py`) gives the panel
solver's bytes on every board it takes: the 100 boards of up to 12 cells, normal, misère and torus. The
panel solver is checked against the brute-force reference elsewhere (test_reference, test_facts)."""

from __future__ import annotations

import numpy as np
import pytest

from service.engine import Table, Variant, get_variant, read_position, solve, supported_variants
from service.engine.tables.classes import class_layout_of
from service.engine.tables.small_solver import SMALL_CELLS, small_tiers

SMALL = [v for v in supported_variants(SMALL_CELLS) if v.cells <= SMALL_CELLS and not v.gravity]


def test_it_takes_every_small_board() -> None:
    assert len(SMALL) == 100 and {v.cells for v in SMALL} == {6, 8, 9, 10, 12}  # 2 to 8 a side
    assert any(v.torus for v in SMALL) and any(v.misere for v in SMALL)


@pytest.mark.slow
@pytest.mark.parametrize("variant", SMALL, ids=lambda v: v.name)
def test_the_same_bytes_as_the_panel_solver(variant: Variant) -> None:
    layout = class_layout_of(variant)
    panels = solve(variant, layout, fold_small=False)
    for tier, values in small_tiers(variant, layout):
        assert np.array_equal(values, panels[layout.tier_offset[tier] : layout.tier_offset[tier + 1]]), tier


@pytest.mark.slow
def test_solve_takes_it_for_small_boards(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(*_: object) -> None:
        raise AssertionError("the small solver was asked")

    monkeypatch.setattr("service.engine.tables.solver.small_tiers", refused)
    with pytest.raises(AssertionError, match="small solver"):
        solve(get_variant("3x4k3-torus"), class_layout_of(get_variant("3x4k3-torus")))
    solve(get_variant("4x4k3"), class_layout_of(get_variant("4x4k3")))  # 16 cells: the panels


def test_a_known_fact_through_it() -> None:
    """3x3: a draw from the empty board, and X wins at once with two in a row and the third cell free."""
    variant = get_variant("normal")
    table = Table.in_memory(variant, solve(variant, class_layout_of(variant)))
    assert table.lookup(read_position("normal", ".........", None)).value.score == 0
    won = table.lookup(read_position("normal", "XX.OO....", None))
    assert won.value.score > 0 and won.value.remoteness == 1 and won.best_moves == (2,)
