"""Ways to choose a move, by name: from perfect play down to a random mark, for playing and for levels.

Every policy sees the same inputs: the solved table of the position's variant, the position (not
finished), one random generator and a look-ahead depth. Only ``random-best`` and ``random`` draw from the
generator, and only ``depth`` reads the depth; the others ignore what they do not use.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from ..answer import Answer
from ..errors import EngineError
from ..rules.geometry import MIN_DEPTH
from ..rules.position import Position
from ..rules.values import Result
from ..tables.table import MoveValue, Table
from .heuristic import depth_limited_move
from .strategy import strategy_move

DEFAULT_DEPTH = 3

Chooser = Callable[[Table, Position, random.Random, int], int]
# How a policy chooses from a search's answer (a board with no table): None when it needs exact values
# that only a table gives.
AnswerChooser = Callable[[Answer, random.Random, int], int]
PositionChooser = Callable[[Position, random.Random, int], int]  # one that reads no value at all
Player = Callable[[Table, Position], int]


class PolicyError(EngineError):
    """A move was asked for with an unknown policy, a depth out of range, or a finished game."""


@dataclass(frozen=True)
class Policy:
    name: str
    summary: str
    uses_seed: bool
    uses_depth: bool
    choose: Chooser
    choose_from_answer: AnswerChooser | None


def _perfect(table: Table, position: Position, rng: random.Random, depth: int) -> int:
    best = table.analyze(position).best_move
    assert best is not None  # callers never pass a finished game
    return best


def _random_best(table: Table, position: Position, rng: random.Random, depth: int) -> int:
    return rng.choice(table.analyze(position).best_moves)


def _random(position: Position, rng: random.Random, depth: int) -> int:
    return rng.choice(position.legal_moves())


def _strategy(position: Position, rng: random.Random, depth: int) -> int:
    return strategy_move(position)


def _depth(position: Position, rng: random.Random, depth: int) -> int:
    return depth_limited_move(position, depth)


def _perfect_answer(answer: Answer, rng: random.Random, depth: int) -> int:
    """The lowest proven best move, else the move ranked first by what the search proved and guessed."""
    best = answer.best_move
    assert best is not None  # callers never pass a finished game
    return best


def _random_best_answer(answer: Answer, rng: random.Random, depth: int) -> int:
    return rng.choice(answer.best_moves) if answer.best_moves else _perfect_answer(answer, rng, depth)


def _from_table(chooser: PositionChooser) -> Chooser:
    def choose(table: Table, position: Position, rng: random.Random, depth: int) -> int:
        return chooser(position, rng, depth)

    return choose


def _from_answer(chooser: PositionChooser) -> AnswerChooser:
    def choose(answer: Answer, rng: random.Random, depth: int) -> int:
        return chooser(answer.position, rng, depth)

    return choose


def _human(table: Table, position: Position, rng: random.Random, depth: int) -> int:
    """Article 004's "human-like best effort": win as fast as possible, and let the opponent go wrong.

    Not lost: among the moves of exactly the best value (the fastest wins, or the draws), the one that
    leaves the opponent the most `chances` to go wrong, then the lowest cell. Lost: among all moves,
    the most chances first, then the slowest loss, then the lowest cell. A chance is a reply whose
    result (win, draw, loss; speed does not count) is worse for the opponent than its best.
    """
    analysis = table.analyze(position)
    lost = analysis.value.result is Result.LOSS
    # When lost, every move loses, so all of them are candidates; otherwise only the best ones.
    candidates = analysis.moves if lost else tuple(m for m in analysis.moves if m.value == analysis.value)

    def rank(move: MoveValue) -> tuple[int, tuple[int, int], int]:
        return (-chances(table, position.play(move.cell)), move.value.preference(), move.cell)

    return min(candidates, key=rank).cell


def chances(table: Table, position: Position) -> int:
    """How many replies available in `position` give its side to move a worse result than its best."""
    analysis = table.analyze(position)
    return sum(m.value.score < analysis.value.score for m in analysis.moves)


POLICIES: dict[str, Policy] = {
    p.name: p
    for p in (
        Policy(
            "perfect",
            "The best move: the fastest win, else a draw, else the slowest loss; the lowest cell of equals.",
            uses_seed=False,
            uses_depth=False,
            choose=_perfect,
            choose_from_answer=_perfect_answer,
        ),
        Policy(
            "random-best",
            "Any of the best moves, drawn uniformly: it never gives away value but varies its games.",
            uses_seed=True,
            uses_depth=False,
            choose=_random_best,
            choose_from_answer=_random_best_answer,
        ),
        Policy(
            "human",
            "A best move that leaves the opponent the most ways to go wrong; when lost, the losing move "
            "that does so, then the slowest loss.",
            uses_seed=False,
            uses_depth=False,
            choose=_human,
            choose_from_answer=None,  # it reads the exact value of every reply
        ),
        Policy(
            "strategy",
            "A fixed rule list (win, block, centre, corner; mirrored rules under misère), no search.",
            uses_seed=False,
            uses_depth=False,
            choose=_from_table(_strategy),
            choose_from_answer=_from_answer(_strategy),
        ),
        Policy(
            "depth",
            f"Alpha-beta search {MIN_DEPTH} or more plies ahead (each variant gives its deepest) with a "
            "static evaluation of open lines and forks at the horizon; no exact values.",
            uses_seed=False,
            uses_depth=True,
            choose=_from_table(_depth),
            choose_from_answer=_from_answer(_depth),
        ),
        Policy(
            "random",
            "Any legal move, drawn uniformly.",
            uses_seed=True,
            uses_depth=False,
            choose=_from_table(_random),
            choose_from_answer=_from_answer(_random),
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

    `depth` defaults to DEFAULT_DEPTH; when given it must lie in the depth range of the position's
    variant (MIN_DEPTH to its geometry's max_depth) for every policy, though only ``depth`` reads it.
    With `seed` None the random policies are not reproducible.
    """
    chosen = get_policy(policy)
    plies = DEFAULT_DEPTH if depth is None else depth
    rng = random.Random(seed)

    def move(table: Table, position: Position) -> int:
        return chosen.choose(table, position, rng, _checked(position, plies))

    return move


def check_choice(position: Position, policy: str, depth: int | None) -> None:
    """PolicyError unless `policy` can choose in `position` at `depth` (see `player`)."""
    get_policy(policy)
    _checked(position, DEFAULT_DEPTH if depth is None else depth)


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
    table: Table, position: Position, policy: str, depth: int | None = None, seed: int | None = None
) -> int:
    """The cell that `policy` plays in `position`; raises PolicyError on bad input (see `player`)."""
    return player(policy, depth, seed)(table, position)


def choose_from_answer(answer: Answer, policy: str, depth: int | None = None, seed: int | None = None) -> int:
    """The cell that `policy` plays from a search's answer (a board with no table); PolicyError on bad
    input, or for a policy that needs a table."""
    position = answer.position
    chosen = get_policy(policy)
    plies = _checked(position, DEFAULT_DEPTH if depth is None else depth)
    if chosen.choose_from_answer is None:
        message = (
            f"the {policy} policy reads the exact value of every reply, which only a solved table gives; "
            f"the {position.variant.name} board has none"
        )
        raise PolicyError("needs_table", message, "policy")
    return chosen.choose_from_answer(answer, random.Random(seed), plies)
