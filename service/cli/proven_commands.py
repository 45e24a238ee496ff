"""`sanmoku cache stats | clear`: the cache of proven positions beside the tables, from the shell (and
`sanmoku book`, in `book_commands`). A store that is not there is an error (a mistyped --dir must not
make a new one); clearing asks first (or takes --yes), and removes an opening book's positions only
when named."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from ..engine import (
    DEFAULT_MAX_BYTES,
    ProvenCache,
    ProvenCacheError,
    TableStore,
    audit_proven,
    default_directory,
    get_variant,
    open_books,
)
from . import book_commands

SHOWN = 10  # wrong records listed by `cache verify`


def store_of(args: argparse.Namespace) -> ProvenCache:
    logging.getLogger("service.engine").setLevel(logging.ERROR)  # what the store finds, these commands say
    directory = args.dir or default_directory()
    store = ProvenCache(directory, args.max_bytes)
    if not store.path.is_file():
        raise ProvenCacheError(
            f"there is no cache of proven positions in {directory} (no {store.path.name}): check --dir "
            f"(the tables directory, default $SANMOKU_TABLES_DIR or ~/.cache/sanmoku/tables); the service "
            f"and `sanmoku analyze` make it when they first prove a position"
        )
    return store


def stats(args: argparse.Namespace) -> int:
    found = store_of(args).stats()
    print(f"proven positions in {found.path}")
    print(f"  records  {found.records:,} ({found.exact:,} exact, {found.book:,} from the book)")
    print(f"  size     {found.bytes / 1e6:,.1f} MB of at most {found.max_bytes / 1e6:,.0f} MB")
    if found.health.state != "ok":
        print(f"  state    {found.health.state}: {found.health.problem}")
    return 0


def clear(args: argparse.Namespace) -> int:
    store = store_of(args)
    book = get_variant(args.book) if args.book else None
    what = (
        f"the {book.name} opening book's positions"
        if book
        else "every position a search proved (the opening books' stay: --book NAME removes one)"
    )
    if not args.yes and not confirmed(f"remove {what} from {store.path}?"):
        raise ProvenCacheError(f"nothing removed: `cache clear` removes {what}; add --yes to do it")
    removed = store.clear(book)
    print(f"removed {removed:,} proven positions" + (f" of the {book.name} book" if book else ""))
    return 0


def verify(args: argparse.Namespace) -> int:
    """Every record checked (`engine.proven_check`); with --remove, the wrong ones removed. Exit 1 when
    a wrong record is kept."""
    store = store_of(args)
    directory = args.dir or default_directory()
    tables = TableStore(directory)
    books = open_books(directory, build=False)
    found = audit_proven(store, lambda variant: tables.opened(variant) or tables.try_open(variant), books)
    print(f"checked {found.checked:,} proven positions in {store.path}")
    print(f"  {'by a table':<20} {found.against_table:,}")
    print(f"  {'by a book':<20} {found.against_book:,}")
    for kind, count in found.counts().items():
        print(f"  {kind:<20} {count:,}")
    for finding in found.findings[:SHOWN]:
        print(f"  - {finding.why}")
    if len(found.findings) > SHOWN:
        print(f"  ... and {len(found.findings) - SHOWN:,} more")
    if not found.findings:
        return 0
    if args.remove:
        removed = store.remove([finding.key for finding in found.findings])
        print(f"removed {removed:,} wrong records")
        return 0
    print("wrong records are kept: run again with --remove to remove them")
    return 1


def confirmed(question: str) -> bool:
    """The user's yes, on a terminal; never without one."""
    if not sys.stdin.isatty():
        return False
    return input(f"{question} [y/N] ").strip().lower() in ("y", "yes")


def add_parsers(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    where = argparse.ArgumentParser(add_help=False)
    where.add_argument("--dir", type=Path, help="the tables directory the store lives in (default as tables)")
    where.add_argument("--max-bytes", type=int, default=DEFAULT_MAX_BYTES, help="the store's bound")
    cache = commands.add_parser("cache", help="the cache of positions the search has proven")
    actions = cache.add_subparsers(dest="action", required=True)
    actions.add_parser("stats", parents=[where], help="how many positions, how many bytes").set_defaults(
        run=stats
    )
    clear_cmd = actions.add_parser(
        "clear", parents=[where], help="forget the positions searches proved (or one opening book's)"
    )
    clear_cmd.add_argument(
        "--book", metavar="VARIANT", help="remove the book positions an older version's build left instead"
    )
    clear_cmd.add_argument("--yes", action="store_true", help="do not ask first")
    clear_cmd.set_defaults(run=clear)
    verify_cmd = actions.add_parser(
        "verify",
        parents=[where],
        help="check every record (its checksum, its provers) against the tables and books on disk",
    )
    verify_cmd.add_argument("--remove", action="store_true", help="remove the records found wrong")
    verify_cmd.set_defaults(run=verify)
    book_commands.add_parser(commands)
