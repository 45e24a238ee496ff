"""Small tables (a few thousand entries, such as 3x3's) solved in this process when their file is missing.

Solving a 3x3 table takes about 15 ms; writing its file (the build's lock, its checks, three fsyncs)
took about half as long again, and the answer that needed the table waited for both: a server started
on an empty tables directory answered its first request 30-40 ms later than one started with the files.
So the table is solved in memory and answers at once, and its file is written afterwards by
`write_later` (the service passes a background thread that starts once the answer is sent; by default
the file is written at once, as the command line and the tests expect). Until the file is there the
copy in memory answers; once it is, the file does (every process maps the same pages) and the copy is
let go. A write that fails (a full disk) is logged and tried again by the next request that finds the
file missing.

Where no file can be made (a read-only directory, a directory in the file's place), the table stays in
memory for the life of the process, with one warning that says why.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from ..rules.variants import Variant
from .classes import class_layout_of
from .solver import solve
from .store import TableStore
from .table import Table

Later = Callable[[Callable[[], None]], None]

log = logging.getLogger(__name__)


class SmallTables:
    def __init__(self, store: TableStore, write_later: Later | None = None) -> None:
        self.store = store
        self.write_later = write_later
        self._solved: dict[Variant, Table] = {}
        self._kept: dict[Variant, Table] = {}  # those whose file cannot be written here
        self._writing: set[Variant] = set()
        self._reported: dict[Variant, str] = {}
        self._lock = threading.Lock()

    def table(self, variant: Variant, unbuildable: str | None) -> Table:
        """The table of a small variant whose file is missing or bad: from its file built now, or
        solved here (`unbuildable`: why no file can be made)."""
        if unbuildable is not None:
            return self._kept_in_memory(variant, unbuildable)
        if self.write_later is None:
            try:
                return self.store.get(variant)
            except OSError as error:
                return self._kept_in_memory(variant, f"its build failed: {error}")
        table = self._solved.get(variant)
        if table is None:
            table = self._solve(variant)
        with self._lock:
            due = variant not in self._writing
            self._writing.add(variant)
        if due:
            self.write_later(lambda: self._write(variant, table))
        return table

    def written(self, variant: Variant) -> Table | None:
        """The table from its file, written now if it was solved here and is not yet (a download
        needs the file); None if there is no file and none can be written."""
        table = self._solved.get(variant)
        if table is not None:
            self._write(variant, table, wait=True)
        return self.store.try_open(variant)

    def _solve(self, variant: Variant) -> Table:
        layout = class_layout_of(variant)
        table = self._solved[variant] = Table.in_memory(variant, solve(variant, layout), layout)
        return table

    def _write(self, variant: Variant, table: Table, wait: bool = False) -> None:
        try:
            self.store.write_solved(variant, table.values, wait)
        except OSError as error:
            if self._reported.get(variant) != str(error):
                log.warning("the %s table answers from memory, its file not written: %s", variant.name, error)
            self._reported[variant] = str(error)
        else:
            self._solved.pop(variant, None)
            self._reported.pop(variant, None)
        finally:
            with self._lock:
                self._writing.discard(variant)

    def _kept_in_memory(self, variant: Variant, because: str) -> Table:
        table = self._kept.get(variant)
        if table is None:
            log.warning(
                "the %s table is solved in memory, its file cannot be written: %s", variant.name, because
            )
            table = self._solved.get(variant) or self._solve(variant)
            self._kept[variant] = table
        return table
