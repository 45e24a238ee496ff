"""One owner of the compiled core's binding: in the service, native.py alone imports the extensions
(`_core` and its wide build `_core_wide`), and the other modules call its typed functions; in the tests,
core_debug.py alone, for the entry points only the tests use (core/sanmoku_debug.h). The service calls
none of those."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
CORE = ROOT / "service/engine/search/core"


def importers(folder: Path) -> set[str]:
    """The modules under `folder` that import the extension, by path from the project's root."""
    found = set()
    for path in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = []
            if isinstance(node, ast.ImportFrom):
                names = [node.module or "", *(f"{node.module}.{alias.name}" for alias in node.names)]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            if any(re.fullmatch(r"(.*\.)?_core(_wide)?", name) for name in names):
                found.add(str(path.relative_to(ROOT)))
    return found


def declared(header: str) -> set[str]:
    """The functions a header of the core declares."""
    return set(re.findall(r"\b(ss_\w+)\(", (CORE / header).read_text()))


def test_native_is_the_one_service_module_that_imports_the_core() -> None:
    assert importers(ROOT / "service") == {"service/engine/search/native.py"}


def test_core_debug_is_the_one_test_module_that_imports_the_core() -> None:
    assert importers(ROOT / "tests") == {"tests/core_debug.py"}


def test_the_service_calls_none_of_the_tests_entry_points() -> None:
    called = set(re.findall(r"\blib\.(ss_\w+)\(", (ROOT / "service/engine/search/native.py").read_text()))
    service, tests = declared("sanmoku_search.h"), declared("sanmoku_debug.h")
    assert {"ss_threat_tree", "ss_pairing_find", "ss_table_positions"} <= tests
    assert not service & tests  # each entry point declared once, in one header
    assert called <= service
    assert len(called) >= 15  # measured 20: the pattern finds the calls
