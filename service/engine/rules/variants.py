"""Variants are data: board size, line length, whether a line wins or loses, whether lines wrap, and
whether marks fall (gravity: a mark played in a column drops to its lowest empty cell).

A variant is named ``{rows}x{cols}k{k}``, then ``-torus``, ``-gravity``, ``-misere``, ``-exact`` and
``-renju``, each when it applies, in that order (``4x4k3``, ``3x4k3-misere``, ``4x4k4-torus-misere``,
``6x7k4-gravity``, ``15x15k5-exact``, ``15x15k5-renju``); a box of layers (three sides) is named
``{layers}x{rows}x{cols}k{k}`` (``3x3x3k3``, Qubic's ``4x4x4k4``), then ``-misere`` and ``-exact`` when
they apply. ``-exact`` is the rule "exactly k": a run of more than k marks is no line (gomoku's
standard rule); without it k or more in a row make one. ``-renju`` is renju's rule on a flat board with
five in a row: the first player (black) may not play a forbidden point (``renju``: a double-three, a
double-four or an overline) and wins with exactly five, the second with five or more. A few boards keep
a short name: ``normal`` and ``misere`` (3x3k3), ``connect4`` (6x7k4-gravity); gomoku's rules on 15x15
are also called ``gomoku`` (15x15k5), ``gomoku-standard`` (15x15k5-exact) and ``renju``
(15x15k5-renju), names a request may use while answers keep the long ones. Every fact that depends on
the board (cells, lines, symmetries, playable cells, centre, depth range) is derived from these
parameters in ``geometry``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from math import prod

from ..errors import UnknownVariantError
from .shape import DOWN, Shape

MIN_SIDE = 2
MAX_SIDE = 20  # Gomocup's largest board, 20x20: 400 cells, within the widest build of the search
MAX_CELLS = MAX_SIDE * MAX_SIDE
MAX_TABLE_CELLS = 22  # the ranked tables: 22 cells take minutes and gigabytes; a longer side needs a table
MIN_K = 3
TIMES = "\N{MULTIPLICATION SIGN}"

_NAME = re.compile(
    r"(?:(?P<layers>\d{1,2})x)?(?P<rows>\d{1,2})x(?P<cols>\d{1,2})k(?P<k>\d{1,2})"
    r"(?P<torus>-torus)?(?P<gravity>-gravity)?(?P<misere>-misere)?(?P<exact>-exact)?(?P<renju>-renju)?"
)
RENJU_K = 5  # renju's forbidden shapes are threes, fours and overlines on the way to five
NAMING = (
    f"name a variant {{rows}}x{{cols}}k{{k}}, then any of -torus, -gravity, -misere, -exact and -renju in "
    f"that order (4x4k3, 3x4k3-misere, 15x15k5, 5x5k4-torus-misere, 4x5k4-gravity-misere, 15x15k5-exact: "
    f"exactly k, a longer run is no line; not with -torus or -gravity; 19x19k5-renju: renju's rule, "
    f"k={RENJU_K} on a flat board and no other option), or a box of layers "
    f"{{layers}}x{{rows}}x{{cols}}k{{k}}, then -gravity, -misere and -exact if they apply (3x3x3k3, "
    f"4x4x4k4, 4x4x4k4-gravity: marks fall through the layers to the last), with "
    f"every side from {MIN_SIDE} to {MAX_SIDE}, at most {MAX_CELLS} cells, and {MIN_K} <= k <= the longest "
    "side; 'normal' and 'misere' name 3x3k3 and 3x3k3-misere, 'connect4' names 6x7k4-gravity, 'gomoku', "
    "'gomoku-standard' and 'renju' name 15x15k5, 15x15k5-exact and 15x15k5-renju"
)
# How a client writes a board's name without a copy of the grammar: the pattern's fields filled in,
# then "-" and each option that holds, in this order (GET /variants gives it). A box of layers puts
# "{layers}x" first (`box_pattern`) and takes the options of `box_options` only; an option of `excludes`
# is never named with the options it lists (as `_unsupported` refuses them), and one of `option_k` only
# with its k.
# Options never named together: the wrapping lines of a torus have no ends, and the core's columns count
# k or more (not yet)
# k or more (not yet); renju's forbidden points are decided on a flat board's runs, with its own wins
EXCLUDES = {"exact": ["torus", "gravity"], "renju": ["torus", "gravity", "misere", "exact"]}
NAME_FORM = {
    "pattern": "{rows}x{cols}k{k}",
    "options": ["torus", "gravity", "misere", "exact", "renju"],
    "box_pattern": "{layers}x{rows}x{cols}k{k}",
    "box_options": ["gravity", "misere", "exact"],
    "excludes": EXCLUDES,
    "option_k": {"renju": RENJU_K},  # an option named only with this k
}
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
    gravity: bool = False  # a mark falls to the lowest empty cell of its column (a box's: through its layers)
    layers: int = 1  # a box's layers of rows x cols each; 1: a flat grid
    exact: bool = False  # exactly k: a run of more than k marks is no line (else k or more make one)
    # Renju's rule (k = 5): the first player may not play a forbidden point and wins with exactly five
    renju: bool = False

    def __post_init__(self) -> None:
        problem = _unsupported(
            self.sides, self.k, self.torus, self.gravity, self.exact, self.renju, self.misere
        )
        if problem:
            raise UnknownVariantError(self.long_name, f"{problem}; {NAMING}")

    @property
    def sides(self) -> tuple[int, ...]:
        """The length of each side, the slowest first: (rows, cols), or (layers, rows, cols) for a box."""
        return (self.rows, self.cols) if self.layers == 1 else (self.layers, self.rows, self.cols)

    @property
    def long_name(self) -> str:
        suffixes = "-torus" * self.torus + "-gravity" * self.gravity + "-misere" * self.misere
        options = f"{suffixes}{'-exact' * self.exact}{'-renju' * self.renju}"
        return f"{'x'.join(map(str, self.sides))}k{self.k}{options}"

    @property
    def name(self) -> str:
        """The name answers use: the board's short name if it has one, else the long one."""
        if self.layers != 1 or self.exact or self.renju:
            return self.long_name
        key = (self.rows, self.cols, self.k, self.misere, self.torus, self.gravity)
        return SHORT_NAMES.get(key, self.long_name)

    @property
    def cells(self) -> int:
        return prod(self.sides)

    @property
    def shape(self) -> Shape:
        """The board's shape: a grid of rows and cols, or a box of such layers (rows, cols and layers
        mean nothing else than how the board is drawn)."""
        return Shape(self.sides, self.torus, DOWN if self.gravity else None)

    @property
    def has_table(self) -> bool:
        """Whether a solved table can hold the variant (else only the search answers it): a flat board
        of few cells (the tables' layouts know a grid's eight reflections and turns, not a box's)."""
        return self.layers == 1 and self.cells <= MAX_TABLE_CELLS and not self.renju

    @property
    def rules(self) -> str:
        if self.renju:
            return (
                f"Renju on a {TIMES.join(map(str, self.sides))} board: black (the first player) wins with "
                "exactly five in a row and may not make a double-three, a double-four or an overline "
                "(six or more); white wins with five or more; a full board without a line is a draw."
            )
        line = (
            f"Exactly {_count_word(self.k).lower()} in a row (a longer run does not count)"
            if self.exact
            else f"{_count_word(self.k)} in a row"
        )
        board = f"on a {TIMES.join(map(str, self.sides))} {_solid(self.sides)}"
        wrap = (
            ", where lines wrap around the edges (a line never uses a cell twice)"
            if self.torus
            else " (rows, columns and diagonals)"
            if self.layers == 1
            else " (along every side and every diagonal, through the layers too)"
        )
        outcome = "loses" if self.misere else "wins"
        fall = (
            ""
            if not self.gravity
            else "; a mark played in a column falls to its lowest empty cell"
            if self.layers == 1
            else "; a mark falls through the layers to the lowest empty cell of its place (the last layer "
            "is the bottom)"
        )
        return f"{line} {outcome} {board}{wrap}{fall}; a full board without a line is a draw."


