"""Building a table file: tier after tier from the full board down, on this host's threads or as Ray
tasks (`cluster`), into a file that a stopped build goes on with (`partial`), telling a `BuildProgress`
how far it is. Both ways give the same bytes: a piece's values depend on the next tier alone.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol

from ..rules.variants import Variant
from .classes import ClassLayout, class_layout_of
from .partial import PartialTable
from .solver import ByteArray, Tier, solve_tiers


class BuildProgress(Protocol):
    """What a build tells as it goes (a bar on a terminal, a log line a tier elsewhere)."""

    def begin(self, variant: Variant, tiers: list[int], done: list[int]) -> None:
        """`tiers`: the entries of each tier; `done`: the tiers a stopped build had already written."""

    def advanced(self, entries: int) -> None:
        """A piece of `entries` entries is solved (from any thread)."""

    def tier_done(self, tier: int, seconds: float) -> None: ...

    def end(self) -> None: ...


class Silent:
    def begin(self, variant: Variant, tiers: list[int], done: list[int]) -> None:
        pass

    def advanced(self, entries: int) -> None:
        pass

    def tier_done(self, tier: int, seconds: float) -> None:
        pass

    def end(self) -> None:
        pass


def build_file(
    path: Path,
    variant: Variant,
    threads: int = 1,
    progress: BuildProgress | None = None,
    reduce: bool = True,
    ray_address: str | None = None,
) -> dict[str, Any]:
    """Solve and write the variant's table at `path` (going on with a stopped build of it), on `threads`
    threads, or as Ray tasks on the cluster at `ray_address` ("auto": the one this host belongs to).
    Returns the header."""
    layout = class_layout_of(variant, reduce)
    partial = PartialTable(path, variant, layout, reduce)
    done = partial.open()
    report = progress or Silent()
    report.begin(variant, [layout.tier_size(t) for t in range(variant.cells + 1)], sorted(done))
    try:
        top = partial.next_tier()
        if top >= 0:
            tiers = _tiers(variant, layout, partial, threads, top, report, ray_address)
            clock = time.perf_counter()
            for tier, values in tiers:
                if tier not in done:  # a gravity build solves every tier again (see `solver`)
                    partial.write_tier(tier, values, time.perf_counter() - clock)
                    report.tier_done(tier, time.perf_counter() - clock)
                clock = time.perf_counter()
    finally:
        report.end()
    how = {"threads": threads} if ray_address is None else {"ray": _cluster_size(ray_address)}
    return partial.finish(how)


def _tiers(
    variant: Variant,
    layout: ClassLayout,
    partial: PartialTable,
    threads: int,
    top: int,
    report: BuildProgress,
    ray_address: str | None,
) -> Iterator[Tier]:
    if ray_address is None or variant.gravity:  # gravity tables are solved whole, on one thread
        # The tier above a stopped build's last, read back and handed to the solver alone, which lets
        # it go once the next tier is solved: two tiers in memory at a time (5x5: 6.6 GB, not 9.5).
        above = partial.tier(top + 1) if top < variant.cells else None
        return solve_tiers(variant, layout, threads, top, above, report.advanced)
    from .cluster import solve_tiers_on_ray  # ray is an optional extra; its tasks read the file

    return solve_tiers_on_ray(ray_address, partial, top, report.advanced)


def _cluster_size(address: str) -> dict[str, Any]:
    from ..cluster import cluster_size

    return cluster_size(address)


def write_table(path: Path, variant: Variant, values: ByteArray, reduce: bool = True) -> dict[str, Any]:
    """Write a table solved whole in the layout of format 3 (or with `reduce` off, 2): see `solve`."""
    layout = class_layout_of(variant, reduce)
    partial = PartialTable(path, variant, layout, reduce)
    partial.open()
    for tier in range(variant.cells, -1, -1):
        partial.write_tier(tier, values[layout.tier_offset[tier] : layout.tier_offset[tier + 1]], 0.0)
    return partial.finish({"threads": 1})
