"""Why a request that needs a table cannot have one: not ready yet (503, ask again), not built on this
server (503, an operator builds it), or no table can hold the board (422)."""

from __future__ import annotations

from ..engine import EngineError, Variant
from ..engine.rules.variants import MAX_TABLE_CELLS
from ..engine.tables.build_plan import BuildPlan


class TableUnavailableError(Exception):
    """The variant has no table on disk yet (a 503); `retry_after` is None when asking again will not help."""

    variant: Variant
    retry_after: int | None = None


class TableNotReadyError(TableUnavailableError):
    """The variant's table is queued or being built; `reason` says which, ask again after `retry_after` s."""

    def __init__(self, variant: Variant, reason: str, retry_after: int) -> None:
        super().__init__(f"{reason}; ask again in {retry_after} s")
        self.variant, self.reason, self.retry_after = variant, reason, retry_after


class TableNotBuiltError(TableUnavailableError):
    """The variant's table is not on disk and this server does not build it on request: an operator
    builds it (`why` says why the server does not)."""

    def __init__(self, variant: Variant, needs: BuildPlan, why: str) -> None:
        super().__init__(
            f"the {variant.name} table is not built on this server, {why}: an operator builds it with "
            f"`sanmoku tables build {variant.name}` (about {needs.seconds:.0f} s, "
            f"{needs.bytes_on_disk / 1e6:,.0f} MB on disk)"
        )
        self.variant = variant


class NoTableError(EngineError):
    """A table-only request (the solve table, the table file) for a board that no table holds."""

    def __init__(self, variant: Variant) -> None:
        message = (
            f"the {variant.name} board has no solved table, only the search's answers (GET or POST "
            f"/analyze): tables hold boards of at most {MAX_TABLE_CELLS} cells, such as 4x4k4, 4x5k4, "
            f"3x7k4 and 2x11k4, and GET /variants lists the presets"
        )
        super().__init__("no_table", message, "variant")
        self.variant = variant


def without_table_refused(variant: Variant) -> Variant:
    """The variant, if a table can hold it; else a 422 problem naming the boards that have one."""
    if not variant.has_table:
        raise NoTableError(variant)
    return variant
