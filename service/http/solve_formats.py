"""The whole-game table as JSON, NDJSON or CSV, rendered chunk by chunk as it is read from a solved table.

Nothing here holds more than one chunk: a chunk's boards, values and sorted moves come from numpy in one
go, and each line is then joined from fragments prepared once per move and per value, so that the
largest tables stream at the speed of the network rather than of a Python loop over dictionaries.
The bytes depend only on the table and the request, which is what makes their ETag strong.
"""

from __future__ import annotations

import hashlib
import json
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache

import numpy as np

from ..engine import DECODED, MOVE_VALUE, Chunk, Mark, Summary, Table, chunks, summarize

FORMATS = ("json", "ndjson", "csv")
MEDIA_TYPES = {"json": "application/json", "ndjson": "application/x-ndjson", "csv": "text/csv"}
SYMMETRIES = {"none": False, "canonical": True}
JSON_MAX_POSITIONS = 150_000  # a larger table is no useful single document: NDJSON or CSV stream it
WHOLE_BODY_POSITIONS = 20_000  # up to this many (every 3x3 table), an answer is rendered whole and kept
CSV_COLUMNS = ("board", "to_move", "status", "result", "score", "remoteness", "best_moves", "moves")
RENDER_VERSION = 1  # bump when the bytes of any format change, so that ETags change with them
# Positions read from the table at once (numpy's work on them is done in one go), and rendered at once:
# a stream pauses between two pieces (service/streams.py), so a piece is what its worker's other
# connections may wait for. A piece of 4,096 rows took 14 ms (1.8 MB of NDJSON) and kept short
# requests waiting for seconds beside ten streams; 512 rows take about 2 ms.
ROWS_PER_CHUNK = 4096
ROWS_PER_PIECE = 512
GZIP_LEVEL = 6
_CELL_BITS = 5  # a move's sort key is child byte << _CELL_BITS | cell (at most 16 cells)
_NO_MOVE = 256 << _CELL_BITS


@dataclass(frozen=True)
class SolveRequest:
    table: Table
    first: str
    symmetry: str
    format: str

    @property
    def canonical(self) -> bool:
        return SYMMETRIES[self.symmetry]

    def etag(self, encoding: str | None) -> str:
        """Stable across restarts: the table's checksum and the request decide every byte."""
        parts = (
            self.table.checksum,
            self.table.variant.long_name,
            self.first,
            self.symmetry,
            self.format,
            encoding or "identity",
            str(RENDER_VERSION),
        )
        return hashlib.sha256(":".join(parts).encode()).hexdigest()[:32]

    def too_large_for_json(self) -> bool:
        return self.format == "json" and self.table.positions > JSON_MAX_POSITIONS

    def refusal(self) -> str | None:
        """Why the table is not rendered as asked (the API's 422, the command line's error), or None."""
        if not self.too_large_for_json():
            return None
        name = self.table.variant.name
        return (
            f"the {name} table has {self.table.positions:,} positions, more than the "
            f"{JSON_MAX_POSITIONS:,} one JSON document holds: ask for format=ndjson or format=csv "
            f"(streamed), or GET /variants/{name}/table for the table file"
        )


def render(request: SolveRequest) -> Iterator[bytes]:
    return _RENDERERS[request.format](request)


