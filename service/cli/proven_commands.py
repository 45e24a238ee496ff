"""`sanmoku cache stats | clear`: the store of proven positions beside the tables, from the shell (and
`sanmoku book`, in `book_commands`)."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..engine import DEFAULT_MAX_BYTES, ProvenStore, default_directory
from . import book_commands


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
    book_commands.add_parser(commands)
