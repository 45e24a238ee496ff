"""The threat shapes of five in a row, and the guess they give for a move no proof settled.

A move's shapes are read on the four lines through its cell only: in each, the shape its stone makes for
the side that plays it (attack), and the shape the opponent's stone would make there, which the move
prevents (defence). The shapes, from each side's view, with the stone on the centre:

- five: a run of five through it (exactly five where that side's rule says so: a longer run is none);
- open four: two empty cells that each complete a five through it (a straight four, or two fours on
  one line): the opponent cannot stop both;
- four: one such cell;
- open three, broken three: no five-cell yet, but one more stone makes an open four; open when the
  stones are in one run (.XXX.), broken when there is a gap (.XX.X.);
- closed three: one more stone makes a four, not an open four;
- two: one more stone makes an open or broken three;
- room: the windows of five cells through it with no stone of the opponent (a line that side could
  still complete), weighed by the side's stones in each: it ranks moves among one's stones, and the
  cells far from every stone by how open they are.

A move's guess (`guess`) adds the weights of its shapes, attack and defence, with bonuses for the
combinations that win by force (two fours, a four and a three, two threes). The weights and their
measurement: docs/pages/performance.md ("Guesses by threat shapes"). The engine's search does not read
them: they rank only what it left unproven (answer.py), on boards of five in a row (`ranks_by_shape`).

Speed: each line is coded from its ten neighbours and classified once per code (a cache), so that a
move costs four lookups once warm (about 10 microseconds).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from functools import cache

from ..rules.position import Mark, Position
from ..rules.variants import Variant

K = 5
REACH = K  # cells read on each side of the move: a run of five through it, and the cell past it (overlines)
MIN_SIDE = 9  # smaller boards of five in a row are proven or estimated well enough by the search
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))

EMPTY, OWN, BLOCKED = 0, 1, 2  # a cell from one side's view
# A cell of the board, as coded: both sides' views come from one code.
FREE, MOVER, OPPONENT, OFF = 0, 1, 2, 3


class Shape(IntEnum):
    """What one line through a cell holds once the side's stone is there, the strongest first."""

    FIVE = 0
    OPEN_FOUR = 1
    FOUR = 2
    OPEN_THREE = 3
    BROKEN_THREE = 4
    CLOSED_THREE = 5
    TWO = 6
    NONE = 7


@dataclass(frozen=True)
class Weights:
    """A shape's worth on one line, and of two lines that win by force together (two fours, a four and a
    three: a win in two moves of one's own; two threes: in three). Defence is the same worth times
    `defence`: blocking weighs less than making the same shape, so that one's own open four goes before
    the opponent's, and the opponent's four is still blocked before all else but a five of one's own.
    The values were chosen on the public puzzles and random middle games (tests/bench/shape_order.py);
    docs/pages/performance.md says why they are not the puzzles' best (the puzzles are all attacks)."""

    five: int = 100_000_000
    open_four: int = 1_000_000
    four: int = 1_500
    open_three: int = 1_000
    broken_three: int = 900
    closed_three: int = 150
    two: int = 100
    four_three: int = 1_000_000  # two fours, or a four and an open (or broken) three
    three_three: int = 100_000
    # Each window of five cells through the move that the side could still fill weighs room * room_base
    # to the power of the side's stones in it: a move among many of one's stones goes first.
    room: int = 10
    room_base: int = 4
    defence: float = 0.5
    # Blocking what would make an open four or a four-three (the opponent's three) weighs this much of
    # `defence` more: one's own four (which forces a reply) goes first, the opponent's four next to it
    # (which does not make one) after.
    block_three: float = 0.002

    def of(self, shape: Shape) -> int:
        return (
            self.five,
            self.open_four,
            self.four,
            self.open_three,
            self.broken_three,
            self.closed_three,
            self.two,
            0,
        )[shape]


WEIGHTS = Weights()


def ranks_by_shape(variant: Variant) -> bool:
    """Whether the guesses on `variant` are ranked by threat shapes: five in a row on a flat board of at
    least 9x9, played to get five (not misère), not on a torus or under gravity."""
    return (
        variant.k == K
        and variant.layers == 1
        and min(variant.rows, variant.cols) >= MIN_SIDE
        and not (variant.torus or variant.gravity or variant.misere)
    )


