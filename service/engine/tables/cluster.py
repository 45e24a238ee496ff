"""Building a table on a Ray cluster: each tier's pieces are Ray tasks, tier after tier.

Every node sees the tables directory at the same path (a shared file system): a task reads the tier
above from the partial file there (mapped read-only, flushed by the driver before the tier's tasks
start) and returns its piece's values through Ray's object store; the driver puts them in place and
writes the tier (`building`), so the file is the one a local build writes, byte for byte, and a stopped
build goes on the same way. Scheduling, retries (a task whose worker or node dies is run again, up to
TASK_RETRIES times) and transport are Ray's. Ray is an optional extra: `pip install 'sanmoku[cluster]'`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import Any

import numpy as np
import ray

from ..rules.geometry import geometry_of
from ..rules.variants import get_variant
from .classes import ClassLayout, class_layout_of
from .partial import PartialTable
from .solver import ByteArray, Piece, Tier, TierSolver, piece_offset, pieces
from .table_file import HEADER_SIZE

TASK_RETRIES = 5
IN_FLIGHT_PER_CPU = 4  # tasks submitted ahead of the results: every worker busy, the object store small


def connect(address: str) -> None:
    """Join the cluster at `address` ("auto": the one this host belongs to), once per process."""
    if not ray.is_initialized():
        ray.init(address=address, log_to_driver=False, configure_logging=False)


def cluster_resources(address: str) -> dict[str, Any]:
    """What the build ran on, for its record."""
    connect(address)
    return {"nodes": len([n for n in ray.nodes() if n.get("Alive")]), "cpus": ray.cluster_resources().get("CPU")}


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
    mapped: ByteArray = np.memmap(
        data, dtype=np.uint8, mode="r", offset=HEADER_SIZE + layout.tier_offset[above], shape=(layout.tier_size(above),)
    )
    return mapped


@ray.remote(max_retries=TASK_RETRIES)
def _solve_piece(data: str, name: str, reduce: bool, tier: int, offset: int, start: int, stop: int) -> ByteArray:
    """The values of rows `start` to `stop` of the panel at rank `offset` of `tier`."""
    solver = _solver(name, reduce)
    layout = solver.layout
    panel = next(p for p in layout.tiers[tier] if p.offset == offset)
    return solver.solve_piece(Piece(panel, start, stop), _children(data, layout, tier))


def solve_tiers_on_ray(
    address: str, partial: PartialTable, top: int, piece_done: Callable[[int], None] | None = None
) -> Iterator[Tier]:
    """Each tier's values from `top` down, solved as Ray tasks. The caller writes each tier to the
    partial file before asking for the next (the tasks of the next read it there)."""
    connect(address)
    layout, name, data = partial.layout, partial.variant.long_name, str(partial.data.resolve())
    window = max(2, int(ray.cluster_resources().get("CPU", 1)) * IN_FLIGHT_PER_CPU)
    for tier in range(top, -1, -1):
        values = np.empty(layout.tier_size(tier), dtype=np.uint8)
        work = iter(pieces(layout, tier))
        running: dict[Any, Piece] = {}
        while True:
            for piece in work:
                ref = _solve_piece.remote(
                    data, name, partial.reduce, tier, piece.panel.offset, piece.start, piece.stop
                )
                running[ref] = piece
                if len(running) >= window:
                    break
            if not running:
                break
            ready, _ = ray.wait(list(running), num_returns=1)
            for ref in ready:
                piece = running.pop(ref)
                begin = piece_offset(layout, piece)
                values[begin : begin + piece.size] = ray.get(ref)
                if piece_done is not None:
                    piece_done(piece.size)
        yield tier, values
