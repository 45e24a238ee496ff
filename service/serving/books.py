"""The service's opening books: those built beside the tables (the app's tables directory, then the
host's default one) and those installed with the package (`engine/search/books.py`).

The Connect Four book is built from an installed dependency (bitbully-databases), not shipped: 63 MB.
When it is missing, the service starts its build at start-up in the background, as it does for tables:
one process at the lowest priority (`sanmoku book build connect4 --if-missing --background`, about 20 s
and 1.5 GB here), into the host's default tables directory, which every app on the host looks in, so
that one build serves them all (the tests' apps too). Its lock lets one build run per directory; the
answers come from the search until the file is there and checks out. A directory that cannot be
written builds nothing and serves what it has.
"""

from __future__ import annotations

import importlib.util
import logging
import shutil
import subprocess
import sys
from pathlib import Path

from ..cli.table_commands import BACKGROUND_NICENESS
from ..engine.rules.variants import CONNECT4
from ..engine.search.books import Books
from ..engine.search.published_book import MODULE, PACKAGE
from ..engine.tables.store import TableStore, default_directory

log = logging.getLogger(__name__)


def open_books(tables_directory: Path, build: bool) -> Books:
    """The books of the app's tables directory, the host's and the package's; with `build`, the
    Connect Four book's build started in the background if it is missing."""
    host = default_directory()
    books = Books([tables_directory, host])
    if build and books.book(CONNECT4) is None:
        start_build(host)
    return books


def start_build(directory: Path) -> subprocess.Popen[bytes] | None:
    """Start the Connect Four book's build into `directory` unless it cannot be: the process, or None."""
    why = TableStore(directory).unwritable()
    if why is None and importlib.util.find_spec(MODULE) is None:
        why = f"{PACKAGE} is not installed"
    if why:
        log.warning("the Connect Four book is missing and is not built here: %s", why)
        return None
    # Niced from its first instruction, as the tables' builder: a start answers as fast without the book.
    nice = ["nice", "-n", str(BACKGROUND_NICENESS)] if shutil.which("nice") else []
    command = [*nice, sys.executable, "-m", "service.cli.main", "book", "build", "connect4"]
    command += ["--dir", str(directory), "--if-missing", "--background"]
    log.info("building the Connect Four book in the background into %s", directory)
    return subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
