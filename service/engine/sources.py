"""The sources of answers composed once, for the service and the command line alike: a tables
directory's supply of tables, its opening books, its cache of proven positions and the search's slots, and the
`Analyst` that asks them in turn. The two differ only in their settings: the service builds large
tables in the background and runs slow work off its workers' loops; the command line builds what it
needs there and then, and waits.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from .analyst import Analyst, Offload, SearcherPool, on_this_thread
from .books.supply import open_books
from .rules.variants import Variant
from .search.proof_families import DEFAULT_PROVER_THREADS
from .search.proven import DEFAULT_MAX_BYTES
from .search.proven_store import open_proven_store
from .search.proven_upkeep import Starter, start_thread
from .tables.store import Later, TableStore
from .tables.supply import BACKGROUND_BUILD_CELLS, TableSupply


@dataclass(frozen=True)
class Sources:
    supply: TableSupply  # which table answers a variant now
    analyst: Analyst  # table, book, cache or search, in turn


def compose_sources(
    directory: Path | str | None = None,
    *,
    tables_at_start: Iterable[Variant] = (),
    background_builds: bool = True,
    book_builds: bool = True,
    background_build_cells: int = BACKGROUND_BUILD_CELLS,
    foreground: bool = False,
    write_later: Later | None = None,
    check_later: Later | None = None,
    proven_max_bytes: int = DEFAULT_MAX_BYTES,
    store_url: str | None = None,
    start_trim: Starter = start_thread,
    search_slots: int = 1,
    prover_threads: int = DEFAULT_PROVER_THREADS,
    offload: Offload = on_this_thread,
) -> Sources:
    """The sources of the tables directory `directory` (default: $SANMOKU_TABLES_DIR or
    ~/.cache/sanmoku/tables). `foreground`: a table the service would build in the background is built
    at once (the command line); `write_later`, `check_later` and `start_trim` move a small table's write,
    a table's first whole check and the cache's trims off the caller's thread; `offload` runs a search and
    the store's reads there. A missing Connect Four book is built in the background when
    `background_builds` and `book_builds` allow (a deployment whose instances have no room for its
    1.5 GB builds it once, elsewhere). `store_url` (redis://host:port/db) names the store of proven
    positions that many hosts share; without it, the tables directory's own file."""
    store = TableStore(directory, check_later=check_later)
    supply = TableSupply(
        store,
        tables_at_start,
        background_builds,
        background_build_cells,
        foreground=foreground,
        write_later=write_later,
    )
    proven = open_proven_store(store.directory, store_url, proven_max_bytes, start_trim)
    pool = SearcherPool(search_slots, prover_threads=prover_threads)
    books = open_books(store.directory, background_builds and book_builds)
    return Sources(supply, Analyst(supply.available, proven, pool, offload, books))
