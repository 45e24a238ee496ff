"""The rule-list player of source article 000, generalised to any board, and its misère counterpart.
No search, no table.

Normal rules, the article's list in its order; the first rule that names a free cell decides:

1. complete a line of your own (the lowest such cell);
2. else block the opponent's line: take the cell that would complete it (the lowest such cell);
3. else take the centre; a board without a centre cell (an even side, or a torus) has none, and then
   the rule takes the free cell on the most lines, lowest first (on a torus every cell is on as many
   lines, so the lowest free cell);
4. else a free corner, in cell order (a torus has no corners);
5. else the lowest free cell.

On the classic board rules 3 to 5 are the article's centre, corners, edges.

Misère rules (a line loses). Rules 1 and 4 narrow the choice for the rules after them:

1. never complete a line of your own: drop those cells, unless every free cell does (then the lowest);
2. on the empty board take the centre, if the board has one (on the classic board it is the only opening
   that does not lose);
3. holding the centre, answer an opponent's mark with the cell opposite it through the centre (for the
   lowest opponent cell whose opposite is still free): on the classic board whoever opens in the centre
   and then always mirrors never makes a line, since every line through the centre meets an opponent's
   mark and any other line of theirs would mirror a line the opponent completed first;
4. leave the opponent's poisoned cells (those that would complete the opponent's line) empty, unless
   nothing else is left: filled by the opponent they lose the game for the opponent;
5. take the cell that extends the fewest lines holding only your marks (each such line is a cell you
   may later be unable to play), then the one on the fewest lines, then the lowest.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..rules.geometry import iter_cells
from ..rules.position import Position


def strategy_move(position: Position) -> int:
    """The cell the rule list plays; `position` must have a legal move."""
    free = position.legal_moves()
    if not free:
        raise ValueError("strategy_move needs a position with a legal move")
    rules = _misere_rules(position, free) if position.variant.misere else _normal_rules(position, free)
    for candidates in rules:
        allowed = [cell for cell in candidates if cell in free]
        if allowed:
            return allowed[0]
    return free[0]


def completing_cells(position: Position, mark: str) -> list[int]:
    """Free cells that would give `mark` a whole line, in cell order."""
    geometry = position.geometry
    mask = position.mask(mark)
    taken = position.x | position.o
    out = set()
    for line in geometry.lines:
        gap = line & ~mask
        if gap.bit_count() == 1 and not gap & taken:
            out.add(gap.bit_length() - 1)
    return sorted(out)


def _normal_rules(position: Position, free: list[int]) -> Iterable[list[int]]:
    me = position.to_move
    geometry = position.geometry
    yield completing_cells(position, me)
    yield completing_cells(position, me.other)
    if geometry.centre is not None:
        yield [geometry.centre]
    else:
        yield sorted(free, key=lambda cell: -geometry.lines_through[cell])
    yield list(geometry.corners)


def _misere_rules(position: Position, free: list[int]) -> Iterable[list[int]]:
    me, them = position.to_move, position.to_move.other
    poison = set(completing_cells(position, me))
    safe = [cell for cell in free if cell not in poison] or free
    centre = position.geometry.centre
    if centre is not None:
        yield [centre] if position.marks == 0 else []
        if position.mask(me) >> centre & 1:
            opposites = (_opposite(position, cell) for cell in iter_cells(position.mask(them)))
            yield [cell for cell in opposites if cell in safe]
    theirs = set(completing_cells(position, them))
    pool = [cell for cell in safe if cell not in theirs] or safe
    yield sorted(pool, key=lambda cell: _exposure(position, cell))


def _opposite(position: Position, cell: int) -> int:
    """The cell's image through the centre (a half turn of the board)."""
    return position.variant.cells - 1 - cell


def _exposure(position: Position, cell: int) -> tuple[int, int]:
    """Lines through `cell` that hold only the mover's marks, then all lines through it."""
    mine, theirs = position.mine, position.theirs
    through = [line for line in position.geometry.lines if line >> cell & 1]
    own = sum(1 for line in through if line & mine and not line & theirs)
    return own, len(through)
