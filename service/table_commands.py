"""`sanmoku tables build | list`: the solved tables of a directory, built or checked from the shell."""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from .engine import PRESETS, TableStore, Variant, get_variant

BACKGROUND_NICENESS = 19  # a build started by the service yields the processors to its workers


def store_of(args: argparse.Namespace) -> TableStore:
    return TableStore(args.dir)


def progress_printer(name: str, out: TextIO) -> Callable[[int, int], None] | None:
    """A one-line tier counter, redrawn in place; only on a terminal."""
    if not out.isatty():
        return None

    def show(done: int, tiers: int) -> None:
        out.write(f"\r{name}: solving, tier {done}/{tiers}")
        out.flush()

    return show


def build(args: argparse.Namespace) -> int:
    if args.background:
        os.nice(BACKGROUND_NICENESS)
    store = store_of(args)
    variants: list[Variant] = [get_variant(name) for name in args.variants] or list(PRESETS)
    out = sys.stdout
    for variant in variants:
        if args.force:
            store.path(variant).unlink(missing_ok=True)
        started = time.perf_counter()
        table = store.try_open(variant)
        if table is not None:
            print(f"{variant.name}: ok, {table.positions:,} positions ({store.path(variant)})", file=out)
            continue
        wait = not (args.no_wait or args.background)
        if not store.build(variant, wait=wait, progress=progress_printer(variant.name, out)):
            print(f"{variant.name}: another process is building it", file=out)
            continue
        table = store.get(variant)
        seconds = time.perf_counter() - started
        clear = "\r\033[K" if out.isatty() else ""
        print(f"{clear}{variant.name}: built in {seconds:.2f} s, {table.positions:,} positions", file=out)
    return 0


def list_tables(args: argparse.Namespace) -> int:
    store = store_of(args)
    infos = store.list()
    print(f"tables in {store.directory}")
    if not infos:
        print("(none)")
        return 0
    rows = [("variant", "positions", "size", "built", "check")]
    for info in infos:
        positions = f"{info.positions:,}" if isinstance(info.positions, int) else "?"
        size = f"{info.bytes_on_disk / 1e6:.1f} MB"
        rows.append((info.variant, positions, size, info.built or "?", info.problem or "ok"))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=False)) + "  " + row[-1])
    return 0 if all(info.problem is None for info in infos) else 1


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    tables = commands.add_parser("tables", help="build, check or list the solved tables on disk")
    actions = tables.add_subparsers(dest="action", required=True)
    directory = argparse.ArgumentParser(add_help=False)
    directory.add_argument(
        "--dir", type=Path, help="the tables directory (default: $SANMOKU_TABLES_DIR or the user cache)"
    )
    build_cmd = actions.add_parser(
        "build", parents=[directory], help="build (or check) tables; with no VARIANT, the presets"
    )
    build_cmd.add_argument("variants", nargs="*", metavar="VARIANT", help="variant names, e.g. 4x4k4")
    build_cmd.add_argument("--force", action="store_true", help="rebuild even a table that checks out")
    build_cmd.add_argument(
        "--no-wait", action="store_true", help="skip a table another process is building instead of waiting"
    )
    build_cmd.add_argument(
        "--background",
        action="store_true",
        help="as the service runs it: --no-wait, at a lower priority than the requests being answered",
    )
    build_cmd.set_defaults(run=build)
    list_cmd = actions.add_parser(
        "list", parents=[directory], help="the tables on disk and whether they check out"
    )
    list_cmd.set_defaults(run=list_tables)
