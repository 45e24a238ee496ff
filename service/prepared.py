"""Response bodies prepared at start-up, so that a request is a dictionary lookup."""

from __future__ import annotations

import gzip
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from .engine import Position, Solver, SolveTable, solve_table, warm_solvers
from .engine.mainline import main_lines
from .engine.solve import canonical_table
from .payloads import analysis_payload, dumps, mainline_payload, table_csv, table_ndjson, table_payload

SOLVE_FORMATS: dict[str, tuple[str, Callable[[SolveTable], bytes]]] = {
    "json": ("application/json", lambda t: dumps(table_payload(t))),
    "ndjson": ("application/x-ndjson", table_ndjson),
    "csv": ("text/csv", table_csv),
}
SYMMETRIES = {"none": False, "canonical": True}


@dataclass(frozen=True)
class Body:
    """One representation of a resource: its bytes, media type and strong ETag."""

    data: bytes
    mimetype: str
    etag: str
    encoding: str | None = None


def make_body(data: bytes, mimetype: str, encoding: str | None = None) -> Body:
    return Body(data, mimetype, hashlib.sha256(data).hexdigest()[:32], encoding)


def gzipped(body: Body) -> Body:
    # mtime=0 keeps the bytes, and so the ETag, the same on every start
    return make_body(gzip.compress(body.data, compresslevel=9, mtime=0), body.mimetype, "gzip")


@dataclass(frozen=True)
class SolveBodies:
    plain: Body
    gzip: Body


class Prepared:
    """All /analyze and /solve bodies, for every variant and both first players."""

    def __init__(self, solvers: dict[str, Solver]) -> None:
        self.solvers = solvers
        self.analyses: dict[tuple[str, str, str], Body] = {}
        self.with_mainlines: dict[tuple[str, str, str], Body] = {}
        self.solves: dict[tuple[str, str, str, str], SolveBodies] = {}
        for name, solver in solvers.items():
            for first in "XO":
                full = solve_table(solver, first)
                lines = main_lines(full.entries)
                for board, analysis in full.entries.items():
                    key = (name, board, analysis.position.to_move)
                    payload = analysis_payload(analysis)
                    self.analyses[key] = make_body(dumps(payload), "application/json")
                    payload["mainline"] = mainline_payload(lines[board])
                    self.with_mainlines[key] = make_body(dumps(payload), "application/json")
                for symmetry, canonical in SYMMETRIES.items():
                    table = canonical_table(full) if canonical else full
                    for fmt, (mimetype, render) in SOLVE_FORMATS.items():
                        plain = make_body(render(table), mimetype)
                        self.solves[(name, first, symmetry, fmt)] = SolveBodies(plain, gzipped(plain))

    def analysis(self, position: Position, mainline: bool = False) -> Body:
        bodies = self.with_mainlines if mainline else self.analyses
        return bodies[(position.variant.name, position.cells, position.to_move)]

    def solve(self, variant: str, first: str, symmetry: str, fmt: str) -> SolveBodies:
        return self.solves[(variant, first, symmetry, fmt)]


@cache
def prepared() -> Prepared:
    """Built once per process; gunicorn's preload shares it between workers."""
    return Prepared(warm_solvers())
