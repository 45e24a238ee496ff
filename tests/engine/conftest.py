from __future__ import annotations

import pytest

from service.engine import Solver, warm_solvers


@pytest.fixture(scope="session")
def solvers() -> dict[str, Solver]:
    return warm_solvers()
