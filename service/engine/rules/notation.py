"""Cells as players write them on a flat board: a column letter from `a` at the left, then a row number.
Rows count from 1 at the bottom where players count them so: on a board of 13 or more a side without a
torus, as renju and gomoku records do (`h8` is the centre of 15x15: cell 112), and under gravity, where
marks land first on row 1 (Connect Four's players). Elsewhere they count from 1 at the top, as the page
names cells (`a1` the top left of 3x4). A box of layers has no such names. Letters run `a` to `t` (20
columns, the widest board); no letter is skipped.
"""

from __future__ import annotations

import re
from string import ascii_lowercase

from ..errors import EngineError
from .variants import MAX_SIDE, Variant

LETTERS = ascii_lowercase[:MAX_SIDE]
GO_BOARD_SIDE = 13  # from this side on, a board is a go board whose rows count up (the page's shape.js)
_NAME = re.compile(r"([a-z])([0-9]{1,2})")


class CellNameError(EngineError):
    """A cell name that is not of the form or not on the board."""


def cell_name(variant: Variant, cell: int) -> str:
    _flat(variant)
    row, col = divmod(cell, variant.cols)
    return f"{LETTERS[col]}{variant.rows - row if counts_up(variant) else row + 1}"


def cell_of(variant: Variant, name: str) -> int:
    """The cell a name such as `h8` (any case) names; CellNameError says what is wrong."""
    _flat(variant)
    found = _NAME.fullmatch(name.strip().lower())
    last = f"{LETTERS[variant.cols - 1]}{variant.rows}"
    if found is None:
        raise CellNameError(
            "bad_cell_name", f"{name!r} is not a cell: write a column letter and a row number (a1 to {last})"
        )
    col, row = LETTERS.index(found[1]) if found[1] in LETTERS else MAX_SIDE, int(found[2])
    if col >= variant.cols or not 1 <= row <= variant.rows:
        raise CellNameError(
            "bad_cell_name", f"{name!r} is off the {variant.rows}x{variant.cols} board (a1 to {last})"
        )
    return (variant.rows - row if counts_up(variant) else row - 1) * variant.cols + col


def counts_up(variant: Variant) -> bool:
    """Whether the board's rows are numbered from 1 at the bottom (else from 1 at the top)."""
    go_board = min(variant.rows, variant.cols) >= GO_BOARD_SIDE and not variant.torus
    return variant.gravity or go_board


def _flat(variant: Variant) -> None:
    if variant.layers != 1:
        raise CellNameError(
            "bad_cell_name", f"the cells of a box ({variant.name}) have no names: give numbers"
        )
