"""The ranked tables against the dense solver the service had before (byte for byte, every variant of up
to 12 cells and both 4x4 presets), against the brute-force reference on 4x5, 3x6 and 3x7 positions, and
the known facts of the boards past 16 cells: the 4x5 k=4 table is built once per session, by the command
an operator runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from service.engine import Position, Table, TableStore, Variant, get_variant, solve, supported_variants
from service.engine.rules.geometry import geometry_of
from service.engine.rules.values import NOT_REACHABLE
from service.engine.tables import solver as solver_module
from service.engine.tables.classes import class_layout_of
from service.engine.tables.layout import layout_of
from service.engine.tables.orbits import class_counts
from service.engine.tables.table_file import build_record
from tests.engine.tables.boards import assert_agrees_on_samples, burnside_classes, table_of
from tests.engine.tables.dense_solver import dense_indices, dense_solve

SMALL = [v for v in supported_variants(12) if v.cells <= 12 and not v.gravity]  # the dense solver has none


def every_position(variant: Variant) -> tuple[np.ndarray, np.ndarray]:
    """Both sides' cells of every entry of the ranked table, in rank order (from the layout's blocks)."""
    layout = layout_of(variant.cells)
    lead, trail = layout.lead, layout.trail
    firsts, seconds = [], []
    for block in layout.blocks():
        rows, cols = lead.groups[block.lead_group], trail.groups[block.trail_group]
        firsts.append((lead.first[rows][:, None] | trail.first[cols][None, :]).ravel())
        seconds.append((lead.second[rows][:, None] | trail.second[cols][None, :]).ravel())
    return np.concatenate(firsts), np.concatenate(seconds)


def assert_same_as_dense(variant: Variant, ranked: np.ndarray) -> None:
    dense = dense_solve(variant)
    first, second = every_position(variant)
    assert len(ranked) == len(first) == layout_of(variant.cells).size
    assert np.array_equal(layout_of(variant.cells).ranks(first, second), np.arange(len(first)))
    assert np.array_equal(ranked, dense[dense_indices(variant.cells, first, second)])
    # and the dense table holds nothing the ranked one leaves out
    assert np.count_nonzero(dense) == np.count_nonzero(ranked)


@pytest.mark.parametrize("variant", SMALL, ids=lambda v: v.long_name)
def test_ranked_tables_equal_the_dense_solvers_on_every_small_variant(variant: Variant) -> None:
    assert_same_as_dense(variant, solve(variant))


@pytest.mark.slow
@pytest.mark.parametrize("name", ["4x4k3", "4x4k4", "4x4k3-misere", "4x4k4-torus"])
def test_ranked_tables_equal_the_dense_solvers_on_4x4(name: str) -> None:
    variant = get_variant(name)
    assert_same_as_dense(variant, solve(variant))


@pytest.mark.slow
@pytest.mark.parametrize("reduce", [False, True], ids=["format 2", "format 3"])
def test_threads_and_pieces_of_rows_change_no_byte(monkeypatch: pytest.MonkeyPatch, reduce: bool) -> None:
    variant = get_variant("3x4k3-misere")
    layout = class_layout_of(variant, reduce)
    whole = solve(variant, layout, fold_small=False)
    monkeypatch.setattr(solver_module, "PIECE", 50)  # every panel cut into pieces of a row or a few
    assert any(len(solver_module.pieces(layout, t)) > len(layout.tiers[t]) for t in range(13))
    assert np.array_equal(solve(variant, layout, threads=2, fold_small=False), whole)
    assert np.array_equal(solve(variant, layout, threads=1, fold_small=False), whole)


@pytest.fixture(scope="session")
def table_4x5k4(store: TableStore) -> Table:
    """Built once per session by the operator's command (about 10 s on two cores)."""
    variant = get_variant("4x5k4")
    command = [
        sys.executable,
        "-m",
        "service.cli.main",
        "tables",
        "build",
        "4x5k4",
        "--dir",
        str(store.directory),
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return store.get(variant)


@pytest.mark.slow
def test_4x5k4_is_a_draw_in_20_with_its_known_counts(table_4x5k4: Table) -> None:
    variant = table_4x5k4.variant
    empty = Position.empty(variant)
    assert tuple(table_4x5k4.value(empty)) == (0, 20)
    assert table_4x5k4.positions == 674_794_169
    # format 3 keeps one entry per class: its reachable entries are the classes Burnside's lemma counts
    assert np.count_nonzero(table_4x5k4.values) == count_classes(table_4x5k4) == 168_720_724
    assert build_record(table_4x5k4.path)["threads"] >= 1
    assert table_4x5k4.header["tiers"] == list(class_counts(variant))
    # every opening move draws (none loses on so large a board)
    assert {m.value.score for m in table_4x5k4.lookup(empty).moves} == {0}


def count_classes(table: Table) -> int:
    """Positions up to symmetry, by Burnside's lemma: the average over the symmetries of the reachable
    positions each one leaves unchanged. A position a symmetry fixes is given by the cells of one orbit
    representative each, so the fixed ones are few enough to list."""
    variant = table.variant
    cells = variant.cells
    fixed_total = 0
    for symmetry in geometry_of(variant).symmetries:
        orbits = _orbits(symmetry)
        if len(orbits) == cells:  # the identity fixes everything
            fixed_total += table.positions
            continue
        fixed_total += _fixed_reachable(table, orbits)
    return fixed_total // len(geometry_of(variant).symmetries)


def _orbits(symmetry: tuple[int, ...]) -> list[int]:
    """Each orbit of the cells under the symmetry, as a bit mask."""
    seen, orbits = 0, []
    for cell in range(len(symmetry)):
        if seen >> cell & 1:
            continue
        orbit, at = 0, cell
        while not orbit >> at & 1:
            orbit |= 1 << at
            at = symmetry[at]
        seen |= orbit
        orbits.append(orbit)
    return orbits


def _fixed_reachable(table: Table, orbits: list[int]) -> int:
    """Reachable positions (X first) that give every orbit one mark or none: 3**orbits boards."""
    count = len(orbits)
    codes = np.arange(3**count, dtype=np.int64)
    x = np.zeros(len(codes), dtype=np.uint32)
    o = np.zeros(len(codes), dtype=np.uint32)
    for orbit in orbits:
        digit = codes % 3
        codes //= 3
        x |= np.where(digit == 2, np.uint32(orbit), np.uint32(0))
        o |= np.where(digit == 1, np.uint32(orbit), np.uint32(0))
    xs, os_ = np.bitwise_count(x).astype(np.int64), np.bitwise_count(o).astype(np.int64)
    legal = (xs - os_ >= 0) & (xs - os_ <= 1)
    ranks = table.layout.ranks(x[legal], o[legal])
    return int(np.count_nonzero(table.values[ranks] != NOT_REACHABLE))


def test_3x5k3_is_an_x_win_in_7() -> None:
    table = table_of(get_variant("3x5k3"))
    assert tuple(table.value(Position.empty(table.variant))) == (1, 7)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["4x5k4", "3x6k3", "3x6k4-misere", "2x9k3-torus"])
