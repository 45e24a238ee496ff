"""The engine stands alone: no HTTP code in it, and a table answers only for its own variant."""

from __future__ import annotations

import subprocess
import sys

import pytest

from service.engine import MISERE, Position, Table


def test_a_table_refuses_another_variants_position(tables: dict[str, Table]) -> None:
    with pytest.raises(ValueError, match="misere position"):
        tables["normal"].value(Position.empty(MISERE))


def test_importing_the_engine_does_not_import_flask_or_marshmallow() -> None:
    code = (
        "import sys, service.engine, service.engine.tables.stream, service.engine.tables.store; "
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in {'flask', 'marshmallow', 'werkzeug'}); "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
