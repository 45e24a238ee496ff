"""What a request asks, as typed values: the schemas load a request into one of these, and the views
read them (no dictionaries of fields cross modules)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..engine import Deadline, GamePosition, Position, Variant, board_variant, cells_of, read_position


@dataclass(frozen=True)
class Searching:
    """How far a search may go for an answer no table gives."""

    budget_ms: int
    source: str  # "auto": the table, else a proven position, else a search; "search": a search
    estimates: bool

    @property
    def search_only(self) -> bool:
        return self.source == "search"

    def deadline(self) -> Deadline:
        return Deadline.after(self.budget_ms / 1000)


@dataclass(frozen=True)
class AnalyzeParams(Searching):
    board: str
    to_move: str | None
    variant: str
    mainline: bool

    def position(self) -> GamePosition:
        return read_position(self.variant, self.board, self.to_move)


@dataclass(frozen=True)
class MoveParams(Searching):
    board: str
    to_move: str | None
    variant: str
    policy: str
    depth: int | None
    seed: int | None

    def position(self) -> Position:
        return Position.parse(self.board, self.to_move, board_variant(self.variant))


@dataclass(frozen=True)
class ReviewParams(Searching):
    variant: str
    first: str
    moves: Sequence[int] | None  # cells; a request may name them (`h8`), read here on the variant's board
    boards: Sequence[str] | None
    columns: Sequence[int] | None

    def __post_init__(self) -> None:
        named: Sequence[int | str] | None = self.moves
        if named is not None and any(isinstance(move, str) for move in named):
            object.__setattr__(self, "moves", cells_of(self.game_variant(), named))

    def game_variant(self) -> Variant:
        return board_variant(self.variant)


@dataclass(frozen=True)
class BatchParams:
    positions: Sequence[Any]  # each item is loaded on its own: one bad item fails alone
    budget_ms: int


@dataclass(frozen=True)
class SolveParams:
    variant: str
    first: str
    symmetry: str
    format: str


@dataclass(frozen=True)
class TreeParams:
    board: str
    to_move: str | None
    variant: str
    depth: int | None  # None: as deep as fits within the tree's bound
    algorithm: str
    format: str

    def position(self) -> GamePosition:
        return read_position(self.variant, self.board, self.to_move)