def gzipped(pieces: Iterator[bytes]) -> Iterator[bytes]:
    """gzip as it streams; the header carries no time, so the same pieces give the same bytes."""
    packer = zlib.compressobj(GZIP_LEVEL, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    for piece in pieces:
        out = packer.compress(piece)
        if out:
            yield out
    yield packer.flush()


def _ndjson(request: SolveRequest) -> Iterator[bytes]:
    for chunk, part in _pieces(request):
        yield b"".join(b'{"board":"%s",%s}\n' % row for row in _json_rows(chunk, part))


def _json(request: SolveRequest) -> Iterator[bytes]:
    summary = summarize(request.table, request.first, request.canonical)
    head = {
        "variant": request.table.variant.name,
        "first": request.first,
        "symmetry": request.symmetry,
        "summary": summary_payload(summary),
    }
    yield json.dumps(head, separators=(",", ":")).encode()[:-1] + b',"positions":{'
    separator = b""
    for chunk, part in _pieces(request):
        piece = b",".join(b'"%s":{%s}' % row for row in _json_rows(chunk, part))
        if piece:
            yield separator + piece
            separator = b","
    yield b"}}"


def _csv(request: SolveRequest) -> Iterator[bytes]:
    yield ",".join(CSV_COLUMNS).encode() + b"\n"
    fragments = _csv_move_fragments()
    for chunk, part in _pieces(request):
        lines = []
        prefix = _value_fragments(chunk.to_move, csv=True)
        for board, value, keys in _rows(chunk, part):
            moves = [fragments[key] for key in keys if key < _NO_MOVE]
            best = _best(keys) if moves else []
            lines.append(b"%s,%s,%s,%s\n" % (board, prefix[value], b" ".join(best), b" ".join(moves)))
        yield b"".join(lines)


def _json_rows(chunk: Chunk, part: slice) -> Iterator[tuple[bytes, bytes]]:
    fragments = _json_move_fragments()
    prefix = _value_fragments(chunk.to_move, csv=False)
    for board, value, keys in _rows(chunk, part):
        moves = [fragments[key] for key in keys if key < _NO_MOVE]
        best = b",".join(_best(keys)) if moves else b""
        yield board, b'%s,"best_moves":[%s],"moves":[%s]' % (prefix[value], best, b",".join(moves))


def _pieces(request: SolveRequest) -> Iterator[tuple[Chunk, slice]]:
    """Each chunk of the table, in pieces of at most ROWS_PER_PIECE of its positions."""
    for chunk in chunks(request.table, request.first, request.canonical, ROWS_PER_CHUNK):
        for start in range(0, len(chunk), ROWS_PER_PIECE):
            yield chunk, slice(start, start + ROWS_PER_PIECE)


def _rows(chunk: Chunk, part: slice) -> Iterator[tuple[bytes, int, list[int]]]:
    """Each position's board, byte and move keys, best first (ties by cell), no-moves last."""
    cells = chunk.table.variant.cells
    children = chunk.move_bytes[part].astype(np.int32)
    keys = np.where(children > 0, children << _CELL_BITS | np.arange(cells, dtype=np.int32), _NO_MOVE)
    keys.sort(axis=1)
    x_cells, o_cells = chunk.x_cells[part], chunk.o_cells[part]
    boards = np.full((len(x_cells), cells), ord("."), dtype=np.uint8)
    for cell in range(cells):
        boards[(x_cells >> cell) & 1 == 1, cell] = ord("X")
        boards[(o_cells >> cell) & 1 == 1, cell] = ord("O")
    values = chunk.values[part].tolist()
    return zip(boards.view(f"S{cells}").ravel().tolist(), values, keys.tolist(), strict=True)


def _best(keys: list[int]) -> list[bytes]:
    top = keys[0] >> _CELL_BITS
    return [_CELL_TEXT[key & (1 << _CELL_BITS) - 1] for key in keys if key >> _CELL_BITS == top]


_CELL_TEXT = [str(cell).encode() for cell in range(1 << _CELL_BITS)]


@cache
def _json_move_fragments() -> list[bytes]:
    return _move_fragments(
        lambda cell, score, plies: b'{"cell":%d,"score":%d,"remoteness":%d}' % (cell, score, plies)
    )


@cache
def _csv_move_fragments() -> list[bytes]:
    return _move_fragments(lambda cell, score, plies: b"%d:%d:%d" % (cell, score, plies))


def _move_fragments(make: Callable[[int, int, int], bytes]) -> list[bytes]:
    out = [b""] * _NO_MOVE
    for byte, value in enumerate(MOVE_VALUE):
        if value is not None:
            for cell in range(1 << _CELL_BITS):
                out[byte << _CELL_BITS | cell] = make(cell, value.score, value.remoteness)
    return out


@cache
def _value_fragments(to_move: Mark, csv: bool) -> list[bytes]:
    """Byte -> the fields every entry with that byte and that side to move starts with."""
    mover = to_move.value
    template = (
        "{},{},{},{},{}" if csv else '"to_move":"{}","status":"{}","result":"{}","score":{},"remoteness":{}'
    )
    out = [b""] * 256
    for byte, value in enumerate(DECODED):
        if value is not None:
            status = _status(value.score, value.remoteness, to_move)
            fields = (mover, status, value.result.value, value.score, value.remoteness)
            out[byte] = template.format(*fields).encode()
    return out


def _status(score: int, remoteness: int, mover: Mark) -> str:
    """The game's status from the value of a position: only a finished game is 0 plies from its end."""
    if remoteness > 0:
        return "in_progress"
    if score == 0:
        return "draw"
    winner = mover if score > 0 else mover.other  # under misère the side to move can have won
    return f"{winner.value.lower()}_won"


def summary_payload(summary: Summary) -> dict[str, object]:
    return {
        "positions": summary.positions,
        "by_result": summary.by_result,
        "by_status": summary.by_status,
        "by_marks": list(summary.by_marks),
    }


_RENDERERS: dict[str, Callable[[SolveRequest], Iterator[bytes]]] = {
    "json": _json,
    "ndjson": _ndjson,
    "csv": _csv,
}