def _unsupported(
    sides: tuple[int, ...],
    k: int,
    torus: bool,
    gravity: bool,
    exact: bool = False,
    renju: bool = False,
    misere: bool = False,
) -> str:
    board = "x".join(map(str, sides))
    if min(sides) < MIN_SIDE:
        return f"the {board} board has a side shorter than {MIN_SIDE}"
    if max(sides) > MAX_SIDE:
        return f"the {board} board has a side longer than {MAX_SIDE}"
    if prod(sides) > MAX_CELLS:
        return f"the {board} board has {prod(sides)} cells, more than {MAX_CELLS}"
    if len(sides) > 2 and torus:  # not yet: a box's lines wrapping through its faces
        return f"a box of layers ({board}) takes no -torus"
    if len(sides) > 2 and renju:
        return f"a box of layers ({board}) takes no -renju"
    held = {"torus": torus, "gravity": gravity, "exact": exact, "renju": renju, "misere": misere}
    for option, excluded in EXCLUDES.items():
        if held[option] and any(held[other] for other in excluded):
            return f"-{option} takes no {' or '.join('-' + other for other in excluded)} ({board})"
    if renju and k != RENJU_K:
        return f"-renju needs k={RENJU_K} (five in a row), not k={k} ({board})"
    if not MIN_K <= k <= max(sides):
        return f"k={k} is not between {MIN_K} and {max(sides)}, the longest side of the {board} board"
    return ""


