"""`sanmoku tables build | list | verify`: the solved tables of a directory, from the shell."""

from __future__ import annotations

import argparse
import os
import signal
import sys
import time
from pathlib import Path
from types import FrameType

from ..engine import PRESETS, BuildQueue, TableStore, Variant, build_queued, get_variant, plan, progress_for


def store_of(args: argparse.Namespace) -> TableStore:
    return TableStore(args.dir)


def stop_on_sigterm() -> None:
    """SIGTERM ends a build as Ctrl-C does: what it wrote stays, and the same command goes on from it."""

    def stop(signum: int, _: FrameType | None) -> None:
        raise KeyboardInterrupt(f"signal {signum}")

    signal.signal(signal.SIGTERM, stop)


def named_variants(args: argparse.Namespace) -> list[Variant]:
    return [get_variant(name) for name in args.variants] or list(PRESETS)


def build(args: argparse.Namespace) -> int:
    store = store_of(args)
    threads = args.threads or len(os.sched_getaffinity(0))
    if args.queue:  # as the service starts it: the waiting tables, at a lower priority than requests
        for line in build_queued(store.directory, threads):
            print(line)
        return 0
    reduce = args.format == 3
    if args.plan:
        for variant in named_variants(args):
            print("\n".join(plan(variant, store.directory, threads, reduce).lines()))
        return 0
    stop_on_sigterm()
    queue = BuildQueue(store.directory)
    with queue.builder_lock(wait=not args.no_wait) as held:
        if not held:
            print("another builder is at work on this host; not waiting (--no-wait)")
            return 0
        store.remove_leftovers()
        for variant in named_variants(args):
            try:
                build_one(store, variant, args, threads)
            except KeyboardInterrupt:
                print(f"\n{variant.name}: stopped; the tiers written are kept, run the same command to go on")
                return 130
            queue.done(variant)
    return 0


def build_one(store: TableStore, variant: Variant, args: argparse.Namespace, threads: int) -> None:
    out = sys.stdout
    if args.force:
        store.path(variant).unlink(missing_ok=True)
    started = time.perf_counter()
    if store.verify(variant) is None:  # every byte, not only the header: a build is the time to look
        table = store.get(variant)
        print(f"{variant.name}: ok, {table.positions:,} positions ({store.path(variant)})", file=out)
        return
    reduce = args.format == 3
    if not store.build(variant, not args.no_wait, progress_for(out), threads, args.ray, reduce):
        print(f"{variant.name}: another process is building it", file=out)
        return
    table = store.get(variant)
    seconds = time.perf_counter() - started
    print(f"{variant.name}: built in {seconds:.2f} s, {table.positions:,} positions", file=out)


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


def verify(args: argparse.Namespace) -> int:
    """Every byte of the named tables (default: every table in the directory) against its checksum."""
    store = store_of(args)
    names = args.variants or [info.variant for info in store.list()]
    bad = 0
    for name in names:
        started = time.perf_counter()
        try:
            variant = get_variant(name)
        except ValueError as error:  # a file whose header names no variant
            print(f"{name}: foreign: {error}")
            bad += 1
            continue
        problem = store.verify(variant)
        bad += problem is not None
        print(f"{variant.name}: {problem or 'ok'} ({time.perf_counter() - started:.2f} s)")
    return 1 if bad else 0


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    tables = commands.add_parser("tables", help="build, list or verify the solved tables on disk")
    actions = tables.add_subparsers(dest="action", required=True)
    directory = argparse.ArgumentParser(add_help=False)
    directory.add_argument(
        "--dir",
        type=Path,
        help="the tables directory (default: $SANMOKU_TABLES_DIR or ~/.cache/sanmoku/tables)",
    )
    build_cmd = actions.add_parser(
        "build", parents=[directory], help="build (or check) tables; with no VARIANT, the presets"
    )
    build_cmd.add_argument("variants", nargs="*", metavar="VARIANT", help="variant names, e.g. 4x5k4")
    build_cmd.add_argument("--force", action="store_true", help="rebuild even a table that checks out")
    build_cmd.add_argument(
        "--no-wait", action="store_true", help="skip what another builder holds instead of waiting"
    )
    build_cmd.add_argument(
        "--plan",
        action="store_true",
        help="print the tiers, bytes on disk, peak memory and time; build nothing",
    )
    build_cmd.add_argument("--threads", type=int, help="solving threads (default: every processor)")
    build_cmd.add_argument(
        "--ray",
        metavar="ADDRESS",
        help="solve each tier's pieces as Ray tasks on this cluster ('auto': the one this host is in); "
        "the tables directory must be shared by every node (pip install 'sanmoku[cluster]')",
    )
    build_cmd.add_argument(
        "--format",
        type=int,
        choices=(2, 3),
        default=3,
        help="3 (default): one entry per class of symmetric positions; 2: one per position, as before",
    )
    build_cmd.add_argument(
        "--queue",
        action="store_true",
        help="as the service runs it: build the queued tables, at a lower priority than requests",
    )
    build_cmd.set_defaults(run=build)
    list_cmd = actions.add_parser(
        "list", parents=[directory], help="the tables on disk and whether their headers check out"
    )
    list_cmd.set_defaults(run=list_tables)
    verify_cmd = actions.add_parser(
        "verify", parents=[directory], help="check every byte of tables against their checksums"
    )
    verify_cmd.add_argument("variants", nargs="*", metavar="VARIANT", help="default: every table on disk")
    verify_cmd.set_defaults(run=verify)
