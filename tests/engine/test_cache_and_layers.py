"""The cache is explicit and bounded; the engine stands without the HTTP layer."""

from __future__ import annotations

import subprocess
import sys

import pytest

from service.engine import MISERE, NORMAL, Position, Solver, TranspositionTable, reachable


def test_warm_up_fills_one_entry_per_symmetry_class() -> None:
    for variant in (NORMAL, MISERE):
        solver = Solver(variant)
        stats = solver.warm_up()
        assert stats.size == 765 and stats.misses == 765


def test_after_warm_up_every_analysis_is_a_lookup() -> None:
    solver = Solver(MISERE)
    solver.warm_up()
    before = solver.table.stats()
    for first in "XO":
        for position in reachable(Position.empty(MISERE, first)):
            solver.analyze(position)
    after = solver.table.stats()
    assert after.misses == before.misses and after.size == before.size
    assert after.hits > before.hits


def test_table_is_bounded_and_forgets_the_oldest() -> None:
    table: TranspositionTable[int] = TranspositionTable(capacity=2)
    table.put(1, 10)
    table.put(2, 20)
    table.put(3, 30)
    assert len(table) == 2 and table.get(1) is None and table.get(3) == 30
    assert table.stats().hits == 1 and table.stats().misses == 1
    with pytest.raises(ValueError, match="capacity"):
        TranspositionTable(capacity=0)


def test_a_tiny_cache_still_gives_exact_answers() -> None:
    small, full = Solver(NORMAL, capacity=50), Solver(NORMAL)
    for position in reachable(Position.empty(NORMAL))[:250]:
        assert small.analyze(position) == full.analyze(position)
    assert len(small.table) <= 50


def test_solver_refuses_another_variants_position() -> None:
    with pytest.raises(ValueError, match="misere position"):
        Solver(NORMAL).value(Position.empty(MISERE))


def test_importing_the_engine_does_not_import_flask_or_marshmallow() -> None:
    code = (
        "import sys, service.engine, service.engine.solve, service.engine.perft; "
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in {'flask', 'marshmallow', 'werkzeug'}); "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
