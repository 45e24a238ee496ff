"""Variants are data: board size, line length, whether a line wins or loses, whether lines wrap, and
whether marks fall (gravity: a mark played in a column drops to its lowest empty cell).

A variant is named ``{rows}x{cols}k{k}``, then ``-torus``, ``-gravity`` and ``-misere``, each when it
applies, in that order (``4x4k3``, ``3x4k3-misere``, ``4x4k4-torus-misere``, ``6x7k4-gravity``); a few
boards keep a short name: ``normal`` and ``misere`` (3x3k3), ``connect4`` (6x7k4-gravity). Every fact
that depends on the board (cells, lines, symmetries, playable cells, centre, depth range) is derived
from these parameters in ``geometry``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ..errors import UnknownVariantError
from .shape import DOWN, Shape

MIN_SIDE = 2
MAX_SIDE = 8  # a board up to 8x8 fits the search's 64-bit masks
MAX_CELLS = MAX_SIDE * MAX_SIDE
MAX_TABLE_CELLS = 22  # the ranked tables: 22 cells take minutes and gigabytes; a longer side needs a table
MIN_K = 3

_NAME = re.compile(
    r"(?P<rows>\d{1,2})x(?P<cols>\d{1,2})k(?P<k>\d{1,2})"
    r"(?P<torus>-torus)?(?P<gravity>-gravity)?(?P<misere>-misere)?"
)
NAMING = (
    f"name a variant {{rows}}x{{cols}}k{{k}}, then any of -torus, -gravity and -misere in that order "
    f"(4x4k3, 3x4k3-misere, 5x5k4-torus-misere, 4x5k4-gravity-misere), with rows and cols from "
    f"{MIN_SIDE} to {MAX_SIDE} (or longer on a board of at most {MAX_TABLE_CELLS} cells, such as 2x11) "
    f"and {MIN_K} <= k <= the longer side; 'normal' and 'misere' name 3x3k3 and 3x3k3-misere, "
    "'connect4' names 6x7k4-gravity"
)
# How a client writes a board's name without a copy of the grammar: the pattern's fields filled in,
# then "-" and each option that holds, in this order (GET /variants gives it).
NAME_FORM = {"pattern": "{rows}x{cols}k{k}", "options": ["torus", "gravity", "misere"]}
# (rows, cols, k, misere, torus, gravity) -> the board's short name
SHORT_NAMES = {
    (3, 3, 3, False, False, False): "normal",
    (3, 3, 3, True, False, False): "misere",
    (6, 7, 4, False, False, True): "connect4",
}


@dataclass(frozen=True)
class Variant:
    rows: int
    cols: int
    k: int
    misere: bool = False
    torus: bool = False
    gravity: bool = False  # a mark played in a column falls to its lowest empty cell

    def __post_init__(self) -> None:
        problem = _unsupported(self.rows, self.cols, self.k)
        if problem:
            raise UnknownVariantError(self.long_name, f"{problem}; {NAMING}")

    @property
    def long_name(self) -> str:
        suffixes = "-torus" * self.torus + "-gravity" * self.gravity + "-misere" * self.misere
        return f"{self.rows}x{self.cols}k{self.k}{suffixes}"

    @property
    def name(self) -> str:
        """The name answers use: the board's short name if it has one, else the long one."""
        key = (self.rows, self.cols, self.k, self.misere, self.torus, self.gravity)
        return SHORT_NAMES.get(key, self.long_name)

    @property
    def cells(self) -> int:
        return self.rows * self.cols

    @property
    def shape(self) -> Shape:
        """The board's shape: a grid of rows and cols (their only meaning beyond it is how it is drawn)."""
        return Shape((self.rows, self.cols), self.torus, DOWN if self.gravity else None)

    @property
    def has_table(self) -> bool:
        """Whether a solved table can hold the variant (else only the search answers it)."""
        return self.cells <= MAX_TABLE_CELLS

    @property
    def rules(self) -> str:
        line = f"{_count_word(self.k)} in a row"
        board = f"on a {self.rows}\N{MULTIPLICATION SIGN}{self.cols} board"
        wrap = (
            ", where lines wrap around the edges (a line never uses a cell twice)"
            if self.torus
            else " (rows, columns and diagonals)"
        )
        outcome = "loses" if self.misere else "wins"
        fall = "; a mark played in a column falls to its lowest empty cell" if self.gravity else ""
        return f"{line} {outcome} {board}{wrap}{fall}; a full board without a line is a draw."


