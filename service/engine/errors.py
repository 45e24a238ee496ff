"""Every error the searcher raises, in one place.

`EngineError` and its kinds are bad input: each says what was wrong and carries a machine-readable code
and the field at fault (the HTTP layer answers 422). `TableUnavailableError` and `SearchBusyError` are
not the caller's fault: a table not on disk yet, or every search slot taken (the HTTP layer answers 503).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .rules.variants import Variant


class EngineError(ValueError):
    """Base of every error the searcher raises on bad input."""

    code: str = "engine_error"

    def __init__(self, code: str, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field


class InvalidPositionError(EngineError):
    """The board and side to move cannot arise by legal play from the empty board."""


class UnknownVariantError(EngineError):
    """No supported variant has that name."""

    def __init__(self, name: str, explanation: str) -> None:
        super().__init__("unknown_variant", f"unknown variant {name!r}: {explanation}", field="variant")


class NoBoardError(EngineError):
    """A game without a board (Eight's running total) asked for where only a board's variant will do."""

    def __init__(self, name: str, takes: str) -> None:
        super().__init__(
            "no_board",
            f"{name!r} is a game without a board, which only analyses and trees take; {takes}",
            field="variant",
        )


class IllegalMoveError(EngineError):
    """A move that is not allowed in the given position."""


class IllegalSequenceError(IllegalMoveError):
    """A game that cannot be played as given; `ply` is the 1-based ply where it goes wrong."""

    def __init__(self, code: str, message: str, field: str, ply: int) -> None:
        super().__init__(code, message, field)
        self.ply = ply


class PolicyError(EngineError):
    """A move was asked for with an unknown policy, a depth out of range, or a finished game."""


class BuildRefusedError(EngineError):
    """A table this machine cannot hold: not enough disk or memory for its build."""

    def __init__(self, variant: str, reason: str) -> None:
        super().__init__("build_refused", f"the {variant} table cannot be built here: {reason}")
        self.reason = reason


class ClusterUnavailableError(EngineError):
    """A build was sent to a Ray cluster that cannot be reached (or Ray is not installed)."""

    def __init__(self, reason: str) -> None:
        super().__init__("cluster_unavailable", f"cannot build on a Ray cluster: {reason}")


class ProvenCacheError(EngineError):
    """The cache of proven positions cannot be read or written (the command line says why; the service
    answers without it)."""

    def __init__(self, message: str) -> None:
        super().__init__("cache", message)


class NoTableError(EngineError):
    """A table-only request (the solve table, the table file) for a board that no table holds."""

    def __init__(self, variant: Variant, max_table_cells: int) -> None:
        message = (
            f"the {variant.name} board has no solved table, only the search's answers (GET or POST "
            f"/analyze): tables hold flat boards of at most {max_table_cells} cells, such as 4x4k4, 4x5k4, "
            f"3x7k4 and 2x11k4, and GET /variants lists the presets"
        )
        super().__init__("no_table", message, "variant")
        self.variant = variant


class TableUnavailableError(Exception):
    """The variant has no table on disk yet; `retry_after` is None when asking again will not help."""

    variant: Variant
    retry_after: int | None = None


class TableNotReadyError(TableUnavailableError):
    """The variant's table is queued or being built; `reason` says which, ask again after `retry_after` s."""

    def __init__(self, variant: Variant, reason: str, retry_after: int) -> None:
        super().__init__(f"{reason}; ask again in {retry_after} s")
        self.variant, self.reason, self.retry_after = variant, reason, retry_after


class TableChangedError(TableNotReadyError):
    """The variant's table file was written into (in place) after its bytes were checked: what was read
    from it is not used, and the file is checked again before it answers (it may be rebuilt)."""

    def __init__(self, variant: Variant) -> None:
        reason = f"the {variant.name} table's file changed while it was read; it is being checked again"
        super().__init__(variant, reason, 1)


class TableNotBuiltError(TableUnavailableError):
    """The variant's table is not on disk and is not built on request: an operator builds it (`why`
    says why it is not built on request)."""

    def __init__(self, variant: Variant, why: str, seconds: float, bytes_on_disk: int) -> None:
        super().__init__(
            f"the {variant.name} table is not built on this server, {why}: an operator builds it with "
            f"`sanmoku tables build {variant.name}` (about {seconds:.0f} s, "
            f"{bytes_on_disk / 1e6:,.0f} MB on disk)"
        )
        self.variant = variant


class SearchBusyError(RuntimeError):
    """Every search slot of this process stayed taken for as long as the request may wait (its budget,
    or a tenth of it when every slot is held past its end)."""


class SearcherBusyError(RuntimeError):
    """Two threads used one searcher at once: its transposition table is not shared."""
