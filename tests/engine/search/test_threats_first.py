"""The threats asked first (search/tactics.py) on gomoku's boards: every move that makes an open four or
starts a sequence of fours (found by a search written here) is proven a win within 300 nodes on
15x15, where the questions shared in even rounds reached none; the order of the moves asked is checked
against a count written here."""

from __future__ import annotations

from functools import cache

import pytest

from service.engine import Budget, Position, get_variant
from service.engine.search.searcher import Searcher
from service.engine.search.tactics import threat_moves

SIDE, K = 15, 5
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def board(marks: dict[tuple[int, int], str]) -> str:
    rows = [["."] * SIDE for _ in range(SIDE)]
    for (row, col), mark in marks.items():
        rows[row][col] = mark
    return "/".join("".join(row) for row in rows)


def windows() -> list[list[tuple[int, int]]]:
    out = []
    for row in range(SIDE):
        for col in range(SIDE):
            for d_row, d_col in DIRECTIONS:
                cells = [(row + d_row * i, col + d_col * i) for i in range(K)]
                if all(0 <= r < SIDE and 0 <= c < SIDE for r, c in cells):
                    out.append(cells)
    return out


WINDOWS = windows()


def completions(stones: dict[tuple[int, int], str], side: str) -> set[tuple[int, int]]:
    """The cells where `side` completes five at once."""
    found = set()
    for window in WINDOWS:
        marks = [stones.get(cell) for cell in window]
        if marks.count(side) == K - 1 and marks.count(None) == 1:
            found.add(window[marks.index(None)])
    return found


def wins_by_fours(stones: dict[tuple[int, int], str], side: str, other: str, depth: int = 12) -> bool:
    """Whether `side`, to move, wins by continuous fours (every reply forced), within `depth` fours. Facing
    a four of the other side's, it must block, and only a block that makes a four of its own goes on."""
    if completions(stones, side):
        return True
    against = completions(stones, other)
    if depth == 0 or len(against) > 1:
        return False
    candidates = against or {cell for window in WINDOWS for cell in window if cell not in stones}
    for cell in sorted(candidates):
        after = {**stones, cell: side}
        threats = completions(after, side)
        if not threats:
            continue
        if len(threats) > 1:
            return True
        reply = threats.pop()
        if not completions(after, other) and wins_by_fours({**after, reply: other}, side, other, depth - 1):
            return True
    return False


def fours_wins(stones: dict[tuple[int, int], str], side: str, other: str) -> set[tuple[int, int]]:
    """The moves of `side` that start a win by continuous fours: each makes a four (or two), and the
    forced reply leaves a win by fours."""
    found = set()
    for cell in {cell for window in WINDOWS for cell in window if cell not in stones}:
        after = {**stones, cell: side}
        threats = completions(after, side)
        if not threats or completions(after, other):
            continue
        if len(threats) > 1 or wins_by_fours({**after, threats.pop(): other}, side, other):
            found.add(cell)
    return found


@cache
def searcher() -> Searcher:
    return Searcher(get_variant(f"{SIDE}x{SIDE}k{K}"), table_bits=16)


OPEN_THREE = {(7, 5): "X", (7, 6): "X", (7, 7): "X", (3, 3): "O", (3, 4): "O", (10, 10): "O"}
# X to move wins by fours: (7,10) makes a four on row 7 (O must take (7,11)) and a three on column 10,
# which (8,10) or (4,10) then makes an open four.
FOURS = {
    (7, 7): "X", (7, 8): "X", (7, 9): "X", (5, 10): "X", (6, 10): "X",
    (7, 6): "O", (0, 0): "O", (0, 14): "O", (14, 0): "O", (14, 14): "O",
}  # fmt: skip


@pytest.mark.parametrize("stones", [OPEN_THREE, FOURS], ids=["open three", "fours"])
def test_every_win_by_fours_is_proven_within_the_budget(stones: dict[tuple[int, int], str]) -> None:
    """Every move that starts a win by continuous fours (found by the search written here) is proven a
    win. Asked in even rounds among the 200-odd moves' questions, none was within a second, nor within
    300 nodes, which the questions about the position itself took first. (That the
    proof-number search's wins are wins is checked against alpha-beta on boards it can finish:
    test_provers.py.)"""
    position = Position.parse(board(stones), None, get_variant("15x15k5"))
    assert position.to_move == "X"
    report = searcher().analyze(position, Budget(nodes=300))
    won = {divmod(move.cell, SIDE) for move in report.moves if move.lower == 1}
    by_fours = fours_wins(stones, "X", "O")
    assert by_fours and by_fours <= won


def test_the_moves_asked_first_make_the_fullest_lines() -> None:
    """Against a count written here: each open cell's best line free of the opponent, by its marks."""
    variant = get_variant("15x15k5")
    position = Position.parse(board(FOURS), None, variant)
    mine, theirs = position.mine, position.theirs
    lines = [sum(1 << (r * SIDE + c) for r, c in window) for window in WINDOWS]
    open_cells = [cell for cell in range(SIDE * SIDE) if not (mine | theirs) >> cell & 1]
    ranked = threat_moves(lines, K, mine, theirs, open_cells)
    best: dict[int, tuple[int, int]] = {}
    for window in WINDOWS:
        marks = [FOURS.get(cell) for cell in window]
        if "O" in marks or marks.count("X") < K - 3:
            continue
        for cell in window:
            if cell not in FOURS:
                index = cell[0] * SIDE + cell[1]
                most, count = best.get(index, (0, 0))
                best[index] = (max(most, marks.count("X")), count + 1)
    assert ranked == sorted(best, key=lambda c: (-best[c][0], -best[c][1], c))
    assert best[ranked[0]][0] == K - 2  # a cell that makes a four first
