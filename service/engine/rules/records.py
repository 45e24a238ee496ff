"""Game records in and out: a move list of cell names (`h8 h9 i9`, notation.py) and Piskvork's `.psq`
files, the records of Gomocup's manager.

A `.psq` record's first line names the board, `Piskvork 15x15, 11:11, 0` (width x height, then a
time and a flag that are not read); each move follows on a line `x,y,time`, x the column and y the row,
both from 1 at the top left, the players in turn from the first; the lines after the moves (the
players' names, a result) are not read. Written records give every move the time 0 and end with a line
`-1`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..errors import EngineError, IllegalMoveError, IllegalSequenceError
from .notation import cell_name, cell_of
from .position import Position
from .variants import Variant

_HEADER = re.compile(r"\s*Piskvork\w*\s+(\d{1,3})x(\d{1,3})\b.*")
_MOVE = re.compile(r"\s*(\d{1,3}),(\d{1,3})(?:,-?\d+)?\s*")
PSQ_END = "-1"
MAX_RECORD_CHARS = 64_000  # 400 moves of a 20x20 board take under 6,000


class RecordError(EngineError):
    """A record that cannot be read, or not on the board asked for."""


def moves_text(variant: Variant, cells: Sequence[int]) -> str:
    return " ".join(cell_name(variant, cell) for cell in cells)


def read_moves_text(variant: Variant, text: str) -> list[int]:
    """The cells of a move list: names (or cell numbers) apart by spaces or commas."""
    words = [word for word in re.split(r"[\s,;]+", text) if word]
    return cells_of(variant, [int(word) if word.isdigit() else word for word in words])


def cells_of(variant: Variant, moves: Sequence[int | str]) -> list[int]:
    """Each move as its cell: a number is one already, a name (`h8`) is read; IllegalSequenceError says
    which ply's name is wrong."""
    cells = []
    for ply, move in enumerate(moves, 1):
        if isinstance(move, int):
            cells.append(move)
            continue
        try:
            cells.append(cell_of(variant, move))
        except EngineError as error:
            raise IllegalSequenceError(error.code, f"ply {ply}: {error.message}", "moves", ply) from None
    return cells


def replayed(variant: Variant, cells: Sequence[int], first: str = "X") -> Position:
    """The position after the moves from the empty board, `first` to move first; IllegalSequenceError
    names the first ply that is not a legal move (a forbidden point under renju included)."""
    position = Position.empty(variant, first)
    for ply, cell in enumerate(cells, 1):
        try:
            position = position.play(cell)
        except IllegalMoveError as error:
            raise IllegalSequenceError(error.code, f"ply {ply}: {error.message}", "moves", ply) from None
    return position


def psq_size(text: str) -> tuple[int, int]:
    """The board a `.psq` record names: (width, height)."""
    first = text[:MAX_RECORD_CHARS].lstrip("\ufeff").splitlines()[:1]
    found = _HEADER.fullmatch(first[0]) if first else None
    if found is None:
        raise RecordError(
            "bad_record", "a .psq record begins with a line such as 'Piskvork 15x15, 11:11, 0'", "psq"
        )
    return int(found[1]), int(found[2])


def read_psq(variant: Variant, text: str) -> list[int]:
    """The cells of a `.psq` record's moves, in order, on `variant`'s board (its size must be the
    record's)."""
    if len(text) > MAX_RECORD_CHARS:
        raise RecordError("bad_record", f"a .psq record of more than {MAX_RECORD_CHARS} characters", "psq")
    width, height = psq_size(text)
    if (width, height) != (variant.cols, variant.rows) or variant.layers != 1:
        raise RecordError(
            "record_size",
            f"the record's board is {width}x{height} (width x height); {variant.name} is "
            f"{variant.cols}x{variant.rows}",
            "psq",
        )
    cells: list[int] = []
    for line in text.lstrip("\ufeff").splitlines()[1:]:
        found = _MOVE.fullmatch(line)
        if found is None:
            break  # the record's trailing lines
        x, y = int(found[1]), int(found[2])
        if not (1 <= x <= width and 1 <= y <= height):
            raise RecordError(
                "bad_record", f"move {len(cells) + 1} ({x},{y}) is off the {width}x{height} board", "psq"
            )
        cells.append((y - 1) * width + x - 1)
    return cells


def psq_text(variant: Variant, cells: Sequence[int]) -> str:
    """A `.psq` record of the moves."""
    if variant.layers != 1:
        raise RecordError("record_size", f"a .psq record holds a flat board, not {variant.name}", "psq")
    lines = [f"Piskvork {variant.cols}x{variant.rows}, 11:11, 0"]
    for cell in cells:
        row, col = divmod(cell, variant.cols)
        lines.append(f"{col + 1},{row + 1},0")
    return "\n".join([*lines, PSQ_END]) + "\n"
