"""The provers beside alpha-beta, for Python: the proof-number search (`core/pns.c`) and the pairing
search (`core/pairing.c`), with typed arguments and results. cffi releases the GIL during each call.

Both answer one question about a position of the normal rule without gravity (flat or torus): can the
`attacker` force a line of its own before the `defender` completes one? Neither says when the game
ends: a proven draw needs no more (it fills the board), a proven win or loss gets its remoteness from
alpha-beta. The design of each is in the docstring at the top of its C file.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, NamedTuple

from ..rules.variants import Variant
from ._core import ffi, lib
from .native import DEFAULT_OPTIONS, NO_MOVE, Game, Limits, ProverOptions, budget_of, options_of

# 2**18 slots of 40 bytes: 10 MB per searching thread, enough for the proofs of one request.
DEFAULT_PROOF_TABLE_BITS = 18


class Prover(StrEnum):
    """What closed a move's result, as the answer's search statistics name it."""

    ALPHA_BETA = "alpha_beta"
    PROOF_NUMBER = "proof_number"
    PAIRING = "pairing"  # a pairing strategy of the defender, found at the position itself
    THREAT_SPACE = "threat_space"  # a sequence of threats of the attacker, found at the position itself


def applies(variant: Variant) -> bool:
    """Whether the provers' rules hold on the variant: the first line completed wins, marks go anywhere
    (a mark of one's own never hurts: the proof-number search's null move and the pairings rely on it)."""
    return unsound_because(variant) is None


def unsound_because(variant: Variant) -> str | None:
    """Why the provers' rule "a mark of one's own never hurts" fails on the variant, or None."""
    if variant.gravity:
        return "under gravity a mark can give the opponent the cell above it"
    if variant.misere:
        return "under the misère rule a line of one's own loses, so a mark of one's own can hurt"
    return None


_CLOSED_BY = {
    lib.SS_BY_SEARCH: Prover.PROOF_NUMBER,
    lib.SS_BY_PAIRING: Prover.PAIRING,
    lib.SS_BY_THREATS: Prover.THREAT_SPACE,
}


class Question(NamedTuple):
    outcome: int  # 1: the attacker can force a line; -1: it cannot; 0: not settled within the limits
    zone: int  # the cells the disproof (-1) or the proof (1: core/proof_zone.c; 0 not known) depends on
    nodes: int
    depth: int
    seconds: float
    pairings: int  # positions closed by a pairing
    threat_wins: int  # positions closed by a threat sequence
    stopped: bool
    prover: Prover  # what settled it: a pairing or a threat sequence at the position itself, or the search
    cutoffs: int = 0  # alpha-beta's statistics (SearchReport): none here
    tt_hits: int = 0
    pruned: int = 0  # the defender's replies settled by a proof's zone (core/proof_zone.c)
    focus: int | None = None  # the move (or reply) the search went into last: its most promising one


class ProofTable:
    """The proof-number search's transposition table: 2**bits slots of 40 bytes; one caller at a time;
    clears itself when given another board."""

    def __init__(self, bits: int = DEFAULT_PROOF_TABLE_BITS) -> None:
        pointer = lib.ss_pn_table_new(bits)
        if pointer == ffi.NULL:
            raise MemoryError(f"no proof-number table of 2**{bits} slots")
        self.pointer: Any = ffi.gc(pointer, lib.ss_pn_table_free)

    def clear(self) -> None:
        lib.ss_pn_table_clear(self.pointer)

    def numbers(self, attacker: int, defender: int, attacker_to_move: bool) -> tuple[int, int] | None:
        """The (proof, disproof) numbers the table holds for the position, or None."""
        pn, dn = ffi.new("uint32_t *"), ffi.new("uint32_t *")
        if not lib.ss_pn_table_numbers(self.pointer, attacker, defender, int(attacker_to_move), pn, dn):
            return None
        return int(pn[0]), int(dn[0])


_per_thread = threading.local()


def thread_table(second: bool = False) -> ProofTable:
    """This thread's table, made on first use: a thread runs one search at a time, and what a search
    proved stays true for the next one on the same board. `second`: its other table, for the family of
    questions its provers' second thread asks (proof_families.py)."""
    name = "second_table" if second else "table"
    table: ProofTable | None = getattr(_per_thread, name, None)
    if table is None:
        table = ProofTable()
        setattr(_per_thread, name, table)
    return table


def ask(
    game: Game,
    table: ProofTable,
    attacker: int,
    defender: int,
    attacker_to_move: bool,
    limits: Limits,
    options: ProverOptions = DEFAULT_OPTIONS,
) -> Question:
    """Whether `attacker` can force a line against `defender` (the position legal, no line completed)."""
    result = ffi.new("ss_pn_result *")
    budget, settings = budget_of(limits), options_of(options)
    position = (attacker, defender, int(attacker_to_move))
    lib.ss_pn_prove(game.pointer, table.pointer, *position, budget, settings, result)
    return question_of(result)


def question_of(result: Any) -> Question:
    """The Question of the core's answer (an ss_pn_result)."""
    return Question(
        outcome=int(result.outcome),
        zone=int(result.zone),
        nodes=int(result.nodes),
        depth=int(result.depth),
        seconds=float(result.seconds),
        pairings=int(result.pairings),
        threat_wins=int(result.threat_wins),
        stopped=bool(result.stopped),
        prover=_CLOSED_BY[int(result.closed_by)],
        pruned=int(result.pruned),
        focus=None if result.focus == NO_MOVE else int(result.focus),
    )


@dataclass(frozen=True)
class Pairing:
    """Disjoint pairs of empty cells, every line still open to the attacker holding one: the defender
    answers a move on one cell of a pair with the other, and the attacker never completes a line.
    `first_move`: the defender's move to make first, when it is to move and needs one."""

    pairs: tuple[tuple[int, int], ...]
    first_move: int | None


def find_pairing(
    game: Game, attacker: int, defender: int, defender_to_move: bool, steps: int = 0
) -> Pairing | None:
    """A pairing strategy of `defender` against `attacker`, or None when none exists (or none was found
    within `steps` steps of the search; 0: no limit)."""
    pairs = ffi.new("int8_t[]", lib.SS_MAX_CELLS)
    count = ffi.new("int *")
    first = ffi.new("int32_t *")
    found = lib.ss_pairing_find(
        game.pointer, attacker, defender, int(defender_to_move), steps, pairs, count, first
    )
    if not found:
        return None
    cells = ffi.unpack(pairs, 2 * count[0])
    return Pairing(
        tuple((cells[2 * i], cells[2 * i + 1]) for i in range(count[0])),
        None if first[0] == NO_MOVE else int(first[0]),
    )


def why_unpaired(game: Game, attacker: int, defender: int, steps: int = 0) -> tuple[int, int] | None:
    """None when the attacker to move has a pairing against it; else the reason the search found none:
    (lines, gaps), the cells of lines that have no pairing on their own and their empty cells (lines 0:
    not known). See ss_pairing_failure (sanmoku_search.h)."""
    lines, gaps = ffi.new("uint64_t *"), ffi.new("uint64_t *")
    if lib.ss_pairing_failure(game.pointer, attacker, defender, steps, lines, gaps):
        return None
    return int(lines[0]), int(gaps[0])
