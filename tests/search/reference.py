"""A brute-force reference for the search tests, written apart from the engine: boards as strings, lines
as tuples of cells found by walking the grid, plain recursive negamax with a memo. Slow on purpose,
trusted by reading; only for boards small enough to solve whole (or deep positions of larger ones).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

STEPS = ((0, 1), (1, 0), (1, 1), (1, -1))


@dataclass(frozen=True)
class Rules:
    rows: int
    cols: int
    k: int
    misere: bool = False
    torus: bool = False
    gravity: bool = False

    @property
    def size(self) -> int:
        return self.rows * self.cols

    @cached_property
    def lines(self) -> tuple[tuple[int, ...], ...]:
        found = set()
        for row in range(self.rows):
            for col in range(self.cols):
                for dr, dc in STEPS:
                    cells = []
                    for i in range(self.k):
                        r, c = row + dr * i, col + dc * i
                        if self.torus:
                            r, c = r % self.rows, c % self.cols
                        elif not (0 <= r < self.rows and 0 <= c < self.cols):
                            break
                        cells.append(r * self.cols + c)
                    if len(set(cells)) == self.k:
                        found.add(tuple(sorted(cells)))
        return tuple(sorted(found))

    def moves(self, board: str) -> list[int]:
        """The empty cells, or under gravity the lowest empty cell of each column."""
        if not self.gravity:
            return [i for i, mark in enumerate(board) if mark == "."]
        out = []
        for col in range(self.cols):
            empty = [r for r in range(self.rows) if board[r * self.cols + col] == "."]
            if empty:
                out.append(max(empty) * self.cols + col)
        return sorted(out)

    def holds_line(self, board: str, mark: str) -> bool:
        return any(all(board[i] == mark for i in line) for line in self.lines)


def other(mark: str) -> str:
    return "O" if mark == "X" else "X"


class Reference:
    """(score, remoteness) for the side to move: +1 win, 0 draw, -1 loss; the winner hurries."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.memo: dict[tuple[str, str], tuple[int, int]] = {}

    def value(self, board: str, to_move: str) -> tuple[int, int]:
        key = (board, to_move)
        if key not in self.memo:
            self.memo[key] = self._search(board, to_move)
        return self.memo[key]

    def _search(self, board: str, to_move: str) -> tuple[int, int]:
        if self.rules.holds_line(board, other(to_move)):
            return (1, 0) if self.rules.misere else (-1, 0)
        if "." not in board:
            return (0, 0)
        outcomes = list(self.move_values(board, to_move).values())
        best = max(s for s, _ in outcomes)
        plies = [r for s, r in outcomes if s == best]
        return best, min(plies) if best > 0 else max(plies)

    def move_values(self, board: str, to_move: str) -> dict[int, tuple[int, int]]:
        """Each move's (score, remoteness) for the side that plays it, the move counted."""
        out = {}
        for cell in self.rules.moves(board):
            score, plies = self.value(board[:cell] + to_move + board[cell + 1 :], other(to_move))
            out[cell] = (-score, plies + 1)
        return out
