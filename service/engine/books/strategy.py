"""A first player's winning strategy from elsewhere, read as data and never served as it is: Oren
Patashnik's dictionary for Qubic (4x4x4k4), made in 1976-77 and put in its form by Ken Thompson in 1978
(`data/qubic-patashnik.txt`, as its header gives it; the header's terms: anyone may use it with its moves
unchanged and its source credited). The proof that checks it move by move is search/strategy_proof.py;
only what that proof settles reaches an answer.

The format, as the file's header states it: each line after the dashes is a position and, after a
space, the first player's "strategic" move there, a cell from 0 to 63 (layer by layer, each row by row,
the layout of our 4x4x4 boards). A position lists the cells from 0: `x` a first player's mark, `o` a
second player's, a number that many empty cells; the cells after the last are empty. A position stands
for its whole class under the board's symmetries (192 on Qubic). A first player's position the file does
not hold is meant to be settled without it: a win at once, the block of the other side's three in a row,
or a forced win by threats (Patashnik's own program searched those).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

from ..errors import EngineError
from ..rules.canonical import canonical, inverse
from ..rules.variants import Variant

DASHES = "-" * 41 + "\n"  # the line between the header and the dictionary
TOKEN = re.compile(r"x|o|\d+")


@dataclass(frozen=True)
class StrategyFile:
    variant: str  # the variant's long name
    name: str  # in data/
    sha256: str  # of the file as published (its moves unchanged, as its terms ask)
    source: str  # who made it


QUBIC = StrategyFile(
    "4x4x4k4",
    "qubic-patashnik.txt",
    "38d9b7820fd97269968e6eea32c6448712d0551e66c1f2ed1ce47f74f3069499",
    "Oren Patashnik (1976-77), Ken Thompson's form (1978)",
)
FILES = {f.variant: f for f in (QUBIC,)}


class Strategy:
    """The first player's move in each position the dictionary holds, by canonical form."""

    def __init__(self, variant: Variant, source: StrategyFile, moves: dict[tuple[int, int], int]) -> None:
        self.variant, self.source = variant, source
        self._moves = moves  # canonical (first, second) -> the move in that canonical form

    def __len__(self) -> int:
        return len(self._moves)

    def move(self, first: int, second: int) -> int | None:
        """The dictionary's move for the first player (to move) with marks `first` against `second`."""
        symmetry, key = canonical(self.variant, first, second)
        move = self._moves.get(key)
        return None if move is None else inverse(symmetry)[move]


@cache
def strategy_for(variant: Variant) -> Strategy | None:
    """The variant's strategy from elsewhere, its file checked, or None: none is installed for it."""
    source = FILES.get(variant.long_name)
    if source is None or variant.misere or variant.gravity or variant.exact:
        return None
    data = resources.files(__package__).joinpath("data", source.name).read_bytes()
    if hashlib.sha256(data).hexdigest() != source.sha256:
        raise EngineError("strategy_unreadable", f"{source.name} is not the file as published (its SHA-256)")
    return Strategy(variant, source, parse(variant, data.decode("ascii"), source.name))


def parse(variant: Variant, text: str, name: str) -> dict[tuple[int, int], int]:
    """The dictionary's moves by canonical form; every line checked: its cells on the board, as many
    marks of each side, the move on an empty cell, one move per class."""
    if DASHES not in text:
        raise EngineError("strategy_unreadable", f"{name}: no line of dashes before the dictionary")
    moves: dict[tuple[int, int], int] = {}
    for number, line in enumerate(text.split(DASHES, 1)[1].splitlines(), 1):
        if not line.strip():
            continue
        first, second, move = _line(variant, line, f"{name}, entry {number}")
        symmetry, key = canonical(variant, first, second)
        if moves.setdefault(key, symmetry[move]) != symmetry[move]:
            raise EngineError(
                "strategy_unreadable", f"{name}, entry {number}: a second move for one position"
            )
    return moves


def _line(variant: Variant, line: str, where: str) -> tuple[int, int, int]:
    position, _, move_text = line.strip().rpartition(" ")
    first = second = cell = 0
    for token in TOKEN.findall(position):
        if token == "x":
            first |= 1 << cell
        elif token == "o":
            second |= 1 << cell
        cell += int(token) if token.isdigit() else 1
    if "".join(TOKEN.findall(position)) != position or not move_text.isdigit() or cell > variant.cells:
        raise EngineError("strategy_unreadable", f"{where}: {line!r} is not a position and a move")
    move = int(move_text)
    if first.bit_count() != second.bit_count() or move >= variant.cells or (first | second) >> move & 1:
        raise EngineError("strategy_unreadable", f"{where}: {line!r} is not the first player's move")
    return first, second, move
