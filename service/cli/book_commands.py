"""`sanmoku book build | list | verify`: the opening books, from the shell.

`book build connect4` reads the published book (bitbully-databases) and writes the Connect Four book
(plies 0 to 12) into the tables directory's `books/` folder; `book build VARIANT --plies N` proves the
first N plies of another board with the search into the cache of proven positions, then writes its book
file from them. `book list` shows which books are present, `book verify` proves sampled entries
with the search and compares them with the book.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from pathlib import Path

from ..engine import (
    DEFAULT_MAX_BYTES,
    Books,
    book_positions,
    build_book_file,
    default_directory,
    get_variant,
    sample_entries,
    verify_entries,
)
from .progress import Progress


def _directory(args: argparse.Namespace) -> Path:
    return Path(args.dir) if args.dir else default_directory()


def build(args: argparse.Namespace) -> int:
    variant = get_variant(args.variant)
    if args.count:
        for ply, layer in enumerate(book_positions(variant, args.plies)):
            print(f"ply {ply}: {len(layer):,} positions up to symmetry")
        return 0
    processes = args.processes or len(os.sched_getaffinity(0))
    directory, seconds, max_bytes = _directory(args), args.seconds, args.max_bytes
    progress = Progress(sys.stdout, "positions searched")  # a bar on a terminal, a line a tenth otherwise
    try:
        build_book_file(
            variant,
            directory,
            args.plies,
            args.out,
            args.if_missing,
            processes,
            seconds,
            max_bytes,
            advance=progress.advanced,
            ray_address=args.ray,
        )
    finally:
        progress.close()
    return 0


def list_books(args: argparse.Namespace) -> int:
    found = Books([_directory(args)]).listing()
    for info in found:
        if info.problem or info.plies is None:
            print(f"{info.variant:<16} not used: {info.problem}")
            continue
        size = f"{info.bytes_on_disk / 1e6:.1f} MB"
        counts = f"plies 0-{info.plies}  {info.positions:>10,} positions  {size:>9}"
        print(f"{info.variant:<16} {counts}  {info.source}")
        print(f"{'':<16} every move of plies 0-{info.plies - 1}: {info.path}")
    connect4 = get_variant("connect4")
    if not any(info.variant == connect4.name and not info.problem for info in found):
        print(
            f"{connect4.name:<16} not built yet: built in the background on the first Connect Four question,"
        )
        print(f"{'':<16} or now by `sanmoku book build connect4` (about 20 s and 1.5 GB)")
    return 0


def verify(args: argparse.Namespace) -> int:
    variant = get_variant(args.variant)
    book = Books([_directory(args)]).book(variant)
    if book is None:
        print(f"sanmoku: no {variant.name} book (sanmoku book build {variant.name})")
        return 2
    plies = [int(p) for p in args.plies.split(",")] if args.plies else list(range(book.data.deepest + 1))
    entries = sample_entries(book, plies, args.sample, random.Random(args.seed))
    processes = args.processes or len(os.sched_getaffinity(0))
    found = verify_entries(book, entries, args.nodes, print, processes)
    return 1 if found.disagreements else 0


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    where = argparse.ArgumentParser(add_help=False)
    where.add_argument("--dir", type=Path, help="the tables directory the books live in (default as tables)")
    book_cmd = commands.add_parser("book", help="the opening books")
    actions = book_cmd.add_subparsers(dest="action", required=True)
    build_cmd = actions.add_parser(
        "build", parents=[where], help="build a book: connect4 from its published book, others by the search"
    )
    build_cmd.add_argument("variant", metavar="VARIANT", help="connect4, or a variant name such as 5x5k4")
    build_cmd.add_argument("--plies", type=int, help="how deep the book goes (boards other than connect4)")
    build_cmd.add_argument("--out", type=Path, help="write the book file here (default: DIR/books/)")
    build_cmd.add_argument("--processes", type=int, help="searching processes (default: every processor)")
    build_cmd.add_argument("--seconds", type=float, help="the most a search may take per position")
    build_cmd.add_argument("--count", action="store_true", help="count the positions per ply; prove nothing")
    build_cmd.add_argument("--max-bytes", type=int, default=DEFAULT_MAX_BYTES, help="the store's bound")
    build_cmd.add_argument("--if-missing", action="store_true", help="unless it is there (once built)")
    build_cmd.add_argument(
        "--ray",
        metavar="ADDRESS",
        help="search the positions as Ray tasks on this cluster ('auto': the one this host is in; "
        "pip install 'sanmoku[cluster]')",
    )
    build_cmd.set_defaults(run=build)
    actions.add_parser("list", parents=[where], help="the books present: plies, size, source").set_defaults(
        run=list_books
    )
    verify_cmd = actions.add_parser("verify", parents=[where], help="compare sampled entries with the search")
    verify_cmd.add_argument("variant", metavar="VARIANT")
    verify_cmd.add_argument("--sample", type=int, default=100, help="entries per ply")
    verify_cmd.add_argument("--plies", help="the plies to sample, e.g. 10,11,12 (default: all)")
    verify_cmd.add_argument("--nodes", type=int, default=20_000, help="the most a proof may search per entry")
    verify_cmd.add_argument("--seed", type=int, default=1)
    verify_cmd.add_argument("--processes", type=int, help="searching processes (default: every processor)")
    verify_cmd.set_defaults(run=verify)
