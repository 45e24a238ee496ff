"""How much memory and disk a new process may take here, for the checks made before a background build
starts: a build the host cannot hold is refused with one line that says why, rather than killed by the
kernel's out-of-memory killer (under a container's `memory: 512M`) or stopped by a full disk, again and
again.

Memory is the least of MemAvailable (/proc/meminfo) and, for every memory cgroup the process is in and
each of its parents, the limit less what the group uses now: cgroup v2's `memory.max` and
`memory.current`, or v1's `memory.limit_in_bytes` and `memory.usage_in_bytes` (a container's limit
counts the service's own workers). A cgroup folder that is not mounted where /proc/self/cgroup says
(no cgroup namespace) is read at the mount's root.
"""

from __future__ import annotations

import contextlib
import shutil
from dataclasses import dataclass
from pathlib import Path

CGROUP_ROOT = Path("/sys/fs/cgroup")
PROC = Path("/proc")
UNLIMITED_V1 = 2**62  # v1 reports "no limit" as a number near 2**63 (rounded to pages)


@dataclass(frozen=True)
class Room:
    free: int  # bytes
    where: str  # what sets it, for a message: "MemAvailable", "the cgroup limit of 536.9 MB (memory.max) ..."


def memory_room(cgroup_root: Path = CGROUP_ROOT, proc: Path = PROC) -> Room | None:
    """The memory a new process may take here, and what sets it; None where nothing says (not Linux)."""
    found = [*_cgroup_rooms(cgroup_root, proc)]
    available = _mem_available(proc)
    if available is not None:
        found.append(Room(available, "MemAvailable"))
    return min(found, key=lambda room: room.free, default=None)


def disk_room(folder: Path) -> Room:
    """The free space of the file system that holds `folder` (its nearest existing parent)."""
    existing = next(p for p in (folder, *folder.parents) if p.exists())
    return Room(shutil.disk_usage(existing).free, f"free on the disk of {folder}")


def size_text(count: int) -> str:
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if count >= scale:
            return f"{count / scale:,.1f} {unit}"
    return f"{count} bytes"


def _mem_available(proc: Path) -> int | None:
    with contextlib.suppress(OSError, ValueError, IndexError):
        for line in (proc / "meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    return None


def _cgroup_rooms(cgroup_root: Path, proc: Path) -> list[Room]:
    try:
        lines = (proc / "self" / "cgroup").read_text().splitlines()
    except OSError:
        return []
    found: list[Room] = []
    for line in lines:
        number, controllers, path = [*line.split(":", 2), "", ""][:3]
        if number == "0" and controllers == "":  # v2: mounted at the root, or at unified/ beside v1
            for mount in (cgroup_root, cgroup_root / "unified"):
                found += _limits(mount, path, "memory.max", "memory.current")
        elif "memory" in controllers.split(","):
            found += _limits(cgroup_root / "memory", path, "memory.limit_in_bytes", "memory.usage_in_bytes")
    return found


def _limits(mount: Path, path: str, limit_file: str, usage_file: str) -> list[Room]:
    """The room under each limit set on the group at `path` and its parents, up to the mount."""
    leaf = mount / path.lstrip("/")
    if not leaf.is_dir():
        leaf = mount
    found = []
    for folder in (leaf, *[p for p in leaf.parents if p.is_relative_to(mount)]):
        limit = _number(folder / limit_file)
        if limit is None or limit >= UNLIMITED_V1:
            continue
        used = _number(folder / usage_file) or 0
        where = f"the cgroup limit of {size_text(limit)} ({limit_file}), {size_text(used)} of it in use"
        found.append(Room(max(0, limit - used), where))
    return found


def _number(path: Path) -> int | None:
    """A cgroup file's number; None if missing, unreadable or "max" (no limit)."""
    with contextlib.suppress(OSError, ValueError):
        return int(path.read_text().strip())
    return None