def _unsupported(rows: int, cols: int, k: int) -> str:
    if rows < MIN_SIDE or cols < MIN_SIDE:
        return f"a {rows}x{cols} board has a side shorter than {MIN_SIDE}"
    if max(rows, cols) > MAX_SIDE and rows * cols > MAX_TABLE_CELLS:
        return (
            f"a {rows}x{cols} board has a side longer than {MAX_SIDE} and {rows * cols} cells, more than "
            f"the {MAX_TABLE_CELLS} of a table"
        )
    if not MIN_K <= k <= max(rows, cols):
        return f"k={k} is not between {MIN_K} and {max(rows, cols)}, the longer side of a {rows}x{cols} board"
    return ""


def _count_word(k: int) -> str:
    words = ("Three", "Four", "Five", "Six", "Seven", "Eight")
    return words[k - MIN_K] if k - MIN_K < len(words) else str(k)


NORMAL = Variant(3, 3, 3)
MISERE = Variant(3, 3, 3, misere=True)

# Presets: the boards the service builds at start and lists first; any other supported name works too.
PRESETS: tuple[Variant, ...] = (
    NORMAL,
    MISERE,
    Variant(3, 3, 3, torus=True),
    Variant(3, 4, 3),
    Variant(3, 4, 3, misere=True),
    Variant(4, 4, 3),
    Variant(4, 4, 3, misere=True),
    Variant(4, 4, 4),
    Variant(4, 4, 4, misere=True),
)
VARIANTS: dict[str, Variant] = {v.name: v for v in PRESETS}
CONNECT4 = Variant(6, 7, 4, gravity=True)
# What GET /variants lists: the presets, then the boards no table holds (the search answers them): the
# one people play most, then four in a row on 5×5 (a draw the search proves) and five in a row on
# 6×6 to 8×8 (beyond what it proves from the start).
SEARCHED: tuple[Variant, ...] = (
    CONNECT4,
    Variant(5, 5, 4),
    Variant(6, 6, 5),
    Variant(7, 7, 5),
    Variant(8, 8, 5),
)
LISTED: tuple[Variant, ...] = (*PRESETS, *SEARCHED)
# Every short name, presets or not (connect4 has no table to build at start: only the search plays it).
_SHORT: dict[str, Variant] = {
    name: Variant(rows, cols, k, misere, torus, gravity)
    for (rows, cols, k, misere, torus, gravity), name in SHORT_NAMES.items()
}


@lru_cache(maxsize=1024)  # names come from requests: bounded
def get_variant(name: str) -> Variant:
    """The variant of that name; raise UnknownVariantError saying what is supported."""
    preset = VARIANTS.get(name) or _SHORT.get(name)
    if preset is not None:
        return preset
    match = _NAME.fullmatch(name)
    if match is None:
        raise UnknownVariantError(name, NAMING)
    variant = Variant(
        int(match["rows"]),
        int(match["cols"]),
        int(match["k"]),
        misere=match["misere"] is not None,
        torus=match["torus"] is not None,
        gravity=match["gravity"] is not None,
    )
    if variant.long_name != name and variant.name != name:  # leading zeros: one spelling per variant
        raise UnknownVariantError(name, f"did you mean {variant.name!r}? {NAMING}")
    return variant


def supported_variants(max_cells: int = MAX_CELLS) -> list[Variant]:
    """Every supported variant of at most `max_cells` cells, by cells, then rows, k, torus, gravity and
    misère."""
    out = []
    longest = max(MAX_SIDE, MAX_TABLE_CELLS // MIN_SIDE)
    for rows in range(MIN_SIDE, longest + 1):
        for cols in range(MIN_SIDE, longest + 1):
            if rows * cols > max_cells or _unsupported(rows, cols, MIN_K):
                continue
            for k in range(MIN_K, max(rows, cols) + 1):
                out += [
                    Variant(rows, cols, k, m, t, g)
                    for t in (False, True)
                    for g in (False, True)
                    for m in (False, True)
                ]
    return sorted(out, key=lambda v: (v.cells, v.rows, v.k, v.torus, v.gravity, v.misere))
