"""A long proof, run for hours, stopped and resumed: whether either side can force a line from a position
(the empty 8x8 board with five in a row, proven a draw in 17.4 hours by Hsu, Ko, Chen, Wei, Hsueh and
Wu, 2020), by the proof-number search, split into jobs at the top of the tree.

The side to move cannot force a line when it cannot after any of its moves (one job per move, up to the
symmetries that fix the position). The null move of core/pns.c, one level up, can spare most of them:
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
moves go into the store of proven positions as exact draws: the service answers them at once.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..rules.geometry import iter_cells
from ..rules.position import Position
from .board import Board
from .budget import Cancel
from .engine import move_classes
from .native import Game, Limits, monotonic
from .proof_jobs import JobKey, JobState, JobStore
from .proof_number import ProofTable, ask
from .proven import ProvenMove, ProvenStore

DEFAULT_TABLE_BITS = 23  # 2**23 slots of 40 bytes: 335 MB


@dataclass(frozen=True)
class Progress:
    elapsed: float  # seconds of this session
    spent: float  # processor seconds over every session (the machine is shared: wall time says little)
    nodes: int  # over every session
    done: int  # jobs settled
    jobs: int  # jobs known so far (the moves' jobs appear once job 0 is disproven)
    outcome: int | None  # of the whole proof: 1 a side wins, -1 a draw, None open
    note: str


class ProofRun:
    def __init__(self, position: Position, directory: Path, table_bits: int = DEFAULT_TABLE_BITS) -> None:
        self.position, self.variant = position, position.variant.long_name
        self.board = Board.of(position.variant)
        self.game = Game(self.board)
        self.store = JobStore(directory)
        self.proven = ProvenStore(directory)
        self.table = ProofTable(table_bits)
        self.resumed = self.store.load_table(self.variant, self.table)

    def questions(self) -> list[tuple[int, int]]:
        """(attacker, defender), the attacker to move: the side to move's question, then the other's
        with the side to move passing (once when they are the same)."""
        mine, theirs = self.position.mine, self.position.theirs
        return list(dict.fromkeys([(mine, theirs), (theirs, mine)]))

    def jobs(self, attacker: int, defender: int) -> list[tuple[str, JobKey]]:
        """The jobs of one question still needed: the pass, then one per class of moves, but once the
        pass is disproven, only the moves inside its zone (and the pass no more)."""
        cols = self.position.variant.cols
        passing = JobKey(attacker, defender, False)
        state = self.store.get(self.variant, passing)
        out = [("pass", passing)] if state.outcome != -1 else []
        zone = state.zone if state.outcome == -1 else self.board.full
        for cell in move_classes(self.board, attacker, defender):
            if zone >> cell & 1:
                out.append((f"r{cell // cols}c{cell % cols}", JobKey(attacker | 1 << cell, defender, False)))
        return out

    def outcome(self, attacker: int, defender: int) -> int | None:
        """1: the attacker can force a line, -1: it cannot, None: not known yet."""
        states = [self.store.get(self.variant, key).outcome for _, key in self.jobs(attacker, defender)]
        if 1 in states:
            return 1
        if all(s == -1 for s in states):  # every move needed disproven (the pass with them, or not needed)
            return -1
        return None

    def run(
        self, seconds: float | None, slice_seconds: float, cancel: Cancel, show: Callable[[Progress], None]
    ) -> int | None:
        """Work until the proof is done, `seconds` pass or `cancel` is set; the proof's outcome (1: a
        side can force a line, -1: neither can, a draw) or None."""
        started, slices = monotonic(), 0
        while True:
            open_jobs = [
                (name, key)
                for question in self.questions()
                if self.outcome(*question) is None
                for name, key in self.jobs(*question)
                if self.store.get(self.variant, key).outcome == 0
            ]
            if not open_jobs:
                break
            for name, key in open_jobs:
                left = None if seconds is None else seconds - (monotonic() - started)
                if cancel.is_set or (left is not None and left <= 0):
                    self.store.save_table(self.variant, self.table)
                    return None
                self._slice(name, key, min(slice_seconds, left or slice_seconds), cancel)
                slices += 1
                if slices % 4 == 0:
                    self.store.save_table(self.variant, self.table)
                show(self._progress(monotonic() - started, name))
        self.store.save_table(self.variant, self.table)
        result = self._result()
        show(self._progress(monotonic() - started, "done", result))
        return result

    def _slice(self, name: str, key: JobKey, seconds: float, cancel: Cancel) -> None:
        state = self.store.get(self.variant, key)
        limits = Limits(monotonic() + seconds, 0, cancel.cell)
        processor = time.process_time()
        found = ask(self.game, self.table, key.attacker, key.defender, key.attacker_to_move, limits)
        spent = time.process_time() - processor
        total = JobState(found.outcome, found.zone, state.nodes + found.nodes, state.seconds + spent)
        self.store.put(self.variant, key, total)

    def _result(self) -> int | None:
        outcomes = [self.outcome(*question) for question in self.questions()]
        if 1 in outcomes:
            return 1
        if all(o == -1 for o in outcomes):
            # Neither side can force a line: every move draws, and a draw fills the board.
            remoteness = self.board.cells - self.position.marks
            empty = self.board.playable(self.position.mine | self.position.theirs)
            self.proven.put(self.position, [ProvenMove(c, 0, 0, remoteness) for c in iter_cells(empty)])
            return -1
        return None

    def _progress(self, elapsed: float, note: str, outcome: int | None = None) -> Progress:
        keys = {key for q in self.questions() for key in [JobKey(*q, False)] + [k for _, k in self.jobs(*q)]}
        states = [self.store.get(self.variant, key) for key in keys]
        return Progress(
            elapsed,
            sum(s.seconds for s in states),
            sum(s.nodes for s in states),
            sum(s.outcome != 0 for s in states),
            len(states),
            outcome,
            note,
        )
