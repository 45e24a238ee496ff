"""Building a table on a Ray cluster: each tier's pieces are Ray tasks, tier after tier.

Every node sees the tables directory at the same path (a shared file system): a task maps the tier
above read-only from the partial file there and returns its piece's values through Ray's object store;
the driver puts them in place and writes the tier (`building`) before it asks for the next one, whose
tasks read it. So the file is the one a local build writes, byte for byte (a piece's values depend on
the tier above alone), and a stopped build goes on the same way, on the cluster or not. Scheduling,
retries and transport are Ray's (`engine.cluster`).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

import numpy as np

from ..cluster import remote, run_tasks
from ..rules.geometry import geometry_of
from ..rules.variants import get_variant
from .classes import ClassLayout, class_layout_of
from .partial import PartialTable
from .solver import ByteArray, Piece, PieceDone, Tier, TierSolver, piece_offset, pieces
from .table_file import HEADER_SIZE


@lru_cache(maxsize=2)
def _solver(name: str, reduce: bool) -> TierSolver:
    """The solver of a variant's tiers, made once per worker process (seconds for 5x5: its layout)."""
    variant = get_variant(name)
    return TierSolver(variant, class_layout_of(variant, reduce), geometry_of(variant).line_state_table())


def _children(data: str, layout: ClassLayout, tier: int) -> ByteArray | None:
    """The values of the tier above `tier`, mapped from the partial file (None above the full board)."""
    if tier == layout.cells:
        return None
    above = tier + 1
    begin = HEADER_SIZE + layout.tier_offset[above]
    mapped: ByteArray = np.memmap(data, np.uint8, "r", offset=begin, shape=(layout.tier_size(above),))
    return mapped


def _solve_piece(
    data: str, name: str, reduce: bool, tier: int, offset: int, start: int, stop: int
) -> ByteArray:
    """The values of rows `start` to `stop` of the panel at rank `offset` of `tier`."""
    solver = _solver(name, reduce)
    layout = solver.layout
    panel = next(p for p in layout.tiers[tier] if p.offset == offset)
    return solver.solve_piece(Piece(panel, start, stop), _children(data, layout, tier))


_solve_piece_task = remote(_solve_piece)


def solve_tiers_on_ray(
    address: str, partial: PartialTable, top: int, piece_done: PieceDone | None = None
) -> Iterator[Tier]:
    """Each tier's values from `top` down, solved as Ray tasks. The caller writes each tier to the
    partial file before asking for the next (the tasks of the next read it there)."""
    layout, name, data = partial.layout, partial.variant.long_name, str(partial.data.resolve())
    for tier in range(top, -1, -1):
        values = np.empty(layout.tier_size(tier), dtype=np.uint8)
        work = {(p.panel.offset, p.start): p for p in pieces(layout, tier)}
        calls = [
            (data, name, partial.reduce, tier, offset, start, p.stop) for (offset, start), p in work.items()
        ]
        for call, piece_values in run_tasks(address, _solve_piece_task, calls):
            piece = work[(call[4], call[5])]
            begin = piece_offset(layout, piece)
            values[begin : begin + piece.size] = piece_values
            if piece_done is not None:
                piece_done(piece.size)
        yield tier, values
