"""The Connect Four opening books of the `bitbully-databases` package (Markus Thill, MIT licence), read
as data, the way chess tools read endgame tables: each file's SHA-256 is pinned here and checked before
a byte of it is used, and every entry is matched to a position of our own enumeration (`retrograde`).

The format, as the package's reference reader (`bitbully_databases.py`) reads it and as checked here
against every position: a position's code lists the columns left to right, each from the bottom up, "10"
for a mark of the first player, "11" for one of the second, "0" closing the column; one more "0" ends
the code. Of a position and its mirror image the file holds one (either).

- `book_12ply_distances.dat`: for every position after 12 plies in which the first player, to move,
  cannot win at once (4,200,899 of them up to the mirror), 4 bytes of code (big-endian) and a signed
  byte v: v > 0, the side to move wins and the game ends 100 - v plies later; v < 0, it loses and the
  game ends 100 + v plies later; 0, a draw (the board fills).
- `book_8ply.dat`: 3 bytes of code per position after 8 plies that the first player does not win, its
  two lowest bits (always 0 in a code) the result: 0 a draw, 1 a loss. A position it does not hold is
  a win. No distances: it serves as a second, independent check of the values we derive at ply 8.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ..rules.values import DECODED, Value, encode
from ..rules.variants import CONNECT4
from .arrays import ArrayBoard, Masks, permute
from .retrograde import Bytes, Layer, lookup

PACKAGE, LICENCE = "bitbully-databases", "MIT"
MODULE = "bitbully_databases"
DEEPEST, CHECKED_PLY = 12, 8
SCORES = np.array([0 if v is None else v.score for v in DECODED], dtype=np.int8)  # of each value byte


@dataclass(frozen=True)
class PublishedFile:
    name: str
    sha256: str  # of the file in bitbully-databases 0.0.2 (the hashes of its wheel's RECORD)


DISTANCES = PublishedFile(
    "book_12ply_distances.dat", "1e01874dbb9b296a96baa2f5483ae69333ac7009377b34b222f112d9d8e89704"
)
RESULTS_8 = PublishedFile("book_8ply.dat", "d6585494f36e52a6f3731062010c351d8bc168965244968af8f65d8e1c922f88")


class PublishedBookError(ValueError):
    """The package is missing, or a file of it is not the one whose checksum is pinned here."""


def read_checked(published: PublishedFile, folder: Path | None = None) -> bytes:
    """The file's bytes, from `folder` or the installed package, if its checksum is the pinned one."""
    if folder is None:
        try:
            source = resources.files(MODULE).joinpath("assets", published.name)
        except ModuleNotFoundError:
            raise PublishedBookError(f"{PACKAGE} is not installed (pip install {PACKAGE})") from None
        data = source.read_bytes()
    else:
        data = (folder / published.name).read_bytes()
    found = hashlib.sha256(data).hexdigest()
    if found != published.sha256:
        raise PublishedBookError(f"{published.name}: SHA-256 {found}, not the pinned {published.sha256}")
    return data


def published_code(board: ArrayBoard, mover: Masks, other: Masks) -> Masks:
    """Each position's code in the published books' format, with the side to move as the first player
    (true after an even number of plies): a column at a time, its code read from a table by its height
    and its second player's marks."""
    rows, cols = board.variant.rows, board.variant.cols
    table = _column_codes(rows)
    code = np.zeros(mover.shape, dtype=np.uint64)
    occupied = mover | other
    for col, column in enumerate(board.column_masks):
        height = np.bitwise_count(occupied & column).astype(np.uint64)
        seconds = np.zeros(mover.shape, dtype=np.uint64)
        for up in range(rows):  # from the bottom row
            cell = np.uint64((rows - 1 - up) * cols + col)
            seconds |= ((other >> cell) & np.uint64(1)) << np.uint64(up)
        code = (code << (np.uint64(2) * height + np.uint64(1))) | table[(height << np.uint64(rows)) | seconds]
    return code << np.uint64(1)


