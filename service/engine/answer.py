"""An analysis from any source, in one shape: what is known of every legal move (proven bounds on its
result, its remoteness once proven, an estimate when asked for), where it came from, and what the
search spent. A table's answer is exact; a search's is exact only when it proved everything, and never
claims more than it proved.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property

from .rules.game import GamePosition, final_score
from .rules.known_move import KnownMove
from .rules.position import Position
from .rules.values import Known, Result, Value
from .search.renju_answers import freestyle_result
from .search.shapes import guess_ranks, ranks_by_shape
from .search.win_tree import WinTree
from .tables.table import Lookup, Table

_RESULTS = {1: Result.WIN, 0: Result.DRAW, -1: Result.LOSS}
# The fewest plies in which a move whose value is not proven can win: every source settles the moves
# that end the game at once (a completed line, the last cell), so such a move leaves at least the
# opponent's reply to come. A proven win sooner than this is the position's value whatever the rest.
EARLIEST_UNPROVEN_WIN = 2


class Source(StrEnum):
    TABLE = "table"  # the variant's solved table
    CACHE = "cache"  # a position the search proved before, kept on disk
    BOOK = "book"  # a position of the opening book (`sanmoku book build`)
    SEARCH = "search"  # a search within this request's budget


def order(move: KnownMove) -> tuple[int, int, tuple[int, int], int, int]:
    """Best first: proven results first (a win, then at least a draw, a draw, the unknown, at most a
    draw, a loss), then the faster win or the slower loss, then the higher estimate, then the cell."""
    value = move.value
    preference = value.preference() if value is not None else (0, 0)
    estimate = -move.estimate.score if move.estimate is not None else 0
    return (-move.lower, -move.upper, preference, estimate, move.cell)


def ordered(position: GamePosition, moves: Iterable[KnownMove]) -> tuple[KnownMove, ...]:
    """`moves` best first, by `order`; on boards of five in a row (shapes.py, `ranks_by_shape`) the
    moves whose value is not proven go by their threat shapes before their estimates, then nearer the
    centre: the search's estimates do not rank them there (its proofs take the budget first). Under
    renju, a guess the freestyle search proved goes before the shapes."""
    if not (isinstance(position, Position) and ranks_by_shape(position.variant)):
        return tuple(sorted(moves, key=order))
    moves = list(moves)
    rank = guess_ranks(position, [move.cell for move in moves if move.value is None])
    renju = position.variant.renju

    def key(move: KnownMove) -> tuple[int, int, tuple[int, int], int, tuple[int, int], int, int]:
        lower, upper, preference, estimate, cell = order(move)
        # Under renju a guess the freestyle search proved goes first (a win) or last (a loss): measured,
        # the shapes alone lost puzzles it had solved.
        proven_elsewhere = -freestyle_result(move.estimate) if renju and lower != upper else 0
        return (lower, upper, preference, proven_elsewhere, rank.get(cell, (0, 0)), estimate, cell)

    return tuple(sorted(moves, key=key))


@dataclass(frozen=True)
class Answer:
    position: GamePosition
    moves: tuple[KnownMove, ...]  # every legal move, best first (see `order`)
    source: Source
    nodes: int = 0  # what the search spent (0 when no search ran)
    seconds: float = 0.0
    depth: int = 0
    cutoffs: int = 0
    tt_hits: int = 0
    closed_by: dict[str, int] = field(default_factory=dict)  # the search's moves closed per prover
    # A certificate of the side to move's win by continuous fours: both sides' moves in turn, from the
    # winning move to the cell of its five (search/fours.py); empty when none was found.
    line: tuple[int, ...] = ()
    # A certificate of its win by threes, a tree (search/win_tree.py); None when none was read back.
    tree: WinTree | None = None

    @classmethod
    def of_table(cls, analysis: Lookup) -> Answer:
        return cls(analysis.position, analysis.moves, Source.TABLE)

    @classmethod
    def of_proofs(
        cls,
        position: GamePosition,
        proofs: Iterable[KnownMove],
        source: Source,
        nodes: int = 0,
        seconds: float = 0.0,
        depth: int = 0,
        cutoffs: int = 0,
        tt_hits: int = 0,
        closed_by: dict[str, int] | None = None,
    ) -> Answer:
        moves = ordered(position, proofs)
        return cls(position, moves, source, nodes, seconds, depth, cutoffs, tt_hits, closed_by or {})

    @cached_property
    def exact(self) -> bool:
        """Every move's result and remoteness proven (so the position's too)."""
        return all(move.value is not None for move in self.moves)

    @cached_property
    def bounds(self) -> tuple[int, int]:
        """The proven bounds on the position's result for the side to move."""
        if not self.moves:
            score = final_score(self.position)
            return score, score
        return max(m.lower for m in self.moves), max(m.upper for m in self.moves)

    @property
    def result(self) -> Result | None:
        lower, upper = self.bounds
        return _RESULTS[lower] if lower == upper else None

    @cached_property
    def value(self) -> Value | None:
        """The position's value, when its result and the remoteness that goes with it are proven: that
        of the fastest win, of any draw (a draw fills the board), or of the slowest loss."""
        if not self.moves:
            return Value(final_score(self.position), 0)
        lower, upper = self.bounds
        if lower != upper:
            return None
        contenders = [m for m in self.moves if m.upper >= lower]  # every move that may reach the result
        if lower == 0:
            contenders = [m for m in contenders if m.lower == 0]
        values = [m.value for m in contenders]
        proven = [v for v in values if v is not None]
        # a win at once: no move still unproven can be faster
        at_once = lower == 1 and any(v.remoteness < EARLIEST_UNPROVEN_WIN for v in proven)
        if not proven or (len(proven) < len(values) and not at_once):
            return None
        return min(proven, key=Value.preference)

    @property
    def known(self) -> Known:
        """The position's value as far as it is proven."""
        lower, upper = self.bounds
        value = self.value
        return Known(lower, upper, None if value is None else value.remoteness)

    def move(self, cell: int) -> KnownMove:
        return next(m for m in self.moves if m.cell == cell)

    @property
    def best_moves(self) -> tuple[int, ...]:
        """The moves proven to keep the position's value, by cell; none while it is not proven."""
        value = self.value
        if value is None or not self.moves:
            return ()
        return tuple(sorted(m.cell for m in self.moves if m.value == value))

    @property
    def best_move(self) -> int | None:
        """The lowest proven best move; else the move ranked first by what is known (an estimate)."""
        proven = self.best_moves
        if proven:
            return proven[0]
        return self.moves[0].cell if self.moves else None

    @property
    def best_move_proven(self) -> bool:
        return bool(self.best_moves)


Answers = Callable[[Position], Answer]  # a source of answers: a table, or the analyst within a budget
GameAnswers = Callable[[GamePosition], Answer]  # the analyst's: for any game's positions


def table_answers(table: Table) -> Answers:
    """A table as a source of answers."""
    return lambda position: Answer.of_table(table.lookup(position))


def answers_from(source: Table | Answers) -> Answers:
    return table_answers(source) if isinstance(source, Table) else source
