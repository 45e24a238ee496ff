"""Boxes of layers (3-D boards) and boards past 64 cells: names, lines and symmetries, against references
written here.

Facts from outside the project: 3x3x3 three in a row has 49 lines; Qubic, 4x4x4 four in a row, has 76
(Patashnik 1980); a cube's rotations and reflections are 48 (the hyperoctahedral group of order 2^3 * 3!);
Qubic's lines are kept by 192 permutations of its cells (Silver 1967; Patashnik uses them); five in a row
on 15x15 has 572 lines.
"""

from __future__ import annotations

import itertools

import pytest

from service.engine import Position, geometry_of, get_variant

Place = tuple[int, int, int]


def reference_lines(sides: tuple[int, ...], k: int) -> set[frozenset[int]]:
    """Every k cells in a row, found apart from the engine's walk: every pair of cells k - 1 steps apart
    along a direction whose steps are -1, 0 or 1 on each side, with the cells between them."""
    places = list(itertools.product(*(range(side) for side in sides)))

    def cell(place: tuple[int, ...]) -> int:
        number = 0
        for side, at in zip(sides, place, strict=True):
            number = number * side + at
        return number

    found = set()
    for start, end in itertools.permutations(places, 2):
        steps = [(b - a) for a, b in zip(start, end, strict=True)]
        if any(abs(s) not in (0, k - 1) for s in steps):
            continue
        unit = [s // (k - 1) for s in steps]
        found.add(
            frozenset(cell(tuple(a + u * i for a, u in zip(start, unit, strict=True))) for i in range(k))
        )
    return found


@pytest.mark.parametrize(
    ("name", "lines"),
    [
        ("3x3x3k3", 49),
        ("4x4x4k4", 76),
        ("2x3x4k3", None),
        ("3x3x4k3", None),
        ("15x15k5", 572),
        ("5x5x5k4", None),
    ],
)
def test_lines_are_the_references(name: str, lines: int | None) -> None:
    variant = get_variant(name)
    engine = {
        frozenset(c for c in range(variant.cells) if line >> c & 1) for line in geometry_of(variant).lines
    }
    assert engine == reference_lines(variant.sides, variant.k)
    assert lines is None or len(engine) == lines


def symmetries_made_by(side: int, inside_out: bool = False) -> set[tuple[int, ...]]:
    """A cube's symmetries as the closure of maps written by hand (a quarter turn about the layers' axis,
    a quarter turn about the cols' axis, a mirror; and with `inside_out`, on every side the two middle
    places swapped, or each end with its neighbour), apart from the engine's order of sides and its way
    of finding them."""
    shape = list(itertools.product(range(side), repeat=3))
    last = side - 1
    middles, ends = {1: 2, 2: 1}, {0: 1, 1: 0, 2: 3, 3: 2}
    generators = [
        lambda p: (p[0], p[2], last - p[1]),
        lambda p: (p[1], last - p[0], p[2]),
        lambda p: (p[0], p[1], last - p[2]),
    ]
    if inside_out:
        generators.append(lambda p: tuple(middles.get(at, at) for at in p))
        generators.append(lambda p: tuple(ends[at] for at in p))
    as_cells = [tuple(shape.index(g(p)) for p in shape) for g in generators]
    group = {tuple(range(len(shape)))}
    frontier = list(group)
    while frontier:
        element = frontier.pop()
        for generator in as_cells:
            composed = tuple(generator[element[c]] for c in range(len(shape)))
            if composed not in group:
                group.add(composed)
                frontier.append(composed)
    return group


@pytest.mark.parametrize(("name", "count"), [("3x3x3k3", 48), ("4x4x4k3", 48), ("4x4x4k4", 192)])
def test_a_cubes_symmetries_are_its_rotations_reflections_and_renumberings(name: str, count: int) -> None:
    """Every 3-D cube has its 48 rotations and reflections; Qubic, whose lines run the whole side, has
    four times as many: swapping its two middle places on every side keeps every line of four (and not
    a line of three: on 4x4x4k3 it is no symmetry), as does swapping each end with its neighbour."""
    variant = get_variant(name)
    side = variant.sides[0]
    geometry = geometry_of(variant)
    assert geometry.symmetries[0] == tuple(range(side**3))  # the identity first: layouts rely on it
    assert set(geometry.symmetries) == symmetries_made_by(side, inside_out=count == 192)
    assert len(geometry.symmetries) == count
    lines = reference_lines(variant.sides, variant.k)
    for symmetry in geometry.symmetries:  # each keeps the lines, as the reference finds them
        assert {frozenset(symmetry[c] for c in line) for line in lines} == lines


def test_a_cube_past_five_keeps_its_48() -> None:
    """6x6x6 with lines of six has 1,152 symmetries; the store tries each on every position, so only
    the rotations and reflections are used there."""
    assert set(geometry_of(get_variant("6x6x6k6")).symmetries) == symmetries_made_by(6)


def test_a_box_keeps_only_the_maps_between_sides_of_one_length() -> None:
    """2x3x4 has three different sides: only the eight mirrors; 3x3x4 may swap its two sides of 3 too."""
    assert len(geometry_of(get_variant("2x3x4k3")).symmetries) == 8
    assert len(geometry_of(get_variant("3x3x4k3")).symmetries) == 16
    assert len(geometry_of(get_variant("15x15k5")).symmetries) == 8


def test_box_names_and_limits() -> None:
    cube = get_variant("3x3x3k3")
    assert (cube.sides, cube.cells, cube.layers, cube.name) == ((3, 3, 3), 27, 3, "3x3x3k3")
    assert get_variant("4x4x4k4-misere").misere and not get_variant("4x4x4k4").has_table
    assert get_variant("20x20k5").cells == 400 and not get_variant("9x9k5").has_table
    assert "cube" in cube.rules and "box" in get_variant("2x3x4k3").rules


def test_a_box_board_may_be_written_with_its_rows_separated() -> None:
    cube = get_variant("3x3x3k3")
    rows = "X../.../.../.../.O./.../.../.../..."
    assert Position.parse(rows, None, cube).cells == "X" + "." * 12 + "O" + "." * 13
