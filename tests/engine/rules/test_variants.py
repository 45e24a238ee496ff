"""Variants are data: their names, the supported range, the presets, and the facts derived from them."""

from __future__ import annotations

import pytest

from service.engine import (
    MISERE,
    NORMAL,
    PRESETS,
    UnknownVariantError,
    Variant,
    geometry_of,
    get_variant,
    supported_variants,
)
from service.engine.rules.variants import MAX_CELLS, MAX_TABLE_CELLS
from tests.reference import rules_of


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "fields"),
    [
        ("4x4k3", (4, 4, 3, False, False)),
        ("3x4k3-misere", (3, 4, 3, True, False)),
        ("3x3k3-torus", (3, 3, 3, False, True)),
        ("4x4k4-torus-misere", (4, 4, 4, True, True)),
        ("2x8k8", (2, 8, 8, False, False)),
        ("normal", (3, 3, 3, False, False)),
        ("misere", (3, 3, 3, True, False)),
    ],
)
def test_names_give_their_parameters(name: str, fields: tuple[int, int, int, bool, bool]) -> None:
    variant = get_variant(name)
    assert (variant.rows, variant.cols, variant.k, variant.misere, variant.torus) == fields
    assert get_variant(variant.name) == variant == get_variant(variant.long_name)


def test_the_classic_board_keeps_its_short_names() -> None:
    assert get_variant("3x3k3") is NORMAL or get_variant("3x3k3") == NORMAL
    assert get_variant("3x3k3").name == "normal" and get_variant("3x3k3-misere").name == "misere"
    assert MISERE.long_name == "3x3k3-misere" and get_variant("3x3k3-torus").name == "3x3k3-torus"


@pytest.mark.parametrize(
    "name",
    [
        "giant",
        "4x4k3-misere-torus",  # the order is torus, then misère
        "4x4",
        "4X4k3",
        "04x4k3",
        "21x3k3",  # a side over 20
        "21x21k5",
        "3x21x3k3",
        "8x8x8k4",  # 512 cells, more than 20x20's 400
        "3x3x3k3-torus",  # a box takes no torus yet
        "3x3x3x3k3",  # four sides
        "1x8k3",  # a side of 1
        "4x4k2",  # k below 3
        "3x4k5",  # k above the longer side
        "2x2k3",
        "",
    ],
)
def test_other_names_raise_the_unknown_variant_error(name: str) -> None:
    with pytest.raises(UnknownVariantError) as caught:
        get_variant(name)
    assert caught.value.code == "unknown_variant" and caught.value.field == "variant"
    assert "{rows}x{cols}k{k}" in caught.value.message and str(MAX_CELLS) in caught.value.message
    assert isinstance(caught.value, ValueError)


def test_the_supported_range() -> None:
    every = supported_variants(MAX_CELLS)
    assert len(every) == len(set(every))
    for variant in every:
        assert variant.rows >= 2 and variant.cols >= 2 and variant.cells <= MAX_CELLS == 400
        assert max(variant.rows, variant.cols) <= 20
        assert 3 <= variant.k <= max(variant.rows, variant.cols)
        assert variant.has_table is (variant.cells <= MAX_TABLE_CELLS == 22)
    shapes = {(v.rows, v.cols) for v in every}
    assert {
        (4, 4),
        (2, 8),
        (8, 2),
        (5, 3),
        (4, 5),
        (3, 7),
        (2, 11),
        (11, 2),
        (3, 6),
        (5, 5),
        (8, 8),
        (9, 9),
        (15, 15),
        (19, 19),
        (20, 20),
        (2, 20),
        (3, 9),
    } <= shapes
    assert (2, 2) not in shapes and (2, 21) not in shapes and (21, 21) not in shapes
    assert {v.cells for v in supported_variants(22)} == {
        c for c in range(6, 23) if any(c % r == 0 and 2 <= r <= c // 2 for r in range(2, 12))
    }
    with pytest.raises(UnknownVariantError):
        Variant(3, 21, 3)


def test_presets_have_a_rule_sentence_each() -> None:
    names = [v.name for v in PRESETS]
    for needed in (
        "normal",
        "misere",
        "3x4k3",
        "3x4k3-misere",
        "4x4k3",
        "4x4k3-misere",
        "4x4k4",
        "4x4k4-misere",
    ):
        assert needed in names
    assert "3x3k3-torus" in names
    for variant in PRESETS:
        assert variant.rules.endswith("a full board without a line is a draw.")
        assert ("loses" in variant.rules) is variant.misere and ("wrap" in variant.rules) is variant.torus
    assert get_variant("4x4k4").rules.startswith("Four in a row wins on a 4×4 board")


@pytest.mark.parametrize(
    ("name", "lines", "symmetries", "centre", "max_depth"),
    [
        ("normal", 8, 8, 4, 8),
        ("3x3k3-torus", 12, 72, None, 8),
        ("3x4k3", 14, 4, None, 5),
        ("4x4k4", 10, 8, None, 4),
        ("4x4k3", 24, 8, None, 4),
        ("4x4k3-torus", 64, 128, None, 4),
        ("3x5k3", 20, 4, 7, 5),
        ("2x3k3", 2, 4, None, 5),
    ],
)
def test_facts_derived_from_the_variant(
    name: str, lines: int, symmetries: int, centre: int | None, max_depth: int
) -> None:
    variant = get_variant(name)
    geometry = geometry_of(variant)
    assert len(geometry.lines) == lines == len(rules_of(variant).lines)
    assert len(geometry.symmetries) == symmetries
    assert geometry.centre == centre
    assert geometry.max_depth == max_depth
    assert geometry.max_plies == variant.cells


@pytest.mark.parametrize(
    "variant",
    # gravity: test_gravity_rules; the grids of up to 8x8, and the longer strips a table holds (the
    # reference walks every symmetry's image: the strips of more cells and sides past 8 add 1,700
    # boards of minutes and nothing new to compare; test_boxes checks 15x15's lines)
    [
        v
        for v in supported_variants(64)
        if not v.misere and not v.gravity and (max(v.rows, v.cols) <= 8 or v.cells <= 22)
    ],
    ids=lambda v: v.long_name,
)
def test_lines_and_symmetries_agree_with_the_reference(variant: Variant) -> None:
    geometry = geometry_of(variant)
    rules = rules_of(variant)
    assert sorted(
        tuple(c for c in range(variant.cells) if line >> c & 1) for line in geometry.lines
    ) == sorted(rules.lines)
    labels = "".join(chr(ord("0") + cell) for cell in range(variant.cells))
    engine_images = {geometry.transform(labels, s) for s in geometry.symmetries}
    assert engine_images == rules.images(labels)
    line_sets = set(geometry.lines)
    for symmetry in geometry.symmetries:
        assert {geometry.permute(line, symmetry) for line in geometry.lines} == line_sets
