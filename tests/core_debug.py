"""The compiled core's entry points for the tests only (core/sanmoku_debug.h, compiled into the same
extension as the service's): the provers' parts on their own, the pairings and the threat sequences and
trees the proof-number search settles positions by, and what a transposition table holds. The service
calls the core through service/engine/search/native.py alone; this is the tests' one other door.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from service.engine.search._core import ffi, lib
from service.engine.search.native import (
    DEFAULT_OPTIONS,
    NARROW,
    NO_MOVE,
    Game,
    ProverOptions,
    TranspositionTable,
    Width,
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
    within `steps` steps of the search; 0: no limit). On the game's build."""
    width = game.width
    pairs = width.ffi.new("ss_cell[]", width.cells)
    count = width.ffi.new("int *")
    first = width.ffi.new("int32_t *")
    position = (width.mask(attacker), width.mask(defender), int(defender_to_move))
    found = width.lib.ss_pairing_find(game.pointer, *position, steps, pairs, count, first)
    if not found:
        return None
    cells = width.ffi.unpack(pairs, 2 * count[0])
    return Pairing(
        tuple((cells[2 * i], cells[2 * i + 1]) for i in range(count[0])),
        None if first[0] == NO_MOVE else int(first[0]),
    )


def why_unpaired(game: Game, attacker: int, defender: int, steps: int = 0) -> tuple[int, int] | None:
    """None when the attacker to move has a pairing against it; else the reason the search found none:
    (lines, gaps), the cells of lines that have no pairing on their own and their empty cells (lines 0:
    not known). See ss_pairing_failure (core/sanmoku_debug.h). On the game's build."""
    width = game.width
    lines, gaps = width.ffi.new("ss_mask *"), width.ffi.new("ss_mask *")
    position = (width.mask(attacker), width.mask(defender))
    if width.lib.ss_pairing_failure(game.pointer, *position, steps, lines, gaps):
        return None
    return width.cells_of(lines[0]), width.cells_of(gaps[0])


class PairingCounts(NamedTuple):
    """The pairing searches of a build since its counts were last reset (ss_pairing_counts)."""

    searches: int
    walk_steps: int  # of the walks that enumerate each group's covers (core/pairing.c), in all
    most_walk_steps: int  # of one search


def pairing_counts(width: Width = NARROW, reset: bool = True) -> PairingCounts:
    """The counts of the pairing searches run on the build `width` since they were last reset, by this
    thread and by the threads that have ended (a search past 64 cells runs on its own); `reset`: start
    them again."""
    counts = width.ffi.new("int64_t[3]")
    width.lib.ss_pairing_counts(counts, int(reset))
    return PairingCounts(int(counts[0]), int(counts[1]), int(counts[2]))
