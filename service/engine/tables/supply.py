"""Which table answers a variant now: the one rule, for the service and the command line alike.

A table on disk that checks out answers. A missing one of up to `solve_now_cells` cells is solved on
the spot (milliseconds; its file is written after the answer when `write_later` is given: see
`small_tables`). A larger one of up to `background_build_cells` cells (or named among the
tables wanted at start) is queued for the host's one background builder (`builder.start`): until it is
on disk, `table` raises TableNotReadyError (ask again later) and `available` gives None, so that the
search answers meanwhile. A larger one still takes minutes and gigabytes and is built only by an
operator (`sanmoku tables build NAME`): TableNotBuiltError. A board no table can hold: NoTableError.

The command line follows the same rule with `foreground` builds: a table the service would queue for
the background builder is built there and then, and the command waits for it.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Iterable

from ..errors import NoTableError, TableNotBuiltError, TableNotReadyError
from ..rules.variants import MAX_TABLE_CELLS, PRESETS, Variant, get_variant
from . import builder
from .build_plan import plan
from .build_queue import LAST_RETRY_SECONDS, BuildQueue
from .small_tables import Later, SmallTables
from .spawn import LOST, Child
from .store import TableStore
from .table import Table

SOLVE_NOW_CELLS = 12  # a 12-cell table solves in about 20 ms
BACKGROUND_BUILD_CELLS = 16  # by default: a 16-cell table builds in a second, 20 cells take 10 s and 750 MB
START_INTERVAL = 2.0  # seconds between two attempts of one process to start a builder
# After a builder that failed on its own (it could not even record its attempt in the queue: a full
# disk), the interval doubles, up to the queue's longest retry delay; a builder that ends well resets it.
LONGEST_START_INTERVAL = LAST_RETRY_SECONDS

log = logging.getLogger(__name__)


class TableSupply:
    def __init__(
        self,
        store: TableStore,
        at_start: Iterable[Variant] = (),
        background_builds: bool = True,
        background_build_cells: int = BACKGROUND_BUILD_CELLS,
        solve_now_cells: int = SOLVE_NOW_CELLS,
        foreground: bool = False,
        write_later: Later | None = None,
    ) -> None:
        self.store = store
        self.small = SmallTables(store, write_later)
        self.foreground = foreground
        self.queue = BuildQueue(store.directory)
        self.at_start = list(at_start)
        self.background_builds = background_builds
        self.background_build_cells = background_build_cells
        self.solve_now_cells = solve_now_cells
        self._builder: Child | None = None
        self._last_start = -START_INTERVAL
        self._start_interval = START_INTERVAL

    def table(self, variant: Variant) -> Table:
        """The variant's table, solved now if it is small; TableNotReadyError while a larger one waits
        for the builder, TableNotBuiltError if it is not built on request, NoTableError if no table can
        hold the board."""
        if not variant.has_table:
            raise NoTableError(variant, MAX_TABLE_CELLS)
        table = self.ready_table(variant)
        if table is not None:
            return table
        if variant.cells <= self.solve_now_cells:
            return self.small.table(variant, self.store.unbuildable(variant))
        # A larger one goes to the builder unless no file can be written here at all (a directory in
        # its file's place fails its build at once, which the queue reports and retries later).
        if self.store.unwritable() is not None:
            why = f"which cannot build it here, as {self.store.unbuildable(variant)}"
        elif not self.builds_on_request(variant):
            why = (
                f"which builds tables of more than {self.background_build_cells} cells only when told to"
                if self.background_builds
                else "which builds no table on request"
            )
        elif self.foreground:
            return self.store.get(variant)
        else:
            self.request_builds([variant])
            try:
                waiting = self.queue.waiting(variant)
            except OSError as error:  # the queue's files cannot be written or read here
                why = f"which cannot queue its build: {error}"
            else:
                raise TableNotReadyError(variant, waiting.reason, waiting.retry_after)
        needs = plan(variant, self.store.directory)
        raise TableNotBuiltError(variant, why, needs.seconds, needs.bytes_on_disk)

    def available(self, variant: Variant) -> Table | None:
        """The table that answers the variant now, if any: on disk, or solved now if small. A larger
        one that is missing is queued for the builder (where it builds on request): None meanwhile."""
        if not variant.has_table:
            return None
        table = self.ready_table(variant)
        if table is None and variant.cells <= self.solve_now_cells:
            return self.small.table(variant, self.store.unbuildable(variant))
        if table is None and self.foreground and self.builds_on_request(variant):
            return self.store.get(variant) if self.store.unbuildable(variant) is None else None
        if table is None and self.store.unwritable() is None:
            with contextlib.suppress(OSError):  # the queue cannot be written: the search answers anyway
                self.request_builds([variant])
        return table

    def described(self, variant: Variant) -> Table | None:
        """The table to describe the variant with: solved now if small, as any request for it would
        be; a larger one only if it is on disk (describing a variant builds nothing large)."""
        if not variant.has_table:
            return None
        return self.table(variant) if variant.cells <= self.solve_now_cells else self.ready_table(variant)

    def table_on_disk(self, variant: Variant) -> Table:
        """As `table`, from the table's file: a small table solved here has its file written first
        (a download needs the file); one whose file cannot be written here comes from memory."""
        table = self.table(variant)
        if table.identity is None and variant.cells <= self.solve_now_cells:
            return self.small.written(variant) or table
        return table

    def ready_table(self, variant: Variant) -> Table | None:
        """The table if it is on disk and checks out, without building anything."""
        return self.store.opened(variant) or self.store.try_open(variant)

    def builds_on_request(self, variant: Variant) -> bool:
        return self.background_builds and (
            variant.cells <= self.background_build_cells or variant in self.at_start
        )

    def request_builds(self, variants: Iterable[Variant]) -> None:
        """Queue the tables not on disk yet and start the host's builder unless one runs (or one was
        started by this process a moment ago)."""
        wanted = [v for v in variants if self.builds_on_request(v) and not self.store.looks_built(v)]
        if not wanted or self.store.unwritable():  # nothing to queue, or no queue to write to
            return
        try:
            for variant in wanted:
                self.queue.add(variant)
            due, running = self.queue.next_due(), self.queue.builder_running()
        except OSError as error:  # the queue cannot be written here: the 503s say so (see table())
            log.warning("tables cannot be queued for building: %s", error)
            return
        now = time.monotonic()
        if self._builder_alive() or running:
            return
        self._back_off()
        if due is None or now - self._last_start < self._start_interval:
            return
        self._last_start = now
        self._builder = builder.start(self.store.directory)

    def request_large_at_start(self) -> None:
        """Queue the tables wanted at start that are too large to solve on request (a glance at their
        files' headers only: checking them all would keep every start waiting)."""
        self.request_builds(v for v in self.at_start if v.cells > self.solve_now_cells)

    def cannot_build(self) -> dict[str, str]:
        """The tables wanted at start that are not on disk and cannot be built here, and why."""
        found = {}
        for variant in self.at_start:
            # unbuildable first: in a directory that can be written it is None at once, while checking a
            # file's header means working out its layout (a tenth of the master's start)
            why = self.store.unbuildable(variant)
            if why and not self.store.looks_built(variant):
                found[variant.name] = why
        return found

    def _builder_alive(self) -> bool:
        return self._builder is not None and self._builder.poll() is None

    def _back_off(self) -> None:
        """The interval before this process starts another builder, from how its last one ended."""
        if self._builder is None:
            return
        if self._builder.returncode == LOST:  # how it ended is not known: the interval stays as it was
            self._builder = None
            return
        failed = self._builder.returncode != 0
        self._start_interval = (
            min(2 * self._start_interval, LONGEST_START_INTERVAL) if failed else START_INTERVAL
        )
        if failed:
            log.warning(
                "the table builder stopped on an error; the next one starts in %.0f s", self._start_interval
            )
        self._builder = None


def variants_at_start(setting: str | list[str]) -> list[Variant]:
    """The tables wanted at start: "presets", a comma-separated string of names, or a list of names."""
    if setting == "presets":
        return list(PRESETS)
    names = setting.split(",") if isinstance(setting, str) else setting
    found = [get_variant(name.strip()) for name in names if name.strip()]
    searched = [v.name for v in found if not v.has_table]
    if searched:  # a start that would wait for a table no board of that size has
        raise ValueError(f"TABLES_AT_START names boards no table holds (the search answers them): {searched}")
    return found
