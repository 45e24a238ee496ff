"""The books' retrograde pass and lookups against full tables: on small boards (gravity and flat) whose
table the tables wing solves whole, the layers of the first plies are built, the deepest one's values
taken from the table, the plies above derived, written to a book file and read back; every position of
every ply must then have the table's value, and every move of the plies above the deepest the table's."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from service.engine import Position, Table, get_variant
from service.engine.books.arrays import BookBoardError, array_board
from service.engine.books.file import WIN_IN_ONE, read_book, stored, write_book
from service.engine.books.retrograde import IncompleteBookError, Layer, build_layers, retrograde
from service.engine.books.source import Book
from service.engine.rules.canonical import canonical
from service.engine.rules.position import Mark
from service.engine.rules.values import DECODED, encode
from service.engine.tables.layout import layout_of
from service.engine.tables.solver import solve

CASES = [("4x4k3-gravity", 7), ("4x4k4-gravity", 8), ("3x4k3", 3)]


def table_of(name: str) -> Table:
    variant = get_variant(name)
    return Table.in_memory(variant, solve(variant), layout_of(variant.cells))  # format 2, as solved


def reference_layers(variant_name: str, plies: int) -> list[dict[tuple[int, int], Position]]:
    """Every unfinished position of each ply by playing every move (Position.play), one per class of
    `canonical` forms: written apart from the arrays' layers."""
    variant = get_variant(variant_name)
    layers = [{canonical(variant, 0, 0)[1]: Position.empty(variant)}]
    for _ in range(plies):
        found: dict[tuple[int, int], Position] = {}
        for position in layers[-1].values():
            for cell in position.legal_moves():
                child = position.play(cell)
                if not child.is_over:
                    found.setdefault(canonical(variant, child.mine, child.theirs)[1], child)
        layers.append(found)
    return layers


def leaves_from(table: Table, variant_name: str) -> object:
    board = array_board(get_variant(variant_name))

    def leaf_values(layer: Layer) -> np.ndarray:  # type: ignore[type-arg]
        out = []
        for mover, other in zip(layer.mover.tolist(), layer.other.tolist(), strict=True):
            x, o = (mover, other) if layer.ply % 2 == 0 else (other, mover)
            position = Position(board.variant, x, o, Mark.X if layer.ply % 2 == 0 else Mark.O)
            out.append(encode(table.value(position)))
        return np.array(out, dtype=np.uint8)

    return leaf_values


@pytest.mark.slow
@pytest.mark.parametrize(("name", "plies"), CASES)
def test_every_position_and_move_of_the_book_has_the_tables_value(
    tmp_path: Path, name: str, plies: int
) -> None:
    variant = get_variant(name)
    table = table_of(name)
    board = array_board(variant)
    layers = build_layers(board, plies)
    reference = reference_layers(name, plies)
    assert [len(layer.keys) for layer in layers.layers] == [len(layer) for layer in reference]
    values = retrograde(layers, leaves_from(table, name))  # type: ignore[arg-type]
    kept = stored([layer.keys for layer in layers.layers], values)
    path = tmp_path / f"{name}.book"
    write_book(path, variant, kept, {"summary": "a test"}, 0.0)
    book = Book(read_book(path, variant))
    for ply, layer in enumerate(reference):
        for position in layer.values():
            assert book.value(position) == table.value(position), position.cells
            if ply < plies:
                moves = book.moves(position)
                assert moves is not None
                want = {m.cell: m.value for m in table.lookup(position).moves}
                assert {m.cell: m.value for m in moves} == want, position.cells
            else:
                assert book.moves(position) is None  # its children are past the deepest ply
    wins_in_one = sum(int(np.count_nonzero(v == WIN_IN_ONE)) for v in values)
    assert wins_in_one > 0 or not variant.gravity  # the rule that leaves them out is exercised


def test_a_leaf_with_no_value_stops_the_pass() -> None:
    board = array_board(get_variant("4x4k3-gravity"))
    layers = build_layers(board, 4)

    def partial(layer: Layer) -> np.ndarray:  # type: ignore[type-arg]
        found = np.full(len(layer.keys), encode(DECODED[128] or DECODED[1]), dtype=np.uint8)  # type: ignore[arg-type]
        found[-1] = 0  # one value missing
        return found

    with pytest.raises(IncompleteBookError, match="ply 4"):
        retrograde(layers, partial)


def test_boards_a_key_cannot_hold_are_refused() -> None:
    for name in ("3x3k3-torus", "4x4k4-misere", "6x6k4"):  # a torus, misère, 72 bits of masks
        with pytest.raises(BookBoardError):
            array_board(get_variant(name))
