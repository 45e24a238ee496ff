"""What building a table takes (its tiers, bytes on disk, peak memory, time and core-hours), and the
check that the machine has it, made before a build starts rather than discovered by a full disk an hour
in. Every figure comes from the counts of classes (`orbits.class_counts`), without building the layout.

The peak memory is the two largest neighbouring tiers (the one being solved and the one it reads), the
pieces the threads solve at once with the maps of the panels they work on, the table of line states (one
byte per set of cells, eleven while it is made) and the parts' arrays (every filling of each part and
its image under each symmetry). The constants were measured on a 2-core machine with
`/usr/bin/time -v sanmoku tables build` (see docs/pages/tables.md).
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from ..errors import BuildRefusedError
from ..rules.variants import Variant
from .orbits import class_counts, reduction_group, split
from .partial import PartialTable, partial_path
from .progress import duration
from .solver import PIECE
from .table_file import HEADER_SIZE, TableFileError, build_record, read_header

BASE_MEMORY = 60 * 2**20  # the interpreter, numpy and the service's modules
BYTES_PER_PIECE_POSITION = 24  # masks, line states and the children's minimum of a piece being solved
PANEL_MAPS = 64 * 2**20  # the row and column maps of the panels being solved (5x5: about 40 MB a panel)
BYTES_PER_PART_FILLING = 20  # a part's arrays, per filling and per symmetry (images, representatives)
BYTES_PER_LINE_STATE = 11  # building the line-state table: the masks, the counts and the result
ENTRIES_PER_SECOND = 18e6  # one thread, writing and checksumming included (4x5k4, format 3, this machine)
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
    symmetries: int  # folded by the layout (1: every position, format 2)
    on_disk_already: int = 0  # bytes a stopped build of it holds already (its partial file)

    @property
    def entries(self) -> int:
        return sum(self.tiers)

    @property
    def core_hours(self) -> float:
        return self.seconds * max(1, self.threads) / 3600

    def lines(self) -> list[str]:
        """The plan as `sanmoku tables build --plan` prints it."""
        source = "tables built here" if self.measured else "a 2-core reference machine"
        folded = f"one per class of {self.symmetries} symmetries" if self.symmetries > 1 else "every position"
        resumed = f" ({_size(self.on_disk_already)} of it written already)" if self.on_disk_already else ""
        out = [
            f"{self.variant.name}: {self.entries:,} entries ({folded}) in {len(self.tiers)} tiers",
            f"  bytes on disk   {_size(self.bytes_on_disk)}{resumed}",
            f"  peak memory     {_size(self.peak_memory)}",
            f"  estimated time  {duration(self.seconds)} on {self.threads} thread(s), "
            f"{self.core_hours:.2f} core-hours, from "
            f"{self.entries_per_second / 1e6:.0f} M entries/s per thread ({source})",
            "  tier  entries",
        ]
        out += [f"  {tier:>4}  {entries:,}" for tier, entries in enumerate(self.tiers)]
        return out


def plan(variant: Variant, directory: Path, threads: int = 1, reduce: bool = True) -> BuildPlan:
    tiers = class_counts(variant, reduce)
    group = reduction_group(variant, reduce)
    lead, trail = split(variant.cells, group)
    neighbours = max(a + b for a, b in zip(tiers, (*tiers[1:], 0), strict=True))
    fillings = 3 ** len(lead) + 3 ** len(trail)
    peak = (
        BASE_MEMORY
        + neighbours
        + threads * (PIECE * BYTES_PER_PIECE_POSITION + PANEL_MAPS)
        + BYTES_PER_LINE_STATE * 2**variant.cells
        + BYTES_PER_PART_FILLING * fillings * (len(group) + 2)
    )
    entries = sum(tiers)
    rate, measured = measured_rate(directory, reduce)
    seconds = entries / (rate * max(1, threads) ** SPEED_UP)
    path = directory / f"{variant.long_name}.table"
    already = partial_path(path).stat().st_size if _resumable(path, variant, reduce) else 0
    return BuildPlan(
        variant, tiers, HEADER_SIZE + entries, peak, seconds, rate, measured, threads, len(group), already
    )


def _resumable(path: Path, variant: Variant, reduce: bool) -> bool:
    """Whether a stopped build of this table left a partial file that a build would go on with (read
    from its record alone: the layout is not built)."""
    try:
        return PartialTable.matches(path, variant, reduce)
    except OSError:
        return False


def measured_rate(directory: Path, reduce: bool = True) -> tuple[float, bool]:
    """Entries per second per thread of the largest table of the same format built in `directory` on
    one host (from its header and its build record), or the default."""
    best: tuple[int, float] | None = None
    for path in directory.glob("*.table"):
        try:
            header = read_header(path)
        except TableFileError:
            continue
        how = {**header, **build_record(path)}
        entries, seconds, threads = how.get("entries"), how.get("build_seconds"), how.get("threads")
        if (how.get("format") == 3) != reduce:
            continue
        if not (isinstance(entries, int) and isinstance(seconds, int | float) and isinstance(threads, int)):
            continue
        if entries >= 10**7 and seconds > 0 and (best is None or entries > best[0]):
            best = (entries, entries / (seconds * max(1, threads) ** SPEED_UP))
    return (best[1], True) if best else (ENTRIES_PER_SECOND, False)


def check_resources(variant: Variant, directory: Path, threads: int = 1, reduce: bool = True) -> BuildPlan:
    """The plan, if the disk and the memory can hold the build; else BuildRefusedError saying what it
    needs and what there is (a stopped build's partial file counts as written already)."""
    planned = plan(variant, directory, threads, reduce)
    directory.mkdir(parents=True, exist_ok=True)
    free = shutil.disk_usage(directory).free
    needed = planned.bytes_on_disk - planned.on_disk_already
    if needed + DISK_MARGIN > free:
        raise BuildRefusedError(
            variant.name,
            f"it needs {_size(needed)} more on disk, with {_size(DISK_MARGIN)} left free beside it, and "
            f"{directory} has {_size(free)} free",
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