@dataclass(frozen=True)
class MoveShapes:
    """The shapes of one move, line by line: those it makes (attack) and those it prevents (defence)."""

    attack: tuple[Shape, ...]
    defence: tuple[Shape, ...]
    attack_room: int
    defence_room: int


def exact_for(variant: Variant, mark: Mark) -> bool:
    """Whether `mark` wins with exactly five only: the rule "exactly five", or black (the first player)
    under renju."""
    return variant.exact or (variant.renju and mark is Mark.X)


@cache
def _neighbours(rows: int, cols: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """For each cell, for each direction, the cells at -REACH..-1 and 1..REACH along it (-1 off the
    board)."""
    out = []
    for cell in range(rows * cols):
        row, col = divmod(cell, cols)
        lines = []
        for dr, dc in DIRECTIONS:
            cells = []
            for step in (*range(-REACH, 0), *range(1, REACH + 1)):
                r, c = row + dr * step, col + dc * step
                cells.append(r * cols + c if 0 <= r < rows and 0 <= c < cols else -1)
            lines.append(tuple(cells))
        out.append(tuple(lines))
    return tuple(out)


def _run(line: list[int], at: int) -> tuple[int, int]:
    """The run of own stones through index `at`: its first and last index."""
    low = at
    while low > 0 and line[low - 1] == OWN:
        low -= 1
    high = at
    while high < len(line) - 1 and line[high + 1] == OWN:
        high += 1
    return low, high


def _is_five(line: list[int], exact: bool) -> bool:
    low, high = _run(line, REACH)
    length = high - low + 1
    return length == K if exact else length >= K


def _five_cells(line: list[int], exact: bool) -> int:
    """How many empty cells would each complete a five through the centre."""
    found = 0
    for at in range(1, 2 * REACH):  # a run of five through the centre lies within 4 cells of it
        if line[at] != EMPTY:
            continue
        line[at] = OWN
        if _is_five(line, exact):
            found += 1
        line[at] = EMPTY
    return found


@cache
def shape_of(line: tuple[int, ...], exact: bool) -> Shape:
    """The shape of one line from one side's view: `line` is its 2*REACH+1 cells (EMPTY, OWN, BLOCKED),
    the side's stone on the centre."""
    cells = list(line)
    if _is_five(cells, exact):
        return Shape.FIVE
    fives = _five_cells(cells, exact)
    if fives >= 2:
        return Shape.OPEN_FOUR
    if fives == 1:
        return Shape.FOUR
    best = Shape.NONE
    for at in range(1, 2 * REACH):
        if cells[at] != EMPTY:
            continue
        cells[at] = OWN
        after = shape_of(tuple(cells), exact)
        cells[at] = EMPTY
        if after == Shape.OPEN_FOUR:
            low, high = _run(cells, REACH)
            return Shape.OPEN_THREE if high - low + 1 == 3 else Shape.BROKEN_THREE
        if after == Shape.FOUR:
            best = min(best, Shape.CLOSED_THREE)
        elif after in (Shape.OPEN_THREE, Shape.BROKEN_THREE):
            best = min(best, Shape.TWO)
    return best


def _room(line: tuple[int, ...], base: int) -> int:
    """The windows of K cells through the centre with no blocked cell, each weighted `base` to the power
    of its own stones beside the centre's."""
    return sum(
        base ** sum(line[at] == OWN for at in range(start, start + K) if at != REACH)
        for start in range(REACH - K + 1, REACH + 1)
        if all(line[at] != BLOCKED for at in range(start, start + K))
    )


@cache
def _classify(
    code: tuple[int, ...], mover_exact: bool, opponent_exact: bool, base: int
) -> tuple[Shape, Shape, int, int]:
    """One line's attack and defence shapes and rooms, from its cells as coded (FREE, MOVER, OPPONENT,
    OFF) without the centre."""
    mover = [OWN if c == MOVER else EMPTY if c == FREE else BLOCKED for c in code]
    opponent = [OWN if c == OPPONENT else EMPTY if c == FREE else BLOCKED for c in code]
    mover.insert(REACH, OWN)
    opponent.insert(REACH, OWN)
    mine, theirs = tuple(mover), tuple(opponent)
    return (
        shape_of(mine, mover_exact),
        shape_of(theirs, opponent_exact),
        _room(mine, base),
        _room(theirs, base),
    )


class Board:
    """One position read for its moves' shapes: each cell's state once, then any move's shapes."""

    def __init__(self, position: Position) -> None:
        variant = position.variant
        self.cols = variant.cols
        self.lines = _neighbours(variant.rows, variant.cols)
        mover, opponent = position.to_move, position.to_move.other
        self.mover_exact, self.opponent_exact = exact_for(variant, mover), exact_for(variant, opponent)
        cells = variant.cells
        mine = bin(position.mine)[2:].zfill(cells)[::-1]  # cell i at index i
        theirs = bin(position.theirs)[2:].zfill(cells)[::-1]
        # The cells' states, then OFF at index -1: a neighbour off the board is -1 (`_neighbours`).
        self.states = [
            MOVER if m == "1" else OPPONENT if t == "1" else FREE for m, t in zip(mine, theirs, strict=True)
        ]
        self.states.append(OFF)

    def shapes(self, cell: int, room_base: int = WEIGHTS.room_base) -> MoveShapes:
        state = self.states.__getitem__
        attack, defence = [], []
        attack_room = defence_room = 0
        for line in self.lines[cell]:
            mine, theirs, my_room, their_room = _classify(
                tuple(map(state, line)), self.mover_exact, self.opponent_exact, room_base
            )
            attack.append(mine)
            defence.append(theirs)
            attack_room += my_room
            defence_room += their_room
        return MoveShapes(tuple(attack), tuple(defence), attack_room, defence_room)

    def guess(self, cell: int, weights: Weights = WEIGHTS) -> int:
        """The move's worth as a guess (larger is better): its shapes' weights, attack and defence."""
        found = self.shapes(cell, weights.room_base)
        attack = _worth(found.attack, weights) + weights.room * found.attack_room
        defence = _worth(found.defence, weights, weights.block_three) + weights.room * found.defence_room
        return attack + int(weights.defence * defence)


@cache
def _worth(shapes: tuple[Shape, ...], weights: Weights, winning: float = 1.0) -> int:
    """The shapes' weights; `winning` scales the shapes that win by force next (an open four, two fours,
    a four and a three) short of a five."""
    total = sum(weights.of(shape) for shape in shapes if shape != Shape.OPEN_FOUR)
    fours = sum(shape in (Shape.OPEN_FOUR, Shape.FOUR) for shape in shapes)
    threes = sum(shape in (Shape.OPEN_THREE, Shape.BROKEN_THREE) for shape in shapes)
    forced = weights.open_four * sum(shape == Shape.OPEN_FOUR for shape in shapes)
    if fours >= 2 or (fours and threes):
        forced += weights.four_three
    elif threes >= 2:
        total += weights.three_three
    return total + int(winning * forced)


def guesses(position: Position, cells: list[int], weights: Weights = WEIGHTS) -> dict[int, int]:
    """Each of `cells`' worth as a guess in `position` (see `Board.guess`)."""
    board = Board(position)
    return {cell: board.guess(cell, weights) for cell in cells}


def guess_ranks(
    position: Position, cells: list[int], weights: Weights = WEIGHTS
) -> dict[int, tuple[int, int]]:
    """Each of `cells`' rank as a guess, smaller first: the larger worth (`Board.guess`), then the cell
    nearer the centre (on an empty board every central cell has the same shapes)."""
    board = Board(position)
    rows, cols = position.variant.rows, position.variant.cols
    out = {}
    for cell in cells:
        row, col = divmod(cell, cols)
        off_centre = (2 * row - rows + 1) ** 2 + (2 * col - cols + 1) ** 2
        out[cell] = (-board.guess(cell, weights), off_centre)
    return out
