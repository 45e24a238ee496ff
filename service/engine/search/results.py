"""The moves' results proven by the provers beside alpha-beta, before it runs: the step of an analysis
that asks the proof-number search (with its pairings and threat sequences) whether either side can
force a line.

Two questions about the position itself settle most moves at once, by the rule that a mark of one's own
never hurts (normal rule, no gravity):
- the side to move cannot force a line: no move of it wins (each at most a draw);
- the other side cannot force a line even if the side to move passes: no move of the side to move loses
  (each at least a draw).
Both: every move draws, and a draw's remoteness is the filled board, so the moves are exact. Where one
of them is proven (or not settled), each move left open gets its own questions: after the move, can the
mover force a line (it wins), can the other side (it loses)? A win or a loss proven here gets its
remoteness from alpha-beta afterwards, as before.
"""

from __future__ import annotations

from .budget import Spending
from .native import BIG, Game
from .proof_number import Prover, Question, ask, thread_table

Bounds = tuple[int, int]  # on a score, for the side that plays the move
# The questions about the position itself each get at most this share of what is left: when they are
# not settled by then, the moves' own questions (smaller) get the rest.
ROOT_SHARE = 0.25


def result_known(lower: int, upper: int) -> bool:
    return lower >= 1 or upper <= -1 or (lower >= 0 and upper <= 0)


class ResultProver:
    """One analysis's use of the provers: narrows `bounds` (cell -> score bounds of the side that plays
    it) in place and records which prover settled each move's result in `closed_by` (cell -> prover)."""

    def __init__(
        self,
        game: Game,
        cells: int,
        mine: int,
        theirs: int,
        bounds: dict[int, Bounds],
        closed_by: dict[int, str],
    ) -> None:
        self.game, self.mine, self.theirs = game, mine, theirs
        self.bounds, self.closed_by = bounds, closed_by
        self.win = BIG - cells  # the least score of a win: its last mark is at most the cells-th
        self.table = thread_table()

    def run(self, spending: Spending) -> None:
        open_cells = self._open()
        if not open_cells:
            return
        mine, theirs = self.mine, self.theirs
        wins = self._ask(mine, theirs, True, spending.part(ROOT_SHARE))
        if wins.outcome == -1:
            self._narrow(open_cells, None, 0, wins.prover)
        losses = self._ask(theirs, mine, True, spending.part(ROOT_SHARE))
        if losses.outcome == -1:
            self._narrow(self._open(), 0, None, losses.prover)
        if spending.spent:
            return
        # Each move left open: an even share of what is left, then what the others did not spend.
        open_cells = self._open()
        for i, cell in enumerate(open_cells):
            if spending.spent:
                return
            part = spending.part(1 / (len(open_cells) - i))
            lower, upper = self.bounds[cell]
            after = mine | 1 << cell
            if upper > 0 and wins.outcome != -1:
                won = self._ask(after, theirs, False, part)
                if won.outcome == 1:
                    self._narrow([cell], self.win, None, won.prover)
                elif won.outcome == -1:
                    self._narrow([cell], None, 0, won.prover)
            lower, upper = self.bounds[cell]
            if lower < 0 and not result_known(lower, upper):
                lost = self._ask(theirs, after, True, part)
                if lost.outcome == 1:
                    self._narrow([cell], None, -self.win, lost.prover)
                elif lost.outcome == -1:
                    self._narrow([cell], 0, None, lost.prover)

    def _open(self) -> list[int]:
        return [cell for cell, bounds in self.bounds.items() if not result_known(*bounds)]

    def _ask(self, attacker: int, defender: int, attacker_to_move: bool, spending: Spending) -> Question:
        if spending.spent:
            return Question(0, 0, 0, 0, 0.0, 0, 0, True, Prover.PROOF_NUMBER)
        question = ask(self.game, self.table, attacker, defender, attacker_to_move, spending.share())
        spending.charge(question)
        return question

    def _narrow(self, cells: list[int], lower: int | None, upper: int | None, prover: Prover) -> None:
        """Raise each cell's lower bound to `lower` and lower its upper bound to `upper` (None: as it is)."""
        for cell in cells:
            before = self.bounds[cell]
            after = (
                before[0] if lower is None else max(before[0], lower),
                before[1] if upper is None else min(before[1], upper),
            )
            if result_known(*after) and not result_known(*before):
                self.closed_by[cell] = prover.value
            self.bounds[cell] = after
