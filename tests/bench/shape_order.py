"""How often a ranking's first move wins, for the guesses among unproven moves on five in a row: the
threat shapes (service/engine/search/shapes.py) against the order before them (the search's estimates,
else cell order) and against pbrain's old line-shape score, in one run.

- Puzzles (tests/data/gomoku-puzzles/, the side to move wins by fours): every legal move taken as
  unproven, each ranking's first move is scored twice: the puzzle's own first move, and a move that
  starts a win by fours that the bench's own search confirms (`confirm_move`).
- The same puzzles as a request sees them: the Analyst's answer within `--budget-ms`, its moves ranked
  by the old order (answer.py `order`: estimates, then cell) and by the new one (`ordered`); proven
  moves rank first in both.
- Random middle games (15x15k5, seeded): stones placed at random near the others; the Analyst with a
  long budget (`--long-ms`) proves what it can; scored: the first move is a proven win when there is
  one, and is not a proven loss when some move is not.
- Weights: the puzzle score of a few other choices of weights (shapes.py `Weights`), to justify those
  kept.

Run: python -m tests.bench.shape_order [--estimated 15x15k5] [--limit N] [--random 30]
     [--budget-ms 1000] [--long-ms 4000]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache

from service.engine import Analyst, Budget, Position, SearcherPool, get_variant, ready_shapes
from service.engine.answer import order
from service.engine.rules.known_move import KnownMove
from service.engine.search.budget import Spending
from service.engine.search.estimates import common_depth_estimates, estimate_nodes
from service.engine.search.renju_answers import freestyle
from service.engine.search.searcher import Searcher
from service.engine.search.shapes import WEIGHTS, Weights, guess_ranks
from tests.engine.search.continuous_fours import Search, confirm_move
from tests.engine.search.gomoku_puzzles import Puzzle, puzzles, rules_of

SIZE = 15
CHECK_NODES = 200_000
Ranking = Callable[[Position, list[int]], list[int]]  # the legal moves, best first


def old_pbrain_score(position: Position, cell: int) -> int:
    """pbrain's own score before the engine's shapes (service/cli/pbrain_shape.py, removed): the lines
    of five through the cell one side alone holds, 12**(own stones) for the mover, 10**(their stones)
    for the opponent."""
    mine, theirs, score = position.mine, position.theirs, 0
    for line in position.geometry.lines:
        if line >> cell & 1:
            if not line & theirs:
                score += 12 ** (line & mine).bit_count()
            if not line & mine:
                score += 10 ** (line & theirs).bit_count()
    return score


def off_centre(cell: int) -> int:
    row, col = divmod(cell, SIZE)
    return (2 * row - SIZE + 1) ** 2 + (2 * col - SIZE + 1) ** 2


def by_shapes(weights: Weights = WEIGHTS) -> Ranking:
    def rank(position: Position, cells: list[int]) -> list[int]:
        ranks = guess_ranks(position, cells, weights)
        return sorted(cells, key=lambda cell: (ranks[cell], cell))

    return rank


def by_old_pbrain(position: Position, cells: list[int]) -> list[int]:
    return sorted(cells, key=lambda cell: (-old_pbrain_score(position, cell), off_centre(cell), cell))


@lru_cache(maxsize=4)
def _searcher(variant: str) -> Searcher:
    return Searcher(get_variant(variant))


def by_estimates(position: Position, cells: list[int]) -> list[int]:
    """The search's estimates of every move, with the nodes a 1 s request gives them, then cell order
    (the order of answer.py `order` when nothing is proven)."""
    board = freestyle(position) if position.variant.renju else position
    searcher = _searcher(board.variant.name)
    nodes = estimate_nodes(Budget(1.0))
    empty_after = board.variant.cells - (board.x | board.o).bit_count() - 1
    spending = Spending(time.monotonic() + 10.0, None, None)
    found = common_depth_estimates(
        searcher.game,
        searcher.estimates_table(),
        board.mine,
        board.theirs,
        cells,
        empty_after,
        nodes,
        spending,
    )
    return sorted(cells, key=lambda cell: (-found[cell].score if cell in found else 0, cell))


def by_cell(position: Position, cells: list[int]) -> list[int]:
    return sorted(cells)


class Checker:
    """Whether a move starts a win by fours, by the bench's own search (cached)."""

    def __init__(self) -> None:
        self.known: dict[tuple[str, str, int], bool] = {}

    def wins(self, puzzle: Puzzle, variant: str, move: int) -> bool:
        key = (puzzle.name, variant, move)
        if key not in self.known:
            if move == puzzle.first_move:
                self.known[key] = True  # the source's line (the puzzle test checks it)
            else:
                search = Search(rules_of(variant), nodes_left=CHECK_NODES)
                self.known[key] = confirm_move(search, puzzle.attacker, puzzle.defender, move) is not None
        return self.known[key]


