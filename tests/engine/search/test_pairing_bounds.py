"""What a pairing search (core/pairing.c) costs on gomoku's boards, and that what makes it cheap is sound.

On the empty 15x15 with five in a row a search made 72 groups, one per row, column and diagonal, and
walked 64 of them, each up to 4,096 steps, before it gave up (64 groups at most): df-pn spent nine
tenths of its time there, 8 s for 100 nodes. Now lines that need a pair each are counted first (168
windows on 225 cells: no pairing), and a search with a budget gives its walks a bounded number of steps.
A count says "no pairing" only when none exists: checked here by brute force, on boards of windows and on
one whose lines are not a grid's."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

import pytest

from service.engine.search.native import NARROW, WIDE, Game, Limits, ProofTable, ask
from tests.core_debug import find_pairing, pairing_counts, why_unpaired
from tests.engine.search.test_pairing_failures import cells_of, pairable
from tests.engine.search.test_wide_core import Grid

PAIRING_STEPS = 75  # df-pn's budget of a pairing search (core/dfpn.c)
MOST_WALK_STEPS = 64 * PAIRING_STEPS  # WALKS_PER_STEP (core/pairing.c) steps per step of the budget


def near_centre(grid: Grid, marks: int, seed: int) -> tuple[int, int]:
    """(side to move, other side) after `marks` marks placed in turn on random cells at most 3 rows and
    columns from the centre (none completes a line: five of them would need a row of one side's)."""
    rng = random.Random(seed)
    near = [
        r * grid.cols + c
        for r in range(grid.rows)
        for c in range(grid.cols)
        if abs(r - grid.rows // 2) <= 3 and abs(c - grid.cols // 2) <= 3
    ]
    mine = theirs = 0
    for cell in rng.sample(near, marks):
        mine, theirs = theirs | 1 << cell, mine
    return mine, theirs


@pytest.mark.parametrize("grid", [Grid(15, 15, 5), Grid(19, 19, 5), Grid(20, 20, 5)], ids=lambda g: g.name)
@pytest.mark.parametrize("marks", [0, 4, 10])
def test_a_search_on_gomoku_boards_counts_no_pairing_without_walking(grid: Grid, marks: int) -> None:
    game = Game(grid, WIDE)
    attacker, defender = near_centre(grid, marks, seed=marks)
    pairing_counts(WIDE)
    why = why_unpaired(game, attacker, defender, PAIRING_STEPS)
    counts = pairing_counts(WIDE)
    assert counts.searches == 1 and counts.walk_steps == 0
    assert why is not None
    lines, gaps = why
    empty = (1 << grid.cells) - 1 & ~(attacker | defender)
    assert lines and gaps == lines & empty  # a reason, the lines counted (a give-up would name none)
    assert not lines & defender


def test_df_pn_on_the_empty_15x15_makes_no_group() -> None:
    """The slowness replayed: 100 nodes of df-pn on the empty 15x15 took 8 s, nine tenths of it walking
    the groups' covers; every pairing search now ends at its count."""
    game = Game(Grid(15, 15, 5), WIDE)
    pairing_counts(WIDE)
    q = ask(game, ProofTable(12), 0, 0, True, Limits(0.0, 100))
    counts = pairing_counts(WIDE)
    assert q.nodes == 100 and q.outcome == 0
    assert counts.searches > 1000 and counts.walk_steps == 0  # measured: 7,243 searches


def test_a_node_of_15x15_costs_a_few_of_9x9() -> None:
    """Processor time per df-pn node, one build, one run: 15x15 against 9x9 (five in a row, empty). Before
    the count the ratio was over 100 (56 ms a node against 0.5); measured now about 2.5."""

    def per_node(side: int, nodes: int) -> float:
        game = Game(Grid(side, side, 5), WIDE)
        started = time.process_time()
        q = ask(game, ProofTable(12), 0, 0, True, Limits(0.0, nodes))
        assert q.nodes == nodes
        return (time.process_time() - started) / nodes

    small = per_node(9, 1000)
    assert per_node(15, 100) < 20 * small


def odd_rows_full(side: int) -> int:
    """The defender's marks on every cell of rows 1, 3, 5, ...: only the even rows' windows stay open."""
    return sum(1 << (r * side + c) for r in range(1, side, 2) for c in range(side))


def test_the_walks_of_a_budgeted_search_stay_within_its_budget_and_still_pair() -> None:
    """15x15, the odd rows the defender's: eight rows of 11 windows each, one group each, too many lines
    to be cached. A search without a budget walks each group its 4,096 steps (32,776 in all); with df-pn's
    budget the groups share 4,800 steps and the search still finds a pairing, a real one."""
    grid = Grid(15, 15, 5)
    game = Game(grid, WIDE)
    defender = odd_rows_full(15)
    pairing_counts(WIDE)
    assert find_pairing(game, 0, defender, defender_to_move=False) is not None
    assert pairing_counts(WIDE).walk_steps > 30_000
    pairing = find_pairing(game, 0, defender, defender_to_move=False, steps=PAIRING_STEPS)
    counts = pairing_counts(WIDE)
    assert counts.most_walk_steps <= MOST_WALK_STEPS
    assert pairing is not None and pairing.first_move is None
    cells = [c for pair in pairing.pairs for c in pair]
    assert len(cells) == len(set(cells)) and not any(defender >> c & 1 for c in cells)
    for line in grid.lines:
        if not line & defender:
            assert any(line >> a & 1 and line >> b & 1 for a, b in pairing.pairs)


@dataclass(frozen=True)
class Strip:
    """A row of `cells` cells whose lines are its windows of k cells along steps 1 and 2: a window of one
    step shares two cells with one of the other, so the lines are not a grid's and no phase of windows is
    counted (core/pairing.c, pairing_setup); the lines apart are then picked line by line."""

    cells: int
    k: int
    misere: bool = False
    flanks: tuple[int, ...] | None = None  # k or more

    @property
    def name(self) -> str:
        return f"strip of {self.cells} k{self.k}, steps 1 and 2"

    @property
    def lines(self) -> tuple[int, ...]:
        return tuple(
            sum(1 << (start + i * step) for i in range(self.k))
            for step in (1, 2)
            for start in range(self.cells - (self.k - 1) * step)
        )

    @property
    def waits(self) -> tuple[int | None, ...]:
        return (None,) * self.cells


@pytest.mark.parametrize(
    "board",
    [Grid(5, 5, 4), Grid(6, 6, 5), Grid(8, 4, 5), Strip(10, 4), Strip(12, 4)],
    ids=lambda board: board.name,
)
def test_a_count_says_no_pairing_only_where_brute_force_finds_none(board: Grid | Strip) -> None:
    """Random positions, the attacker to move: the search (no budget) finds a pairing exactly where brute
    force does. Most positions without one are settled by a count here (on 5x5 with four in a row even
    the empty board: 16 windows apart on 25 cells); on the strips, by the lines apart picked one by one."""
    game = Game(board, NARROW)
    rng = random.Random(board.cells)
    found = {True: 0, False: 0}
    for _ in range(200):
        marks = rng.randrange(board.cells // 4, board.cells // 2)
        cells = rng.sample(range(board.cells), marks)
        attacker = sum(1 << c for c in cells[: (marks + 1) // 2])
        defender = sum(1 << c for c in cells[(marks + 1) // 2 :])
        empty = (1 << board.cells) - 1 & ~(attacker | defender)
        live = [cells_of(line) for line in board.lines if not line & defender]
        paired = why_unpaired(game, attacker, defender) is None
        assert paired == pairable(live, cells_of(empty)), (attacker, defender)
        found[paired] += 1
    assert min(found.values()) >= 10, found
