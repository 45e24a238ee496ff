"""One analysis of one position (searcher.py's Searcher.analyze): every legal move's result proven
first (the provers first where they lead, then alpha-beta), then the remoteness of the won and lost
ones, then, if asked, heuristic estimates of the moves left unproven; each step with its share of what
is left of the budget, and one move per class of moves a symmetry of the position maps onto each other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..rules.geometry import iter_cells
from ..rules.known_move import Estimate, KnownMove
from ..rules.variants import Variant
from .board import Board
from .budget import Spending
from .estimates import common_depth_estimates
from .native import GOAL_RESULT, GOAL_SCORE, prove_moves, score_moves, threats
from .proof_number import Prover, applies
from .report import SearchReport, move_proof
from .results import ResultProver, result_known
from .root_trees import TREES_FROM_CELLS
from .root_trees import applies as trees_apply
from .second_thread import second_thread
from .tactics import threat_moves
from .win_tree import WinTree, certifier

if TYPE_CHECKING:
    from .searcher import Searcher

Bounds = tuple[int, int]  # on a score, for the side that plays the move
# When estimates are asked for: the results get this share of the budget, the estimates their nodes
# (see estimates.py), the remoteness what is left.
RESULTS_SHARE_WITH_ESTIMATES = 0.7
# ... and where the provers lead, this share: their answers are mostly draws, which need no remoteness,
# and the estimates are made of the moves left unproven only (none when the answer is exact). 0.9, was
# 0.7: 7x7k5 exact after 4/8/12 plies 23/22/24 of 30 against 20/22/23 (tests/bench/provers_ab.py).
PROVERS_RESULTS_SHARE_WITH_ESTIMATES = 0.9
# Where the provers apply (results.py) and lead, they get this share of the results' budget first;
# alpha-beta gets what they leave. They lead on boards whose lines are five long or longer. Measured
# (tests/bench/provers_bench.py, docs/notes/provers-rounds.md): after 4, 8 and 12 random plies of 6x6k5 they
# make 30 of 30 positions exact in the default second, alpha-beta alone 1; with four in a row (5x5k4,
# 6x6k4) they made no position exact that alpha-beta alone did not, and slowed it (6x6k4 after 4 plies:
# median 0.46 s against 0.13 s); the proof-number search does not prove 6,6,4 in 30 s, alpha-beta at once.
# 0.9, was 0.5: with the proof zones (core/zones.c) most 7x7k5 positions after 4 plies the provers
# miss need 0.4-0.9 s in all; at 0.9, 19 and 17 of 30 exact against 13 (after 8 and 12 plies 22 / 21 and
# 23 / 23; 6x6k5 30 of 30 each either way): tests/bench/provers_ab.py --shares, docs/notes/provers-rounds.md.
PROVERS_SHARE = 0.9
PROVERS_LEAD_K = 5
# On boards of more than WON_FROM_CELLS cells, once a move of the side to move is proven to win, the
# analysis ends at most WON_EXTRA_SHARE of its time later. There the other moves stay mostly unproven
# whatever the time (no 15x15 answer is exact within a request's budget), and the win is what a player
# asks for: on 80 public puzzles won by fours, a budget of 100 ms proved all 80 wins, and 1 s proved the
# puzzle's own first move among them once more. Smaller boards go on: their answers often become exact.
WON_FROM_CELLS = 64
WON_EXTRA_SHARE = 0.1


def ends_after_a_win(variant: Variant) -> bool:
    """Whether an analysis of `variant` ends soon after the side to move's win is proven."""
    return variant.cells > WON_FROM_CELLS


def provers_share(variant: Variant) -> float:
    """The share of the results' budget the provers get first on `variant` (0: alpha-beta alone)."""
    return PROVERS_SHARE if applies(variant) and variant.k >= PROVERS_LEAD_K else 0.0


def trees_alone(variant: Variant) -> bool:
    """Whether an analysis of `variant` asks the root's trees of threes (root_trees.py) and no other
    prover: where the trees hold and the proof-number search does not (exactly k), on boards of five in
    a row past TREES_FROM_CELLS cells, as where the provers lead."""
    return (
        not provers_share(variant)
        and trees_apply(variant)
        and variant.k >= PROVERS_LEAD_K
        and variant.cells > TREES_FROM_CELLS
    )


