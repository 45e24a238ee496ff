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
every position the passing question disproved settles the same position with m in it at once (core/dfpn.c,
`inherited()`). So the questions about the position get most of the budget (ROOT_SHARE) even when they
are not settled. The moves' questions then go in rounds (each a share of what is left, spread evenly
over the questions still open), so that no hard question takes what the others needed before they were
asked; a question asked again goes on from the table's entries. Measured on 30 random 7x7k5 positions
after 4, 8 and 12 plies (docs/notes/provers-rounds.md): exact within the default second 13, 20 and 23 instead
of 5, 13 and 17.

With two threads (`threads`, the service's PROVER_THREADS), the questions fall into two families that
share a table within, and nothing across: the win family (the position's question whether the side to
move forces a line, and each move's, a child of it) on this thread's table, and the loss family (the
passing question and the moves' questions, which inherit its disproofs) on a second table, on a helper
thread of the core (proof_families.py). Each family runs by the rules above on its own thread, with the
whole budget's time; a move one family proves won or lost, the other no longer asks about. Most often
one family is settled at once (its first question disproven in a hundredth of a second) and the other's
first question takes the time: the free thread then asks that question's moves one by one on its own
table, and the question's search takes their answers in at its root (core/threads.c, dfpn.c). After
that, the free thread joins the other family's moves' questions, from the end of their list (each
question stays with the thread that first asked it, on that thread's table): a family whose first
question is proven at once (the other side wins if the side to move passes) no longer has its moves
asked on one thread while the other idles.
"""

from __future__ import annotations

from collections.abc import Callable

from .budget import Spending
from .native import NO_MOVE, Game, Limits, monotonic
from .proof_families import Ask, prove_families
from .proof_number import Prover, Question, ask, thread_table
from .root_trees import TREES_FROM_CELLS, TREES_SHARE, WIN_TREE_SHARE, deepened_tree
from .second_thread import Helper, thread_helper
from .tactics import ask_threats_first
from .win_tree import Certify, WinTree

Bounds = tuple[int, int]  # on a score, for the side that plays the move
# The questions about the position itself each get at most this share of what is left: when they are
# not settled by then, the moves' own questions get the rest, and inherit what these disproved (0.25
# before: on the bench's 7x7k5 positions 11, 17 and 20 of 30 exact against 13, 21 and 23 with 0.8).
ROOT_SHARE = 0.8
# The moves' questions go in rounds, each taking this share of what is left (the last all of it).
ROUND_SHARE = 0.5
# Seconds the certificate of a tree found may take past the trees' share: a tree of a few nodes is read
# back in a millisecond or two, and a busy host had spent the share on finding it.
CERTIFICATE_FLOOR = 0.02


def result_known(lower: int, upper: int) -> bool:
    return lower >= 1 or upper <= -1 or (lower >= 0 and upper <= 0)


class ResultProver:
    """One analysis's use of the provers: narrows `bounds` (cell -> score bounds of the side that plays
    it) in place and records which prover settled each move's result in `closed_by` (cell -> prover).
    `threads`: 1, or 2 for the two families at once (when the system makes the helper thread)."""

    def __init__(
        self,
        game: Game,
        cells: int,
        mine: int,
        theirs: int,
        bounds: dict[int, Bounds],
        closed_by: dict[int, str],
        threads: int = 1,
        threat_moves: list[int] | None = None,
        certify: Certify | None = None,
        won: Callable[[], None] | None = None,
    ) -> None:
        """`threat_moves`: the moves that make a threat, best first, asked first (tactics.py); `certify`:
        how to read back the certificate of the side to move's tree of threes (win_tree.py), if at all;
        `won`: called when a move is proven to win (the analysis may end soon after)."""
        self.game, self.mine, self.theirs = game, mine, theirs
        self.bounds, self.closed_by = bounds, closed_by
        self.win = game.big - cells  # the least score of a win: its last mark is at most the cells-th
        self.cells = cells
        self.table = thread_table()
        self.threads = threads
        self.threat_moves = threat_moves or []
        self.certify = certify
        self.certificate: WinTree | None = None  # of the side to move's win by threes, when read back
        self.won = won

    def run(self, spending: Spending) -> None:
        self.run_trees(spending.part(TREES_SHARE))
        if self.threat_moves and self._open():
            ask_threats_first(self.threat_moves, self._ask_win, spending)
        open_cells = self._open()
        if not open_cells:
            return
        helper = thread_helper() if self.threads > 1 else None
        if helper is not None:
            self._run_families(open_cells, helper, spending)
            return
        mine, theirs = self.mine, self.theirs
        wins = self._ask(mine, theirs, True, spending.part(ROOT_SHARE))
        if wins.outcome == -1:
            self._narrow(open_cells, None, 0, wins.prover)
        losses = self._ask(theirs, mine, True, spending.part(ROOT_SHARE))
        if losses.outcome == -1:
            self._narrow(self._open(), 0, None, losses.prover)
        elif losses.outcome == 1:
            self._lost_outside(losses)
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

    def run_trees(self, spending: Spending) -> None:
        """The trees of threes at the root (root_trees.py) alone, on boards of more than TREES_FROM_CELLS
        cells: all that is asked where the trees hold and the proof-number search does not (exactly k)."""
        if self._open() and self.cells > TREES_FROM_CELLS:
            self._trees(spending)

    def _trees(self, spending: Spending) -> None:
        """The trees of threes at the root (root_trees.py): the side to move's first move wins; were it to
        pass, the other side's tree makes every move outside its zone lose."""
        won = deepened_tree(self.game, self.mine, self.theirs, spending.part(WIN_TREE_SHARE))
        if won.first is not None and won.first in self.bounds:
            self._narrow([won.first], self.win, None, Prover.THREAT_SPACE)
            if self.certify is not None:
                deadline = spending.share().deadline
                if deadline:  # a tree found has its certificate, if small, even when the share is spent
                    deadline = max(deadline, monotonic() + CERTIFICATE_FLOOR)
                self.certificate = self.certify(self.game, self.mine, self.theirs, deadline)
        lost = deepened_tree(self.game, self.theirs, self.mine, spending)
        if lost.first is not None:
            outside = [cell for cell in self._open() if not lost.zone >> cell & 1]
            self._narrow(outside, None, -self.win, Prover.THREAT_SPACE)

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

    def _run_families(self, open_cells: list[int], helper: Helper, spending: Spending) -> None:
        """The win family and the loss family at once, then their answers applied as one thread would:
        the position's question first (a disproof settles the whole family), then the moves'."""
        if spending.spent:
            return
        mine, theirs, bounds = self.mine, self.theirs, self.bounds
        wins = [Ask(mine, theirs, True)]
        wins += [Ask(mine | 1 << cell, theirs, False, cell) for cell in open_cells if bounds[cell][1] > 0]
        losses = [Ask(theirs, mine, True)]
        losses += [Ask(theirs, mine | 1 << cell, True, cell) for cell in open_cells if bounds[cell][0] < 0]
        tables = (self.table, thread_table(second=True))
        answers = prove_families(
            self.game, tables, (wins, losses), helper, spending.share(), ROOT_SHARE, ROUND_SHARE
        )
        for won, asks, answered in zip((True, False), (wins, losses), answers, strict=True):
            spending.charge(answered.helping)
            for one, question in zip(asks, answered.answers, strict=True):
                if question is None:
                    continue
                spending.charge(question)
                if one.cell != NO_MOVE:
                    self._apply(one.cell, won, question)
                elif question.outcome == -1:  # no move wins (each at most draws), or none loses
                    self._narrow(self._open(), None if won else 0, 0 if won else None, question.prover)
                elif question.outcome == 1 and not won:
                    self._lost_outside(question)

    def _lost_outside(self, passing: Question) -> None:
        """The other side forces a line even if the side to move passes, by a proof whose zone is
        `passing.zone`: a move outside the zone changes nothing the proof depends on, so it loses. (The
        zone holds two empty cells of every line still open to the side to move, so no move outside it
        threatens to complete a line at once: core/zones.c.)"""
        outside = [cell for cell in self._open() if not passing.zone >> cell & 1]
        self._narrow(outside, None, -self.win, passing.prover)

    def _ask_win(self, cell: int, limits: Limits) -> Question | None:
        """Whether the move wins, within `limits`; None when its result is known or it cannot win."""
        lower, upper = self.bounds[cell]
        if result_known(lower, upper) or upper <= 0:
            return None
        question = ask(self.game, self.table, self.mine | 1 << cell, self.theirs, False, limits)
        self._apply(cell, True, question)
        return question

    def _settle(self, cell: int, won: bool, spending: Spending) -> None:
        """Ask whether the move wins (`won`) or loses, and narrow its bounds by the answer."""
        after = self.mine | 1 << cell
        if won:
            question = self._ask(after, self.theirs, False, spending)
        else:
            question = self._ask(self.theirs, after, True, spending)
        self._apply(cell, won, question)

    def _apply(self, cell: int, won: bool, question: Question) -> None:
        """Narrow the move's bounds by the answer to its question whether it wins (`won`) or loses."""
        if won:
            if question.outcome == 1:
                self._narrow([cell], self.win, None, question.prover)
            elif question.outcome == -1:
                self._narrow([cell], None, 0, question.prover)
        else:
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
                if after[0] >= 1 and self.won is not None:
                    self.won()
            self.bounds[cell] = after
