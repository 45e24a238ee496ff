"""Renju's forbidden points decided by brute force from the federation's definitions, written apart from
service/engine/rules/renju.py: over windows of whole lines and sets of stones instead of runs counted
from the move. A four is a set of four stones that one empty cell makes a five of exactly five; a
straight four's two such cells give one set. Slow; for small boards in tests."""

from __future__ import annotations

DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def _line(rows: int, cols: int, cell: int, dr: int, dc: int) -> list[int]:
    """Every cell of the board's line through `cell` along (dr, dc), in order."""
    row, col = divmod(cell, cols)
    while 0 <= row - dr < rows and 0 <= col - dc < cols:
        row, col = row - dr, col - dc
    out = []
    while 0 <= row < rows and 0 <= col < cols:
        out.append(row * cols + col)
        row, col = row + dr, col + dc
    return out


def _black(black: int, line: list[int], at: int) -> bool:
    return 0 <= at < len(line) and bool(black >> line[at] & 1)


def _exact_five(black: int, line: list[int], start: int) -> bool:
    """Whether the five cells of `line` from `start` are black and neither neighbour is."""
    return (
        start + 5 <= len(line)
        and all(black >> line[i] & 1 for i in range(start, start + 5))
        and not _black(black, line, start - 1)
        and not _black(black, line, start + 5)
    )


def reference_shape(rows: int, cols: int, black: int, white: int, cell: int) -> str | None:
    placed = black | 1 << cell
    lines = [_line(rows, cols, cell, dr, dc) for dr, dc in DIRECTIONS]
    spots = [line.index(cell) for line in lines]
    if any(
        _exact_five(placed, line, start)
        for line, at in zip(lines, spots, strict=True)
        for start in range(at - 4, at + 1)
        if start >= 0
    ):
        return None
    for line, at in zip(lines, spots, strict=True):
        for start in range(max(0, at - 5), at + 1):
            if start + 6 <= len(line) and all(placed >> line[i] & 1 for i in range(start, start + 6)):
                return "overline"
    fours: list[set[frozenset[int]]] = []
    for line, at in zip(lines, spots, strict=True):
        found: set[frozenset[int]] = set()
        for start in range(max(0, at - 4), at + 1):
            window = line[start : start + 5]
            if len(window) < 5 or any(white >> c & 1 for c in window):
                continue
            empty = [c for c in window if not placed >> c & 1]
            if len(empty) == 1 and _exact_five(placed | 1 << empty[0], line, start):
                found.add(frozenset(window) - {empty[0]})
        fours.append(found)
    if sum(len(found) for found in fours) >= 2:
        return "double-four"
    threes = 0
    for line, at, found in zip(lines, spots, fours, strict=True):
        if not found and _three(rows, cols, placed, white, line, at):
            threes += 1
    return "double-three" if threes >= 2 else None


def _three(rows: int, cols: int, placed: int, white: int, line: list[int], at: int) -> bool:
    """Whether some empty cell of `line` that black may play makes, with the move at `at`, four in an
    unbroken row both of whose ends make exactly five."""
    for q in range(len(line)):
        if (placed | white) >> line[q] & 1:
            continue
        after = placed | 1 << line[q]
        for start in range(len(line) - 3):
            span = range(start, start + 4)
            if at not in span or q not in span or not all(after >> line[i] & 1 for i in span):
                continue
            ends = (start - 1, start + 4)
            if (
                all(
                    0 <= end < len(line)
                    and not (after | white) >> line[end] & 1
                    and _exact_five(after | 1 << line[end], line, min(end, start))
                    for end in ends
                )
                and reference_shape(rows, cols, placed, white, line[q]) is None
            ):
                return True
    return False


def reference_points(rows: int, cols: int, black: int, white: int) -> frozenset[int]:
    return frozenset(
        cell
        for cell in range(rows * cols)
        if not (black | white) >> cell & 1 and reference_shape(rows, cols, black, white, cell) is not None
    )