def percent(hits: int, total: int) -> str:
    return f"{hits}/{total} ({100 * hits / max(total, 1):.0f} %)"


def puzzles_unproven(chosen: list[Puzzle], variants: list[str], checker: Checker, estimated: str) -> None:
    rankings: dict[str, Ranking] = {
        "threat shapes": by_shapes(),
        "pbrain's old score": by_old_pbrain,
        "estimates (1 s's nodes)": by_estimates,
        "cell order": by_cell,
    }
    print("## Puzzles, every move unproven: the first move is the solution / starts a win by fours")
    for variant in variants:
        for name, rank in rankings.items():
            if rank is by_estimates and variant not in estimated.split(","):
                continue  # a few seconds a position
            solution = wins = 0
            started = time.perf_counter()
            for puzzle in chosen:
                position = puzzle.position(variant)
                first = rank(position, position.legal_moves())[0]
                solution += first == puzzle.first_move
                wins += checker.wins(puzzle, variant, first)
            spent = (time.perf_counter() - started) / len(chosen) * 1000
            print(
                f"{variant:15} {name:24} solution {percent(solution, len(chosen)):14} "
                f"wins {percent(wins, len(chosen)):14} {spent:7.1f} ms a position"
            )


def puzzles_answered(chosen: list[Puzzle], variants: list[str], checker: Checker, budget_ms: int) -> None:
    print(f"## Puzzles as requests ({budget_ms} ms): the answer's first move wins (old order / new order)")
    for variant in variants:
        analyst = warmed(variant)
        old = new = proven = 0
        for puzzle in chosen:
            position = puzzle.position(variant)
            answer = analyst.analyze(position, Budget(budget_ms / 1000))
            proven += answer.moves[0].lower == 1
            old += checker.wins(puzzle, variant, sorted(answer.moves, key=order)[0].cell)
            new += checker.wins(puzzle, variant, answer.moves[0].cell)
        print(
            f"{variant:15} first move proven a win {percent(proven, len(chosen)):14} "
            f"old order {percent(old, len(chosen)):14} threat shapes {percent(new, len(chosen))}"
        )


def warmed(variant: str) -> Analyst:
    pool = SearcherPool(1)
    pool.warm()
    ready_shapes([get_variant(variant)])
    analyst = Analyst(lambda v: None, None, pool)
    analyst.analyze(Position.empty(get_variant(variant)), Budget(0.2))
    return analyst


