"""What a search proved about a position's moves, in the terms of the tables: a `Value` when the result
and the remoteness are proven, the result alone, or only bounds on it (at least / at most a draw).

The core's scores depend on when the game ends: a win whose last mark is the T-th scores big - T, the
loss the negative, a draw 0, where big is the game's build's (`Game.big`: larger on the builds of longer
games); so a move's remoteness, counted from before the move (as `Value.after_move` counts it), is T
less the marks on the board before it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..rules.known_move import Estimate, KnownMove
from ..rules.values import Result, Value

if TYPE_CHECKING:
    from .win_tree import WinTree

_RESULTS = {1: Result.WIN, 0: Result.DRAW, -1: Result.LOSS}


def move_proof(
    cell: int, lower: int, upper: int, marks: int, cells: int, estimate: Estimate | None, big: int
) -> KnownMove:
    """What the score bounds [lower, upper] of the side that plays `cell` prove, with `marks` on the
    board before the move, on the scale of `big` (the game's)."""
    low = 1 if lower >= 1 else 0 if lower >= 0 else -1
    high = -1 if upper <= -1 else 0 if upper <= 0 else 1
    remoteness = None
    if lower == upper:
        end = cells if lower == 0 else big - abs(lower)  # the marks on the board when the game ends
        remoteness = end - marks
    return KnownMove(cell, low, high, remoteness, estimate)


@dataclass(frozen=True)
class SearchReport:
    moves: tuple[KnownMove, ...]  # every legal move, by cell; none when the game is over
    nodes: int
    seconds: float  # wall time of the whole analysis
    depth: int  # the most plies below the position any search reached
    cutoffs: int = 0  # nodes left early because a move scored at least beta
    tt_hits: int = 0  # transposition-table probes that found the position
    # how many moves' results each prover closed ("alpha_beta", "proof_number", "pairing", "threat_space")
    closed_by: dict[str, int] = field(default_factory=dict)
    tree: WinTree | None = None  # the certificate of the side to move's win by threes (win_tree.py)

    @property
    def exact(self) -> bool:
        """Every move's result and remoteness proven."""
        return all(move.value is not None for move in self.moves)

    @property
    def result(self) -> Result | None:
        """The position's result for the side to move, when the moves prove it."""
        if not self.moves:
            return None
        lower = max(move.lower for move in self.moves)
        upper = max(move.upper for move in self.moves)
        return _RESULTS[lower] if lower == upper else None

    @property
    def value(self) -> Value | None:
        """The position's value, when its result and the remoteness of every move that reaches that
        result (the fastest win, or the slowest loss) are proven."""
        result = self.result
        if result is None:
            return None
        if result is Result.DRAW:  # every draw fills the board: any drawing move has the remoteness
            return next(move.value for move in self.moves if move.result is Result.DRAW)
        contenders = [move.value for move in self.moves if move.upper >= (1 if result is Result.WIN else -1)]
        known = [value for value in contenders if value is not None]
        return min(known, key=Value.preference) if len(known) == len(contenders) else None

    @property
    def best_moves(self) -> tuple[int, ...]:
        """The moves proven to have the position's value."""
        value = self.value
        return () if value is None else tuple(move.cell for move in self.moves if move.value == value)
