"""The rule-list player of source article 000, and its mirror image for misère. No search, no table.

Normal rules, the article's list in its order; the first rule that names a free cell decides:

1. complete a line of your own (the lowest such cell);
2. else block the opponent's line: take the cell that would complete it (the lowest such cell);
3. else take the centre;
4. else a free corner, in the order 0, 2, 6, 8;
5. else the lowest free cell.

Misère rules (three in a row loses). Rules 1 and 4 narrow the choice for the rules after them:

1. never complete a line of your own: drop those cells, unless every free cell does (then the lowest);
2. on the empty board take the centre: it is the only opening that does not lose;
3. holding the centre, answer an opponent's mark with the cell opposite it through the centre (for the
   lowest opponent cell whose opposite is still free): whoever opens in the centre and then always
   mirrors never makes a line, since every line through the centre meets an opponent's mark and any
   other line of theirs would mirror a line the opponent completed first;
4. leave the opponent's poisoned cells (those that would complete the opponent's line) empty, unless
   nothing else is left: filled by the opponent they lose the game for the opponent;
5. take the cell that extends the fewest lines holding only your marks (each such line is a cell you
   may later be unable to play), then the one on the fewest lines (an edge before a corner), then the
   lowest.
"""

from __future__ import annotations

from collections.abc import Iterable

from .position import Position, other


def strategy_move(position: Position) -> int:
    """The cell the rule list plays; `position` must have a legal move."""
    free = position.legal_moves()
    if not free:
        raise ValueError("strategy_move needs a position with a legal move")
    rules = _misere_rules(position, free) if position.variant.misere else _normal_rules(position)
    for candidates in rules:
        allowed = [cell for cell in candidates if cell in free]
        if allowed:
            return allowed[0]
    return free[0]


def completing_cells(position: Position, mark: str) -> list[int]:
    """Free cells that would give `mark` a whole line, in cell order."""
    geometry = position.geometry
    mask = position.mask(mark)
    taken = position.mine | position.theirs
    out = set()
    for line in geometry.lines:
        gap = line & ~mask
        if gap.bit_count() == 1 and not gap & taken:
            out.add(gap.bit_length() - 1)
    return sorted(out)


def _normal_rules(position: Position) -> Iterable[list[int]]:
    me = position.to_move
    yield completing_cells(position, me)
    yield completing_cells(position, other(me))
    yield [_centre(position)]
    yield _corners(position)


def _misere_rules(position: Position, free: list[int]) -> Iterable[list[int]]:
    me, them = position.to_move, other(position.to_move)
    poison = set(completing_cells(position, me))
    safe = [cell for cell in free if cell not in poison] or free
    centre = _centre(position)
    yield [centre] if len(free) == len(position.cells) else []
    if position.cells[centre] == me:
        opposite = len(position.cells) - 1
        yield [opposite - c for c, mark in enumerate(position.cells) if mark == them and opposite - c in safe]
    theirs = set(completing_cells(position, them))
    pool = [cell for cell in safe if cell not in theirs] or safe
    yield sorted(pool, key=lambda cell: _exposure(position, cell))


def _exposure(position: Position, cell: int) -> tuple[int, int]:
    """Lines through `cell` that hold only the mover's marks, then all lines through it."""
    mine, theirs = position.mine, position.theirs
    through = [line for line in position.geometry.lines if line >> cell & 1]
    own = sum(1 for line in through if line & mine and not line & theirs)
    return own, len(through)


def _centre(position: Position) -> int:
    return len(position.cells) // 2


def _corners(position: Position) -> list[int]:
    cols, size = position.variant.cols, len(position.cells)
    return [0, cols - 1, size - cols, size - 1]
