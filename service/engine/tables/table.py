"""A solved table, read-only: a position's value and every move's value are a few index computations.

Tables are for X moving first; a position of a game that O opened is read with the colours swapped
(its first player's marks are ranked as the first player's, see `layout`), and its value for the side
to move is the same. A table of format 3 holds one entry per class of symmetric positions (`classes`),
one of format 2 one per position (`layout`): both layouts rank a position and its children alike.

A table read from a file watches it (`file_stamps`): a lookup looks at the file's stamp after reading
its bytes, and raises TableChangedError rather than answer from bytes written into the file since it
was checked (the mapping shows such writes at once).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import TableChangedError
from ..file_stamps import Stamp, Watch
from ..rules.game import GamePosition
from ..rules.known_move import KnownMove
from ..rules.position import Position
from ..rules.values import DECODED, SEEN_BY_MOVER, Value
from ..rules.variants import Variant
from .class_lookup import MAX_CELLS
from .classes import ClassLayout, class_layout_of
from .layout import Layout
from .orbits import positions_in_tier
from .parts import FIRST_DIGIT, SECOND_DIGIT

Layouts = Layout | ClassLayout

# A child's byte -> the value of that move for the side that plays it.
MOVE_VALUE: tuple[Value | None, ...] = tuple(DECODED[b] for b in SEEN_BY_MOVER.tolist())


@functools.cache
def moves_of(byte: int) -> tuple[KnownMove, ...] | None:
    """A child's byte -> each cell's KnownMove for that move, made once: a lookup makes none (None: the
    byte is no value). Made on first use: all 6,000 at import were a sixtieth of the start."""
    value = MOVE_VALUE[byte]
    return None if value is None else tuple(KnownMove.exactly(cell, value) for cell in range(MAX_CELLS))


@dataclass(frozen=True)
class Lookup:
    position: GamePosition
    value: Value
    moves: tuple[KnownMove, ...]  # best first, ties by cell

    @property
    def best_moves(self) -> tuple[int, ...]:
        return tuple(m.cell for m in self.moves if m.value == self.value)

    @property
    def best_move(self) -> int | None:
        return self.moves[0].cell if self.moves else None


class Table:
    """The solved table of one variant over a read-only buffer of one byte per ranked position."""

    def __init__(
        self,
        variant: Variant,
        payload: Any,
        header: dict[str, Any] | None = None,
        path: Path | None = None,
        identity: Stamp | None = None,
        layout: Layouts | None = None,
        watch: Watch | None = None,
    ) -> None:
        self.variant = variant
        self.header = header or {}
        self.path = path
        self.identity = identity  # the stamp of the file it was read from: a file written since differs
        self.watch = watch  # that file, looked at after each read; None for a table made in memory
        self._payload = payload  # a memoryview: indexing it gives an int, the fastest scalar read
        self.values: npt.NDArray[np.uint8] = np.frombuffer(payload, dtype=np.uint8)
        self.layout: Layouts = layout or class_layout_of(variant)
        if len(self.values) != self.layout.size:
            raise ValueError(f"a {variant.name} table has {self.layout.size} bytes, not {len(self.values)}")

    @classmethod
    def in_memory(
        cls, variant: Variant, values: npt.NDArray[np.uint8], layout: Layouts | None = None
    ) -> Table:
        """A table over values solved in this process (in the class layout unless `layout` says)."""
        frozen = values.copy()
        frozen.flags.writeable = False
        chosen = layout or class_layout_of(variant)
        if isinstance(chosen, ClassLayout):  # an entry stands for its class's positions
            tiers = range(variant.cells + 1)
            offsets = chosen.tier_offset
            positions = sum(positions_in_tier(chosen, t, frozen[offsets[t] : offsets[t + 1]]) for t in tiers)
        else:
            positions = int(np.count_nonzero(frozen))
        return cls(variant, frozen.data, {"positions": positions}, layout=chosen)

    @property
    def positions(self) -> int:
        """How many positions can arise by legal play, X first (as many with O first)."""
        return int(self.header.get("positions") or np.count_nonzero(self.values))

    @property
    def payload(self) -> Any:
        """The table's bytes, as the buffer they are read from."""
        return self._payload

    def unchanged(self) -> bool:
        """Whether the file the table was read from is as it was when checked (one fstat); True for a
        table made in memory. A reader of `values` asks after reading, and drops what it read if not."""
        return self.watch is None or self.watch.unchanged()

    def check_unchanged(self) -> None:
        """TableChangedError if the table's file was written since it was checked (see `unchanged`)."""
        if self.watch is not None and not self.watch.unchanged():
            raise TableChangedError(self.variant)

    @property
    def checksum(self) -> str:
        """SHA-256 of the table's bytes (the file header's, or computed for a table made in memory)."""
        known = self.header.get("sha256")
        if not isinstance(known, str):
            known = self.header["sha256"] = hashlib.sha256(self._payload).hexdigest()
        return known

    def rank(self, position: Position) -> int:
        first = position.first
        return self.layout.rank(position.mask(first), position.mask(first.other))

    def ranks(self, first: npt.NDArray[np.uint32], second: npt.NDArray[np.uint32]) -> npt.NDArray[np.int64]:
        """The entries of arrays of positions (the first player's cells and the other's)."""
        return self.layout.ranks(first, second)

    def value(self, position: Position) -> Value:
        self._check_variant(position)
        rank = self.rank(position)
        byte = self._payload[rank]
        self.check_unchanged()  # after the read: see the docstring
        return _known(DECODED[byte], rank)

    def lookup(self, position: Position) -> Lookup:
        self._check_variant(position)
        first = position.first
        mine, theirs = position.mask(first), position.mask(first.other)
        payload = self._payload
        digit = FIRST_DIGIT if position.x.bit_count() == position.o.bit_count() else SECOND_DIGIT
        cells = position.legal_moves()
        rank, children = self.layout.with_children(mine, theirs, cells, digit)
        ordered = sorted(zip(map(payload.__getitem__, children), cells, strict=True))
        value = DECODED[payload[rank]]
        if self.watch is not None and not self.watch.unchanged():  # after the reads: see the docstring
            raise TableChangedError(self.variant)
        try:
            moves = tuple([moves_of(byte)[cell] for byte, cell in ordered])  # type: ignore[index]
        except TypeError:  # a parsed position's children are all in the table: the table must be wrong
            raise ValueError(f"the table holds no value for a move of {position}") from None
        return Lookup(position, _known(value, rank), moves)

    def close(self) -> None:
        """Let go of the buffer (the mapping closes once nothing else refers to it)."""
        self.values = np.zeros(0, dtype=np.uint8)
        if self.watch is not None:
            self.watch.close()
        if isinstance(self._payload, memoryview):
            with contextlib.suppress(BufferError):  # an array made from it elsewhere still holds it
                self._payload.release()

    def _value_at(self, rank: int) -> Value:
        return _known(DECODED[self._payload[rank]], rank)

    def _check_variant(self, position: Position) -> None:
        if position.variant != self.variant:
            raise ValueError(f"a {position.variant.name} position given to the {self.variant.name} table")


def _known(value: Value | None, where: object) -> Value:
    if value is None:  # a parsed position is always in the table: the table must be wrong
        raise ValueError(f"the table holds no value for {where}")
    return value
