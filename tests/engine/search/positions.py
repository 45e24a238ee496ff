"""Positions for the search tests, given as the masks of the side to move and of the other side: made
from masks, from board strings, from random play, and from a table's ranks."""

from __future__ import annotations

import random

import numpy as np
import numpy.typing as npt

from service.engine import Mark, Position, Variant
from service.engine.search import Board
from service.engine.tables.layout import layout_of


def position_of(variant: Variant, mine: int, theirs: int) -> Position:
    """The position where the side to move holds `mine` and the other side `theirs`: X moves when the
    counts are equal, else O. Not checked: a test builds what it means to."""
    if mine.bit_count() == theirs.bit_count():
        return Position(variant, mine, theirs, Mark.X)
    return Position(variant, theirs, mine, Mark.O)


def empty(variant: Variant) -> Position:
    return Position.empty(variant)


def random_position(board: Board, empty: int, rng: random.Random) -> tuple[int, int]:
    """(mine, theirs) after random play leaves `empty` cells, the game still going on."""
    while True:
        mine = theirs = 0
        while board.cells - (mine | theirs).bit_count() > empty and not board.is_over(mine, theirs):
            cells = [c for c in range(board.cells) if not (mine | theirs) >> c & 1]
            mine, theirs = theirs, mine | 1 << rng.choice(cells)
        if not board.is_over(mine, theirs):
            return mine, theirs


def random_positions(variant: Variant, count: int, seed: int) -> list[Position]:
    """Positions of random games, cut at a random ply (finished games included)."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        position = Position.empty(variant, rng.choice("XO"))
        for _ in range(rng.randrange(variant.cells + 1)):
            if position.is_over:
                break
            position = position.play(rng.choice(position.legal_moves()))
        out.append(position)
    return out


def masks(board: str) -> tuple[int, int]:
    """The X and O masks of a board string (cells row by row)."""
    x = sum(1 << i for i, mark in enumerate(board) if mark == "X")
    o = sum(1 << i for i, mark in enumerate(board) if mark == "O")
    return x, o


def masks_of(
    cells: int, ranks: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.uint32], npt.NDArray[np.uint32]]:
    """The first and the second player's cells at each rank (the layout read backwards)."""
    layout = layout_of(cells)
    blocks = layout.blocks()
    starts = np.array([b.offset for b in blocks], dtype=np.int64)
    which = np.searchsorted(starts, ranks, side="right") - 1
    first = np.zeros(len(ranks), dtype=np.uint32)
    second = np.zeros(len(ranks), dtype=np.uint32)
    for number in np.unique(which):
        block, here = blocks[number], which == number
        row, col = np.divmod(ranks[here] - block.offset, block.cols)
        lead = layout.lead.groups[block.lead_group][row]
        trail = layout.trail.groups[block.trail_group][col]
        first[here] = layout.lead.first[lead] | layout.trail.first[trail]
        second[here] = layout.lead.second[lead] | layout.trail.second[trail]
    return first, second


def random_play(board: Board, plies: int, rng: random.Random) -> tuple[int, int]:
    """(mine, theirs) after `plies` random moves of a game still going on."""
    while True:
        mine = theirs = 0
        for _ in range(plies):
            moves = [c for c in range(board.cells) if board.playable(mine | theirs) >> c & 1]
            mine, theirs = theirs, mine | 1 << rng.choice(moves)
            if board.is_over(mine, theirs):
                break
        else:
            return mine, theirs
