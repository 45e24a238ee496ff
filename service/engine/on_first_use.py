"""The front door's names that only the command line and the benchmarks use, imported on first use
(PEP 562's module `__getattr__`), not at a server's start, where they were a fifth of the engine's imports
before its first answer: the book builders, proof runs, strength matches and perft, and
multiprocessing with them."""

from __future__ import annotations

import importlib
from typing import Any

_STRENGTH = ("Accuracy", "Contender", "Record", "Strength", "measure_strength", "strength_table")
WHERE = {  # name: (module, its name there)
    **{name: (".play.strength", name) for name in _STRENGTH},
    "count_games": (".rules.perft", "count_games"),
    "book_positions": (".books.build", "book_positions"),
    "build_book": (".books.build", "build_book"),
    "sample_entries": (".books.check", "sample_entries"),
    "verify_entries": (".books.check", "verify_entries"),
    "ProofRun": (".search.proof_run", "ProofRun"),
    "ProofProgress": (".search.proof_run", "Progress"),
    "audit_proven": (".proven_check", "audit"),
    "proof_lock": (".search.proof_run", "proof_lock"),
    "unsound_because": (".search.proof_number", "unsound_because"),
}


def resolve(name: str, namespace: dict[str, Any]) -> Any:
    """The front door's `name`, imported now and kept in its `namespace`; AttributeError if it has none."""
    if name not in WHERE:
        raise AttributeError(f"module {namespace['__name__']!r} has no attribute {name!r}")
    module, attribute = WHERE[name]
    value = getattr(importlib.import_module(module, namespace["__name__"]), attribute)
    namespace[name] = value
    return value
