"""The engine's exceptions: each says what was wrong and carries a machine-readable code."""

from __future__ import annotations


class EngineError(ValueError):
    """Base of every error the engine raises on bad input."""

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


class IllegalMoveError(EngineError):
    """A move that is not allowed in the given position."""


class BuildRefusedError(EngineError):
    """A table this machine cannot hold: not enough disk or memory for its build."""

    def __init__(self, variant: str, reason: str) -> None:
        super().__init__("build_refused", f"the {variant} table cannot be built here: {reason}")
        self.reason = reason
