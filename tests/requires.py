"""Programs from outside Python that some tests drive (curl, nginx, wrk, Chromium) and modules of optional
extras (ray): CI installs them
(.ci/run), so there a missing one is a failure; elsewhere the test is skipped with a reason naming it."""

from __future__ import annotations

import importlib.util
import os
import shutil

import pytest


def require(program: str, package: str | None = None) -> str:
    """The program's path; else skip (outside CI) or fail (in CI), naming the Debian package."""
    found = shutil.which(program) or shutil.which(program, path="/usr/sbin:/usr/bin")
    if found is None:
        message = f"{program} is not installed (Debian package {package or program})"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return found


def require_module(module: str, extra: str) -> None:
    """Skip (outside CI) or fail (in CI) when a Python module of an optional extra is not installed."""
    if importlib.util.find_spec(module) is None:
        message = f"{module} is not installed (pip install '{extra}')"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
