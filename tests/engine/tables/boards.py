"""Helpers shared by the engine tests: any variant's table, the reference's rules for it, and the check
of a whole table against the brute-force reference (run in worker processes, see test_reference)."""

from __future__ import annotations

import itertools
import math
import random
import sys
from collections import Counter
from collections.abc import Iterator
from functools import cache

from service.engine import Position, Table, TableStore, Variant, get_variant, solve
from service.engine.tables.classes import class_layout_of
from service.engine.tables.layout import layout_of
from service.engine.tables.stream import tier_positions
from tests.reference import Reference, rules_of

# The documented layout and byte, decoded here without the engine's code: positions ranked by tier
# (marks on the board), then block (the leading half's counts of X and O), then the leading half's
# filling, then the trailing half's, each half's fillings grouped by their counts and ordered within a
# group as base-3 numbers (. O X = 0 1 2, first cell first); 0 none, 1 + r loss, 128 + r draw, 255 - r win.
DIGITS = str.maketrans(".OX", "012")


def decode(byte: int) -> tuple[int, int] | None:
    if byte == 0:
        return None
    if byte < 128:
        return (-1, byte - 1)
    return (0, byte - 128) if byte < 192 else (1, 255 - byte)


@cache
def _half(length: int) -> tuple[dict[str, int], dict[tuple[int, int], int]]:
    """A half of `length` cells: each filling's slot in its group, and each group's size."""
    fillings = sorted(
        ("".join(f) for f in itertools.product(".OX", repeat=length)),
        key=lambda f: int(f.translate(DIGITS), 3),
    )
    groups: dict[tuple[int, int], list[str]] = {}
    for filling in fillings:
        groups.setdefault((filling.count("X"), filling.count("O")), []).append(filling)
    slots = {f: slot for members in groups.values() for slot, f in enumerate(members)}
    return slots, {key: len(members) for key, members in groups.items()}


@cache
def _block_starts(cells: int) -> dict[tuple[int, int, int], int]:
    """(tier, X in the leading half, O in the leading half) -> the rank of the block's first position."""
    lead, trail = cells // 2, cells - cells // 2
    lead_sizes, trail_sizes = _half(lead)[1], _half(trail)[1]
    starts, rank = {}, 0
    for tier in range(cells + 1):
        xs, os_ = (tier + 1) // 2, tier // 2
        for lead_x, lead_o in sorted(lead_sizes):
            trail_size = trail_sizes.get((xs - lead_x, os_ - lead_o))
            if trail_size:
                starts[(tier, lead_x, lead_o)] = rank
                rank += lead_sizes[(lead_x, lead_o)] * trail_size
    return starts


