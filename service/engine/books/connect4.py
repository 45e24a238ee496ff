"""`sanmoku book build connect4`: the Connect Four book, every position of plies 0 to 12 with its exact
value, from the published book of ply 12 (`published`) by a retrograde pass (`retrograde`).

Nothing is taken on trust: the published file's checksum is pinned; every position after 12 plies (our
own enumeration, 5,832,236 up to the mirror) must be either won at once by the side to move or found in
it; the results derived for ply 8 must agree with the published 8-ply book, a separate file, at every
one of its 91,295 positions; and the empty board must come out a first-player win in 41 plies, the
centre column its only winning move (Allis; Tromp). A build that fails any check writes nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any

from ..rules.values import DECODED, Value
from ..rules.variants import CONNECT4
from .arrays import array_board
from .file import stored, write_book
from .published import (
    CHECKED_PLY,
    DEEPEST,
    DISTANCES,
    LICENCE,
    MODULE,
    PACKAGE,
    RESULTS_8,
    PublishedBookError,
    leaf_values,
    results_disagreeing,
)
from .retrograde import Bytes, Layer, build_layers, retrograde

EMPTY_BOARD = Value(1, 41)  # a first-player win in 41 plies
Report = Callable[[str], None]


def build_connect4_book(
    path: Path, report: Report = lambda line: None, folder: Path | None = None
) -> dict[str, Any]:
    """Build, check and write the book; its header. `folder` holds the published files (default: the
    installed package)."""
    started = time.perf_counter()
    board = array_board(CONNECT4)
    layers = build_layers(board, DEEPEST)
    positions = sum(len(layer.keys) for layer in layers.layers)
    report(f"positions of plies 0-{DEEPEST}: {positions:,} up to the mirror")

    def leaves(layer: Layer) -> Bytes:
        return leaf_values(board, layer, folder)

    values = retrograde(layers, leaves)
    disagreeing = results_disagreeing(board, layers.layers[CHECKED_PLY], values[CHECKED_PLY], folder)
    if disagreeing:
        raise PublishedBookError(f"{disagreeing:,} results of ply {CHECKED_PLY} disagree with the 8-ply book")
    root = DECODED[int(values[0][0])]
    if root != EMPTY_BOARD:
        raise PublishedBookError(f"the empty board comes out {root}, not {EMPTY_BOARD}")
    checked = len(layers.layers[CHECKED_PLY].keys)
    report(f"ply {CHECKED_PLY}: all {checked:,} results agree with the 8-ply book; empty board {root}")
    plies = stored([layer.keys for layer in layers.layers], values)
    source = {
        "summary": f"{PACKAGE} {_version()} ({LICENCE}): ply {DEEPEST}; plies 0-{DEEPEST - 1} by retrograde",
        "package": PACKAGE,
        "version": _version(),
        "licence": LICENCE,
        "files": {DISTANCES.name: DISTANCES.sha256, RESULTS_8.name: RESULTS_8.sha256},
        "checks": [
            "each published file's SHA-256",
            f"every position after {DEEPEST} plies won at once or held by the published book",
            f"ply {CHECKED_PLY}: all {checked:,} results agree with the published 8-ply book",
            f"the empty board: {root}",
        ],
    }
    header = write_book(path, CONNECT4, plies, source, time.perf_counter() - started)
    report(f"{path}: {sum(header['entries']):,} positions, {path.stat().st_size / 1e6:.1f} MB")
    return header


def _version() -> str:
    try:
        return metadata.version(MODULE.replace("_", "-"))
    except metadata.PackageNotFoundError:
        return "not installed"
