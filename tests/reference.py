"""A brute-force reference, written apart from the engine: board strings, tuples of cells, plain recursion
over every move; no bitmasks, no tables, no retrograde order. Slow on purpose, trusted by reading.

`Rules` describes any board the service serves (rows, columns, k, misère, torus, gravity); the functions
without a `rules` argument are the classic 3x3 board's, which older tests use.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


@dataclass(frozen=True)
class Rules:
    rows: int
    cols: int
    k: int
    misere: bool = False
    torus: bool = False
    gravity: bool = False  # a mark falls to the lowest empty cell of its column

    @property
    def size(self) -> int:
        return self.rows * self.cols

    @property
    def name(self) -> str:
        suffixes = "-torus" * self.torus + "-gravity" * self.gravity + "-misere" * self.misere
        return f"{self.rows}x{self.cols}k{self.k}{suffixes}"

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
        held = {i for i, cell in enumerate(board) if cell == mark}
        return any(line <= held for line in self.line_sets)

    @cached_property
    def line_sets(self) -> tuple[frozenset[int], ...]:
        return tuple(frozenset(line) for line in self.lines)

    @cached_property
    def lines(self) -> tuple[tuple[int, ...], ...]:
        """Every k cells in a straight row, column or diagonal (wrapping on a torus), each once."""
        found = set()
        for row in range(self.rows):
            for col in range(self.cols):
                for dr, dc in DIRECTIONS:
                    cells = []
                    for step in range(self.k):
                        r, c = row + dr * step, col + dc * step
                        if self.torus:
                            r, c = r % self.rows, c % self.cols
                        elif not (0 <= r < self.rows and 0 <= c < self.cols):
                            break
                        cells.append(r * self.cols + c)
                    if len(cells) == self.k and len(set(cells)) == self.k:
                        found.add(tuple(sorted(cells)))
        return tuple(sorted(found))

    def images(self, board: str) -> set[str]:
        """The board turned, reflected and (on a torus) shifted, as the rules allow."""
        out = set()
        turns = 4 if self.rows == self.cols else 2
        shifts = [(a, b) for a in range(self.rows) for b in range(self.cols)] if self.torus else [(0, 0)]
        grid = [list(board[r * self.cols : (r + 1) * self.cols]) for r in range(self.rows)]
        for mirrored in (grid, [row[::-1] for row in grid]):
            current = mirrored
            for _ in range(turns):
                for down, right in shifts:
                    rows = current[-down:] + current[:-down] if down else current
                    out.add("".join("".join(row[-right:] + row[:-right] if right else row) for row in rows))
                current = _half_turn(current) if turns == 2 else _quarter_turn(current)
        return out


def _quarter_turn(grid: list[list[str]]) -> list[list[str]]:
    return [list(row) for row in zip(*grid[::-1], strict=True)]


def _half_turn(grid: list[list[str]]) -> list[list[str]]:
    return [row[::-1] for row in grid[::-1]]


def opponent(mark: str) -> str:
    return "O" if mark == "X" else "X"


def has_line_in(rules: Rules, board: str, mark: str) -> bool:
    return rules.holds_line(board, mark)


def over(rules: Rules, board: str) -> bool:
    return has_line_in(rules, board, "X") or has_line_in(rules, board, "O") or "." not in board


def next_boards(rules: Rules, board: str, to_move: str) -> list[tuple[int, str]]:
    if over(rules, board):
        return []
    return [(i, board[:i] + to_move + board[i + 1 :]) for i in rules.moves(board)]


class Reference:
    """Exhaustive minimax of one board from any position; remembers every position it has valued."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.memo: dict[tuple[str, str], tuple[int, int]] = {}

    def value(self, board: str, to_move: str) -> tuple[int, int]:
        """(score, plies to the end) for the side to move; the winner hurries, the loser delays."""
        key = (board, to_move)
        known = self.memo.get(key)
        if known is None:
            known = self.memo[key] = self._search(board, to_move)
        return known

    def _search(self, board: str, to_move: str) -> tuple[int, int]:
        last = opponent(to_move)
        if has_line_in(self.rules, board, last):
            return (1, 0) if self.rules.misere else (-1, 0)
        if "." not in board:
            return (0, 0)
        # Neither side holds a line (the side to move cannot: play stops at the first), so every
        # empty cell (under gravity, every column's lowest) is a move.
        outcomes = list(self._children(board, to_move).values())
        best = max(score for score, _ in outcomes)
        plies = [p for score, p in outcomes if score == best]
        return best, (min(plies) if best > 0 else max(plies))

    def moves(self, board: str, to_move: str) -> dict[int, tuple[int, int]]:
        """Every move's (score, plies to the end) for the side that plays it; none once the game is over."""
        return {} if over(self.rules, board) else self._children(board, to_move)

    def _children(self, board: str, to_move: str) -> dict[int, tuple[int, int]]:
        out = {}
        for cell in self.rules.moves(board):
            score, plies = self.value(board[:cell] + to_move + board[cell + 1 :], opponent(to_move))
            out[cell] = (-score, plies + 1)
        return out


def reachable(rules: Rules, first: str) -> dict[str, str]:
    """Every board some legal game from the empty board reaches, with its side to move."""
    start = "." * rules.size
    seen = {start: first}
    frontier = [start]
    while frontier:
        board = frontier.pop()
        mover = seen[board]
        for _, child in next_boards(rules, board, mover):
            if child not in seen:
                seen[child] = opponent(mover)
                frontier.append(child)
    return seen


def states(rules: Rules, first: str) -> set[tuple[str, str]]:
    """`reachable` as (board, side to move) pairs."""
    return set(reachable(rules, first).items())


def rules_of(variant: Any) -> Rules:
    """The reference's rules of an engine's Variant (read from its fields, none of its code)."""
    return Rules(variant.rows, variant.cols, variant.k, variant.misere, variant.torus, variant.gravity)


# The classic board, as older tests use it.
CLASSIC = Rules(3, 3, 3)
LINES = list(CLASSIC.lines)
_REFERENCES = {False: Reference(CLASSIC), True: Reference(Rules(3, 3, 3, misere=True))}


def has_line(board: str, mark: str) -> bool:
    return has_line_in(CLASSIC, board, mark)


def game_over(board: str) -> bool:
    return over(CLASSIC, board)


def children(board: str, to_move: str) -> list[tuple[int, str]]:
    return next_boards(CLASSIC, board, to_move)


def minimax(board: str, to_move: str, misere: bool) -> tuple[int, int]:
    return _REFERENCES[misere].value(board, to_move)


def move_values(board: str, to_move: str, misere: bool) -> dict[int, tuple[int, int]]:
    return _REFERENCES[misere].moves(board, to_move)


def all_reachable(first: str) -> dict[str, str]:
    return reachable(CLASSIC, first)


def rotate(board: str) -> str:
    return "".join(board[i] for i in (6, 3, 0, 7, 4, 1, 8, 5, 2))


def mirror(board: str) -> str:
    return "".join(board[i] for i in (2, 1, 0, 5, 4, 3, 8, 7, 6))


def images(board: str) -> list[str]:
    """The 8 images of a 3x3 board, in a fixed order (identity first)."""
    out = []
    for b in (board, mirror(board)):
        for _ in range(4):
            out.append(b)
            b = rotate(b)
    return out
