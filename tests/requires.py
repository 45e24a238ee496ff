"""Programs from outside Python that some tests drive (curl, nginx, wrk, Chromium): CI installs them
(.ci/run), so there a missing one is a failure; elsewhere the test is skipped with a reason naming it."""

from __future__ import annotations

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
