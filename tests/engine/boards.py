"""Helpers shared by the engine tests: any variant's table, the reference's rules for it, and the check
of a whole table against the brute-force reference (run in worker processes, see test_reference)."""

from __future__ import annotations

import sys
from functools import cache

from service.engine import Position, Table, TableStore, Variant, get_variant, solve
from tests.reference import Reference, Rules

# The documented layout and byte, decoded here without the engine's code: the board read as a base-3
# number (. O X = 0 1 2), cell 0 first; 0 none, 1 + r loss, 128 + r draw, 255 - r win.
DIGITS = str.maketrans(".OX", "012")


def decode(byte: int) -> tuple[int, int] | None:
    if byte == 0:
        return None
    if byte < 128:
        return (-1, byte - 1)
    return (0, byte - 128) if byte < 192 else (1, 255 - byte)


def index_of(board: str) -> int:
    return int(board.translate(DIGITS), 3)


def rules_of(variant: Variant) -> Rules:
    return Rules(variant.rows, variant.cols, variant.k, variant.misere, variant.torus)


@cache
def table_of(variant: Variant) -> Table:
    """The session's table of any variant (SANMOKU_TABLES_DIR is the session's directory)."""
    return TableStore().get(variant)


def compare_with_reference(name: str, first_o_too: bool) -> list[str]:
    """Every reachable position of the variant, X first, against the reference: the value at its index,
    and nothing else in the table; the moves of every 37th position through `Table.analyze`; with
    `first_o_too`, every position of the game O opens as well (the colour-swapped lookups)."""
    sys.setrecursionlimit(10_000)
    variant = get_variant(name)
    table = Table.in_memory(variant, solve(variant))
    reference = Reference(rules_of(variant))
    empty = "." * variant.cells
    reference.value(empty, "X")
    problems = []
    seen = list(reference.memo.items())
    for number, ((board, to_move), value) in enumerate(seen):
        if decode(int(table.values[index_of(board)])) != value:
            problems.append(
                f"{name} {board} {to_move}: table {table.values[index_of(board)]}, reference {value}"
            )
        if number % 37 == 0:
            analysis = table.analyze(Position.parse(board, to_move, variant))
            if {m.cell: tuple(m.value) for m in analysis.moves} != reference.moves(board, to_move):
                problems.append(f"{name} {board} {to_move}: moves differ")
    held = int((table.values != 0).sum())
    if held != len(seen):
        problems.append(f"{name}: the table holds {held} positions, the reference reaches {len(seen)}")
    if first_o_too:
        reference.value(empty, "O")
        for (board, to_move), value in reference.memo.items():
            if (board.count("O") >= board.count("X") and board != empty) or (
                to_move == "O" and board == empty
            ):
                got = tuple(table.value(Position.parse(board, to_move, variant)))
                if got != value:
                    problems.append(f"{name} O first {board} {to_move}: table {got}, reference {value}")
    return problems[:20]


class _TablesByName(dict[str, Table]):
    """name -> the session's table of that variant, built on first use (usable at import time)."""

    def __missing__(self, name: str) -> Table:
        table = self[name] = table_of(get_variant(name))
        return table


TABLES = _TablesByName()
