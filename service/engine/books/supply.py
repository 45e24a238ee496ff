"""Which opening books answer now and how they get there: the one rule for the service and the command
line, as `tables.supply` is for the tables.

Books are read from the `books/` folder of the app's tables directory, then of the host's default one,
then from those installed with the package (the 5x5k4 book, `books/data/`). The Connect Four book is
not shipped (63 MB): it is built from an installed dependency, bitbully-databases (`connect4`,
about 20 s of one processor and 1.5 GB here). When a Connect Four position is asked about and the book
is missing, its build starts in the background, as a missing table's does: one process at the lowest
priority (`main`), into the host's default tables directory, which every app on the host looks in, so
that one build serves them all. Its lock lets one build run per directory; the answers come from the
search until the file is there and checks out (looked for again every 10 s). A directory that cannot be
written builds nothing and serves what it has. When builds start, how often, and what the host must
have for one: `background`.
"""

from __future__ import annotations

import argparse
import errno
import os
import shutil
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import EngineError
from ..rules.variants import CONNECT4, Variant
from ..search.proven import DEFAULT_MAX_BYTES, ProvenCache
from ..tables.builder import BACKGROUND_NICENESS
from ..tables.locks import file_lock
from ..tables.store import default_directory
from .background import BackgroundBuild
from .builds import BUILD_LOCK, BookBuilds
from .file import file_name
from .source import FOLDER, Books

Report = Callable[[str], None]

if TYPE_CHECKING:
    from .build import Advance


def open_books(tables_directory: Path, build: bool) -> Books:
    """The books of the app's tables directory, the host's and the package's; with `build`, the
    Connect Four book's build started in the background when a Connect Four position is asked about
    and it is missing. Nothing is read yet (see read_large_books)."""
    host = default_directory()
    return Books([tables_directory, host], on_missing=BackgroundBuild(host) if build else None)


def read_large_books(books: Books) -> None:
    """The Connect Four book read now (its checksum checked: a few tenths of a second), not within the
    budget of the first request that asks for it. A server's workers do it after their first answer
    (the file is mapped: every process shares its pages); its master did it before, and every start
    waited for it."""
    books.book(CONNECT4)


def book_path(directory: Path, variant: Variant) -> Path:
    return directory / FOLDER / file_name(variant)


def build_book_file(
    variant: Variant,
    directory: Path,
    plies: int | None = None,
    out: Path | None = None,
    if_missing: bool = False,
    processes: int = 1,
    seconds: float | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    report: Report = print,
    wait: bool = True,
    advance: Advance | None = None,
    ray_address: str | None = None,
) -> Path | None:
    """Build the variant's book into `directory`'s books folder (or `out`): Connect Four's from its
    published book, another board's by proving its first `plies` plies with the search and exporting
    them. The proofs go into a store of the build's own (`work_directory`), kept while the build is
    unfinished (a build stopped and started again goes on from it) and removed once the book is
    written: the book file is the one place its values live, never the service's cache.

    The path written, or None if `if_missing` and a book that checks out is there already, or if
    another build holds the lock and not `wait`. `advance` follows the search's positions (see
    `build_book`). The searches run on `processes` processes, or as tasks on the Ray cluster at
    `ray_address`."""
    # The builders are imported here, where a book is built: a server imports this module at start
    # for `open_books` and would otherwise load them (and multiprocessing) before its first answer.
    from .build import build_book, export_book
    from .connect4 import build_connect4_book

    if variant != CONNECT4 and plies is None:
        raise EngineError(
            "plies_needed", f"{variant.name}: say how many plies (only connect4 has a published book)"
        )
    path = out or book_path(directory, variant)
    (directory / FOLDER).mkdir(parents=True, exist_ok=True)
    with file_lock(directory / FOLDER / BUILD_LOCK, wait) as free:  # one build at a time per directory
        if not free or (if_missing and Books([directory], packaged=None).book(variant) is not None):
            return None
        started = time.perf_counter()
        if variant == CONNECT4:
            build_connect4_book(path, report)
        else:
            assert plies is not None
            work = work_directory(directory, variant)
            store = ProvenCache(work, max_bytes)
            build_book(variant, plies, store, processes, seconds, report, advance, ray_address)
            export_book(variant, plies, store, path, time.perf_counter() - started)
            store.close()
            shutil.rmtree(work, ignore_errors=True)
        report(f"{variant.name}: book written in {time.perf_counter() - started:.1f} s ({path})")
    return path


def work_directory(directory: Path, variant: Variant) -> Path:
    """Where a book's build keeps its proofs until the book is written."""
    return directory / FOLDER / f".{variant.long_name}.work"


def main(argv: Sequence[str] | None = None) -> int:
    """The background build of the Connect Four book, niced, unless it is there; how it ended is
    recorded for the processes that start builds (`builds`): a failure's reason, or a success."""
    parser = argparse.ArgumentParser(description="Build the Connect Four book into a tables directory.")
    parser.add_argument("--dir", type=Path, help="the tables directory (default: as the service's)")
    args = parser.parse_args(argv)
    os.nice(BACKGROUND_NICENESS)  # an increment: the kernel keeps it at 19 at most
    directory = args.dir or default_directory()
    if not directory.is_dir():  # the service's builds go only into a tables directory that still exists
        return 0
    builds = BookBuilds(directory / FOLDER)
    try:
        written = build_book_file(CONNECT4, directory, if_missing=True, report=print, wait=False)
    except Exception as error:  # out of memory, a full disk, a published file that fails its check
        reason = failure_reason(error)
        print(f"the Connect Four book's build failed: {reason}", file=sys.stderr)
        with builds.deciding():
            builds.ended(reason)
        return 1
    if written is not None or book_path(directory, CONNECT4).exists():  # else another build runs
        with builds.deciding():
            builds.ended(None)
    return 0


def failure_reason(error: Exception) -> str:
    """A build's failure in one line."""
    if isinstance(error, MemoryError):
        return f"out of memory ({error})" if str(error) else "out of memory"
    if isinstance(error, OSError) and error.errno == errno.ENOSPC:
        return f"the disk is full ({error.strerror})"
    return str(error) or type(error).__name__
