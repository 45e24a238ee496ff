"""The code stays lint-clean, typed strictly, and the README's commands are the ones CI runs."""

from __future__ import annotations

import importlib
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)


def tool(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not installed; it is part of the test extra")
    return found


def test_ruff_is_clean() -> None:
    for args in (("check", "."), ("format", "--check", ".")):
        done = run(tool("ruff"), *args)
        assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_strict_is_clean() -> None:
    done = run(tool("mypy"), "--strict", "service")
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_bench_imports() -> None:
    """A bench is run by hand, not by the suite, so a rename it missed would stay hidden until someone
    runs it (provers_threads imported `thread_helper` from a module that no longer had it)."""
    from tests.bench.connect4_peers import PEER_SCRIPT  # run in the peer's venv, importing the peer

    broken = []
    for path in sorted((ROOT / "tests" / "bench").glob("*.py")):
        if path.resolve() == PEER_SCRIPT.resolve():
            continue
        try:
            importlib.import_module(f"tests.bench.{path.stem}")
        except ImportError as error:
            broken.append(f"{path.name}: {error}")
    assert not broken, "\n".join(broken)


def quick_start() -> list[str]:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block is not None, "the Quick start has a sh code block"
    return [line for line in block.group(1).splitlines() if line.strip()]


def test_quick_start_is_two_commands_and_ci_runs_the_second() -> None:
    serve, test = quick_start()
    assert serve.startswith("pip install") and "serve" in serve
    assert test.startswith("pip install -e '.[test]'") and "pytest" in test
    ci = (ROOT / ".ci" / "run").read_text()
    assert "grep -m1 -E \"^pip install -e '\\.\\[test\\]'\" README.md" in ci
