"""The figures of a built table, for the documentation: its file (size, sha256, how it was built), each
tier's entries, classes and positions that can arise by play, the value of the empty board and of every
opening move, and the search's own proof of the empty board's value, timed.

Run: python -m tests.bench.table_figures 5x5k4 --dir /work/tables-5x5

Reads the table (mapped) once, tier by tier: minutes and a few gigabytes of page cache for 5x5k4.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from service.engine import Position, TableStore, get_variant
from service.engine.tables.classes import ClassLayout
from service.engine.tables.orbits import positions_in_tier
from service.engine.tables.table_file import build_record
from tests.engine.search.exact_scores import Prover, score_of


def tier_rows(layout: ClassLayout, values: np.ndarray) -> list[str]:
    rows = ["| tier | entries | classes that arise | positions that arise |", "|---|---|---|---|"]
    for tier in range(layout.cells + 1):
        here = values[layout.tier_offset[tier] : layout.tier_offset[tier + 1]]
        held = int(np.count_nonzero(here))
        positions = positions_in_tier(layout, tier, here)
        rows.append(f"| {tier} | {len(here):,} | {held:,} | {positions:,} |")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("variant")
    parser.add_argument("--dir", type=Path, required=True)
    args = parser.parse_args()
    variant = get_variant(args.variant)
    store = TableStore(args.dir)
    started = time.perf_counter()
    table = store.get(variant)
    print(f"opened in {time.perf_counter() - started:.1f} s (the layout made)")
    path = store.path(variant)
    header, record = table.header, build_record(path)
    print(f"file {path}: {path.stat().st_size:,} bytes, sha256 {header['sha256']}")
    print(f"entries {header['entries']:,}, positions {header['positions']:,}, format {header['format']}")
    print(f"build record: {record}")
    layout = table.layout
    assert isinstance(layout, ClassLayout)
    print(f"largest panel: {max(p.size for p in layout.panels()):,} entries")
    empty = Position.empty(variant)
    found = table.lookup(empty)
    print(f"empty board: {found.value} (score for the side to move, remoteness)")
    for move in sorted(found.moves, key=lambda m: m.cell):
        row, col = empty.row_col(move.cell)
        print(f"  move {move.cell} (row {row + 1}, column {col + 1}): {move.value}")
    begun = time.perf_counter()
    lower, upper = Prover(variant, bits=22).bounds(0, 0)
    spent = time.perf_counter() - begun
    want = score_of(found.value, 0, variant.cells)
    agrees = ": agrees" if lower == upper == want else ": DISAGREES"
    print(f"search of the empty board: [{lower}, {upper}], {spent:.1f} s; table {want}{agrees}")
    print("\n".join(tier_rows(layout, table.values)))


if __name__ == "__main__":
    main()
