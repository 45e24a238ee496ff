"""The rules the search plays by, as the compiled core needs them: a board as data (its cells, its lines,
each cell's wait-cell under gravity, misère), with the symmetries and playable cells its variant's
geometry derives.

A Board is made from a Variant (`Board.of`, once per variant and process) and adds only what the search
alone needs: the symmetries that fix a position, found fast. It checks nothing the Variant and its
geometry have not checked already.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np
import numpy.typing as npt

from ..rules.canonical import point_permuters
from ..rules.geometry import Geometry, geometry_of
from ..rules.masks import Symmetry
from ..rules.variants import Variant


@dataclass(frozen=True, eq=False)
class Board:
    variant: Variant
    geometry: Geometry

    @staticmethod
    @lru_cache(maxsize=256)  # variants come from requests: bounded
    def of(variant: Variant) -> Board:
        if variant.renju:  # the core would prove freestyle results and call them renju's
            raise ValueError(
                f"the search knows nothing of {variant.name}'s forbidden points: search it freestyle"
            )
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

    @property
    def waits(self) -> tuple[int | None, ...]:
        """The cell each cell waits for under gravity (None: none), as the core takes it."""
        return self.geometry.waits

    @property
    def misere(self) -> bool:
        return self.variant.misere

    @property
    def flanks(self) -> tuple[int, ...] | None:
        """Under "exactly k", per line the cells beside its ends; None: k or more."""
        return self.geometry.flanks

    def playable(self, occupied: int) -> int:
        return self.geometry.playable(occupied)

    def is_over(self, mine: int, theirs: int) -> bool:
        """The game ended: the side that just moved holds a line, or the board is full."""
        return self.geometry.holds_line(theirs) or (mine | theirs) == self.full

    def fixing(self, mine: int, theirs: int) -> list[Symmetry]:
        """The symmetries other than the identity that map the position onto itself."""
        if not self.variant.torus:  # at most 7, a byte table each (shared with the proven positions' keys)
            permuters = point_permuters(self.variant)[1:]
            return [s for s, permute in permuters if permute(mine) == mine and permute(theirs) == theirs]
        # A torus has up to 511 (each translation, turned and reflected): one byte table per symmetry
        # took 1.5 s to build for 8x8, before the first search of the variant. Instead, all of them at
        # once: a symmetry fixes the position if every mark's image holds a mark of the same side.
        held_mine, held_theirs = _held(mine, self.cells), _held(theirs, self.cells)
        images = self._images
        fixed = held_mine[images[:, held_mine]].all(axis=1) & held_theirs[images[:, held_theirs]].all(axis=1)
        symmetries = self.geometry.symmetries
        return [symmetries[i + 1] for i in np.flatnonzero(fixed).tolist()]

    @cached_property
    def _images(self) -> npt.NDArray[np.intp]:
        """Each symmetry but the identity as a row of the cells' images."""
        return np.array(self.geometry.symmetries[1:], dtype=np.intp).reshape(-1, self.cells)


def _held(mask: int, cells: int) -> npt.NDArray[np.bool_]:
    """Whether each cell is in `mask`, as an array (any number of cells: a 9x9 torus has 81)."""
    as_bytes = np.frombuffer(mask.to_bytes((cells + 7) // 8, "little"), dtype=np.uint8)
    return np.unpackbits(as_bytes, bitorder="little")[:cells].astype(np.bool_)
