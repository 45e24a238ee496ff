"""The whole-game solve table: every reachable position, or one representative per symmetry class."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .position import Position, Status
from .search import Analysis, Solver


@dataclass(frozen=True)
class Summary:
    positions: int
    by_result: dict[str, int]  # for the side to move: win, draw, loss
    by_status: dict[str, int]  # the game as it stands: in_progress, x_won, o_won, draw
    by_marks: tuple[int, ...]  # index = number of marks on the board


@dataclass(frozen=True)
class SolveTable:
    variant: str
    first: str
    canonical: bool
    entries: dict[str, Analysis]  # keyed by canonical board string, by marks then board
    summary: Summary


def reachable(first: Position) -> list[Position]:
    """Every position reachable from `first` by legal play, by number of marks, then board."""
    layer = {first.cells: first}
    out: list[Position] = []
    while layer:
        ordered = [layer[cells] for cells in sorted(layer)]
        out.extend(ordered)
        layer = {}
        for position in ordered:
            for cell in position.legal_moves():
                child = position.play(cell)
                layer.setdefault(child.cells, child)
    return out


def representative(position: Position) -> str:
    """The class's canonical board: the smallest of its symmetric images in string order."""
    geometry = position.geometry
    return min(geometry.transform(position.cells, s) for s in geometry.symmetries)


def solve_table(solver: Solver, first: str = "X", canonical: bool = False) -> SolveTable:
    positions = reachable(Position.empty(solver.variant, first))
    entries = {p.cells: solver.analyze(p) for p in positions}
    table = SolveTable(solver.variant.name, first, False, entries, summarize(entries.values()))
    return canonical_table(table) if canonical else table


def canonical_table(table: SolveTable) -> SolveTable:
    """The same table cut to one representative per symmetry class."""
    entries = {b: a for b, a in table.entries.items() if representative(a.position) == b}
    return SolveTable(table.variant, table.first, True, entries, summarize(entries.values()))


def summarize(analyses: object) -> Summary:
    items = list(analyses)  # type: ignore[call-overload]
    by_result = Counter(a.value.result.value for a in items)
    by_status = Counter(a.position.status.value for a in items)
    marks = Counter(sum(c != "." for c in a.position.cells) for a in items)
    size = max(marks, default=0) + 1
    return Summary(
        positions=len(items),
        by_result={r: by_result.get(r, 0) for r in ("win", "draw", "loss")},
        by_status={s.value: by_status.get(s.value, 0) for s in Status},
        by_marks=tuple(marks.get(n, 0) for n in range(size)),
    )
