"""The compiled core's entry points for the tests only (core/sanmoku_debug.h, compiled into the same
extension as the service's): the provers' parts on their own, the pairings and the threat sequences and
trees the proof-number search settles positions by, and what a transposition table holds. The service
calls the core through service/engine/search/native.py alone; this is the tests' one other door.
"""

from __future__ import annotations

from dataclasses import dataclass

from service.engine.search._core import ffi, lib
from service.engine.search.native import (
    DEFAULT_OPTIONS,
    MAX_CELLS,
    NO_MOVE,
    Game,
    ProverOptions,
    TranspositionTable,
    options_of,
)


def table_positions(table: TranspositionTable) -> int:
    """How many positions the table holds (a pass over all of it)."""
    return int(lib.ss_table_positions(table.pointer))


def threat_sequence(game: Game, attacker: int, defender: int, budget: int = 0) -> int | None:
    """The cells of a threat sequence by which `attacker`, to move, forces a line (found within `budget`
    nodes, 0: no limit), or None when none is found."""
    cells = ffi.new("ss_mask *")
    return int(cells[0]) if lib.ss_threat_sequence(game.pointer, attacker, defender, budget, cells) else None


def threat_tree(
    game: Game,
    attacker: int,
    defender: int,
    depth: int,
    budget: int = 0,
    options: ProverOptions = DEFAULT_OPTIONS,
) -> int | None:
    """The zone of a tree of up to `depth` threes (or fours) by which `attacker`, to move, forces a line
    (found within `budget` nodes, 0: no limit), or None when none is found. Its zone has the guard cells
    unless `options` leave them out (guard_zones False: unsound, for the test that shows it)."""
    zone = ffi.new("ss_mask *")
    settings = options_of(options)
    found = lib.ss_threat_tree(game.pointer, attacker, defender, depth, budget, settings, zone)
    return int(zone[0]) if found else None


@dataclass(frozen=True)
class Pairing:
    """Disjoint pairs of empty cells, every line still open to the attacker holding one: the defender
    answers a move on one cell of a pair with the other, and the attacker never completes a line.
    `first_move`: the defender's move to make first, when it is to move and needs one."""

    pairs: tuple[tuple[int, int], ...]
    first_move: int | None


def find_pairing(
    game: Game, attacker: int, defender: int, defender_to_move: bool, steps: int = 0
) -> Pairing | None:
    """A pairing strategy of `defender` against `attacker`, or None when none exists (or none was found
    within `steps` steps of the search; 0: no limit)."""
    pairs = ffi.new("int8_t[]", MAX_CELLS)
    count = ffi.new("int *")
    first = ffi.new("int32_t *")
    found = lib.ss_pairing_find(
        game.pointer, attacker, defender, int(defender_to_move), steps, pairs, count, first
    )
    if not found:
        return None
    cells = ffi.unpack(pairs, 2 * count[0])
    return Pairing(
        tuple((cells[2 * i], cells[2 * i + 1]) for i in range(count[0])),
        None if first[0] == NO_MOVE else int(first[0]),
    )


def why_unpaired(game: Game, attacker: int, defender: int, steps: int = 0) -> tuple[int, int] | None:
    """None when the attacker to move has a pairing against it; else the reason the search found none:
    (lines, gaps), the cells of lines that have no pairing on their own and their empty cells (lines 0:
    not known). See ss_pairing_failure (core/sanmoku_debug.h)."""
    lines, gaps = ffi.new("ss_mask *"), ffi.new("ss_mask *")
    if lib.ss_pairing_failure(game.pointer, attacker, defender, steps, lines, gaps):
        return None
    return int(lines[0]), int(gaps[0])
