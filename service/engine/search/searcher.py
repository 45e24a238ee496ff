"""The searcher of one board: its tables (a transposition table, the second thread's, the
estimates'), one analysis at a time (narrowing.py), and every move's exact value near the end in one
call to the core.
"""

from __future__ import annotations

import threading

from ..errors import SearcherBusyError
from ..rules.position import Position
from ..rules.variants import Variant
from .board import Board
from .budget import Budget, Spending
from .estimates import ESTIMATE_TABLE_BITS, estimate_nodes
from .narrowing import Narrowing
from .native import (
    DEFAULT_TABLE_BITS,
    Game,
    TranspositionTable,
    monotonic,
    score_all,
)
from .proof_families import DEFAULT_PROVER_THREADS, checked_prover_threads
from .proof_number import Prover
from .report import SearchReport, move_proof


class Searcher:
    """One board's searcher with its own transposition table: one per process (or thread) and board."""

    def __init__(
        self,
        variant: Variant,
        table_bits: int = DEFAULT_TABLE_BITS,
        table: TranspositionTable | None = None,
        prover_threads: int = DEFAULT_PROVER_THREADS,
        second_table: TranspositionTable | None = None,
    ) -> None:
        """`table`: one to reuse (it clears itself for another board), else 2**table_bits new buckets;
        `prover_threads`: the threads one analysis searches on (1 or 2): the provers', and with 2 the
        alpha-beta searches of its moves shared between the two, the second thread's on
        `second_table` (one to reuse, else one as large as `table`, made when first needed)."""
        self.variant, self.prover_threads = variant, checked_prover_threads(prover_threads)
        self.board = Board.of(variant)
        self.game = Game.of(self.board)
        self.table = table if table is not None else TranspositionTable(table_bits)
        self._second_table = second_table
        self._estimates_table: TranspositionTable | None = None  # made when first needed
        self._in_use = threading.Lock()

    def analyze(
        self,
        position: Position,
        budget: Budget,
        remoteness: bool = True,
        estimates: bool = False,
        won: bool = False,
    ) -> SearchReport:
        """Every legal move of `position`: its result, then (`remoteness`) how far the end is, then
        (`estimates`) a heuristic score of the moves whose result was not proven; `won`: a win of the
        side to move is proven already (by the fours before the search), so the analysis ends soon where
        it would after one (narrowing.py)."""
        if position.variant != self.variant:
            raise ValueError(f"a {position.variant.name} position given to the {self.variant.name} searcher")
        if not self._in_use.acquire(blocking=False):
            raise SearcherBusyError(
                f"the {self.variant.name} searcher is already searching in another thread"
            )
        try:
            # A Position is legal by construction: no second check of its marks
            mine, theirs = position.mine, position.theirs
            if remoteness and not estimates and budget.unlimited and not self._fixed(mine, theirs):
                return self._score_all(mine, theirs)
            narrowing = Narrowing(self, mine, theirs, Spending.of(budget), won)
            return narrowing.run(remoteness, estimate_nodes(budget) if estimates else 0)
        finally:
            self._in_use.release()

    def estimates_table(self) -> TranspositionTable:
        """The small table the estimates use, apart from the proofs' (see estimates.py)."""
        if self._estimates_table is None:
            self._estimates_table = TranspositionTable(ESTIMATE_TABLE_BITS)
        return self._estimates_table

    def second_table(self) -> TranspositionTable:
        """The table of the second thread's alpha-beta searches (core/threads.c)."""
        if self._second_table is None:
            self._second_table = TranspositionTable(self.table.bits)
        return self._second_table

    def _fixed(self, mine: int, theirs: int) -> bool:
        """Whether a symmetry other than the identity maps the position onto itself."""
        return bool(self.board.fixing(mine, theirs))

    def _score_all(self, mine: int, theirs: int) -> SearchReport:
        """Every move's exact value in one call to the core, for a position no symmetry fixes (its moves
        need no grouping): near the end of a game the Python around the searches costs more than they do."""
        started = monotonic()
        cells, scores, spent = score_all(self.game, self.table, mine, theirs)
        marks, size = (mine | theirs).bit_count(), self.board.cells
        moves = tuple(
            move_proof(c, s, s, marks, size, None, self.game.big) for c, s in zip(cells, scores, strict=True)
        )
        depth = spent.depth + 1 if spent.nodes else 0  # the searches start below the moves
        closed_by = {Prover.ALPHA_BETA.value: len(moves)} if moves else {}
        return SearchReport(
            moves, spent.nodes, monotonic() - started, depth, spent.cutoffs, spent.tt_hits, closed_by
        )
