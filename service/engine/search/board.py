"""The rules the search plays by, as the compiled core needs them: a variant's shape, line length,
misère, torus and gravity, with the lines, symmetries and playable cells its geometry derives.

A Board is made from a Variant (`Board.of`, once per variant and process) and adds only what the search
alone needs: each symmetry as a byte-table permuter, built on first use. It checks nothing the Variant
and its geometry have not checked already.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache

from ..rules.geometry import Geometry, geometry_of
from ..rules.masks import Permuter, Symmetry
from ..rules.variants import Variant


@dataclass(frozen=True, eq=False)
class Board:
    variant: Variant
    geometry: Geometry

    @staticmethod
    @lru_cache(maxsize=256)  # variants come from requests: bounded
    def of(variant: Variant) -> Board:
        return Board(variant, geometry_of(variant))

    @property
    def name(self) -> str:
        return self.variant.long_name

    @property
    def cells(self) -> int:
        return self.geometry.cells

    @property
    def full(self) -> int:
        return self.geometry.full

    @property
    def lines(self) -> tuple[int, ...]:
        return self.geometry.lines

    def playable(self, occupied: int) -> int:
        return self.geometry.playable(occupied)

    def is_over(self, mine: int, theirs: int) -> bool:
        """The game ended: the side that just moved holds a line, or the board is full."""
        return self.geometry.holds_line(theirs) or (mine | theirs) == self.full

    @cached_property
    def permuters(self) -> tuple[tuple[Symmetry, Permuter], ...]:
        """Each symmetry but the identity, with its permutation of masks a byte at a time."""
        return tuple((symmetry, Permuter(symmetry)) for symmetry in self.geometry.symmetries[1:])
