"""Table files: written atomically, checked when opened, rebuilt (and reported) when they do not check out,
mapped read-only; and the directory they live in."""

from __future__ import annotations

import json
import logging
import multiprocessing
import os
from pathlib import Path

import numpy as np
import platformdirs
import pytest

from service.engine import MISERE, NORMAL, Position, TableFileError, TableStore, Variant, get_variant, solve
from service.engine.tables import partial as partial_module
from service.engine.tables import store as store_module
from service.engine.tables import table_file
from service.engine.tables.building import write_table
from service.engine.tables.classes import class_layout_of
from service.engine.tables.store import default_directory
from service.engine.tables.table_file import HEADER_SIZE, MAGIC, build_record, open_table, verify_table

SMALL = get_variant("3x4k3")


@pytest.fixture
def fresh(tmp_path: Path) -> TableStore:
    return TableStore(tmp_path)


def built(store: TableStore, variant: Variant = SMALL) -> Path:
    store.get(variant)
    return store.path(variant)


def rewrite_header(path: Path, **changes: object) -> None:
    path.chmod(0o644)  # tables are written read-only
    data = bytearray(path.read_bytes())
    header = json.loads(data[len(MAGIC) : HEADER_SIZE])
    header.update(changes)
    text = (MAGIC + json.dumps(header).encode()).ljust(HEADER_SIZE - 1) + b"\n"
    data[:HEADER_SIZE] = text
    path.write_bytes(bytes(data))


def damage_truncated(path: Path) -> None:
    path.chmod(0o644)
    os.truncate(path, path.stat().st_size - 1000)


def damage_bytes(path: Path) -> None:
    path.chmod(0o644)
    data = bytearray(path.read_bytes())
    data[HEADER_SIZE + 1234] ^= 0x40
    path.write_bytes(bytes(data))


def damage_header(path: Path) -> None:
    path.chmod(0o644)
    data = bytearray(path.read_bytes())
    data[len(MAGIC) : len(MAGIC) + 5] = b"{{{{{"
    path.write_bytes(bytes(data))


def damage_foreign_magic(path: Path) -> None:
    path.chmod(0o644)
    path.write_bytes(b"PK\x03\x04 not a table at all" + path.read_bytes()[30:])


def damage_foreign_variant(path: Path) -> None:
    rewrite_header(path, variant="3x4k3-misere", misere=True)


def damage_stale_solver(path: Path) -> None:
    rewrite_header(path, solver=0)


def damage_stale_format(path: Path) -> None:
    rewrite_header(path, format=99)


# What opening a file finds (its header and length): a file with one of these is never used.
DAMAGES = {
    "truncated": damage_truncated,
    "corrupt-header": damage_header,
    "foreign": damage_foreign_magic,
    "foreign-variant": damage_foreign_variant,
    "stale": damage_stale_solver,
    "stale-format": damage_stale_format,
}


def test_a_written_table_opens_read_only_and_mapped(fresh: TableStore) -> None:
    table = fresh.get(SMALL)
    assert table.path == fresh.path(SMALL) and table.path.name == "3x4k3.table"
    assert not table.values.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        table.values[0] = 1
    maps = Path(f"/proc/{os.getpid()}/maps").read_text()
    assert str(table.path) in maps  # a shared file mapping, not a private copy
    assert table.header["positions"] == table.positions == 111_973
    assert table.header["variant"] == "3x4k3" and table.header["solver"] >= 1 and table.header["format"] == 3
    assert len(table.header["sha256"]) == 64 and "built" not in table.header  # the same bytes from any build
    assert build_record(table.path)["built"] and build_record(table.path)["threads"] >= 1
    names = ["3x4k3.table", "3x4k3.table.build.json", "3x4k3.table.checked.json", "3x4k3.table.lock"]
    assert sorted(p.name for p in fresh.directory.iterdir()) == names
    assert table.path.stat().st_mode & 0o777 == 0o444  # replaced by a rename, never written in place


@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_a_bad_file_is_detected_reported_rebuilt_and_never_used(
    fresh: TableStore, damage: str, caplog: pytest.LogCaptureFixture
) -> None:
    path = built(fresh)
    DAMAGES[damage](path)
    expected = damage.split("-")[0]
    with pytest.raises(TableFileError) as caught:
        open_table(path, SMALL)
    assert caught.value.problem == expected
    again = TableStore(fresh.directory)  # a new process's view: nothing opened yet
    with caplog.at_level(logging.WARNING, logger="service.engine.tables.store"):
        table = again.get(SMALL)
    assert any(expected in record.getMessage() for record in caplog.records)
    assert np.array_equal(table.values, solve(SMALL, class_layout_of(SMALL)))
    open_table(path, SMALL)  # the rebuilt file checks out


