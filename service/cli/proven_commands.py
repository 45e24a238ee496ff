"""`sanmoku cache stats | clear` and `sanmoku book build`: the store of proven positions beside the
tables, from the shell."""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from ..engine import (
    DEFAULT_MAX_BYTES,
    ProvenStore,
    book_positions,
    build_book,
    default_directory,
    get_variant,
)


def store_of(args: argparse.Namespace) -> ProvenStore:
    return ProvenStore(args.dir or default_directory(), args.max_bytes)


def stats(args: argparse.Namespace) -> int:
    found = store_of(args).stats()
    print(f"proven positions in {found.path}")
    print(f"  records  {found.records:,} ({found.exact:,} exact, {found.book:,} from the book)")
    print(f"  size     {found.bytes / 1e6:,.1f} MB of at most {found.max_bytes / 1e6:,.0f} MB")
    return 0


def clear(args: argparse.Namespace) -> int:
    removed = store_of(args).clear()
    print(f"removed {removed:,} proven positions")
    return 0


def book(args: argparse.Namespace) -> int:
    variant = get_variant(args.variant)
    if args.count:
        for ply, layer in enumerate(book_positions(variant, args.plies)):
            print(f"ply {ply}: {len(layer):,} positions up to symmetry")
        return 0
    store = store_of(args)
    processes = args.processes or len(os.sched_getaffinity(0))
    started = time.perf_counter()
    counts = build_book(variant, args.plies, store, processes, args.seconds, print, args.ray)
    total = sum(c.positions for c in counts)
    found = store.stats()
    seconds = time.perf_counter() - started
    done = f"{total:,} positions up to ply {args.plies} in {seconds:.1f} s"
    where = f"the Ray cluster at {args.ray}" if args.ray else f"{processes} processes"
    print(f"{variant.name}: {done} on {where}")
    print(f"store: {found.records:,} records, {found.bytes / 1e6:,.1f} MB ({found.path})")
    sys.stdout.flush()
    return 0


def add_parsers(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    where = argparse.ArgumentParser(add_help=False)
    where.add_argument("--dir", type=Path, help="the tables directory the store lives in (default as tables)")
    where.add_argument("--max-bytes", type=int, default=DEFAULT_MAX_BYTES, help="the store's bound")
    cache = commands.add_parser("cache", help="the store of positions the search has proven")
    actions = cache.add_subparsers(dest="action", required=True)
    actions.add_parser("stats", parents=[where], help="how many positions, how many bytes").set_defaults(
        run=stats
    )
    actions.add_parser("clear", parents=[where], help="forget every proven position").set_defaults(run=clear)
    book_cmd = commands.add_parser("book", help="the opening book of a board with no table")
    book_actions = book_cmd.add_subparsers(dest="action", required=True)
    build_cmd = book_actions.add_parser(
        "build", parents=[where], help="prove every position of the first plies into the store"
    )
    build_cmd.add_argument("variant", metavar="VARIANT", help="a variant name, e.g. 5x5k4")
    build_cmd.add_argument("--plies", type=int, required=True, help="how deep the book goes")
    build_cmd.add_argument("--processes", type=int, help="searching processes (default: every processor)")
    build_cmd.add_argument("--seconds", type=float, help="the most a search may take per position")
    build_cmd.add_argument("--count", action="store_true", help="count the positions per ply; prove nothing")
    build_cmd.add_argument(
        "--ray",
        metavar="ADDRESS",
        help="search the positions as Ray tasks on this cluster ('auto': the one this host is in; "
        "pip install 'sanmoku[cluster]')",
    )
    build_cmd.set_defaults(run=book)