def random_middle_games(count: int, seed: int) -> list[Position]:
    """Positions of 8 to 24 stones, each placed at random within two cells of a stone, the game not over
    and no five to make or to block at once (those the search proves at a glance)."""
    rng = random.Random(seed)
    variant = get_variant("15x15k5")
    out: list[Position] = []
    while len(out) < count:
        position = Position.empty(variant).play(7 * SIZE + 7)
        for _ in range(rng.randint(7, 23)):
            stones = position.x | position.o
            near = [
                cell
                for cell in position.legal_moves()
                if any(
                    stones >> (r * SIZE + c) & 1
                    for r in range(max(0, cell // SIZE - 2), min(SIZE, cell // SIZE + 3))
                    for c in range(max(0, cell % SIZE - 2), min(SIZE, cell % SIZE + 3))
                )
            ]
            position = position.play(rng.choice(near))
            if position.is_over:
                break
        if not position.is_over:
            out.append(position)
    return out


def middle_games(count: int, seed: int, long_ms: int) -> None:
    print(f"## Random middle games (15x15k5, seed {seed}), proofs within {long_ms} ms")
    analyst = warmed("15x15k5")
    rankings: dict[str, Ranking] = {
        "threat shapes": by_shapes(),
        "shapes, block three 1": by_shapes(replace(WEIGHTS, block_three=1.0)),
        "shapes, defence 0.9": by_shapes(replace(WEIGHTS, defence=0.9)),
        "pbrain's old score": by_old_pbrain,
        "estimates (1 s's nodes)": by_estimates,
        "cell order": by_cell,
    }
    with_win = not_all_lost = 0
    won = dict.fromkeys(rankings, 0)
    kept = dict.fromkeys(rankings, 0)
    for position in random_middle_games(count, seed):
        answer = analyst.analyze(position, Budget(long_ms / 1000))
        moves: dict[int, KnownMove] = {move.cell: move for move in answer.moves}
        wins = {cell for cell, move in moves.items() if move.lower == 1}
        losses = {cell for cell, move in moves.items() if move.upper == -1}
        some_kept = len(losses) < len(moves)
        with_win += bool(wins)
        not_all_lost += bool(losses) and some_kept
        for name, rank in rankings.items():
            first = rank(position, position.legal_moves())[0]
            won[name] += bool(wins) and first in wins
            kept[name] += bool(losses) and some_kept and first not in losses
    print(f"{count} positions: {with_win} with a proven win, {not_all_lost} with proven losses and not only")
    for name in rankings:
        print(
            f"{name:26} first move a proven win {percent(won[name], with_win):14} "
            f"not a proven loss {percent(kept[name], not_all_lost)}"
        )


def weight_choices(chosen: list[Puzzle], checker: Checker) -> None:
    print("## Other weights (15x15k5 puzzles, every move unproven): solution / starts a win by fours")
    choices = {
        "kept": WEIGHTS,
        "defence 0.9": replace(WEIGHTS, defence=0.9),
        "defence 0.25": replace(WEIGHTS, defence=0.25),
        "block three 1 (no discount)": replace(WEIGHTS, block_three=1.0),
        "block three 0.01": replace(WEIGHTS, block_three=0.01),
        "block three 0.001": replace(WEIGHTS, block_three=0.001),
        "room unweighted (base 1, x1)": replace(WEIGHTS, room_base=1, room=1),
        "no combinations": replace(WEIGHTS, four_three=0, three_three=0),
        "four = open three": replace(WEIGHTS, four=1_000),
        "broken three 500": replace(WEIGHTS, broken_three=500),
    }
    for name, weights in choices.items():
        rank = by_shapes(weights)
        solution = wins = 0
        for puzzle in chosen:
            position = puzzle.position("15x15k5")
            first = rank(position, position.legal_moves())[0]
            solution += first == puzzle.first_move
            wins += checker.wins(puzzle, "15x15k5", first)
        print(f"{name:31} solution {percent(solution, len(chosen)):14} wins {percent(wins, len(chosen))}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--variants", default="15x15k5,15x15k5-exact,15x15k5-renju")
    parser.add_argument("--estimated", default="15x15k5", help="the variants whose estimates are ranked")
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--budget-ms", type=int, default=1000)
    parser.add_argument("--random", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--long-ms", type=int, default=4000)
    args = parser.parse_args()
    chosen = list(puzzles())[: args.limit]
    variants = args.variants.split(",")
    checker = Checker()
    puzzles_unproven(chosen, variants, checker, args.estimated)
    weight_choices(chosen, checker)
    puzzles_answered(chosen, variants, checker, args.budget_ms)
    middle_games(args.random, args.seed, args.long_ms)


if __name__ == "__main__":
    main()
