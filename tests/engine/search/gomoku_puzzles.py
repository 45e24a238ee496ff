"""The public gomoku puzzles of tests/data/gomoku-puzzles/, read as positions: each is a 15x15 board, the
side that wins (the attacker, to move) and the source's winning line (README.md there says the format).

The attacker is written as the mark to move: X when both sides have as many stones, else O (the side
with one stone fewer). Colours do not matter under freestyle or standard rules, only whose turn it is.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from service.engine import Position, get_variant

from .continuous_fours import Rules

DATA = Path(__file__).resolve().parents[2] / "data" / "gomoku-puzzles"
SIZE = 15
ATTACKER, DEFENDER = 1, 2  # the source's side markers in a line


@dataclass(frozen=True)
class Puzzle:
    source: str  # the data file's stem
    ident: int  # the item's number in its source
    depth: int  # the attacker's moves in the source's line
    attacker: int  # cells, bit row * 15 + col
    defender: int
    line: tuple[int, ...]  # the source's winning line, attacker first

    @property
    def name(self) -> str:
        return f"{self.source}#{self.ident}"

    @property
    def first_move(self) -> int:
        return self.line[0]

    def position(self, variant: str) -> Position:
        mover = "X" if self.attacker.bit_count() == self.defender.bit_count() else "O"
        cells = ["."] * SIZE * SIZE
        for cell in range(SIZE * SIZE):
            if self.attacker >> cell & 1:
                cells[cell] = mover
            elif self.defender >> cell & 1:
                cells[cell] = "O" if mover == "X" else "X"
        return Position.parse("".join(cells), mover, get_variant(variant))


def rules_of(variant: str) -> Rules:
    """The checker's rules for a variant: renju's black (the attacker here) wins with exactly five."""
    return Rules(SIZE, exact=variant.endswith(("-exact", "-renju")))


def _cell(row: int, col: int) -> int:
    if not (0 <= row < SIZE and 0 <= col < SIZE):
        raise ValueError(f"({row}, {col}) is off the 15x15 board")
    return row * SIZE + col


def _mask(stones: list[list[int]]) -> int:
    return sum(1 << _cell(row, col) for row, col in stones)


def _puzzle(source: str, item: dict[str, object]) -> Puzzle:
    black, white = _mask(item["b"]), _mask(item["w"])  # type: ignore[arg-type]
    attacker, defender = (black, white) if item["a"] == "black" else (white, black)
    line = tuple(_cell(row, col) for row, col, _ in item["l"])  # type: ignore[attr-defined]
    sides = [side for _, _, side in item["l"]]  # type: ignore[attr-defined]
    if sides != [ATTACKER if ply % 2 == 0 else DEFENDER for ply in range(len(sides))]:
        raise ValueError(f"{source}#{item['i']}: the line does not alternate from the attacker")
    if attacker.bit_count() not in (defender.bit_count(), defender.bit_count() - 1):
        raise ValueError(f"{source}#{item['i']}: the attacker cannot be the side to move")
    return Puzzle(source, int(item["i"]), int(item["d"]), attacker, defender, line)  # type: ignore[call-overload]


@cache
def puzzles() -> tuple[Puzzle, ...]:
    """Every puzzle of every source, in file order."""
    out: list[Puzzle] = []
    for path in sorted(DATA.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        out.extend(_puzzle(path.stem, item) for item in data["items"])
    return tuple(out)