def search_provers(variant: Variant) -> frozenset[Prover]:
    """The provers whose results an analysis of `variant` may hold: alpha-beta, and where they lead,
    the proof-number search with its pairings and threat sequences; where the trees alone are asked,
    their threat sequences."""
    if trees_alone(variant):
        return frozenset({Prover.ALPHA_BETA, Prover.THREAT_SPACE})
    if not provers_share(variant):
        return frozenset({Prover.ALPHA_BETA})
    return frozenset({Prover.ALPHA_BETA, Prover.PROOF_NUMBER, Prover.PAIRING, Prover.THREAT_SPACE})


class Narrowing:
    """One analysis: the bounds of each class's representative move, narrowed step by step."""

    def __init__(
        self, searcher: Searcher, mine: int, theirs: int, spending: Spending, won: bool = False
    ) -> None:
        """`won`: a win of the side to move is proven already (Searcher.analyze)."""
        self.searcher, self.board = searcher, searcher.board
        self.mine, self.theirs, self.spending = mine, theirs, spending
        self.marks = (mine | theirs).bit_count()
        over = self.board.is_over(mine, theirs)
        self.classes = {} if over else move_classes(self.board, mine, theirs)
        self.bounds: dict[int, Bounds] = {}
        self.estimates: dict[int, Estimate] = {}
        self.closed_by: dict[int, str] = {}  # a move's cell -> the prover that proved its result
        self.certificate: WinTree | None = None  # of the side to move's win by threes (win_tree.py)
        if won:
            self._won()

    def run(self, remoteness: bool, estimate_budget: int) -> SearchReport:
        """`estimate_budget`: the nodes the estimates of the moves left unproven may spend (0: none)."""
        spending = self.spending
        estimates = estimate_budget > 0
        if remoteness and not estimates and spending.unlimited:
            # Nothing to share out: the exact scores in one call (near the end, the calls and the Python
            # around them cost more than the searches).
            cells = sorted(self.classes)
            scores, spent = score_moves(
                self.searcher.game, self.searcher.table, self.mine, self.theirs, cells
            )
            spending.charge(spent)
            self.bounds = {cell: (score, score) for cell, score in zip(cells, scores, strict=True)}
            self.closed_by = dict.fromkeys(cells, Prover.ALPHA_BETA.value)
            return self._analysis()
        wins = threats(self.searcher.game, self.mine, self.theirs) if self.classes else 0
        lost = self._lost_in_two(wins)
        self.bounds = {cell: self._settled(cell, wins, lost) for cell in self.classes}
        self._end_if_won()
        share = provers_share(self.board.variant)
        with_estimates = PROVERS_RESULTS_SHARE_WITH_ESTIMATES if share else RESULTS_SHARE_WITH_ESTIMATES
        results = spending.part(with_estimates) if estimates else spending
        if share:
            prover = self._result_prover()
            prover.run(results.part(share))
            self.certificate = prover.certificate
        elif trees_alone(self.board.variant):
            # The whole provers' share: no proof-number search follows. With the provers' trees' share
            # (TREES_SHARE of it) 71 of the 90 public puzzles won in three moves were proven under
            # exactly five (tests/bench/gomoku_puzzles.py, 1 s), with this 74, as many as under five or more.
            prover = self._result_prover()
            prover.run_trees(results.part(PROVERS_SHARE))
            self.certificate = prover.certificate
        self._narrow(GOAL_RESULT, self._unproven(), results)
        self._end_if_won()
        unproven = self._unproven()
        if estimates and unproven:
            self.estimates = common_depth_estimates(
                self.searcher.game,
                self.searcher.estimates_table(),
                self.mine,
                self.theirs,
                unproven,
                self.board.cells - self.marks - 1,
                estimate_budget,
                spending,  # their nodes bind first (the deadline is a safety), the rest is the remoteness'
            )
        if remoteness:  # of won moves first: the fastest win is the answer most callers want
            known = [cell for cell in self.classes if result_known(*self.bounds[cell])]
            self._narrow(GOAL_SCORE, sorted(known, key=lambda cell: self.bounds[cell][0] < 0), spending)
        return self._analysis()

    def _result_prover(self) -> ResultProver:
        """The provers' step of this analysis (results.py), on its bounds."""
        searcher, variant = self.searcher, self.board.variant
        return ResultProver(
            searcher.game,
            self.board.cells,
            self.mine,
            self.theirs,
            self.bounds,
            self.closed_by,
            searcher.prover_threads,
            threat_moves(self.board.lines, variant.k, self.mine, self.theirs, self.classes),
            certifier(variant),
            self._won,
        )

    def _won(self) -> None:
        """A move of the side to move is proven to win: the analysis ends soon where ends_after_a_win."""
        if ends_after_a_win(self.board.variant):
            self.spending.end_early(WON_EXTRA_SHARE)

    def _end_if_won(self) -> None:
        """`_won` when a move is proven to win (one that completes a line among them)."""
        if any(lower >= 1 for lower, _ in self.bounds.values()):
            self._won()

    def _unproven(self) -> list[int]:
        return [cell for cell in self.classes if not result_known(*self.bounds[cell])]

    def _lost_in_two(self, wins: int) -> int:
        """The moves after which the opponent completes a line at once (the normal rule): all but a
        winning one when the opponent has two cells to complete one on, all but the block when it has one.
        On gomoku's boards a four or an open four is common, and without this each such move cost the
        search a question: 15x15's 218 moves after an open four took 634 nodes, more than a quarter
        second of budget gave a cold search."""
        if not self.classes or self.board.variant.misere:
            return 0
        board, occupied = self.board, self.mine | self.theirs
        # A cell playable now stays playable after one move elsewhere, under gravity too.
        theirs = threats(self.searcher.game, self.theirs, self.mine) & board.playable(occupied)
        if not theirs:
            return 0
        lost = board.playable(occupied) & ~wins
        return lost & ~theirs if theirs.bit_count() == 1 else lost

    def _settled(self, cell: int, wins: int, lost: int) -> Bounds:
        """The score of a move that ends the game (`wins`: the moves that complete a line) or after
        which the opponent does (`lost`), else nothing known."""
        game = self.searcher.game
        if wins >> cell & 1:
            score = game.big - (self.marks + 1)
            return (-score, -score) if self.board.variant.misere else (score, score)
        if (self.mine | self.theirs | 1 << cell) == self.board.full:
            return (0, 0)
        if lost >> cell & 1:
            score = -(game.big - (self.marks + 2))
            return (score, score)
        return (game.score_min, game.score_max)

    def _narrow(self, goal: int, cells: list[int], spending: Spending) -> None:
        """Narrow each cell's bounds toward `goal`, in one call to the core, which shares the budget out
        as it goes: first each move an even share (so that one hard move cannot starve the others),
        then each all that is left in turn."""
        moves = {cell: self.bounds[cell] for cell in cells if not _met(goal, *self.bounds[cell])}
        if not moves or spending.spent:
            return
        searcher = self.searcher
        empty = searcher.board.cells - self.marks
        second = second_thread(searcher.second_table, empty) if searcher.prover_threads > 1 else None
        bounds, spent = prove_moves(
            searcher.game, searcher.table, self.mine, self.theirs, moves, goal, spending.share(), second
        )
        spending.charge(spent)
        for cell, (lower, upper) in bounds.items():
            if result_known(lower, upper) and not result_known(*self.bounds[cell]):
                self.closed_by[cell] = Prover.ALPHA_BETA.value
        self.bounds.update(bounds)

    def _analysis(self) -> SearchReport:
        moves: list[KnownMove] = []
        closed_by: dict[str, int] = {}
        for representative, members in self.classes.items():
            prover = self.closed_by.get(representative)
            if prover is not None:
                closed_by[prover] = closed_by.get(prover, 0) + len(members)
            lower, upper = self.bounds[representative]
            estimate, big = self.estimates.get(representative), self.searcher.game.big
            proof = move_proof(representative, lower, upper, self.marks, self.board.cells, estimate, big)
            moves += [proof._replace(cell=cell) if cell != representative else proof for cell in members]
        if len(moves) > len(self.classes):  # else the classes came in the order of their cells
            moves.sort(key=lambda move: move.cell)
        spending = self.spending
        depth = spending.depth + 1 if spending.nodes else 0  # the searches start below the moves
        return SearchReport(
            tuple(moves),
            spending.nodes,
            spending.elapsed,
            depth,
            spending.cutoffs,
            spending.tt_hits,
            closed_by,
            self.certificate,
        )


def _met(goal: int, lower: int, upper: int) -> bool:
    return lower == upper or (goal == GOAL_RESULT and result_known(lower, upper))


def move_classes(board: Board, mine: int, theirs: int) -> dict[int, list[int]]:
    """The legal moves grouped by the symmetries that fix the position (their images have equal
    values), each class under its lowest cell."""
    fixing = board.fixing(mine, theirs)
    if not fixing:  # most positions: every move is a class of its own
        return {cell: [cell] for cell in iter_cells(board.playable(mine | theirs))}
    classes: dict[int, list[int]] = {}
    seen: set[int] = set()
    for cell in iter_cells(board.playable(mine | theirs)):
        if cell not in seen:
            orbit = sorted({cell} | {s[cell] for s in fixing})
            seen.update(orbit)
            classes[cell] = orbit
    return classes
