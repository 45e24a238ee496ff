"""The one place that decides where an answer comes from: the variant's table when one answers now (the
tables' supply rule), else an opening book (every move of a board's first plies, `search.books`), else
the positions proven before (the store beside the tables), else a search within the caller's budget,
whose proofs are then kept for next time. Callers do not care which; the answer says which. A book's
answer that a proof kept in the store contradicts is not served: the proof wins.

The search itself goes through `offload`, with which the service runs it on a real thread (see the
serving layer): the compiled core lets go of the interpreter, so a search never holds a worker's other
requests. The rest (the table, the store, the slots) runs on the caller's thread. At most `slots`
searches run at once per process, each with its own transposition table (reused from one search to the
next: it clears itself for another board).
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from collections.abc import Callable, Iterator

from .answer import Answer, Answers, Source
from .errors import SearchBusyError
from .play.mainline import MainLine, main_line, proven_line
from .rules.position import Position
from .rules.variants import Variant
from .search import Budget, Deadline, SearchEngine
from .search.books import Books, contradicted
from .search.native import DEFAULT_TABLE_BITS, TranspositionTable, monotonic
from .search.proven import BOOK, ProvenMove, ProvenStore
from .search.report import MoveProof, SearchReport
from .tables.table import Table

TableFor = Callable[[Variant], Table | None]  # the table that answers a variant now, if any
Offload = Callable[[Callable[[], SearchReport]], SearchReport]

log = logging.getLogger(__name__)


class EnginePool:
    """`slots` transposition tables, lent one per search; a borrower waits at most `wait` seconds.

    Its tables and its semaphore are made in the process that first searches, not where the pool is made:
    a server made before it forks its workers (and before gevent patches them) gives each worker its own,
    and a waiting request then waits as a greenlet, not as the whole worker."""

    def __init__(self, slots: int, table_bits: int = DEFAULT_TABLE_BITS) -> None:
        self.slots, self._table_bits = slots, table_bits
        self._owner = -1
        self._free: list[TranspositionTable] = []
        self._available = threading.BoundedSemaphore(slots)

    def _for_this_process(self) -> threading.BoundedSemaphore:
        if self._owner != os.getpid():
            self._owner, self._free = os.getpid(), []
            self._available = threading.BoundedSemaphore(self.slots)
        return self._available

    @contextlib.contextmanager
    def engine(self, variant: Variant, wait: float | None) -> Iterator[SearchEngine]:
        available = self._for_this_process()
        if not available.acquire(timeout=wait):
            raise SearchBusyError(f"all {self.slots} search slots of this worker stayed busy")
        try:
            # No lock around the list: the semaphore lets at most `slots` borrowers in, and a list's pop
            # and append are atomic.
            table = self._free.pop() if self._free else TranspositionTable(self._table_bits)
            try:
                yield SearchEngine(variant, table=table)
            finally:
                self._free.append(table)
        finally:
            available.release()


class Analyst:
    def __init__(
        self,
        table_for: TableFor,
        proven: ProvenStore | None,
        pool: EnginePool,
        offload: Offload = lambda work: work(),
        books: Books | None = None,
    ) -> None:
        self.table_for, self.proven, self.pool, self.offload = table_for, proven, pool, offload
        self.books = books

    def analyze(self, position: Position, budget: Budget, search_only: bool = False) -> Answer:
        """Every legal move's value as far as it is known or can be proven within `budget`;
        `search_only`: from the search even where a table or a stored proof answers (comparisons)."""
        if not search_only:
            table = self.table_for(position.variant)
            if table is not None:
                return Answer.of_table(table.lookup(position))
            booked = self._booked(position)
            if booked is not None:
                return Answer.of_proofs(position, booked, Source.BOOK)
        known = None if self.proven is None or position.is_over or search_only else self.proven.get(position)
        if known is not None and known.exact:
            proofs = [MoveProof(m.cell, m.lower, m.upper, m.remoteness) for m in known.moves]
            return Answer.of_proofs(position, proofs, Source.BOOK if known.origin == BOOK else Source.CACHE)
        return self._search(position, budget, known.moves if known else ())

    def _booked(self, position: Position) -> list[MoveProof] | None:
        """Every move's value from a book, unless a proof kept in the store contradicts one of them."""
        moves = None if self.books is None else self.books.moves(position)
        if moves is None or self.proven is None:
            return moves
        kept = self.proven.get(position)
        if kept is not None and contradicted(moves, kept.moves):
            log.error("the %s book contradicts a proof at %s: not served", position.variant.name, position)
            return None
        return moves

    def answers(self, deadline: Deadline, search_only: bool = False) -> Answers:
        """Answers for positions asked one after another (a review, a main line, a batch), all within
        what is left of one `deadline`."""
        return lambda position: self.analyze(position, deadline.budget(), search_only)

    def main_line(self, first: Answer, answers: Answers) -> MainLine | None:
        """How the game goes on from `first`'s position under perfect play: from the table that gave
        `first`, else through `answers` as long as every position on the way is proven (else None)."""
        table = self.table_for(first.position.variant) if first.source is Source.TABLE else None
        if table is not None:
            return main_line(table, first.position)
        return proven_line(answers, first.position, first) if first.exact else None

    def _search(self, position: Position, budget: Budget, known: tuple[ProvenMove, ...]) -> Answer:
        started = monotonic()
        with self.pool.engine(position.variant, budget.seconds) as engine:
            if budget.seconds is not None:  # the wait for a slot came out of the budget
                budget = Budget(
                    max(0.0, budget.seconds - (monotonic() - started)), budget.nodes, budget.cancel
                )
            # Estimates always: they rank the moves left unproven, so that the best guess is a guess, not
            # the lowest cell; the answer shows them only to a caller who asks.
            found = self.offload(lambda: engine.analyze(position, budget, estimates=True))
        proofs = _with_known(found.moves, known)
        if self.proven is not None:
            self.proven.put(position, proofs)
        return Answer.of_proofs(position, proofs, Source.SEARCH, found.nodes, found.seconds, found.depth)


def _with_known(found: tuple[MoveProof, ...], known: tuple[ProvenMove, ...]) -> list[MoveProof]:
    """Each move's bounds from this search, tightened by what was proven before."""
    before = {m.cell: m for m in known}
    out = []
    for move in found:
        old = before.get(move.cell)
        if old is None:
            out.append(move)
            continue
        remoteness = move.remoteness if move.remoteness is not None else old.remoteness
        lower, upper = max(move.lower, old.lower), min(move.upper, old.upper)
        out.append(MoveProof(move.cell, lower, upper, remoteness if lower == upper else None, move.estimate))
    return out
