"""The one place that decides where an answer comes from: the variant's table when one answers now (the
tables' supply rule), else an opening book (every move of a board's first plies, `books.source`), else
the positions proven before (the store beside the tables, or one that many hosts share), else a search
within the caller's budget, whose proofs are then kept for next time. Callers do not care which; the
answer says which. A book's answer that a proof kept in the store contradicts is not served: the proof
wins.

The search and the store's reads and writes go through `offload`, with which the service runs them on a
real thread (see the serving layer): the compiled core lets go of the interpreter and the store waits
there, so neither holds a worker's other requests. The table and the slots are the caller's. At most
`slots` searches run at once per process, each with its own transposition table (reused from one search
to the next: it clears itself for another board). A budget bounds the whole answer: what the store, the
wait for a slot and the way to a thread took comes out of it, and a request waits for a slot at most a
small share of it.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Callable, Iterator
from dataclasses import replace
from functools import partial
from typing import Protocol, TypeVar

from .answer import Answer, GameAnswers, Source
from .books.source import Books, contradicted
from .errors import SearchBusyError, TableChangedError
from .games import exact_values, game_of
from .play.mainline import MainLine, main_line, proven_line
from .rules.game import GamePosition
from .rules.known_move import KnownMove
from .rules.position import Position
from .rules.values import Value
from .rules.variants import Variant
from .search import Budget, Cancel, Deadline, Searcher
from .search.fours_proofs import WIN, FoursClaims, fours_claims, narrowed_by_proof
from .search.fours_proofs import applies as fours_apply
from .search.narrowing import ends_after_a_win, search_provers, trees_alone
from .search.native import DEFAULT_TABLE_BITS, TranspositionTable, monotonic
from .search.proof_families import DEFAULT_PROVER_THREADS, checked_prover_threads
from .search.proof_number import applies as proof_number_applies
from .search.proven_record import BOOK, SEARCH, Origin
from .search.proven_store import ProvenStore
from .search.renju_answers import freestyle, renju_moves, renju_win
from .search.report import SearchReport
from .search.threes import threes_win
from .search.win_tree import WinTree
from .slots import FairSlots, Lease
from .tables.table import Table

TableFor = Callable[[Variant], Table | None]  # the table that answers a variant now, if any
Tables = tuple[TranspositionTable, TranspositionTable | None]  # a searcher's own, and its second thread's
T = TypeVar("T")
# Of its budget, the most a search waits for a slot before SearchBusyError: all of it, first come first
# served, but a search that no slot can come to within its budget (every one held past its end) waits a
# tenth of it only (SearcherPool). A tenth for all, as before, turned away searches a slot would come to:
# gunicorn's workers take connections as they come, not by their free slots, and with 4 clients on 2
# workers of 2 slots, 44 % of 300 ms searches answered 503 when one worker got three of them.
SLOT_WAIT_SHARE = 1.0
# Of its wait, the most a search waits for a slot that, by what the searches holding them say, comes
# too late: a holder may end sooner (its answer proven, its client gone).
HOPELESS_WAIT_SHARE = 0.1
# Seconds a search holding a slot may take past its budget (its last nodes, its answer's making): a
# waiter waits that much longer, so that a slot freed just past the holder's budget still reaches it.
# The answers' goal is their budget plus 50 ms (deployment.md): 20 ms turned waiters away on a busy
# 2-core host while their holders were still within that goal.
SLOT_OVERRUN = 0.05
# On boards of five in a row, continuous fours (search/fours_proofs.py) take at most this share of what is
# left of a request's budget before the search, or FOURS_SECONDS with no time limit.
FOURS_SHARE = 0.25
FOURS_SECONDS = 5.0
# Under renju (and exactly five on boards where no tree is asked), the plain search of threes
# (search/threes.py) takes at most this share of what is left after the fours, or THREES_SECONDS.
THREES_SHARE = 0.3
# Under renju, the share of what is left after the fours that the core's trees checked under the rules
# (renju_answers.renju_win) may take before the plain search: within a second they proved 68 of the 90
# public puzzles won in three moves, the plain search 43 (tests/bench/gomoku_puzzles.py).
RENJU_TREES_SHARE = 0.85
THREES_SECONDS = 5.0


class Offload(Protocol):
    """Runs `work` (a search, or the store's I/O) and gives its result; `cancel`, if given, is set when
    the answer is no longer wanted (its client went away), which stops a search."""

    def __call__(self, work: Callable[[], T], cancel: Cancel | None = None) -> T: ...


def on_this_thread(work: Callable[[], T], cancel: Cancel | None = None) -> T:
    return work()


log = logging.getLogger(__name__)


class SearcherPool:
    """`slots` transposition tables, lent one per search (two with two threads: the second for the
    second thread's alpha-beta searches), first come first served (`FairSlots`): a borrower waits at
    most `wait` seconds, and a tenth of that when every slot is held past it (each borrower holds its
    slot for its `wait` at most: a search's budget). `slot()` holds one without its tables.

    Its tables and its slots are made in the process that first searches, not where the pool is made:
    a server made before it forks its workers (and before gevent patches them) gives each worker its own,
    and a waiting request then waits as a greenlet, not as the whole worker."""

    def __init__(
        self, slots: int, table_bits: int = DEFAULT_TABLE_BITS, prover_threads: int = DEFAULT_PROVER_THREADS
    ) -> None:
        self.slots, self._table_bits = slots, table_bits
        self.prover_threads = checked_prover_threads(prover_threads)  # at start, not at each search
        self._owner = -1
        self._free: list[Tables] = []
        self._made = 0  # tables made in this process: warm() makes the rest of `slots`, no more
        self._available = FairSlots(slots)

    def for_this_process(self) -> None:
        """Make this process's slots (and forget a parent's tables): a gevent worker's must be made on
        its own event loop, after the patching, so the server calls this there before warm()."""
        if self._owner != os.getpid():
            self._owner, self._free, self._made = os.getpid(), [], 0
            self._available = FairSlots(self.slots)

    def _tables(self) -> Tables:
        self._made += 1
        second = TranspositionTable(self._table_bits) if self.prover_threads > 1 else None
        return TranspositionTable(self._table_bits), second

    def warm(self) -> None:
        """Make every slot's tables now, not in its first searches' budgets: a 32 MB table takes tens of
        milliseconds to map and fill (hundreds on a busy host), which is why a server runs this before
        a worker takes its first request."""
        self.for_this_process()
        while self._made < self.slots:
            self._free.append(self._tables())

    @contextlib.contextmanager
    def slot(self, wait: float | None) -> Iterator[None]:
        """One of the slots, held for the block: SearchBusyError when none comes within `wait`."""
        self.for_this_process()
        available = self._available
        hopeless = 0.0 if wait is None else wait * HOPELESS_WAIT_SHARE
        longest = None if wait is None else wait + SLOT_OVERRUN
        lease: Lease | None = available.acquire(longest, holds=longest, hopeless=hopeless)
        if lease is None:
            raise SearchBusyError(f"all {self.slots} search slots of this worker stay busy past the budget")
        try:
            yield
        finally:
            available.release(lease)

    @contextlib.contextmanager
    def searcher(self, variant: Variant, wait: float | None) -> Iterator[Searcher]:
        with self.slot(wait):
            # No lock around the list: the slots let at most `slots` borrowers in, and a list's pop and
            # append are atomic (a warm() beside them makes one table too many at worst).
            tables = self._free.pop() if self._free else self._tables()
            table, second = tables
            try:
                threads = self.prover_threads
                yield Searcher(variant, table=table, prover_threads=threads, second_table=second)
            finally:
                self._free.append(tables)


class Analyst:
    def __init__(
        self,
        table_for: TableFor,
        proven: ProvenStore | None,
        pool: SearcherPool,
        offload: Offload = on_this_thread,
        books: Books | None = None,
    ) -> None:
        self.table_for, self.proven, self.pool, self.offload = table_for, proven, pool, offload
        self.books = books

    def analyze(self, position: GamePosition, budget: Budget, search_only: bool = False) -> Answer:
        """Every legal move's value as far as it is known or can be proven within `budget`;
        `search_only`: from the search even where a table or a stored proof answers (comparisons). A
        game's table solved whole answers it; a board's sources answer a board."""
        started = monotonic()
        game = game_of(position)
        if game.whole_table is not None:
            return Answer.of_table(game.whole_table().lookup(position))
        if game.board is None:
            raise ValueError(f"no source answers {game.name}: it has neither a whole table nor a board")
        return self._analyze_board(game.board(position), budget, started, search_only)

    def _analyze_board(self, position: Position, budget: Budget, started: float, search_only: bool) -> Answer:
        if position.variant.renju:  # no table, book, stored proof or search knows forbidden points
            return self._renju(position, budget, started)
        if not search_only:
            table = self.table_for(position.variant)
            if table is not None:
                # A file written into since its check: the other sources answer while it is checked again.
                with contextlib.suppress(TableChangedError):
                    return Answer.of_table(table.lookup(position))
            booked = self._booked(position)
            if booked is not None:
                return Answer.of_proofs(position, booked, Source.BOOK)
        known = None
        if self.proven is not None and not position.is_over and not search_only:
            known = self.offload(partial(self.proven.get, position))
        if known is not None and known.exact:
            proofs = [KnownMove(m.cell, m.lower, m.upper, m.remoteness) for m in known.moves]
            source = Source.BOOK if known.origin.door == BOOK else Source.CACHE
            return Answer.of_proofs(position, proofs, source)
        return self._search(position, budget, started, known.moves if known else ())

    def exact_values(self, position: GamePosition) -> Callable[[GamePosition], Value] | None:
        """The exact values of the positions of `position`'s game from its table, if one answers now
        (a game tree's values); None when only a search could say."""
        return exact_values(position, self.table_for)

    def _booked(self, position: Position) -> list[KnownMove] | None:
        """Every move's value from a book. The book wins over a record of the store that contradicts it
        (books are checked against proofs when built; a record may come from anywhere): the record is
        dropped, and the contradiction logged."""
        moves = None if self.books is None else self.books.moves(position)
        if moves is None or self.proven is None:
            return moves
        proven = self.proven
        kept = self.offload(partial(proven.get, position))
        if kept is not None and contradicted(moves, kept.moves):
            log.error(
                "a stored proof (%s) contradicts the %s book at %s: the record is dropped",
                kept.origin.text,
                position.variant.name,
                position.cells,
            )
            self.offload(partial(proven.drop, position))
        return moves

    def answers(self, deadline: Deadline, search_only: bool = False) -> GameAnswers:
        """Answers for positions asked one after another (a review, a main line, a batch), all within
        what is left of one `deadline`."""
        return lambda position: self.analyze(position, deadline.budget(), search_only)

    def main_line(self, first: Answer, answers: GameAnswers) -> MainLine | None:
        """How the game goes on from `first`'s position under perfect play: from the table that gave
        `first`, else through `answers` as long as every position on the way is proven (else None)."""
        as_board = game_of(first.position).board
        if as_board is not None and first.source is Source.TABLE:
            board = as_board(first.position)
            table = self.table_for(board.variant)
            if table is not None:
                return main_line(table, board)
        return proven_line(answers, first.position, first) if first.exact else None

    def _search(
        self, position: Position, budget: Budget, started: float, known: tuple[KnownMove, ...]
    ) -> Answer:
        wait = None if budget.seconds is None else budget.seconds * SLOT_WAIT_SHARE
        with self.pool.searcher(position.variant, wait) as searcher:

            def search() -> Answer:
                # Estimates always: they rank the moves left unproven, so that the best guess is a guess,
                # not the lowest cell; the answer shows them only to a caller who asks.
                claims = _fours(position, budget, started)
                plain_tree = _threes(position, budget, started, claims)
                won = (bool(claims.line) or plain_tree is not None) and ends_after_a_win(position.variant)
                found = searcher.analyze(position, _left(budget, started), estimates=True, won=won)
                proofs = _with_known(found.moves, known)
                if self.proven is not None and found.nodes:  # else only the moves that end the game: cheap
                    origin = Origin.of(SEARCH, search_provers(position.variant))
                    self.proven.put(position, proofs, origin)
                tree = None if claims.line else plain_tree or found.tree
                answer = _searched(position, _with_tree(claims.narrow(proofs), tree), found)
                return _with_line(replace(answer, tree=tree), claims)

            return self.offload(search, budget.cancel)

    def _renju(self, position: Position, budget: Budget, started: float) -> Answer:
        """A renju position: proofs from the rules alone (renju_answers.py), and the search's word on the
        same stones under freestyle rules as the other moves' guesses; nothing is stored."""
        proofs = self.offload(partial(renju_moves, position))
        board = freestyle(position)
        if all(m.lower == m.upper for m in proofs) or board.is_over:
            return Answer.of_proofs(position, proofs, Source.SEARCH)
        wait = None if budget.seconds is None else budget.seconds * SLOT_WAIT_SHARE
        with self.pool.searcher(board.variant, wait) as searcher:

            def search() -> Answer:
                claims = _fours(position, budget, started)
                tree = _threes(position, budget, started, claims)
                won = (bool(claims.line) or tree is not None) and ends_after_a_win(position.variant)
                found = searcher.analyze(board, _left(budget, started), estimates=True, won=won)
                # what closed the freestyle moves proves nothing here: not reported
                proofs = _with_tree(claims.narrow(renju_moves(position, found.moves)), tree)
                answer = _searched(position, proofs, found, closed_by=False)
                return _with_line(replace(answer, tree=tree), claims)

            return self.offload(search, budget.cancel)


def _searched(
    position: Position, proofs: list[KnownMove], found: SearchReport, closed_by: bool = True
) -> Answer:
    """The search's answer, its moves ranked: called off the caller's event loop (`Analyst.offload`),
    since ranking by shapes takes milliseconds."""
    return Answer.of_proofs(
        position,
        proofs,
        Source.SEARCH,
        found.nodes,
        found.seconds,
        found.depth,
        found.cutoffs,
        found.tt_hits,
        found.closed_by if closed_by else None,
    )


def _fours(position: Position, budget: Budget, started: float) -> FoursClaims:
    """On boards of five in a row, what continuous fours prove (fours_proofs.py), within FOURS_SHARE of
    what is left of the budget (FOURS_SECONDS with no time limit): run before the search, which takes the
    rest. Their median on public puzzles is some 40 ms; the search alone found none of their losses."""
    if not fours_apply(position):
        return FoursClaims()
    left = _left(budget, started).seconds
    return fours_claims(position, monotonic() + (FOURS_SECONDS if left is None else left * FOURS_SHARE))


def _threes(position: Position, budget: Budget, started: float, claims: FoursClaims) -> WinTree | None:
    """Where neither the compiled provers nor their trees alone are asked (renju, and exactly five on
    boards the trees leave to alpha-beta), the side to move's win by threes and fours (search/threes.py),
    when the fours found none, within THREES_SHARE of what is left of the budget (THREES_SECONDS with no
    time limit). Under renju the core's trees checked under the rules (renju_answers.py, `renju_win`)
    take RENJU_TREES_SHARE of what is left: before the plain search where black attacks, after it where
    white does (white's wins that rest on black's forbidden points are the plain search's alone)."""
    variant = position.variant
    if claims.line or not fours_apply(position) or proof_number_applies(variant) or trees_alone(variant):
        return None
    searches: list[tuple[Callable[[Position, float], WinTree | None], float]] = [(threes_win, THREES_SHARE)]
    if variant.renju:
        trees = (renju_win, RENJU_TREES_SHARE)
        searches = [trees, *searches] if position.to_move is position.first else [*searches, trees]
    for search, share in searches:
        left = _left(budget, started).seconds
        found = search(position, monotonic() + (THREES_SECONDS if left is None else left * share))
        if found is not None:
            return found
    return None


def _with_line(answer: Answer, claims: FoursClaims) -> Answer:
    """The answer with the certificate of its win by fours, if one was found."""
    return replace(answer, line=claims.line) if claims.line else answer


def _with_tree(moves: list[KnownMove], tree: WinTree | None) -> list[KnownMove]:
    """`moves` with the first move of the certificate of a win by threes proven a win within its plies."""
    if tree is None:
        return moves
    return [narrowed_by_proof(move, WIN, tree.plies) if move.cell == tree.move else move for move in moves]


def _left(budget: Budget, started: float) -> Budget:
    """What is left of `budget`, given at `started`."""
    if budget.seconds is None:
        return budget
    return Budget(max(0.0, budget.seconds - (monotonic() - started)), budget.nodes, budget.cancel)


def _with_known(found: tuple[KnownMove, ...], known: tuple[KnownMove, ...]) -> list[KnownMove]:
    """Each move's bounds from this search, tightened by what was proven before."""
    before = {m.cell: m for m in known}
    out = []
    for move in found:
        old = before.get(move.cell)
        if old is None:
            out.append(move)
            continue
        remoteness = move.remoteness if move.remoteness is not None else old.remoteness
        lower, upper = max(move.lower, old.lower), min(move.upper, old.upper)
        out.append(KnownMove(move.cell, lower, upper, remoteness if lower == upper else None, move.estimate))
    return out
