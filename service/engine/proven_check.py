"""The cache of proven positions checked whole against what outranks it (`sanmoku cache verify`): each
record's checksum and origin (`search.proven_record`), then its moves against the variant's table when
one is on disk, else against a book that holds the position. A table and a book always win over a
record: a record that contradicts one is wrong, whatever wrote it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from .books.source import Books, contradicted
from .rules.known_move import KnownMove
from .rules.variants import Variant
from .search.proven import ProvenCache, StoredRow
from .search.proven_record import FAILED_CHECKSUM, Key, Record
from .tables.table import Table

TableFor = Callable[[Variant], Table | None]  # the variant's table if it is on disk and checks out
DAMAGED, UNSOUND, UNREADABLE = "damaged", "unsound prover", "unreadable"
AGAINST_TABLE, AGAINST_BOOK = "contradict a table", "contradict a book"
KINDS = (DAMAGED, UNSOUND, UNREADABLE, AGAINST_TABLE, AGAINST_BOOK)  # of what is wrong with a record


@dataclass(frozen=True)
class Finding:
    key: Key
    kind: str  # one of KINDS
    why: str  # one sentence, with the variant and the board


@dataclass
class Audit:
    checked: int = 0
    against_table: int = 0  # records a table could check (each one checked)
    against_book: int = 0  # records a book could check
    findings: list[Finding] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        """How many records have each kind of problem."""
        return {kind: sum(finding.kind == kind for finding in self.findings) for kind in KINDS}


def audit(store: ProvenCache, table_for: TableFor, books: Books | None) -> Audit:
    """Every record of `store` checked; what is wrong with which."""
    found = Audit()
    for row in store.records():
        found.checked += 1
        found.findings.extend(_problems(row, table_for, books, found))
    return found


def _problems(row: StoredRow, table_for: TableFor, books: Books | None, found: Audit) -> Iterator[Finding]:
    try:
        variant = row.variant
        record, why = row.checked()
        position = row.position
    except ValueError as error:  # a key no variant or position of this version reads
        yield Finding(row.key, UNREADABLE, f"{row.key[0]}: {error}")
        return
    if record is None:
        kind = DAMAGED if why == FAILED_CHECKSUM else UNSOUND
        yield Finding(row.key, kind, f"{variant.name} {position.cells}: {why}")
        return
    table = table_for(variant) if variant.has_table else None
    try:
        if table is not None:
            found.against_table += 1
            lookup = table.lookup(position)
            truth = list(lookup.moves)
            if _wrong(truth, record):
                yield Finding(
                    row.key, AGAINST_TABLE, f"{variant.name} {position.cells}: contradicts the table"
                )
            return
        booked = None if books is None else books.moves(position)
    except ValueError as error:  # a position its table or book does not hold: not one play reaches
        yield Finding(row.key, UNREADABLE, f"{variant.name} {position.cells}: {error}")
        return
    if booked is not None:
        found.against_book += 1
        if _wrong(booked, record):
            yield Finding(row.key, AGAINST_BOOK, f"{variant.name} {position.cells}: contradicts the book")


def _wrong(truth: list[KnownMove], record: Record) -> bool:
    """Whether the record's moves disagree with the exact values `truth` (or name another move)."""
    cells = {move.cell for move in truth}
    return contradicted(truth, record.moves) or any(move.cell not in cells for move in record.moves)
