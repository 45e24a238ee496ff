"""What building a table takes (its tiers, bytes on disk, peak memory and time), and the check that the
machine has it, made before a build starts rather than discovered by a full disk an hour in.

The peak memory is the two largest neighbouring tiers (the one being solved and the one it reads), the
pieces the threads solve at once, the table of line states (one byte per set of cells) and what the
interpreter, numpy and the layout's lists hold. The constants were measured on a 2-core machine with
`/usr/bin/time -v sanmoku tables build` (see the README's Performance section).
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from ..errors import BuildRefusedError
from ..rules.variants import Variant
from .layout import layout_of
from .solver import PIECE
from .table_file import HEADER_SIZE, TableFileError, read_header

BASE_MEMORY = 60 * 2**20  # the interpreter, numpy and the service's modules
BYTES_PER_PIECE_POSITION = 24  # masks, line states and the children's minimum of a piece being solved
BYTES_PER_PART_FILLING = 110  # a part's arrays and the lookup lists built from them
BYTES_PER_LINE_STATE = 11  # building the line-state table: the masks, the counts and the result
ENTRIES_PER_SECOND = 40e6  # one thread, writing and checksumming included (4x5k4 on this machine)
DISK_MARGIN = 64 * 2**20  # left free on the disk after the table is written
MEMORY_MARGIN = 1.1
SPEED_UP = 0.9  # n threads solve n**SPEED_UP times as fast as one: two gave 1.87 times one here


@dataclass(frozen=True)
class BuildPlan:
    variant: Variant
    tiers: tuple[int, ...]  # entries of each tier, from the empty board up
    bytes_on_disk: int
    peak_memory: int
    seconds: float
    entries_per_second: float  # per thread, the figure `seconds` comes from
    measured: bool  # whether that figure comes from this directory's tables (else the default)
    threads: int

    @property
    def entries(self) -> int:
        return sum(self.tiers)

    def lines(self) -> list[str]:
        """The plan as `sanmoku tables build --plan` prints it."""
        source = "tables built here" if self.measured else "a 2-core reference machine"
        out = [
            f"{self.variant.name}: {self.entries:,} entries in {len(self.tiers)} tiers",
            f"  bytes on disk   {_size(self.bytes_on_disk)}",
            f"  peak memory     {_size(self.peak_memory)}",
            f"  estimated time  {_duration(self.seconds)} on {self.threads} thread(s), from "
            f"{self.entries_per_second / 1e6:.0f} M entries/s per thread ({source})",
            "  tier  entries",
        ]
        out += [f"  {tier:>4}  {entries:,}" for tier, entries in enumerate(self.tiers)]
        return out


def plan(variant: Variant, directory: Path, threads: int = 1) -> BuildPlan:
    layout = layout_of(variant.cells)
    tiers = tuple(layout.tier_size(t) for t in range(variant.cells + 1))
    neighbours = max(a + b for a, b in zip(tiers, (*tiers[1:], 0), strict=True))
    largest_piece = min(PIECE + max(b.cols for b in layout.blocks()), max(b.size for b in layout.blocks()))
    fillings = 3**layout.lead.length + 3**layout.trail.length
    peak = (
        BASE_MEMORY
        + neighbours
        + threads * largest_piece * BYTES_PER_PIECE_POSITION
        + BYTES_PER_LINE_STATE * 2**variant.cells
        + BYTES_PER_PART_FILLING * fillings
    )
    rate, measured = measured_rate(directory)
    seconds = layout.size / (rate * max(1, threads) ** SPEED_UP)
    return BuildPlan(variant, tiers, HEADER_SIZE + layout.size, peak, seconds, rate, measured, threads)


def measured_rate(directory: Path) -> tuple[float, bool]:
    """Entries per second per thread of the largest table built in `directory`, or the default."""
    best: tuple[int, float] | None = None
    for path in directory.glob("*.table"):
        try:
            header = read_header(path)
        except TableFileError:
            continue
        entries, seconds, threads = header.get("entries"), header.get("build_seconds"), header.get("threads")
        if not (isinstance(entries, int) and isinstance(seconds, int | float) and isinstance(threads, int)):
            continue
        if entries >= 10**7 and seconds > 0 and (best is None or entries > best[0]):
            best = (entries, entries / (seconds * max(1, threads) ** SPEED_UP))
    return (best[1], True) if best else (ENTRIES_PER_SECOND, False)


def check_resources(variant: Variant, directory: Path, threads: int = 1) -> BuildPlan:
    """The plan, if the disk and the memory can hold the build; else BuildRefusedError saying what it
    needs and what there is."""
    planned = plan(variant, directory, threads)
    directory.mkdir(parents=True, exist_ok=True)
    free = shutil.disk_usage(directory).free
    if planned.bytes_on_disk + DISK_MARGIN > free:
        raise BuildRefusedError(
            variant.name,
            f"it needs {_size(planned.bytes_on_disk)} on disk and {directory} has {_size(free)} free",
        )
    available = available_memory()
    if available is not None and planned.peak_memory * MEMORY_MARGIN > available:
        raise BuildRefusedError(
            variant.name,
            f"it needs about {_size(planned.peak_memory)} of memory and {_size(available)} is available",
        )
    return planned


def available_memory() -> int | None:
    """MemAvailable from /proc/meminfo, in bytes; None where there is no such file."""
    try:
        with open("/proc/meminfo") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def _size(count: int) -> str:
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if count >= scale:
            return f"{count / scale:,.1f} {unit}"
    return f"{count} bytes"


def _duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} s"
    return f"{seconds / 60:.0f} min" if seconds < 7200 else f"{seconds / 3600:.1f} h"
