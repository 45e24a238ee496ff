"""The public gomoku puzzles of tests/data/gomoku-puzzles/, read as positions: each is a 15x15 board, the
side that wins (the attacker, to move) and the source's winning line (README.md there says the format).
The collections won by threes and fours (`"kind": "threes"`) give no line: `threat_puzzles` reads them.

The attacker is written as the mark to move: X when both sides have as many stones, else O (the side
with one stone fewer). Colours do not matter under freestyle or standard rules, only whose turn it is.
"""

from __future__ import annotations

import json
import re
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


def _sources(kind: str | None) -> list[tuple[str, dict[str, object]]]:
    out = []
    for path in sorted(DATA.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("kind") == kind:
            out.append((path.stem, data))
    return out


@cache
def puzzles() -> tuple[Puzzle, ...]:
    """Every VCF puzzle of every source, in file order."""
    out: list[Puzzle] = []
    for stem, data in _sources(None):
        out.extend(_puzzle(stem, item) for item in data["items"])  # type: ignore[attr-defined]
    return tuple(out)


# The 三手胜 sets' files, by the level each names: entry, elementary, advanced.
LEVELS = {"三手胜1-入门题": "entry", "三手胜2-初级题": "elementary", "三手胜4-高级题": "advanced"}
BLACK, WHITE = 1, 2  # the sources' colours in a stone "J10,1"
_STONE = re.compile(r"([A-O])([0-9]{1,2}),([12])")


@dataclass(frozen=True)
class ThreatPuzzle:
    """A position whose side to move (the attacker) wins with threes and fours; no line is given."""

    source: str  # the data file's stem
    level: str  # the set it comes from (LEVELS)
    ident: int  # the item's index in its set, from 0
    black: int  # cells, bit row * 15 + col, row 0 at the top
    white: int

    @property
    def name(self) -> str:
        return f"{self.source}#{self.level}-{self.ident}"

    @property
    def black_to_move(self) -> bool:
        return self.black.bit_count() == self.white.bit_count()

    @property
    def attacker(self) -> int:
        return self.black if self.black_to_move else self.white

    @property
    def defender(self) -> int:
        return self.white if self.black_to_move else self.black

    def position(self, variant: str) -> Position:
        """Black is X, white O, as renju needs; the side to move from the stone counts."""
        cells = ["."] * SIZE * SIZE
        for cell in range(SIZE * SIZE):
            if self.black >> cell & 1:
                cells[cell] = "X"
            elif self.white >> cell & 1:
                cells[cell] = "O"
        return Position.parse("".join(cells), "X" if self.black_to_move else "O", get_variant(variant))


def stone_cell(name: str) -> tuple[int, int]:
    """A source's stone such as "J10,1" as (cell, colour): column letter A at the left, row 1 at the
    bottom, as the project names cells on 15x15 (`h8` is cell 112)."""
    found = _STONE.fullmatch(name)
    if found is None:
        raise ValueError(f"{name!r} is not a stone of the form J10,1")
    col, row = ord(found[1]) - ord("A"), int(found[2])
    if not 1 <= row <= SIZE:
        raise ValueError(f"{name!r} is off the 15x15 board")
    return _cell(SIZE - row, col), int(found[3])


def _threat_puzzle(source: str, item: dict[str, object]) -> ThreatPuzzle:
    black = white = 0
    name = f"{source}#{item['set']}-{item['i']}"
    for stone in item["stones"]:  # type: ignore[attr-defined]
        cell, colour = stone_cell(stone)
        if (black | white) >> cell & 1:
            raise ValueError(f"{name}: two stones on {stone}")
        if colour == BLACK:
            black |= 1 << cell
        else:
            white |= 1 << cell
    if black.bit_count() - white.bit_count() not in (0, 1):
        raise ValueError(f"{name}: {black.bit_count()} black and {white.bit_count()} white stones")
    return ThreatPuzzle(source, LEVELS[str(item["set"])], int(item["i"]), black, white)  # type: ignore[call-overload]


@cache
def threat_puzzles() -> tuple[ThreatPuzzle, ...]:
    """Every puzzle of the collections won by threes and fours, in file order."""
    out: list[ThreatPuzzle] = []
    for stem, data in _sources("threes"):
        out.extend(_threat_puzzle(stem, item) for item in data["items"])  # type: ignore[attr-defined]
    return tuple(out)
