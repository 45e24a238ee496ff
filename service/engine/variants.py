"""Variants are data: board size, line length and whether a line wins or loses."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import UnknownVariantError


@dataclass(frozen=True)
class Variant:
    name: str
    rows: int
    cols: int
    k: int
    misere: bool
    rules: str

    @property
    def cells(self) -> int:
        return self.rows * self.cols


NORMAL = Variant(
    name="normal",
    rows=3,
    cols=3,
    k=3,
    misere=False,
    rules="Three in a row wins; a full board without a line is a draw.",
)
MISERE = Variant(
    name="misere",
    rows=3,
    cols=3,
    k=3,
    misere=True,
    rules="Three in a row loses; a full board without a line is a draw.",
)

VARIANTS: dict[str, Variant] = {v.name: v for v in (NORMAL, MISERE)}


def get_variant(name: str) -> Variant:
    try:
        return VARIANTS[name]
    except KeyError:
        raise UnknownVariantError(name, list(VARIANTS)) from None
