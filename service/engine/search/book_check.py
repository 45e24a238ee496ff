"""Book entries compared with the search: a sample of the positions a book holds, each searched from
scratch (every move's result and remoteness), the position's value and, below the deepest ply, every
move's value (each the value of a child the book holds, or of a finished game) compared with the book's.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from ..rules.position import Mark, Position
from ..rules.values import Value
from .book import prove_all
from .books import Book
from .budget import Budget
from .report import MoveProof, SearchReport

Report = Callable[[str], None]


@dataclass(frozen=True)
class Disagreement:
    position: Position
    book: list[MoveProof] | Value | None
    search: list[MoveProof] | Value | None


@dataclass(frozen=True)
class Verified:
    positions: int  # searched to the end within the budget
    entries: int  # book entries compared: the positions' own and their children's
    unproven: int  # positions the search did not finish within the budget (not compared)
    disagreements: list[Disagreement]


def position_of(book: Book, ply: int, index: int) -> Position:
    """The position of the `index`-th entry of a ply, X having moved first."""
    mover, other = book.board.position(int(book.data.keys[ply][index]))
    x, o, to_move = (mover, other, Mark.X) if ply % 2 == 0 else (other, mover, Mark.O)
    return Position(book.variant, x, o, to_move)


def sample_entries(book: Book, plies: list[int], per_ply: int, rng: random.Random) -> list[Position]:
    """Up to `per_ply` positions of each ply, drawn at random from the book's entries."""
    found = []
    for ply in plies:
        count = len(book.data.keys[ply])
        found += [position_of(book, ply, i) for i in rng.sample(range(count), min(per_ply, count))]
    return found


def verify_entries(
    book: Book, positions: list[Position], budget: Budget, report: Report, processes: int = 1
) -> Verified:
    """Search each position (within `budget`) and compare what the book says of it (and of its children)
    with the proofs; a position not proven within the budget is counted, not compared."""
    wrong: list[Disagreement] = []
    entries = proven = 0
    for position, proofs in prove_all(positions, processes, budget):
        searched = SearchReport(tuple(proofs), 0, 0.0, 0)
        if not searched.exact:
            continue
        proven += 1
        entries += 1
        if book.value(position) != searched.value:
            wrong.append(Disagreement(position, book.value(position), searched.value))
        moves = book.moves(position)
        if moves is not None:
            entries += sum(not position.play(m.cell).is_over for m in moves)
            if [(m.cell, m.value) for m in moves] != [(m.cell, m.value) for m in proofs]:
                wrong.append(Disagreement(position, moves, list(proofs)))
        if wrong and wrong[-1].position is position:
            report(f"DISAGREE {position.cells}: book {wrong[-1].book}, search {wrong[-1].search}")
    report(f"{proven} of {len(positions)} positions searched to the end, {entries} entries compared")
    return Verified(proven, entries, len(positions) - proven, wrong)