def test_damaged_bytes_are_found_by_verify_and_rebuilt_by_a_build(fresh: TableStore) -> None:
    """Opening reads the header and the length only (a worker never hashes gigabytes inside a request);
    the checksum of every byte is checked by `verify` and by a build, which replaces a bad file."""
    path = built(fresh)
    damage_bytes(path)
    open_table(path, SMALL)  # the header and the length still check out
    with pytest.raises(TableFileError) as caught:
        verify_table(path, SMALL)
    assert caught.value.problem == "corrupt"
    assert (fresh.verify(SMALL) or "").startswith("corrupt")
    assert fresh.build(SMALL)
    assert fresh.verify(SMALL) is None
    assert np.array_equal(TableStore(fresh.directory).get(SMALL).values, solve(SMALL, class_layout_of(SMALL)))


def test_listing_reads_headers_only(fresh: TableStore, monkeypatch: pytest.MonkeyPatch) -> None:
    built(fresh)
    damage_bytes(fresh.path(SMALL))

    def no_checksum(*_: object) -> str:
        raise AssertionError("list read the table's bytes")

    monkeypatch.setattr(table_file, "checksum", no_checksum)
    (info,) = fresh.list()
    assert info.variant == "3x4k3" and info.problem is None and info.positions == 111_973


def test_a_table_renamed_over_an_open_one_is_reopened(
    fresh: TableStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_module, "RECHECK_SECONDS", 0.0)
    first = fresh.get(SMALL)
    elsewhere = TableStore(tmp_path / "elsewhere")
    elsewhere.get(SMALL)
    os.replace(elsewhere.path(SMALL), fresh.path(SMALL))  # a new file under the name: a new inode
    second = fresh.opened(SMALL)
    assert second is not None and second is not first and second.identity != first.identity
    assert first.values[100] == second.values[100]  # the old mapping still answers requests under way
    fresh.path(SMALL).unlink()
    assert fresh.opened(SMALL) is None  # a removed file is not served: it will be built again


def test_leftovers_of_a_killed_build_are_removed_unless_being_built(fresh: TableStore) -> None:
    dead = fresh.directory / ".3x4k3.table.abc123.tmp"
    live = fresh.directory / ".4x4k4.table.def456.tmp"
    dead.write_bytes(b"half a table")
    live.write_bytes(b"being written")
    with store_module.build_lock(fresh.path(get_variant("4x4k4"))):
        assert fresh.remove_leftovers() == [dead]
    assert not dead.exists() and live.exists()


def test_a_missing_file_is_built_without_a_warning(
    fresh: TableStore, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING):
        assert fresh.try_open(NORMAL) is None
        fresh.get(NORMAL)
    assert not caplog.records
    with pytest.raises(TableFileError) as caught:
        open_table(fresh.path(MISERE), MISERE)
    assert caught.value.problem == "missing"


def test_a_crash_while_writing_leaves_no_file_under_the_tables_name(
    fresh: TableStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    def crash(*_: object) -> None:
        raise KeyboardInterrupt("killed while writing")

    monkeypatch.setattr(partial_module.os, "replace", crash)
    with pytest.raises(KeyboardInterrupt):
        write_table(fresh.path(SMALL), SMALL, solve(SMALL, class_layout_of(SMALL)))
    assert not fresh.path(SMALL).exists()  # only the partial file, which a build goes on with


def _build_in_another_process(directory: str, name: str) -> str:
    table = TableStore(directory).get(get_variant(name))
    return table.checksum


@pytest.mark.slow
def test_two_processes_building_the_same_table_leave_one_good_file(tmp_path: Path) -> None:
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        sums = pool.starmap(_build_in_another_process, [(str(tmp_path), "4x4k4")] * 2)
    assert sums[0] == sums[1]
    names = ["4x4k4.table", "4x4k4.table.build.json", "4x4k4.table.checked.json", "4x4k4.table.lock"]
    assert sorted(p.name for p in tmp_path.iterdir()) == names
    assert open_table(tmp_path / "4x4k4.table", get_variant("4x4k4")).checksum == sums[0]


def test_the_lock_tells_when_another_process_builds(fresh: TableStore) -> None:
    assert not fresh.is_building(SMALL)
    with store_module.build_lock(fresh.path(SMALL)):
        assert not TableStore(fresh.directory).build(SMALL, wait=False)
    assert fresh.build(SMALL, wait=False)


def test_the_directory_comes_from_the_environment_or_the_user_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SANMOKU_TABLES_DIR", "/somewhere/tables")
    assert default_directory() == Path("/somewhere/tables") == TableStore().directory
    monkeypatch.delenv("SANMOKU_TABLES_DIR")
    assert default_directory() == Path(platformdirs.user_cache_dir("sanmoku")) / "tables"


def test_a_table_answers_for_o_first_games_with_the_colours_swapped(fresh: TableStore) -> None:
    """Tables are for X first: a game O opened is read with O's marks as the opener's."""
    table = fresh.get(SMALL)
    x_first = Position.parse("X...O.......", "X", SMALL)
    o_first = Position.parse("O...X.......", "O", SMALL)
    assert table.rank(x_first) == table.rank(o_first)
    assert table.lookup(x_first).moves == table.lookup(o_first).moves