def test_tables_past_16_cells_on_sampled_positions(name: str, table_4x5k4: Table) -> None:
    table = table_4x5k4 if name == "4x5k4" else table_of(get_variant(name))
    assert_agrees_on_samples(table, seed=len(name), count=25, empty_left=8)


@pytest.mark.slow
def test_known_values_past_16_cells() -> None:
    """From the field notes (checked with an independent solver): 3x6 k=4 a draw in 18, 3x6 k=3 an X win
    in 7, 2x9 k=3 a draw in 18, 3x5 k=4 a draw in 15."""
    for name, value in (("3x6k4", (0, 18)), ("3x6k3", (1, 7)), ("2x9k3", (0, 18)), ("3x5k4", (0, 15))):
        table = table_of(get_variant(name))
        assert tuple(table.value(Position.empty(table.variant))) == value, name


def test_a_table_file_is_no_larger_than_its_classes_with_legal_counts(table_4x5k4: Table) -> None:
    """741,365,049 positions with legal counts (format 2's entries), 185,366,761 classes under the four
    symmetries of the rectangle (Burnside, counted here without the engine's code)."""
    assert table_4x5k4.path is not None
    assert Path(table_4x5k4.path).stat().st_size == 4096 + 185_366_761
    assert burnside_classes(4, 5) == 185_366_761