@cache
def _column_codes(rows: int) -> Masks:
    """A column's code ("1" and the mark's bit for each mark from the bottom, then "0") by its height h
    and the second player's marks (bit i: the i-th from the bottom), at h * 2**rows + marks."""
    table = np.zeros((rows + 1) << rows, dtype=np.uint64)
    for height in range(rows + 1):
        for seconds in range(1 << height):
            bits = "".join("1" + str(seconds >> i & 1) for i in range(height)) + "0"
            table[(height << rows) | seconds] = int(bits, 2)
    return table


def _either_image(board: ArrayBoard, layer: Layer, keys: npt.NDArray[np.uint64], values: Bytes) -> Bytes:
    """The value the published file gives each position of the layer, under its code or its mirror's
    (0 where it holds neither)."""
    mirror = board.symmetries[0]
    found = lookup(keys, values, published_code(board, layer.mover, layer.other))
    mirrored = permute(layer.mover, mirror), permute(layer.other, mirror)
    other_way = lookup(keys, values, published_code(board, *mirrored))
    return np.where(found != 0, found, other_way).astype(np.uint8)


def distance_bytes(distances: npt.NDArray[np.int8], ply: int, cells: int) -> Bytes:
    """The published signed distances as our value bytes, for the side to move."""
    out = np.empty(distances.shape, dtype=np.uint8)
    for v in np.unique(distances).tolist():
        if v > 0:
            value = Value(1, 100 - v)
        elif v < 0:
            value = Value(-1, 100 + v)
        else:
            value = Value(0, cells - ply)  # a draw fills the board
        out[distances == v] = encode(value)
    return out


def leaf_values(board: ArrayBoard, layer: Layer, folder: Path | None = None) -> Bytes:
    """The values of the positions after 12 plies: a win in 1 where the side to move can make a line
    now (the file leaves those out), else the published value; 0 where neither is known."""
    if board.variant != CONNECT4 or layer.ply != DEEPEST:
        raise PublishedBookError(f"the published book holds Connect Four after {DEEPEST} plies only")
    records = np.frombuffer(read_checked(DISTANCES, folder), dtype=[("code", ">u4"), ("value", "i1")])
    order = np.argsort(records["code"], kind="stable")  # stored in the order of signed codes
    codes = records["code"][order].astype(np.uint64)
    values = distance_bytes(records["value"][order], DEEPEST, board.cells)
    found = _either_image(board, layer, codes, values)
    return np.where(board.wins_now(layer.mover, layer.other), encode(Value(1, 1)), found).astype(np.uint8)


def results_disagreeing(board: ArrayBoard, layer: Layer, values: Bytes, folder: Path | None = None) -> int:
    """How many positions after 8 plies the published 8-ply book gives another result than `values`
    (ours, by the retrograde pass from ply 12)."""
    if layer.ply != CHECKED_PLY:
        raise PublishedBookError(f"the 8-ply book checks the layer of ply {CHECKED_PLY}, not {layer.ply}")
    raw = np.frombuffer(read_checked(RESULTS_8, folder), dtype=np.uint8).reshape(-1, 3).astype(np.uint64)
    packed = (raw[:, 0] << np.uint64(16)) | (raw[:, 1] << np.uint64(8)) | raw[:, 2]
    codes = packed & ~np.uint64(3)
    order = np.argsort(codes)
    draw, loss = encode(Value(0, 0)), encode(Value(-1, 0))  # stand-ins: only the result is compared
    results = np.where((packed & np.uint64(3)) == 0, draw, loss).astype(np.uint8)[order]
    theirs = _either_image(board, layer, codes[order], results)
    ours = SCORES[values]
    published = np.where(theirs == 0, 1, np.where(theirs == draw, 0, -1))
    return int(np.count_nonzero(ours != published))
