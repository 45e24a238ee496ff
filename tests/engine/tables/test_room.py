"""The memory a new process may take (tables/room.py), read from made-up /proc and cgroup trees laid out
as cgroup v2 with and without a namespace, and as v1 beside v2 (this machine's hybrid layout)."""

from __future__ import annotations

from pathlib import Path

from service.engine.tables.room import disk_room, memory_room

MiB = 2**20
AVAILABLE = 20_000 * MiB


def layout(tmp_path: Path, cgroup: str, files: dict[str, str]) -> tuple[Path, Path]:
    """A /proc with `cgroup` as /proc/self/cgroup and 20,000 MiB available, and a cgroup mount holding
    `files` (paths under it)."""
    proc, root = tmp_path / "proc", tmp_path / "cgroup"
    (proc / "self").mkdir(parents=True)
    (proc / "self" / "cgroup").write_text(cgroup)
    (proc / "meminfo").write_text(f"MemTotal: 25000000 kB\nMemAvailable: {AVAILABLE // 1024} kB\n")
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root, proc


def test_a_v2_limit_in_a_cgroup_namespace(tmp_path: Path) -> None:
    """A container's `memory: 512M` (compose): its group is the mount's root, and its workers count."""
    root, proc = layout(
        tmp_path, "0::/\n", {"memory.max": f"{512 * MiB}\n", "memory.current": f"{120 * MiB}\n"}
    )
    room = memory_room(root, proc)
    assert room is not None and room.free == 392 * MiB
    assert room.where == "the cgroup limit of 536.9 MB (memory.max), 125.8 MB of it in use"


def test_the_tightest_of_nested_v2_limits(tmp_path: Path) -> None:
    files = {
        "system.slice/memory.max": f"{1024 * MiB}\n",
        "system.slice/memory.current": f"{900 * MiB}\n",
        "system.slice/app.service/memory.max": "max\n",  # no limit of its own
        "system.slice/app.service/memory.current": f"{100 * MiB}\n",
    }
    root, proc = layout(tmp_path, "0::/system.slice/app.service\n", files)
    room = memory_room(root, proc)
    assert room is not None and room.free == 124 * MiB


def test_a_v1_memory_limit_beside_v2(tmp_path: Path) -> None:
    group = "process_api/55007450855121ee967627c913e0ce2c"
    files = {
        f"memory/{group}/memory.limit_in_bytes": f"{512 * MiB}\n",
        f"memory/{group}/memory.usage_in_bytes": f"{100 * MiB}\n",
        "memory/memory.limit_in_bytes": "9223372036854771712\n",  # v1's "no limit"
        "unified/cgroup.procs": "",
    }
    root, proc = layout(tmp_path, f"5:devices:/\n4:memory:/{group}\n0::/\n", files)
    room = memory_room(root, proc)
    assert room is not None and room.free == 412 * MiB and "memory.limit_in_bytes" in room.where


def test_no_limit_leaves_memavailable(tmp_path: Path) -> None:
    files = {"memory/memory.limit_in_bytes": "9223372036854771712\n", "memory.max": "max\n"}
    root, proc = layout(tmp_path, "4:memory:/\n0::/\n", files)
    room = memory_room(root, proc)
    assert room is not None and room.free == AVAILABLE and room.where == "MemAvailable"


def test_nothing_to_read_says_nothing(tmp_path: Path) -> None:
    assert memory_room(tmp_path / "cgroup", tmp_path / "proc") is None


def test_the_disk_of_a_folder_not_made_yet(tmp_path: Path) -> None:
    room = disk_room(tmp_path / "host" / "books")
    assert room.free > 0 and room.where.startswith("free on the disk of")
