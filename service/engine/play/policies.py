"""Ways to choose a move, by name: from perfect play down to a random mark, for playing and for levels.

Every policy sees the same inputs: the position (not finished), a source of answers (a solved table, or
the analyst's answers within a budget), one random generator and a look-ahead depth. A policy that reads
values asks the source for them; one that reads none (``strategy``, ``depth``, ``random``) never asks.
Only ``random-best`` and ``random`` draw from the generator, and only ``depth`` reads the depth.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from ..answer import Answer, Answers, Source, answers_from
from ..errors import PolicyError
from ..rules.geometry import MIN_DEPTH, Geometry
from ..rules.position import Position
from ..tables.table import Table
from .heuristic import depth_limited_move
from .strategy import strategy_move

DEFAULT_DEPTH = 3

Chooser = Callable[[Position, Answers, random.Random, int], int]
Player = Callable[[Answers, Position], int]


@dataclass(frozen=True)
class Policy:
    name: str
    summary: str
    uses_seed: bool
    uses_depth: bool
    choose: Chooser


def _perfect(position: Position, answers: Answers, rng: random.Random, depth: int) -> int:
    """The lowest proven best move, else the move ranked first by what was proven and guessed."""
    best = answers(position).best_move
    assert best is not None  # callers never pass a finished game
    return best


def _random_best(position: Position, answers: Answers, rng: random.Random, depth: int) -> int:
    best = answers(position).best_moves
    return rng.choice(best) if best else _perfect(position, answers, rng, depth)


def _random(position: Position, answers: Answers, rng: random.Random, depth: int) -> int:
    return rng.choice(position.legal_moves())


def _strategy(position: Position, answers: Answers, rng: random.Random, depth: int) -> int:
    return strategy_move(position)


def _depth(position: Position, answers: Answers, rng: random.Random, depth: int) -> int:
    return depth_limited_move(position, depth)


def _human(position: Position, answers: Answers, rng: random.Random, depth: int) -> int:
    """The seeds' "human-like best effort": win as fast as possible, and let the opponent go wrong.

    Not lost: among the moves of exactly the best value (the fastest wins, or the draws), the one that
    leaves the opponent the most `chances` to go wrong, then the lowest cell. Lost: among all moves,
    the most chances first, then the slowest loss, then the lowest cell. A chance is a reply whose
    result (win, draw, loss; speed does not count) is worse for the opponent than its best. It reads
    the exact value of every reply, which only a solved table gives.
    """
    answer = _from_table(answers(position), "human")
    value = answer.value
    assert value is not None  # a table's answer is exact
    lost = value.score < 0
    # When lost, every move loses, so all of them are candidates; otherwise only the best ones.
    candidates = answer.moves if lost else tuple(m for m in answer.moves if m.value == value)

    def rank(cell: int) -> tuple[int, tuple[int, int], int]:
        played = answer.move(cell).value
        assert played is not None
        return (-chances(answers(position.play(cell))), played.preference(), cell)

    return min((move.cell for move in candidates), key=rank)


def chances(answer: Answer) -> int:
    """How many replies available in the answer's position give its side to move a worse result than
    its best (the answer is exact)."""
    best = max((move.lower for move in answer.moves), default=0)  # a finished game offers no chance
    return sum(move.lower < best for move in answer.moves)


def _from_table(answer: Answer, policy: str) -> Answer:
    if answer.source is not Source.TABLE:
        message = (
            f"the {policy} policy reads the exact value of every reply, which only a solved table gives; "
            f"the {answer.position.variant.name} board has none"
        )
        raise PolicyError("needs_table", message, "policy")
    return answer


POLICIES: dict[str, Policy] = {
    p.name: p
    for p in (
        Policy(
            "perfect",
            "The best move: the fastest win, else a draw, else the slowest loss; the lowest cell of equals.",
            uses_seed=False,
            uses_depth=False,
            choose=_perfect,
        ),
        Policy(
            "random-best",
            "Any of the best moves, drawn uniformly: it never gives away value but varies its games.",
            uses_seed=True,
            uses_depth=False,
            choose=_random_best,
        ),
        Policy(
            "human",
            "A best move that leaves the opponent the most ways to go wrong; when lost, the losing move "
            "that does so, then the slowest loss.",
            uses_seed=False,
            uses_depth=False,
            choose=_human,
        ),
        Policy(
            "strategy",
            "A fixed rule list (win, block, centre, corner; mirrored rules under misère), no search.",
            uses_seed=False,
            uses_depth=False,
            choose=_strategy,
        ),
        Policy(
            "depth",
            f"Alpha-beta search {MIN_DEPTH} or more plies ahead (each variant gives its deepest) with a "
            "static evaluation of open lines and forks at the horizon; no exact values.",
            uses_seed=False,
            uses_depth=True,
            choose=_depth,
        ),
        Policy(
            "random",
            "Any legal move, drawn uniformly.",
            uses_seed=True,
            uses_depth=False,
            choose=_random,
        ),
    )
}


def get_policy(name: str) -> Policy:
    try:
        return POLICIES[name]
    except KeyError:
        known = ", ".join(POLICIES)
        message = f"unknown policy {name!r}; known policies: {known}"
        raise PolicyError("unknown_policy", message, "policy") from None


def player(policy: str, depth: int | None = None, seed: int | None = None) -> Player:
    """A move chooser for one game or many: inputs are checked once and one generator serves every call.

    `depth` defaults to DEFAULT_DEPTH, or the board's deepest where that is less (`default_depth`); when
    given it must lie in the depth range of the position's variant (MIN_DEPTH to its geometry's
    max_depth) for every policy, though only ``depth`` reads it.
    With `seed` None the random policies are not reproducible.
    """
    chosen = get_policy(policy)
    rng = random.Random(seed)

    def move(answers: Answers, position: Position) -> int:
        plies = default_depth(position.geometry) if depth is None else depth
        return chosen.choose(position, answers, rng, _checked(position, plies))

    return move


def check_choice(position: Position, policy: str, depth: int | None) -> None:
    """PolicyError unless `policy` can choose in `position` at `depth` (see `player`)."""
    get_policy(policy)
    _checked(position, default_depth(position.geometry) if depth is None else depth)


def default_depth(geometry: Geometry) -> int:
    """The depth a request that names none reads: DEFAULT_DEPTH, or the board's deepest where that is
    less (two plies on 15x15: a third would read 11 million sequences)."""
    return min(DEFAULT_DEPTH, geometry.max_depth)


def _checked(position: Position, plies: int) -> int:
    """`plies` if it is in the variant's depth range and the game goes on; else PolicyError."""
    deepest = position.geometry.max_depth
    if not MIN_DEPTH <= plies <= deepest:
        board = position.variant.name
        message = f"depth {plies} is not between {MIN_DEPTH} and {deepest} plies on the {board} board"
        raise PolicyError("bad_depth", message, "depth")
    if position.is_over:
        message = f"the game is over ({position.status.value}); there is no move to choose"
        raise PolicyError("game_over", message, "board")
    return plies


def choose_move(
    source: Table | Answers,
    position: Position,
    policy: str,
    depth: int | None = None,
    seed: int | None = None,
) -> int:
    """The cell that `policy` plays in `position`, reading values (if it reads any) from `source`: a
    solved table or any source of answers. Raises PolicyError on bad input (see `player`)."""
    return player(policy, depth, seed)(answers_from(source), position)
