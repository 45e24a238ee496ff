"""The provers of one analysis on two threads (core/families.c): its questions in two families, each on
its own proof-number table, the second family on the searching thread's second thread (second_thread.py).
The call returns when both families have stopped.
"""

from __future__ import annotations

from typing import NamedTuple

from ._core import ffi, lib
from .native import DEFAULT_OPTIONS, NO_MOVE, Game, Limits, ProverOptions, budget_of, options_of
from .proof_number import ProofTable, Question, question_of
from .second_thread import Helper

# One search on two threads: the provers' questions (results.py) and the moves' alpha-beta searches
# (narrowing.py, core/moves_two.c). An unsettled analysis then uses up to two processor-seconds per second
# of its budget, a second proof-number table per searching thread and a second transposition table.
DEFAULT_PROVER_THREADS = 2


def checked_prover_threads(threads: object) -> int:
    """`threads` when it is 1 or 2 (a setting's value), else a ValueError that says so."""
    if type(threads) is not int or threads not in (1, 2):
        raise ValueError(f"a search runs on 1 or 2 threads, not {threads!r}")
    return threads


class Ask(NamedTuple):
    """A question of a family: can `attacker` force a line against `defender`?"""

    attacker: int
    defender: int
    attacker_to_move: bool
    cell: int = NO_MOVE  # the move it is about; NO_MOVE: the position's own question (a family's first)


class Answered(NamedTuple):
    """A family's answers, per Ask in order (None: never asked), and what its thread spent helping the
    other family's first question (its nodes and depth; core/families.c)."""

    answers: list[Question | None]
    helping: Question


def prove_families(
    game: Game,
    tables: tuple[ProofTable, ProofTable],
    families: tuple[list[Ask], list[Ask]],
    helper: Helper,
    limits: Limits,
    root_share: float,
    round_share: float,
    options: ProverOptions = DEFAULT_OPTIONS,
) -> tuple[Answered, Answered]:
    """Ask both families at once, the first on the caller's thread, the second on the helper's, each on
    its table, by the rules of ss_pn_prove_families (sanmoku_search.h)."""
    structs = ffi.new("ss_pn_family[2]")
    arrays = []
    for family, table, asks in zip(structs, tables, families, strict=True):
        questions = ffi.new("ss_pn_question[]", max(len(asks), 1))
        for question, one in zip(questions, asks, strict=False):
            question.attacker, question.defender = one.attacker, one.defender
            question.attacker_to_move, question.cell = int(one.attacker_to_move), one.cell
        family.table, family.questions, family.n = table.pointer, questions, len(asks)
        arrays.append(questions)
    budget, settings = budget_of(limits), options_of(options)
    shares = (root_share, round_share)
    lib.ss_pn_prove_families(game.pointer, structs, helper.pointer, *shares, budget, settings)
    first, second = (
        Answered(
            [question_of(q.result) if q.asked else None for q in questions[0 : len(asks)]],
            question_of(family.helping),
        )
        for family, questions, asks in zip(structs, arrays, families, strict=True)
    )
    return first, second
