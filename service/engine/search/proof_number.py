"""The provers beside alpha-beta: the proof-number search (`core/dfpn.c`), which settles positions by
pairings (`core/pairing.c`) and threat sequences (`core/threats.c`) too. Its calls and types are
native.py's (named here as well); here, where the provers apply and each searching thread's table.

They answer one question about a position of the normal rule without gravity (flat or torus): can the
`attacker` force a line of its own before the `defender` completes one? They never say when the game
ends: a proven draw needs no more (it fills the board), a proven win or loss gets its remoteness from
alpha-beta. The design of each is in the docstring at the top of its C file.
"""

from __future__ import annotations

import threading

from ..rules.variants import Variant
from .native import DEFAULT_PROOF_TABLE_BITS, ProofTable, Prover, Question, ask

__all__ = [
    "DEFAULT_PROOF_TABLE_BITS",
    "ProofTable",
    "Prover",
    "Question",
    "applies",
    "ask",
    "thread_table",
    "unsound_because",
]


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
    if variant.exact:
        return "under exactly k a mark of one's own beside a line makes it a longer run, which does not count"
    if variant.renju:
        return "under renju black may not play its forbidden points, of which the provers know nothing"
    return None


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
