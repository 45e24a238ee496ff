"""The cache of proven positions on boards past 64 cells and on boxes: keys past a 64-bit integer are kept
as bytes, cells and remoteness past 254 in two bytes each, and every record reads back as it was written
(turned by the board's symmetries), or is dropped when a byte of it changed."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from service.engine import Position, get_variant
from service.engine.rules.known_move import KnownMove
from service.engine.search.proof_number import Prover
from service.engine.search.proven import ProvenCache, mask_of, stored_mask
from service.engine.search.proven_record import SEARCH, Origin

ORIGIN = Origin.of(SEARCH, [Prover.ALPHA_BETA])


def played(name: str, cells: list[int]) -> Position:
    position = Position.empty(get_variant(name))
    for cell in cells:
        position = position.play(cell)
    return position


def moves_of(position: Position) -> list[KnownMove]:
    """A record to keep: every move's bounds and remoteness made up from its cell (any will do: the store
    keeps what it is given), some unknown, some past 255 plies on 20x20."""
    out = []
    for cell in position.legal_moves():
        if cell % 3 == 0:
            out.append(KnownMove(cell, -1, 1, None))
        else:
            out.append(
                KnownMove(cell, cell % 2 * 2 - 1, cell % 2 * 2 - 1, cell % (position.variant.cells - 3) + 1)
            )
    return out


@pytest.mark.parametrize(
    ("name", "cells"),
    [
        ("4x4x4k4", [0, 63, 21]),  # 64 cells: the 64-bit key, a mask with its top bit set
        ("3x3x3k3", [13, 0]),
        ("9x9k5", [40, 80, 41]),
        ("15x15k5", [112, 113, 224]),
        ("20x20k5", [0, 399, 210, 211]),  # 400 cells: two bytes a cell and a remoteness
    ],
)
def test_records_past_64_cells_and_on_boxes_read_back_as_written(
    name: str, cells: list[int], tmp_path: Path
) -> None:
    position = played(name, cells)
    moves = moves_of(position)
    store = ProvenCache(tmp_path)
    store.put(position, moves, ORIGIN)
    record = store.get(position)
    assert record is not None and list(record.moves) == sorted(moves, key=lambda m: m.cell)
    assert store.get(played(name, cells[:-1])) is None  # another position: another key
    (row,) = list(store.records())
    assert row.checked()[0] is not None and row.position.variant == position.variant
    assert (row.position.mine | row.position.theirs).bit_count() == len(cells)
    assert isinstance(row.key[1], bytes) is (position.variant.cells > 64)


def test_a_symmetric_position_reads_the_same_record(tmp_path: Path) -> None:
    """A 15x15 position and its mirror image share one record; each reads its own cells."""
    variant = get_variant("15x15k5")
    left, right = played("15x15k5", [16, 112]), played("15x15k5", [28, 112])  # row 1: column 1 and 13
    store = ProvenCache(tmp_path)
    store.put(left, [KnownMove(17, 1, 1, 9)], ORIGIN)
    mirrored = store.get(right)
    assert mirrored is not None and [m.cell for m in mirrored.moves] == [27]
    assert variant.cells == 225 and len(list(store.records())) == 1


def test_a_changed_byte_of_a_wide_record_drops_it(tmp_path: Path) -> None:
    position = played("20x20k5", [0, 399])
    store = ProvenCache(tmp_path)
    store.put(position, moves_of(position), ORIGIN)
    with sqlite3.connect(tmp_path / "proven.sqlite") as db:
        blob = bytearray(db.execute("SELECT moves FROM proven").fetchone()[0])
        blob[7] ^= 1
        db.execute("UPDATE proven SET moves = ?", (bytes(blob),))
    assert store.get(position) is None
    assert list(store.records()) == []  # dropped, to be searched again


def test_stored_masks_turn_back() -> None:
    for cells in (9, 64, 65, 225, 400):
        for mask in (0, 1, (1 << cells) - 1, 1 << (cells - 1), 0x5A5A5A5A5A5A5A5A & ((1 << cells) - 1)):
            assert mask_of(stored_mask(mask, cells)) == mask
    # bytes keep the masks' order, so a walk through the store pages by them
    assert stored_mask(1 << 70, 225) > stored_mask((1 << 70) - 1, 225)
