"""One stored proof of a position (a record of the cache of proven positions): what it holds, how it is
written as bytes, and when it may be served.

A record holds, for every legal move, the bounds proven on its result (at least / at most a draw) and
its remoteness once proven; its bytes end with a checksum of the whole record, its key and its origin
included, so that a damaged record, or one copied onto another key, fails it.

Its **origin** says which door wrote it (a request's search, `sanmoku prove`, a book's build), which
provers' results it holds, and the record format. A prover is sound only on some games: alpha-beta
searches every move on every board, while the proof-number search, the pairings and the threat
sequences rest on "a mark of one's own never hurts", which is false under gravity (a mark can give the
opponent the cell above) and reversed under misère. Under "exactly k" the threat sequences hold (the core
reads each line's flanks) and the others do not. A record is served only where every prover it names
is sound for its game; a record of before origins were kept names none, and is served only where every
prover is sound. The check is the reader's, whatever store the record comes from: a record written by
another host, or by an older version, is checked the same way.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from ..rules.canonical import canonical
from ..rules.known_move import KnownMove
from ..rules.position import Position
from ..rules.variants import Variant
from .proof_number import Prover, applies
from .root_trees import applies as trees_apply

RECORD_FORMAT = 3  # of the origin's text; 0 for a record of before origins were kept ("search", "book")
UNKNOWN_REMOTENESS = 255  # the byte of a remoteness not proven
# A board of more cells writes each cell and remoteness in two bytes (a remoteness not proven: 0xFFFF).
ONE_BYTE_CELLS = 254
CHECK_BYTES = 4
FAILED_CHECKSUM = "damaged (its checksum fails)"  # why a record is not served: its bytes changed
SEARCH, PROVE, BOOK = "search", "prove", "book"  # the doors that write records
DOORS = (SEARCH, PROVE, BOOK)
# The provers that rest on "a mark of one's own never hurts": sound only where that holds.
MONOTONE_PROVERS = frozenset({Prover.PROOF_NUMBER, Prover.PAIRING, Prover.THREAT_SPACE})
EVERY_PROVER = frozenset(Prover)


def sound_provers(variant: Variant) -> frozenset[Prover]:
    """The provers whose results hold on `variant`."""
    if applies(variant):
        return EVERY_PROVER
    if trees_apply(variant):
        return frozenset({Prover.ALPHA_BETA, Prover.THREAT_SPACE})
    return EVERY_PROVER - MONOTONE_PROVERS


# The variant's long name and the canonical form's masks, as stored (proven.stored_mask)
Key = tuple[str, int | bytes, int | bytes]


@dataclass(frozen=True)
class Origin:
    """What wrote a record and with which provers."""

    door: str  # SEARCH, PROVE or BOOK
    provers: frozenset[Prover] | None  # whose results the record holds; None: not known (format 0)
    format: int = RECORD_FORMAT

    @classmethod
    def of(cls, door: str, provers: Iterable[Prover]) -> Origin:
        if door not in DOORS:
            raise ValueError(f"no door {door!r} writes records")
        return cls(door, frozenset(provers))

    @property
    def text(self) -> str:
        if self.provers is None:
            return self.door
        return f"{self.door}/{'+'.join(sorted(self.provers))}/{self.format}"

    @classmethod
    def parse(cls, text: str) -> Origin | None:
        """The origin written as `text`, or None when it is none this version knows."""
        if text in (SEARCH, BOOK):  # before origins were kept (only those two doors wrote)
            return cls(text, None, 0)
        parts = text.split("/")
        if len(parts) != 3 or parts[0] not in DOORS or parts[2] != str(RECORD_FORMAT):
            return None
        try:
            provers = frozenset(Prover(name) for name in parts[1].split("+") if name)
        except ValueError:
            return None
        return cls(parts[0], provers, RECORD_FORMAT)

    def sound_for(self, variant: Variant) -> bool:
        """Whether every prover the record names is sound on `variant` (all of them, when it names none)."""
        provers = EVERY_PROVER if self.provers is None else self.provers
        return provers <= sound_provers(variant)

    def merged(self, before: Origin) -> Origin:
        """The origin of this record written over `before` (its bounds are kept where tighter)."""
        mine = EVERY_PROVER if self.provers is None else self.provers
        theirs = EVERY_PROVER if before.provers is None else before.provers  # any could have: all
        return Origin(self.door, mine | theirs)


@dataclass(frozen=True)
class Record:
    moves: tuple[KnownMove, ...]  # by cell
    origin: Origin

    @property
    def exact(self) -> bool:
        return all(m.lower == m.upper and m.remoteness is not None for m in self.moves)


def encoded(key: Key, moves: Sequence[KnownMove], symmetry: Sequence[int], origin: Origin) -> bytes:
    """The record's bytes: each move as (its cell in the canonical form, lower + 1, upper + 1,
    remoteness), the cell and the remoteness one byte each, or two on a board of more than
    ONE_BYTE_CELLS cells (the symmetry's length); then the checksum."""
    size = _number_bytes(len(symmetry))
    unknown = (1 << 8 * size) - 1
    records = b"".join(
        symmetry[m.cell].to_bytes(size, "big")
        + bytes((m.lower + 1, m.upper + 1))
        + (unknown if m.remoteness is None else m.remoteness).to_bytes(size, "big")
        for m in moves
    )
    return records + checksum(key, records, exact_flag(moves), origin.text)


def decoded(blob: bytes, back: Sequence[int]) -> tuple[KnownMove, ...]:
    """The moves of a record's bytes (checked), turned back by `back` into the position's cells."""
    size = _number_bytes(len(back))
    moves = (_move(back[cell], rest, size) for cell, rest in _entries(blob[:-CHECK_BYTES], size))
    return tuple(sorted(moves, key=lambda m: m.cell))


def checked(
    key: Key, variant: Variant, blob: bytes, exact: int, origin: str, back: Sequence[int]
) -> tuple[Record | None, str]:
    """The record as stored under `key` (its cells turned back by `back`), if it may be served on
    `variant`; else None and why not. Every store's reader asks this, whichever host wrote the record."""
    entry = 2 + 2 * _number_bytes(len(back))
    if len(blob) < CHECK_BYTES or (len(blob) - CHECK_BYTES) % entry or not intact(key, blob, exact, origin):
        return None, FAILED_CHECKSUM
    found = Origin.parse(origin)
    if found is None:
        return None, f"its origin {origin!r} is not one this version knows"
    if not found.sound_for(variant):
        return None, f"its origin {origin!r} names a prover that is not sound on {variant.name}"
    return Record(decoded(blob, back), found), ""


def identity(variant: Variant) -> tuple[int, ...]:
    """The cells as they are (a record read in its canonical form)."""
    return tuple(range(variant.cells))


def intact(key: Key, blob: bytes, exact: int, origin: str) -> bool:
    """Whether the record's checksum holds."""
    return checksum(key, blob[:-CHECK_BYTES], exact, origin) == blob[-CHECK_BYTES:]


def exact_flag(moves: Sequence[KnownMove]) -> int:
    return int(all(m.lower == m.upper and m.remoteness is not None for m in moves))


def checksum(key: Key, records: bytes, exact: int, origin: str) -> bytes:
    """The checksum of a record, its key and origin included (a record copied onto another key fails it)."""
    masks = (part.hex() if isinstance(part, bytes) else part for part in key[1:])
    whole = f"{key[0]}|{'|'.join(map(str, masks))}|{exact}|{origin}|".encode() + records
    return zlib.crc32(whole).to_bytes(CHECK_BYTES, "little")


def tighter(new: KnownMove, old: KnownMove | None) -> KnownMove:
    """A move's bounds from `new`, tightened by what `old` proved."""
    if old is None:
        return KnownMove(new.cell, new.lower, new.upper, new.remoteness)
    remoteness = new.remoteness if new.remoteness is not None else old.remoteness
    return KnownMove(new.cell, max(new.lower, old.lower), min(new.upper, old.upper), remoteness)


def proves_something(moves: Sequence[KnownMove]) -> bool:
    return any(m.lower > -1 or m.upper < 1 for m in moves)


@dataclass(frozen=True)
class ToKeep:
    """What a store writes for a position: its canonical form, the symmetry that maps it there, and
    its moves with what was kept before (the tighter bounds of each move win) under both origins."""

    symmetry: Sequence[int]
    masks: tuple[int, int]
    moves: list[KnownMove]
    origin: Origin


def to_keep(
    position: Position,
    moves: Sequence[KnownMove],
    origin: Origin,
    kept_before: Callable[[Position], Record | None],
) -> ToKeep | None:
    """What every store keeps of `moves` (None: nothing is proven, nothing to write; what was kept
    before is read only then, by `kept_before`). A prover that is not sound on the game is refused
    (ValueError), never stored."""
    if not proves_something(moves):
        return None
    variant = position.variant
    if not origin.sound_for(variant):
        raise ValueError(f"{origin.text} proves nothing on {variant.name}: not stored")
    symmetry, masks = canonical(variant, position.mine, position.theirs)
    before = kept_before(position)
    known = {m.cell: m for m in (before.moves if before else ())}
    merged = [tighter(m, known.get(m.cell)) for m in moves]
    kept = origin if before is None else origin.merged(before.origin)
    return ToKeep(symmetry, masks, merged, kept)


def _number_bytes(cells: int) -> int:
    """The bytes of a cell and of a remoteness in the records of a board of `cells` cells."""
    return 1 if cells <= ONE_BYTE_CELLS else 2


def _entries(blob: bytes, size: int) -> Iterator[tuple[int, bytes]]:
    entry = 2 + 2 * size
    for start in range(0, len(blob), entry):
        yield int.from_bytes(blob[start : start + size], "big"), blob[start + size : start + entry]


def _move(cell: int, rest: bytes, size: int) -> KnownMove:
    lower, upper, remoteness = rest[0] - 1, rest[1] - 1, int.from_bytes(rest[2:], "big")
    unknown = UNKNOWN_REMOTENESS if size == 1 else (1 << 16) - 1
    return KnownMove(cell, lower, upper, None if remoteness == unknown else remoteness)