def ranked_entries(cells: int) -> int:
    """Entries of a table: the boards with legal counts (X has as many marks as O, or one more)."""
    return sum(
        math.comb(cells, (t + 1) // 2) * math.comb(cells - (t + 1) // 2, t // 2) for t in range(cells + 1)
    )


def burnside_classes(rows: int, cols: int) -> int:
    """Boards with legal counts up to the rectangle's four symmetries (or eight on a square): the mean
    over the symmetries of the boards each keeps, counted by brute force over its cycles' fillings."""
    cells = rows * cols
    maps = [
        lambda r, c: (r, c),
        lambda r, c: (rows - 1 - r, cols - 1 - c),
        lambda r, c: (r, cols - 1 - c),
        lambda r, c: (rows - 1 - r, c),
    ]
    if rows == cols:
        maps += [lambda r, c: (c, r), lambda r, c: (cols - 1 - c, rows - 1 - r)]
        maps += [lambda r, c: (c, rows - 1 - r), lambda r, c: (cols - 1 - c, r)]
    total = 0
    for move in maps:
        image = [move(*divmod(cell, cols)) for cell in range(cells)]
        target = [r * cols + c for r, c in image]
        cycles, seen = [], set()
        for cell in range(cells):
            size = 0
            while cell not in seen:
                seen.add(cell)
                cell, size = target[cell], size + 1
            if size:
                cycles.append(size)
        # fillings of the cycles by the difference of X's and O's marks: a generating polynomial
        by_difference = Counter({0: 1})
        for size in cycles:
            grown: Counter[int] = Counter()
            for difference, ways in by_difference.items():
                for step in (0, size, -size):
                    grown[difference + step] += ways
            by_difference = grown
        total += by_difference[0] + by_difference[1]
    return total // len(maps)


def index_of(board: str) -> int:
    """The board's place in the table (X first)."""
    cells = len(board)
    head, tail = board[: cells // 2], board[cells // 2 :]
    tier = cells - board.count(".")
    start = _block_starts(cells)[(tier, head.count("X"), head.count("O"))]
    trail_slots, trail_sizes = _half(len(tail))
    return (
        start
        + _half(len(head))[0][head] * trail_sizes[(tail.count("X"), tail.count("O"))]
        + trail_slots[tail]
    )


@cache
def table_of(variant: Variant) -> Table:
    """The session's table of any variant (SANMOKU_TABLES_DIR is the session's directory)."""
    return TableStore().get(variant)


def solved_table(variant: Variant) -> Table:
    """The variant's table solved in this process, in format 3 (one entry per class) as files hold it."""
    layout = class_layout_of(variant)
    return Table.in_memory(variant, solve(variant, layout), layout)


def compare_with_reference(name: str, first_o_too: bool) -> list[str]:
    """Every reachable position of the variant, X first, against the reference: the value at its index,
    and nothing else in the table; the moves of every 37th position through `Table.lookup`; with
    `first_o_too`, every position of the game O opens as well (the colour-swapped lookups)."""
    sys.setrecursionlimit(10_000)
    variant = get_variant(name)
    table = Table.in_memory(variant, solve(variant), layout_of(variant.cells))  # format 2, read by index
    classes = class_layout_of(variant)  # format 3, through the class solver even on small boards
    folded = Table.in_memory(variant, solve(variant, classes, fold_small=False), classes)
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
            for read in (table, folded):
                analysis = read.lookup(Position.parse(board, to_move, variant))
                if {m.cell: tuple(m.value) for m in analysis.moves} != reference.moves(board, to_move):
                    problems.append(f"{name} {board} {to_move}: moves differ (format {len(read.values)})")
    problems += formats_differ(variant, table, folded)
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


def formats_differ(variant: Variant, ranked: Table, folded: Table) -> list[str]:
    """Where a format-3 table answers otherwise than the format-2 one: every position, each looked up in
    both (vectorised)."""
    problems = []
    for tier in range(variant.cells + 1):
        for first, second in tier_positions(variant.cells, tier):
            differ = ranked.values[ranked.ranks(first, second)] != folded.values[folded.ranks(first, second)]
            if differ.any():
                problems.append(f"{variant.name} tier {tier}: {int(differ.sum())} positions differ")
    return problems


class _TablesByName(dict[str, Table]):
    """name -> the session's table of that variant, built on first use (usable at import time)."""

    def __missing__(self, name: str) -> Table:
        table = self[name] = table_of(get_variant(name))
        return table


TABLES = _TablesByName()


def sampled_positions(variant: Variant, seed: int, count: int, empty_left: int) -> Iterator[Position]:
    """Positions of random games from the empty board, stopped with `empty_left` free cells or at the end."""
    rng = random.Random(seed)
    for game in range(count):
        position = Position.empty(variant, "XO"[game % 2])
        while not position.is_over and variant.cells - position.marks > empty_left:
            position = position.play(rng.choice(position.legal_moves()))
        yield position


def assert_agrees_on_samples(table: Table, seed: int, count: int, empty_left: int) -> None:
    """The table's analysis of positions of random games (stopped `empty_left` cells from the end) is
    the reference's, value and every move's."""
    sys.setrecursionlimit(10_000)
    reference = Reference(rules_of(table.variant))
    for position in sampled_positions(table.variant, seed, count, empty_left):
        analysis = table.lookup(position)
        assert tuple(analysis.value) == reference.value(position.cells, position.to_move), position.cells
        assert {m.cell: tuple(m.value) for m in analysis.moves} == reference.moves(
            position.cells, position.to_move
        )
