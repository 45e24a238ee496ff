"""A long proof, run for hours, stopped and resumed: whether either side can force a line from a position
(the empty 8x8 board with five in a row, proven a draw in 17.4 hours by Hsu, Ko, Chen, Wei, Hsueh and
Wu, 2020), by the proof-number search, split into jobs at the top of the tree.

The side to move cannot force a line when it cannot after any of its moves (one job per move, up to the
symmetries that fix the position). The null move of core/dfpn.c, one level up, can spare most of them:
when the other side, moving first instead, keeps it from a line (the pass, job 0), with a disproof that
depends only on a zone Z of cells, the moves outside Z need no job of their own. Every job runs from the
start (the pass is the first): on an empty board the pass is the other side moving first on an empty
board, no easier than the moves' jobs (on 8x8k5 not settled in 0.07 processor-hours), and its zone
spares little (on 7x7k5, 48 of 49 cells). One of the moves' jobs proven: the side to move can force a
line. The other side's question is the same, with the side to move
passing first (on the empty board it is the same question, and asked once).

Each job gets a slice of time in turn, the easiest finish first; all share one proof-number table. The
jobs' outcomes and the time spent on them are kept in the store (proof_jobs.py) after every slice, the
table every few slices: stopped (Ctrl-C, a signal, the time limit) and started again, a run goes on
where it was. When both questions are disproven the position is a draw, every move of it too, and its
moves go into the cache of proven positions as exact draws: the service answers them at once. When the
side to move is proven to win, its moves proven to win go into the cache as wins (their remoteness not
proven), those proven not to as at most draws; with `every_move` the run goes on after the proof until
each of its moves is settled.

Split deeper (`split_plies` 3, 5, ...), a move's job left open after its slice is replaced by the
question after the defender's reply, the one the slice's search went into last (df-pn's most
promising: the least disproof number), and that question's jobs: the pass and the attacker's moves.
So the work is many small jobs, and how many of them settle in an hour says how far a proof has got
(Hsu et al. split theirs into jobs the same way, at the top of the tree). A reply refuted (the attacker
forces a line after it) is marked so, and the job is split again with another.

Split by every reply (`every_reply`), for a proof of a win: each move's job is replaced from the start
by one job per class of the defender's replies, the attacker to move in each, its moves inside the job's
one search. A win needs every reply refuted and the attacker's one move after each; split at the
attacker's moves as well, a round of slices went over its every second move (on Qubic, 22 jobs after
the chosen reply) while one of them was all it needed. Up to symmetry the replies are fewer than in the
move's own search, which knows none (Qubic after a corner: 12 classes of 63 replies).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import NamedTuple

from ..books.strategy import strategy_for
from ..errors import EngineError
from ..rules.geometry import iter_cells
from ..rules.known_move import KnownMove
from ..rules.position import Mark, Position
from ..rules.variants import Variant
from ..tables.locks import file_lock
from .board import Board
from .budget import Cancel
from .narrowing import move_classes
from .native import Game, Limits, monotonic
from .proof_jobs import JobKey, JobState, JobStore
from .proof_number import ProofTable, Question, ask, unsound_because
from .proven import ProvenCache
from .proven_record import MONOTONE_PROVERS, PROVE, Origin
from .strategy_proof import StrategyProof, prove_by_strategy

DEFAULT_TABLE_BITS = 23  # 2**23 slots of 40 bytes: 335 MB
UNREACHED = 2**32  # ranks a reply the search never reached after every one it did


def proof_lock(directory: Path, variant: Variant) -> AbstractContextManager[bool]:
    """The lock of the variant's proof in `directory` (True while held): two runs on one directory would
    write the same jobs and table."""
    return file_lock(directory / f"prove-{variant.long_name}.lock", wait=False)


class Job(NamedTuple):
    name: str  # the moves from the start, e.g. "r3c3 r4c4 r0c7" (X, O's reply chosen, X)
    key: JobKey
    plies: int  # below the start
    splittable: bool  # a move's job, not a pass: the defender's reply can be chosen there


@dataclass(frozen=True)
class Progress:
    elapsed: float  # seconds of this session
    spent: float  # processor seconds over every session (the machine is shared: wall time says little)
    nodes: int  # over every session, split jobs and those under a refuted reply included
    done: int  # jobs settled
    jobs: int  # the jobs of the proof as split so far
    outcome: int | None  # of the whole proof: 1 a side wins, -1 a draw, None open
    note: str


class ProofRun:
    def __init__(
        self,
        position: Position,
        directory: Path,
        table_bits: int = DEFAULT_TABLE_BITS,
        split_plies: int = 1,
        every_reply: bool = False,
        every_move: bool = False,
    ) -> None:
        why = unsound_because(position.variant)
        if why is not None:
            raise EngineError("prover_unsound", f"{position.variant.name} cannot be proven here: {why}")
        if every_reply and split_plies > 1:
            raise EngineError("prove_split", "a run splits by every reply or down to plies, not both")
        self.position, self.variant = position, position.variant.long_name
        self.split_plies, self.every_reply, self.every_move = split_plies, every_reply, every_move
        self.board = Board.of(position.variant)
        self.game = Game(self.board)
        self.store = JobStore(directory)
        self.proven = ProvenCache(directory)
        self.table = ProofTable(table_bits)
        self.resumed = self.store.load_table(self.variant, self.table)

    def questions(self) -> list[tuple[int, int]]:
        """(attacker, defender), the attacker to move: the side to move's question, then the other's
        with the side to move passing (once when they are the same)."""
        mine, theirs = self.position.mine, self.position.theirs
        return list(dict.fromkeys([(mine, theirs), (theirs, mine)]))

    def children(self, attacker: int, defender: int) -> list[tuple[str, JobKey]]:
        """The question's children still needed (the defender to move in each): the pass, then one per
        class of moves, but once the pass is disproven, only the moves inside its zone (and the pass no
        more)."""
        passing = JobKey(attacker, defender, False)
        state = self.store.get(self.variant, passing)
        out = [("pass", passing)] if state.outcome != -1 else []
        zone = state.zone if state.outcome == -1 else self.board.full
        for cell in move_classes(self.board, attacker, defender):
            if zone >> cell & 1:
                out.append((self._cell(cell), JobKey(attacker | 1 << cell, defender, False)))
        return out

    def outcome(self, attacker: int, defender: int) -> int | None:
        """1: the attacker can force a line, -1: it cannot, None: not known yet."""
        states = [self._settled(child, name == "pass") for name, child in self.children(attacker, defender)]
        if 1 in states:
            return 1
        if all(s == -1 for s in states):  # every move needed disproven (the pass with them, or not needed)
            return -1
        return None

    def leaves(self, attacker: int, defender: int, open_only: bool, plies: int = 0) -> list[Job]:
        """The jobs of the question: its children, and in place of a child split, the jobs of the
        question after the defender's reply chosen there, or after each of its replies (`every_reply`)
        (`open_only`: those still open)."""
        out: list[Job] = []
        for name, child in self.children(attacker, defender):
            if open_only and self._settled(child, name == "pass"):
                continue
            # a move proven whole (by a strategy's check) is one job, not its replies' jobs
            if self.every_reply and name != "pass" and self.store.get(self.variant, child).outcome != 1:
                for each, key in self._reply_jobs(child):
                    if not (open_only and self.store.get(self.variant, key).outcome):
                        out.append(Job(f"{name} {self._cell(each)}", key, plies + 2, False))
                continue
            reply = None if name == "pass" else self.store.replies(self.variant, child)[0]
            if reply is None:
                out.append(Job(name, child, plies + 1, name != "pass"))
                continue
            below = self.leaves(child.attacker, child.defender | 1 << reply, open_only, plies + 2)
            out.extend(job._replace(name=f"{name} {self._cell(reply)} {job.name}") for job in below)
        return out

    def _reply_jobs(self, child: JobKey) -> list[tuple[int, JobKey]]:
        """The jobs of a move's child split by every reply: (a reply of each class, its question). A reply
        that completes a line of the defender's is settled at once: the attacker cannot force one first."""
        jobs = []
        for reply in move_classes(self.board, child.defender, child.attacker):
            key = JobKey(child.attacker, child.defender | 1 << reply, True)
            over = self.board.is_over(child.attacker, key.defender)
            if over and not self.store.get(self.variant, key).outcome:
                self.store.put(self.variant, key, JobState(-1, self.board.full, 0, 0.0))
            jobs.append((reply, key))
        return jobs

    def _settled(self, child: JobKey, passing: bool = False) -> int:
        """A child's outcome: its own job's, or the question's after the defender's reply chosen there.
        A reply refuted (the attacker forces a line after it) is marked so: the child is a job again,
        and is split with another reply after its next slice. Split by every reply: proven when every
        reply's job is, disproven when one is."""
        own = self.store.get(self.variant, child)
        if own.outcome == 1:  # proven whole, by a strategy's check
            return 1
        if self.every_reply and not passing:
            outcomes = [self.store.get(self.variant, key).outcome for _, key in self._reply_jobs(child)]
            return -1 if -1 in outcomes else 1 if all(o == 1 for o in outcomes) else 0
        reply = None if own.outcome else self.store.replies(self.variant, child)[0]
        if reply is None:
            return own.outcome
        found = self.outcome(child.attacker, child.defender | 1 << reply)
        if found == -1:
            self.store.put(self.variant, child, replace(own, outcome=-1))
            return -1
        if found == 1:
            self.store.put_reply(self.variant, child, reply, refuted=True)
        return 0

    def _splits(self, job: Job, cancel: Cancel) -> bool:
        """Whether a move's job, open after its slice, is split: when the question after the defender's
        reply still lies within `split_plies` of the start."""
        if not job.splittable or job.plies + 2 > self.split_plies or cancel.is_set:
            return False
        return self.store.get(self.variant, job.key).outcome == 0

    def _split(self, key: JobKey, focus: int | None) -> None:
        """Choose the defender's reply at an open job: the one its slice was searching when it stopped
        (df-pn goes into the reply with the least disproof number, and stays in it: a child's numbers
        reach the table only when the search comes back from it), else by the numbers in the table.
        No reply left unrefuted: the attacker forces a line."""
        refuted = self.store.replies(self.variant, key)[1]
        ranked = []
        for cell, orbit in move_classes(self.board, key.defender, key.attacker).items():
            if cell not in refuted:
                numbers = self.table.numbers(key.attacker, key.defender | 1 << cell, True)
                proof, disproof = numbers or (0, UNREACHED)
                ranked.append((focus not in orbit, disproof, -proof, cell))
        if ranked:
            self.store.put_reply(self.variant, key, min(ranked)[-1], refuted=False)
        else:
            self.store.put(self.variant, key, replace(self.store.get(self.variant, key), outcome=1))

    def run(
        self, seconds: float | None, slice_seconds: float, cancel: Cancel, show: Callable[[Progress], None]
    ) -> int | None:
        """Work until the proof is done, `seconds` pass or `cancel` is set; the proof's outcome (1: a
        side can force a line, -1: neither can, a draw) or None."""
        started, slices = monotonic(), 0
        self._follow_strategy(
            cancel, lambda report: show(self._progress(monotonic() - started, _checked(report)))
        )
        while True:
            open_jobs = self._open_jobs()
            if not open_jobs:
                break
            for job in open_jobs:
                left = None if seconds is None else seconds - (monotonic() - started)
                if cancel.is_set or (left is not None and left <= 0):
                    self.store.save_table(self.variant, self.table)
                    return None
                found = self._slice(job.key, min(slice_seconds, left or slice_seconds), cancel)
                if self._splits(job, cancel):
                    self._split(job.key, found.focus)
                slices += 1
                if slices % 4 == 0:
                    self.store.save_table(self.variant, self.table)
                    self.table.refresh_filters()
                show(self._progress(monotonic() - started, job.name))
        self.store.save_table(self.variant, self.table)
        result = self._result()
        show(self._progress(monotonic() - started, "done", result))
        return result

    def _follow_strategy(self, cancel: Cancel, show: Callable[[StrategyProof], None]) -> None:
        """Where a strategy from elsewhere holds the start (books/strategy.py), its move's job proven by
        following it against every reply (strategy_proof.py) before any slice. The job stands for the
        move's class under the board's symmetries (on Qubic the corner's: the 16 cells of seven lines).
        On Qubic the jobs' own search settles no first move within hours, the strategy's check the
        corner within minutes. A check that fails leaves the job to the slices, and so does one stopped;
        either is run again at the next start (a job sliced by an older run may still be proven by it)."""
        strategy = strategy_for(self.position.variant)
        attacker, defender = self.questions()[0]
        move = None if strategy is None else strategy.move(attacker, defender)
        if strategy is None or move is None:
            return
        lowest = next(
            cell for cell, orbit in move_classes(self.board, attacker, defender).items() if move in orbit
        )
        key = JobKey(attacker | 1 << lowest, defender, False)  # the job of the move's class
        state = self.store.get(self.variant, key)
        if state.outcome:
            return
        report = prove_by_strategy(self.board, strategy, key.attacker, defender, self.table, cancel, show)
        if report.stopped:
            return
        outcome, zone = (1, self.board.full) if report.proven else (0, state.zone)
        nodes, seconds = state.nodes + report.nodes, state.seconds + report.seconds
        self.store.put(self.variant, key, JobState(outcome, zone, nodes, seconds))
        self._keep_lost(report)
        show(report)

    def _keep_lost(self, report: StrategyProof) -> None:
        """Each position of the other side's the strategy's check proved lost (every move of it loses,
        how long it lasts not proven), into the store: the service answers them at once."""
        first, variant = self.position.to_move, self.position.variant
        origin = Origin.of(PROVE, MONOTONE_PROVERS)
        for mine, theirs in report.lost:
            x, o = (mine, theirs) if first == Mark.X else (theirs, mine)
            lost = [KnownMove(cell, -1, -1, None) for cell in iter_cells(self.board.playable(mine | theirs))]
            self.proven.put(Position(variant, x, o, first.other), lost, origin)

    def _open_jobs(self) -> list[Job]:
        """The jobs still worth a slice: those of the questions not settled; once the side to move is
        proven to win, with `every_move`, those of its moves not settled yet (the pass no more)."""
        first = self.questions()[0]
        if self.every_move and self.outcome(*first) == 1:
            return [job for job in self.leaves(*first, open_only=True) if job.name != "pass"]
        return [
            job
            for question in self.questions()
            if self.outcome(*question) is None
            for job in self.leaves(*question, open_only=True)
        ]

    def _slice(self, key: JobKey, seconds: float, cancel: Cancel) -> Question:
        state = self.store.get(self.variant, key)
        limits = Limits(monotonic() + seconds, 0, cancel.cell)
        processor = time.process_time()
        found = ask(self.game, self.table, key.attacker, key.defender, key.attacker_to_move, limits)
        spent = time.process_time() - processor
        total = JobState(found.outcome, found.zone, state.nodes + found.nodes, state.seconds + spent)
        self.store.put(self.variant, key, total)
        return found

    def _result(self) -> int | None:
        outcomes = [self.outcome(*question) for question in self.questions()]
        if outcomes[0] == 1:
            self._keep_wins()
        if 1 in outcomes:
            return 1
        if all(o == -1 for o in outcomes):
            # Neither side can force a line: every move draws, and a draw fills the board.
            remoteness = self.board.cells - self.position.marks
            empty = self.board.playable(self.position.mine | self.position.theirs)
            draws = [KnownMove(c, 0, 0, remoteness) for c in iter_cells(empty)]
            self.proven.put(self.position, draws, Origin.of(PROVE, MONOTONE_PROVERS))
            return -1
        return None

    def _keep_wins(self) -> None:
        """The side to move wins: each of its moves proven to win goes into the store as a win (how long
        it takes is not proven), each proven not to as at most a draw, the others as not known."""
        attacker, defender = self.questions()[0]
        settled = {  # a move not among the children lies outside the disproven pass's zone: it fails
            (child.attacker ^ attacker).bit_length() - 1: self._settled(child)
            for name, child in self.children(attacker, defender)
            if name != "pass"
        }
        known = []
        for cell, orbit in move_classes(self.board, attacker, defender).items():
            lower, upper = {1: (1, 1), -1: (-1, 0), 0: (-1, 1)}[settled.get(cell, -1)]
            known += [KnownMove(each, lower, upper, None) for each in orbit]
        self.proven.put(self.position, known, Origin.of(PROVE, MONOTONE_PROVERS))

    def _progress(self, elapsed: float, note: str, outcome: int | None = None) -> Progress:
        keys = {job.key for q in self.questions() for job in self.leaves(*q, open_only=False)}
        states = [self.store.get(self.variant, key) for key in keys]
        nodes, spent = self.store.spent(self.variant)
        return Progress(
            elapsed,
            spent,
            nodes,
            sum(s.outcome != 0 for s in states),
            len(states),
            outcome,
            note,
        )

    def _cell(self, cell: int) -> str:
        """A cell by its place: r2c3 on a grid, l1r2c3 on a box of layers."""
        *layer, row, col = self.position.variant.shape.coordinates(cell)
        return "".join(f"l{at}" for at in layer) + f"r{row}c{col}"


def _checked(report: StrategyProof) -> str:
    """A strategy check's progress, for the progress line's note."""
    state = "proven" if report.proven else "failed" if report.failed else "checking"
    return (
        f"strategy {state}: {report.positions:,} positions, {report.by_strategy:,} by its moves,"
        f" {report.by_search:,} searched"
    )
