"""The opening books as a source of answers: every move's exact value (result and remoteness) of the
positions of a board's first plies, read from a book file (`file`) in well under a millisecond.

A book holds the values of the positions of plies 0 to its deepest; it answers a position of a
shallower ply (each of its moves leads to a position it holds, or ends the game). Books are looked for
in the `books/` folder of the tables directories given (built there: `sanmoku book build`), then among
the books installed with the package; a file is used only once it checks out whole, and a missing one
is looked for again now and then (a build in the background puts it there while the service runs).

A book is mapped: a file written into while open changes what it reads. So every answer looks at the
file's stamp after reading its values (`file_stamps`: one fstat) and is not given if the file changed
since its check; the next look at the variant's book reads the file again and checks it whole. A file
renamed over an open book's name is found within RENAME_SECONDS and read the same way.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..file_stamps import Stamp, stamp_at
from ..rules.known_move import KnownMove
from ..rules.position import Position
from ..rules.values import DECODED, Value
from ..rules.variants import Variant, get_variant
from .arrays import Masks, array_board, masks
from .file import SUFFIX, WIN_IN_ONE, BookData, BookFileError, file_name, read_book
from .retrograde import FULL_BOARD, LINE_MADE, Bytes, lookup

PACKAGED = Path(__file__).resolve().parent / "data"  # the books installed with the package
FOLDER = "books"  # the folder of built books in a tables directory
RECHECK_SECONDS = 10.0  # how often a variant with no usable book is looked for again
RENAME_SECONDS = 1.0  # how often an open book's name is looked at (a stat): a new file renamed over it

log = logging.getLogger(__name__)


class Book:
    def __init__(self, data: BookData) -> None:
        self.data, self.variant = data, data.variant
        self.board = array_board(data.variant)

    def answers(self, position: Position) -> bool:
        held = position.marks < self.data.deepest  # every child is held, or ends the game
        return position.variant == self.variant and not position.is_over and held

    def moves(self, position: Position) -> list[KnownMove] | None:
        """Every legal move's exact value, or None if the book does not answer the position."""
        if not self.answers(position):
            return None
        cells = position.legal_moves()
        bits = masks([1 << cell for cell in cells])
        made = np.uint64(position.mine) | bits
        theirs = np.full(len(cells), position.theirs, dtype=np.uint64)
        found = self.values(position.marks + 1, theirs, made)
        if not self.data.unchanged():  # read from bytes written since the check: see the docstring
            return None
        # A move that makes a line wins at once; one that fills the board draws.
        found[(made | theirs) == np.uint64(self.board.full)] = FULL_BOARD
        found[self.board.holds_line(made)] = LINE_MADE
        if not np.all(found):
            return None
        proofs = []
        for cell, byte in zip(cells, found.tolist(), strict=True):
            seen = _value(byte).after_move()
            proofs.append(KnownMove(cell, seen.score, seen.score, seen.remoteness))
        return proofs

    def values(self, ply: int, mover: Masks, other: Masks) -> Bytes:
        """The value bytes of these positions of one ply (0 for those the book does not hold): a
        position whose side to move can make a line now is a win in 1 (never stored)."""
        if not 0 <= ply <= self.data.deepest:
            return np.zeros(mover.shape, dtype=np.uint8)
        found = lookup(self.data.keys[ply], self.data.values[ply], self.board.key(mover, other)).astype(
            np.uint8
        )
        # Only a position the book does not hold can be a win in 1: most lookups need no line search.
        missing = found == 0
        if missing.any():
            wins = self.board.wins_now(mover[missing], other[missing])
            found[missing] = np.where(wins, WIN_IN_ONE, 0)
        return found

    def value(self, position: Position) -> Value | None:
        """The position's own value, if the book holds it."""
        if position.variant != self.variant or position.is_over:
            return None
        found = self.values(position.marks, masks([position.mine]), masks([position.theirs]))
        return DECODED[int(found[0])] if self.data.unchanged() else None


def contradicted(booked: Sequence[KnownMove], proven: Sequence[KnownMove]) -> bool:
    """Whether a proof contradicts a book's values of a position's moves: a result outside the proven
    bounds, or another remoteness where the proof has one."""
    book = {move.cell: move for move in booked}
    for move in proven:
        entry = book.get(move.cell)
        if entry is None:
            continue
        if not move.lower <= entry.lower <= move.upper:
            return True
        if move.lower == move.upper and move.remoteness is not None and move.remoteness != entry.remoteness:
            return True
    return False


