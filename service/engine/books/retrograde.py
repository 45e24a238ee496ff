"""The positions of a board's first plies, and their values from the deepest ply's by a retrograde pass.

A layer is every position in progress after one number of plies, once per symmetry class, found
from the layer before by every legal move; the links between two layers say, for each move of each
position, which position of the next layer it leads to, or that it ended the game (a line, a full
board: no layer holds those). Given the values of the last layer (a published book, a search, a table),
each layer above follows without a search: a position's value is its best child's, seen from the other
side, one ply further from the end. A child with no value is an error, never a guess. All of it runs
on arrays (`arrays`), a move at a time.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..rules.values import NO_CHILD, SEEN_BY_MOVER, Value, encode
from .arrays import ArrayBoard, Masks, masks

Bytes = npt.NDArray[np.uint8]
Indices = npt.NDArray[np.int32]  # a layer holds fewer than 2**31 positions
LINE, FULL = -1, -2  # a link's target when the move ended the game
# A finished game's value for the side to move: the other side made a line (a loss), or filled the board.
LINE_MADE, FULL_BOARD = encode(Value(-1, 0)), encode(Value(0, 0))


class IncompleteBookError(ValueError):
    """A position whose child has no value."""


@dataclass(frozen=True)
class Layer:
    ply: int
    keys: Masks  # sorted, one per symmetry class
    mover: Masks  # a position of each class (any image), in the order of the keys
    other: Masks


@dataclass(frozen=True)
class Links:
    """The moves from one layer into the next, one pair of arrays per move of the board: the positions
    that can play it, and the index in the next layer of where each goes (or LINE, FULL)."""

    moves: tuple[tuple[Indices, Indices], ...]


@dataclass(frozen=True)
class Layers:
    layers: list[Layer]  # plies 0 to the deepest
    links: list[Links]  # links[p] from layers[p] into layers[p + 1]


def build_layers(board: ArrayBoard, plies: int) -> Layers:
    """The layers of plies 0 to `plies`, from the empty board down, and the links between them."""
    empty = masks([0])
    found = [Layer(0, board.key(empty, empty), empty, empty)]
    links = []
    for ply in range(1, plies + 1):
        layer, link = _next_layer(board, found[-1], ply)
        found.append(layer)
        links.append(link)
    return Layers(found, links)


def _next_layer(board: ArrayBoard, layer: Layer, ply: int) -> tuple[Layer, Links]:
    occupied = layer.mover | layer.other
    parents, ends, keys = [], [], []
    for move in board.moves:
        bit = board.played(occupied, move)
        playing = np.flatnonzero(bit)
        made = layer.mover[playing] | bit[playing]
        line = board.holds_line(made)
        full = (occupied[playing] | bit[playing]) == np.uint64(board.full)
        parents.append(playing)
        ends.append(np.where(line, LINE, np.where(full, FULL, 0)))
        going = ends[-1] == 0
        keys.append(board.key(layer.other[playing][going], made[going]))
    unique, first, inverse = np.unique(np.concatenate(keys), return_index=True, return_inverse=True)
    # Each class's position: its first child, made again from its parent and move (cheaper than keeping
    # every child's masks).
    sizes = np.cumsum([0] + [len(k) for k in keys])
    mover, other = np.zeros_like(unique), np.zeros_like(unique)
    moves = []
    for i, (move, playing, end) in enumerate(zip(board.moves, parents, ends, strict=True)):
        target = end.astype(np.int32)
        target[end == 0] = inverse[sizes[i] : sizes[i + 1]]
        moves.append((playing.astype(np.int32), target))
        mine = (first >= sizes[i]) & (first < sizes[i + 1])
        going_parents = playing[end == 0][first[mine] - sizes[i]]
        bit = board.played(occupied[going_parents], move)
        mover[mine], other[mine] = layer.other[going_parents], layer.mover[going_parents] | bit
    return Layer(ply, unique, mover, other), Links(tuple(moves))


def parent_values(layer: Layer, links: Links, below: Bytes) -> Bytes:
    """Each position's value in `layer` from its children's (`below`: the next layer's values)."""
    ended = np.array([FULL_BOARD, LINE_MADE], dtype=np.uint8)  # by LINE, FULL read from the end
    best = np.full(len(layer.keys), NO_CHILD, dtype=np.uint8)
    for parents, target in links.moves:
        child = np.where(target >= 0, below[np.maximum(target, 0)], ended[np.minimum(target, -1) + 2])
        if not np.all(child):
            missing = int(parents[child == 0][0])
            raise IncompleteBookError(f"ply {layer.ply}: a child of {describe(layer, missing)} has no value")
        best[parents] = np.minimum(best[parents], child)  # one child per position and move
    return SEEN_BY_MOVER[best]


def retrograde(layers: Layers, leaf_values: Callable[[Layer], Bytes]) -> list[Bytes]:
    """The values of every layer, the last one's from `leaf_values` (0: unknown, an error here), each
    one above from the one below it."""
    deepest = layers.layers[-1]
    values = leaf_values(deepest)
    if not np.all(values):
        raise IncompleteBookError(
            f"ply {deepest.ply}: {describe(deepest, int(np.flatnonzero(values == 0)[0]))} has no value"
        )
    found = [values]
    for layer, links in zip(reversed(layers.layers[:-1]), reversed(layers.links), strict=True):
        found.append(parent_values(layer, links, found[-1]))
    return found[::-1]


def lookup(keys: Masks, values: Bytes, wanted: Masks) -> Bytes:
    """The values of the `wanted` keys in a sorted layer; 0 (no value) for a key it does not hold."""
    if not len(keys):
        return np.zeros(wanted.shape, dtype=np.uint8)
    at = np.minimum(np.searchsorted(keys, wanted), len(keys) - 1)
    return np.where(keys[at] == wanted, values[at], 0).astype(np.uint8)


def describe(layer: Layer, index: int) -> str:
    return f"the position with masks {int(layer.mover[index]):#x} (to move) and {int(layer.other[index]):#x}"
