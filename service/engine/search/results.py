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

The questions share one proof-number table, and through it most of their work: a move's question "after
m, can the other side force a line?" is the passing question with one more mark of the side to move, so
every position the passing question disproved settles the same position with m in it at once (pns.c,
`inherited()`). So the questions about the position get most of the budget (ROOT_SHARE) even when they
are not settled. The moves' questions then go in rounds (each a share of what is left, spread evenly
over the questions still open), so that no hard question takes what the others needed before they were
asked; a question asked again goes on from the table's entries. Measured on 30 random 7x7k5 positions
after 4, 8 and 12 plies (docs/pages/provers.md): exact within the default second 13, 20 and 23 instead
of 5, 13 and 17.
"""

from __future__ import annotations

from .budget import Spending
from .native import BIG, Game
from .proof_number import Prover, Question, ask, thread_table

Bounds = tuple[int, int]  # on a score, for the side that plays the move
# The questions about the position itself each get at most this share of what is left: when they are
# not settled by then, the moves' own questions get the rest, and inherit what these disproved (0.25
# before: on the bench's 7x7k5 positions 11, 17 and 20 of 30 exact against 13, 21 and 23 with 0.8).
ROOT_SHARE = 0.8
# The moves' questions go in rounds, each taking this share of what is left (the last all of it).
ROUND_SHARE = 0.5


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
        # Each move left open: its questions in rounds, each round ROUND_SHARE of what is left shared
        # evenly among the questions still open (what one leaves goes to the next), until all are settled.
        while not spending.spent:
            questions = self._questions(wins.outcome != -1)
            if not questions:
                return
            round_spending = spending if len(questions) == 1 else spending.part(ROUND_SHARE)
            for i, (cell, won) in enumerate(questions):
                if round_spending.spent:
                    break
                if not result_known(*self.bounds[cell]):
                    self._settle(cell, won, round_spending.part(1 / (len(questions) - i)))
            if spending.unlimited:  # each question ran to its end
                return

    def _questions(self, may_win: bool) -> list[tuple[int, bool]]:
        """The questions still open: (cell, True) whether the move wins, (cell, False) whether it loses."""
        questions = []
        for cell in self._open():
            lower, upper = self.bounds[cell]
            if upper > 0 and may_win:
                questions.append((cell, True))
            if lower < 0:
                questions.append((cell, False))
        return questions

    def _settle(self, cell: int, won: bool, spending: Spending) -> None:
        """Ask whether the move wins (`won`) or loses, and narrow its bounds by the answer."""
        after = self.mine | 1 << cell
        if won:
            question = self._ask(after, self.theirs, False, spending)
            if question.outcome == 1:
                self._narrow([cell], self.win, None, question.prover)
            elif question.outcome == -1:
                self._narrow([cell], None, 0, question.prover)
        else:
            question = self._ask(self.theirs, after, True, spending)
            if question.outcome == 1:
                self._narrow([cell], None, -self.win, question.prover)
            elif question.outcome == -1:
                self._narrow([cell], 0, None, question.prover)

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
