"""A brute-force reference, written apart from the engine: plain lists, no symmetry, no bitmasks.

Everything here is deliberately naive so that it can be trusted by reading it.
"""

from __future__ import annotations

from functools import cache

LINES = [
    (0, 1, 2), (3, 4, 5), (6, 7, 8),
    (0, 3, 6), (1, 4, 7), (2, 5, 8),
    (0, 4, 8), (2, 4, 6),
]  # fmt: skip


def has_line(board: str, mark: str) -> bool:
    return any(all(board[i] == mark for i in line) for line in LINES)


def opponent(mark: str) -> str:
    return "O" if mark == "X" else "X"


def game_over(board: str) -> bool:
    return has_line(board, "X") or has_line(board, "O") or "." not in board


def children(board: str, to_move: str) -> list[tuple[int, str]]:
    if game_over(board):
        return []
    return [(i, board[:i] + to_move + board[i + 1 :]) for i in range(9) if board[i] == "."]


@cache
def minimax(board: str, to_move: str, misere: bool) -> tuple[int, int]:
    """(score, plies to the end) for the side to move, by exhaustive search."""
    last = opponent(to_move)
    if has_line(board, last):
        return (1, 0) if misere else (-1, 0)
    if "." not in board:
        return (0, 0)
    outcomes = []
    for _, child in children(board, to_move):
        score, plies = minimax(child, last, misere)
        outcomes.append((-score, plies + 1))
    best_score = max(s for s, _ in outcomes)
    plies = [p for s, p in outcomes if s == best_score]
    # The winner hurries; the loser (and a draw, which always fills the board) takes longest.
    return best_score, (min(plies) if best_score > 0 else max(plies))


def move_values(board: str, to_move: str, misere: bool) -> dict[int, tuple[int, int]]:
    out = {}
    for cell, child in children(board, to_move):
        score, plies = minimax(child, opponent(to_move), misere)
        out[cell] = (-score, plies + 1)
    return out


def all_reachable(first: str) -> dict[str, str]:
    """Every reachable board with its side to move, by walking every game from the empty board."""
    seen = {"." * 9: first}
    frontier = ["." * 9]
    while frontier:
        board = frontier.pop()
        mover = seen[board]
        for _, child in children(board, mover):
            if child not in seen:
                seen[child] = opponent(mover)
                frontier.append(child)
    return seen


def rotate(board: str) -> str:
    return "".join(board[i] for i in (6, 3, 0, 7, 4, 1, 8, 5, 2))


def mirror(board: str) -> str:
    return "".join(board[i] for i in (2, 1, 0, 5, 4, 3, 8, 7, 6))


def images(board: str) -> list[str]:
    out = []
    for b in (board, mirror(board)):
        for _ in range(4):
            out.append(b)
            b = rotate(b)
    return out