def _value(byte: int) -> Value:
    value = DECODED[byte]
    assert value is not None  # a byte of a position held
    return value


@dataclass(frozen=True)
class BookInfo:
    """What `sanmoku book list` shows of one book file."""

    variant: str
    path: Path
    plies: int | None  # the deepest ply it holds (it answers every move of the plies above)
    positions: int | None
    bytes_on_disk: int
    source: str
    problem: str | None  # None when the file checks out


class Books:
    """The books of a tables directory and of the package, opened on first use. Safe to share between
    threads."""

    def __init__(
        self,
        directories: Sequence[Path],
        packaged: Path | None = PACKAGED,
        on_missing: Callable[[Variant], object] | None = None,
    ) -> None:
        """`directories`: tables directories, whose `books/` folders are looked in first, in order;
        `on_missing`: told of each variant asked about that has no usable book (it may start a build)."""
        self.on_missing = on_missing
        folders = [directory / FOLDER for directory in directories] + ([packaged] if packaged else [])
        self.folders = list(dict.fromkeys(folders))
        self._open: dict[Variant, Book] = {}
        self._looked: dict[Variant, float] = {}
        self._named: dict[Variant, float] = {}  # when each open book's name was last looked at
        self._failed: dict[Path, Stamp] = {}  # files that did not check out, as they were then
        self._lock = threading.Lock()

    def book(self, variant: Variant) -> Book | None:
        found = self._open.get(variant)
        if found is not None and self._current(variant, found):
            return found
        now = time.monotonic()
        with self._lock:
            if found is not None and self._open.get(variant) is found:  # changed: read again now
                del self._open[variant]
                self._looked.pop(variant, None)
            if now - self._looked.get(variant, -RECHECK_SECONDS) < RECHECK_SECONDS:
                return self._open.get(variant)
            self._looked[variant] = now
            for folder in self.folders:
                path = folder / file_name(variant)
                stamp = stamp_at(path)
                if stamp is None or self._failed.get(path) == stamp:  # missing, or known bad as it is
                    continue
                try:
                    book = Book(read_book(path, variant))
                except BookFileError as error:
                    log.warning("book not used: %s", error)
                    if error.problem == "changing":  # being written: looked at again once it is quiet
                        self._looked[variant] = now - RECHECK_SECONDS + RENAME_SECONDS
                    else:
                        self._failed[path] = stamp
                    continue
                self._open[variant], self._named[variant] = book, now
                return book
        return None

    def _current(self, variant: Variant, book: Book) -> bool:
        """Whether the open book is still the file under its name as checked: not written into (an
        fstat), not replaced or removed, not shadowed by a new file in a folder looked in before its own
        (a stat each, every RENAME_SECONDS), and checked once the file was quiet (else checked again
        after RENAME_SECONDS, see `file_stamps`)."""
        if not book.data.unchanged():
            log.warning("the %s book's file was written into while open: read again", variant.name)
            return False
        now = time.monotonic()
        if now - self._named.get(variant, now) < RENAME_SECONDS:
            return True
        self._named[variant] = now
        watch = book.data.watch
        if watch is None or not book.data.lasting:
            return watch is None
        for folder in self.folders:
            path = folder / file_name(variant)
            if path == book.data.path:
                found = stamp_at(path)
                return found is not None and found.inode == watch.stamp.inode
            stamp = stamp_at(path)
            if stamp is not None and self._failed.get(path) != stamp:  # in a folder looked in first
                return False
        return True

    def moves(self, position: Position) -> list[KnownMove] | None:
        """Every legal move's exact value from a book, or None if no book answers the position."""
        book = self.book(position.variant)
        if book is None:
            if self.on_missing is not None:
                self.on_missing(position.variant)
            return None
        return book.moves(position)

    def listing(self) -> list[BookInfo]:
        """Every book file found, the first of each variant (the one used) first."""
        found = []
        for folder in self.folders:
            for path in sorted(folder.glob("*" + SUFFIX)):
                found.append(_info(path))
        return found


def _info(path: Path) -> BookInfo:
    size = path.stat().st_size
    try:
        data = read_book(path, get_variant(path.name.removesuffix(SUFFIX)))
    except (BookFileError, ValueError) as error:
        return BookInfo(path.name.removesuffix(SUFFIX), path, None, None, size, "", str(error))
    source = data.header.get("source", {})
    return BookInfo(
        data.variant.name,
        path,
        data.deepest,
        sum(len(keys) for keys in data.keys),
        size,
        str(source.get("summary", "")),
        None,
    )
