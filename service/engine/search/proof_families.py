"""The provers of one analysis on two threads (core/threads.c): its questions in two families, each on
its own proof-number table, the second family on the searching thread's second thread (second_thread.py).
The call returns when both families have stopped. Its call and types are native.py's (named here too);
here, how many threads a search uses.
"""

from __future__ import annotations

from .native import Answered, Ask, prove_families

__all__ = ["DEFAULT_PROVER_THREADS", "Answered", "Ask", "checked_prover_threads", "prove_families"]

# One search on two threads: the provers' questions (results.py) and the moves' alpha-beta searches
# (narrowing.py, core/threads.c). An unsettled analysis then uses up to two processor-seconds per second
# of its budget, a second proof-number table per searching thread and a second transposition table.
DEFAULT_PROVER_THREADS = 2


def checked_prover_threads(threads: object) -> int:
    """`threads` when it is 1 or 2 (a setting's value), else a ValueError that says so."""
    if type(threads) is not int or threads not in (1, 2):
        raise ValueError(f"a search runs on 1 or 2 threads, not {threads!r}")
    return threads
