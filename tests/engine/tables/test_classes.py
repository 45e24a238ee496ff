"""Tables of format 3 (one entry per class of symmetric positions) against format 2 (one per position):
the same answer for every position of small boards of each kind, the class solver's own tables (not
folded from the ranked ones), and a layout that gives each class exactly one entry, found in O(cells)
from any of its positions."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.engine import Position, Table, TableStore, get_variant, solve
from service.engine.rules.geometry import geometry_of
from service.engine.tables.building import build_file
from service.engine.tables.classes import class_layout_of
from service.engine.tables.layout import layout_of
from service.engine.tables.orbits import class_counts
from service.engine.tables.parts import distinct
from service.engine.tables.stream import tier_positions
from service.engine.tables.table_file import open_table, read_header
from tests.engine.tables.boards import formats_differ

KINDS = [
    "4x4k4",  # square: 8 symmetries
    "3x5k3",  # rectangle: 4
    "4x4k3-torus-misere",  # torus (its point symmetries) and misère
    "3x4k3-misere",
    "4x4k4-gravity",  # the mirror alone
    "3x5k3-gravity-misere",
    "3x4k3-torus-gravity",
]


def permuted(masks: np.ndarray, symmetry: tuple[int, ...]) -> np.ndarray:
    out = np.zeros_like(masks)
    for cell, target in enumerate(symmetry):
        out |= ((masks >> np.uint32(cell)) & np.uint32(1)) << np.uint32(target)
    return out


@pytest.mark.slow
@pytest.mark.parametrize("name", KINDS)
def test_format_3_answers_what_format_2_answers_for_every_position(name: str) -> None:
    variant = get_variant(name)
    classes = class_layout_of(variant)
    ranked = Table.in_memory(variant, solve(variant), layout_of(variant.cells))
    folded = Table.in_memory(variant, solve(variant, classes, fold_small=False), classes)
    assert formats_differ(variant, ranked, folded) == []
    assert folded.positions == ranked.positions  # the classes' orbit sizes add up to the positions
    rng = random.Random(name)
    for _ in range(300):  # every move's value as well, the lookup's own path
        position = Position.empty(variant)
        for _ in range(rng.randrange(variant.cells)):
            if position.is_over:
                break
            position = position.play(rng.choice(position.legal_moves()))
        assert folded.lookup(position) == ranked.lookup(position)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["3x3k3", "3x4k3", "4x4k4", "3x3k3-torus", "3x5k3-gravity"])
def test_each_class_has_exactly_one_entry_whatever_image_is_looked_up(name: str) -> None:
    variant = get_variant(name)
    layout = class_layout_of(variant)
    group = layout.group
    assert set(group) <= set(geometry_of(variant).symmetries) and len(group) == (
        2 if variant.gravity else 8 if variant.rows == variant.cols else 4
    )
    hit = np.zeros(layout.size, dtype=np.int64)
    step = 1 if variant.cells <= 15 else 5  # 4x4's images: every fifth position (31 s -> 13 s here)
    for tier in range(variant.cells + 1):
        for every_first, every_second in tier_positions(variant.cells, tier):
            np.add.at(hit, layout.ranks(every_first, every_second), 1)
            first, second = every_first[::step], every_second[::step]
            ranks = layout.ranks(first, second)
            for symmetry in group:  # every image of a position finds the same entry
                assert np.array_equal(
                    layout.ranks(permuted(first, symmetry), permuted(second, symmetry)), ranks
                )
            # the smallest image (by the pair of masks) names the class: one entry per class
            smallest = np.minimum.reduce(
                [permuted(first, s).astype(np.int64) << 32 | permuted(second, s) for s in group]
            )
            assert len(np.unique(smallest)) == len(np.unique(ranks))
    assert (hit > 0).all()  # and no entry stands for nothing
    assert layout.size == sum(class_counts(variant))


def test_the_scalar_lookup_agrees_with_the_vectorised_one() -> None:
    variant = get_variant("4x5k4")
    layout = class_layout_of(variant)
    rng = np.random.default_rng(5)
    for tier in (0, 1, 7, 12, 20):
        first, second = next(tier_positions(variant.cells, tier, 1 << 16))
        chosen = rng.choice(len(first), size=min(200, len(first)), replace=False)
        ranks = layout.ranks(first[chosen], second[chosen])
        assert [layout.rank(int(f), int(s)) for f, s in zip(first[chosen], second[chosen], strict=True)] == (
            ranks.tolist()
        )


def test_the_5x5_plan_counts_without_building_the_layout() -> None:
    """Figures from the field notes: 161,995,031,226 positions with legal counts on 25 cells,
    20,250,427,177 up to the 8 symmetries of the square."""
    variant = get_variant("5x5k4")
    assert sum(class_counts(variant, reduce=False)) == 161_995_031_226
    assert sum(class_counts(variant)) == 20_250_427_177


def test_a_format_2_file_is_still_read(tmp_path: Path) -> None:
    variant = get_variant("3x4k3")
    build_file(tmp_path / "3x4k3.table", variant, reduce=False)
    assert read_header(tmp_path / "3x4k3.table")["format"] == 2
    old = open_table(tmp_path / "3x4k3.table", variant)
    new = TableStore(tmp_path / "new").get(variant)
    assert len(old.values) == 143_365 and len(new.values) == 36_253
    empty = Position.empty(variant)
    assert old.lookup(empty) == new.lookup(empty) and old.positions == new.positions == 111_973


@given(st.lists(st.integers(min_value=0, max_value=2047), max_size=50))
def test_distinct_is_what_np_unique_says(values: list[int]) -> None:
    # the tables' stand-in for np.unique (whose first call imports numpy.ma before a server's first answer)
    array = np.array(values, dtype=np.int64)
    assert distinct(array) == np.unique(array).tolist()


def test_one_class_layout_per_variant_and_flag_however_asked() -> None:
    variant = get_variant("3x4k3")
    assert class_layout_of(variant) is class_layout_of(variant, True) is class_layout_of(variant, reduce=True)
    assert class_layout_of(variant, False) is class_layout_of(variant, reduce=False)
    assert class_layout_of(variant) is not class_layout_of(variant, reduce=False)
