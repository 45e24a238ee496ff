"""Which opening books answer now and how they get there: the one rule for the service and the command
line, as `tables.supply` is for the tables.

Books are read from the `books/` folder of the app's tables directory, then of the host's default one,
then from those installed with the package (the 5x5k4 book, `search/books/`). The Connect Four book is
not shipped (63 MB): it is built from an installed dependency, bitbully-databases (`search.connect4_book`,
about 20 s of one processor and 1.5 GB here). When a Connect Four position is asked about and the book
is missing, its build starts in the background, as a missing table's does: one process at the lowest
priority (`main`), into the host's default tables directory, which every app on the host looks in, so
that one build serves them all. Its lock lets one build run per directory; the answers come from the
search until the file is there and checks out (looked for again every 10 s). A directory that cannot be
written builds nothing and serves what it has.
"""

from __future__ import annotations

import argparse
import importlib.util
import logging
import os
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import EngineError
from .rules.variants import CONNECT4, Variant
from .search.book_file import file_name
from .search.books import FOLDER, RECHECK_SECONDS, Books
from .search.proven import DEFAULT_MAX_BYTES, ProvenStore
from .search.published_book import MODULE, PACKAGE
from .tables.builder import BACKGROUND_NICENESS, spawn_build
from .tables.locks import file_lock
from .tables.spawn import Child
from .tables.store import TableStore, default_directory

BUILD_LOCK = ".build.lock"  # in the books folder: one build of books at a time per directory
Report = Callable[[str], None]

if TYPE_CHECKING:
    from .search.book import Advance

log = logging.getLogger(__name__)


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
    waited for it (issue 30)."""
    books.book(CONNECT4)


class BackgroundBuild:
    """Starts the Connect Four book's build into `directory` when it is asked for and missing: one
    attempt per process every RECHECK_SECONDS at most, and none while a build holds the lock."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._last = -RECHECK_SECONDS
        self._lock = threading.Lock()

    def __call__(self, variant: Variant) -> Child | None:
        now = time.monotonic()
        with self._lock:
            if variant != CONNECT4 or now - self._last < RECHECK_SECONDS:
                return None
            self._last = now
        return start_build(self.directory)


def start_build(directory: Path) -> Child | None:
    """Start the Connect Four book's build into `directory` unless it cannot be or one runs already:
    the process, or None."""
    why = TableStore(directory).unwritable()
    if why is None and importlib.util.find_spec(MODULE) is None:
        why = f"{PACKAGE} is not installed"
    if why:
        log.warning("the Connect Four book is missing and is not built here: %s", why)
        return None
    with file_lock(directory / FOLDER / BUILD_LOCK, wait=False) as free:
        if not free:
            return None  # a build is under way
    # `main` by -c, not -m: the front door imports this module, which -m would then run a second time.
    entry = f"import sys; from {__name__} import main; sys.exit(main(sys.argv[1:]))"
    log.info("building the Connect Four book in the background into %s", directory)
    return spawn_build(["-c", entry, "--dir", str(directory)], directory / FOLDER)


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
    published book, another board's by proving its first `plies` plies with the search (into the
    directory's store of proven positions) and exporting them. The path written, or None if
    `if_missing` and a book that checks out is there already, or if another build holds the lock and
    not `wait`. `advance` follows the search's positions (see `build_book`). The searches run on
    `processes` processes, or as tasks on the Ray cluster at `ray_address`."""
    # The builders are imported here, where a book is built: a server imports this module at start
    # for `open_books` and would otherwise load them (and multiprocessing) before its first answer.
    from .search.book import build_book, export_book
    from .search.connect4_book import build_connect4_book

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
            store = ProvenStore(directory, max_bytes)
            build_book(variant, plies, store, processes, seconds, report, advance, ray_address)
            export_book(variant, plies, store, path, time.perf_counter() - started)
        report(f"{variant.name}: book written in {time.perf_counter() - started:.1f} s ({path})")
    return path


def main(argv: Sequence[str] | None = None) -> int:
    """The background build of the Connect Four book, niced, unless it is there."""
    parser = argparse.ArgumentParser(description="Build the Connect Four book into a tables directory.")
    parser.add_argument("--dir", type=Path, help="the tables directory (default: as the service's)")
    args = parser.parse_args(argv)
    os.nice(BACKGROUND_NICENESS)  # an increment: the kernel keeps it at 19 at most
    directory = args.dir or default_directory()
    if directory.is_dir():  # the service's builds go only into a tables directory that still exists
        build_book_file(CONNECT4, directory, if_missing=True, report=log.info, wait=False)
    return 0