def _solid(sides: tuple[int, ...]) -> str:
    if len(sides) == 2:
        return "board"
    return "cube" if len(set(sides)) == 1 else "box"


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
# one people play most, then four in a row on 5×5 (a draw the search proves), five in a row on 6×6 to
# 8×8 and on gomoku's 15×15 (beyond what it proves from the start) under freestyle, standard (exactly
# five) and renju rules, and three boxes of layers: 3×3×3 (a
# first-player win the search proves), Qubic's 4×4×4 and Score Four (4×4×4 under gravity, unsolved).
SEARCHED: tuple[Variant, ...] = (
    CONNECT4,
    Variant(5, 5, 4),
    Variant(6, 6, 5),
    Variant(7, 7, 5),
    Variant(8, 8, 5),
    Variant(15, 15, 5),
    Variant(15, 15, 5, exact=True),
    Variant(15, 15, 5, renju=True),
    Variant(3, 3, 3, layers=3),
    Variant(4, 4, 4, layers=4),
    Variant(4, 4, 4, layers=4, gravity=True),
)
LISTED: tuple[Variant, ...] = (*PRESETS, *SEARCHED)
# Every short name, presets or not (connect4 has no table to build at start: only the search plays it).
_SHORT: dict[str, Variant] = {
    name: Variant(rows, cols, k, misere, torus, gravity)
    for (rows, cols, k, misere, torus, gravity), name in SHORT_NAMES.items()
}


# Gomoku's rules on its board by the names players use; answers name them by their long names.
GOMOKU_NAMES: dict[str, Variant] = {
    "gomoku": Variant(15, 15, 5),
    "gomoku-standard": Variant(15, 15, 5, exact=True),
    "renju": Variant(15, 15, 5, renju=True),
}


def aliases(variant: Variant) -> list[str]:
    """The other names a request may give the variant (gomoku's)."""
    return [name for name, named in GOMOKU_NAMES.items() if named == variant]


@lru_cache(maxsize=1024)  # names come from requests: bounded
def get_variant(name: str) -> Variant:
    """The variant of that name; raise UnknownVariantError saying what is supported."""
    preset = VARIANTS.get(name) or _SHORT.get(name) or GOMOKU_NAMES.get(name)
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
        layers=1 if match["layers"] is None else int(match["layers"]),
        exact=match["exact"] is not None,
        renju=match["renju"] is not None,
    )
    if variant.long_name != name and variant.name != name:  # leading zeros: one spelling per variant
        raise UnknownVariantError(name, f"did you mean {variant.name!r}? {NAMING}")
    return variant


def supported_variants(max_cells: int) -> list[Variant]:
    """Every supported flat variant (rows x cols) of the rule "k or more" of at most `max_cells` cells, by
    cells, then rows, k, torus, gravity and misère."""
    out = []
    for rows in range(MIN_SIDE, MAX_SIDE + 1):
        for cols in range(MIN_SIDE, MAX_SIDE + 1):
            if rows * cols > max_cells or _unsupported((rows, cols), MIN_K, False, False):
                continue
            for k in range(MIN_K, max(rows, cols) + 1):
                out += [
                    Variant(rows, cols, k, m, t, g)
                    for t in (False, True)
                    for g in (False, True)
                    for m in (False, True)
                ]
    return sorted(out, key=lambda v: (v.cells, v.rows, v.k, v.torus, v.gravity, v.misere))
