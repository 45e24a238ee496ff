"""How strong each policy is: how often it gives away value, and how it fares against perfect play.

Accuracy is measured once in every position in progress reachable from the empty board with X to move
first (every policy treats X and O alike, so O first gives the same counts). Games against ``perfect``
start from the empty board, with the policy first and then second. A policy that draws from a seed plays
`games` games, seeded 0, 1, 2, ...; a deterministic one plays a single game, as every replay is the same.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ..answer import table_answers
from ..rules.geometry import geometry_of
from ..rules.position import MARKS, Position, Status
from ..tables.stream import positions
from ..tables.table import Table
from .policies import POLICIES, Player, player


@dataclass(frozen=True)
class Contender:
    policy: str
    depth: int | None = None  # only for the policy ``depth``

    @property
    def label(self) -> str:
        return self.policy if self.depth is None else f"{self.policy} {self.depth}"

    def player(self, seed: int) -> Player:
        return player(self.policy, self.depth, seed)

    @property
    def seeded(self) -> bool:
        return POLICIES[self.policy].uses_seed


@dataclass(frozen=True)
class Accuracy:
    positions: int  # positions in progress, one move chosen in each
    mistakes: int  # the move's result is worse than the position's
    slower: int  # same result, but a slower win or a faster loss than the best

    @property
    def mistake_rate(self) -> float:
        return self.mistakes / self.positions if self.positions else 0.0


@dataclass(frozen=True)
class Record:
    """Results of the contender's games, from its own side."""

    wins: int
    draws: int
    losses: int

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses


@dataclass(frozen=True)
class Strength:
    contender: Contender
    variant: str
    accuracy: Accuracy
    as_first: Record  # against perfect, the contender moving first
    as_second: Record


DEFAULT_CONTENDERS = (
    Contender("perfect"),
    Contender("random-best"),
    Contender("human"),
    Contender("strategy"),
    *(Contender("depth", d) for d in (1, 2, 3, 4, 6, 8)),
    Contender("random"),
)


def accuracy(table: Table, contender: Contender, seed: int = 0) -> Accuracy:
    """One move in every reachable position in progress, all drawn from one generator seeded `seed`."""
    choose, answers = contender.player(seed), table_answers(table)
    seen = mistakes = slower = 0
    for position in positions(table):
        if position.is_over:
            continue
        cell = choose(answers, position)
        found = table.lookup(position)
        played = next(m.exact_value for m in found.moves if m.cell == cell)
        seen += 1
        mistakes += played.score < found.value.score
        slower += played.score == found.value.score and played != found.value
    return Accuracy(seen, mistakes, slower)


def play_game(table: Table, x: Player, o: Player, start: Position | None = None) -> Position:
    """Play from `start` (the empty board, X first, by default) to the end; return the final position."""
    position = Position.empty(table.variant) if start is None else start
    answers = table_answers(table)
    while not position.is_over:
        mover = x if position.to_move == MARKS[0] else o
        position = position.play(mover(answers, position))
    return position


def against_perfect(table: Table, contender: Contender, first: bool, games: int = 200) -> Record:
    """The contender's results against ``perfect``, moving first (as X) or second (as O)."""
    perfect = player("perfect")
    side = MARKS[0] if first else MARKS[1]
    won = Status.X_WON if first else Status.O_WON
    tally = {"win": 0, "draw": 0, "loss": 0}
    for seed in range(games if contender.seeded else 1):
        mine = contender.player(seed)
        x, o = (mine, perfect) if side == MARKS[0] else (perfect, mine)
        status = play_game(table, x, o).status
        outcome = "draw" if status is Status.DRAW else "win" if status is won else "loss"
        tally[outcome] += 1
    return Record(tally["win"], tally["draw"], tally["loss"])


def measure_strength(
    tables: Mapping[str, Table], contenders: Iterable[Contender] = DEFAULT_CONTENDERS, games: int = 200
) -> list[Strength]:
    """Every contender in every variant of `tables`, in the order given; a `depth` level beyond a
    variant's depth range is left out for that variant."""
    return [
        Strength(
            contender,
            name,
            accuracy(table, contender),
            against_perfect(table, contender, first=True, games=games),
            against_perfect(table, contender, first=False, games=games),
        )
        for contender in contenders
        for name, table in tables.items()
        if contender.depth is None or contender.depth <= geometry_of(table.variant).max_depth
    ]


def strength_table(strengths: Sequence[Strength]) -> str:
    """A markdown table, one row per contender and variant."""
    header = (
        "| policy | variant | value lost | slower | as first vs perfect: W/D/L | as second: W/D/L |\n"
        "|---|---|---:|---:|---:|---:|\n"
    )
    rows = [
        f"| {s.contender.label} | {s.variant} "
        f"| {s.accuracy.mistakes}/{s.accuracy.positions} ({s.accuracy.mistake_rate:.1%}) "
        f"| {s.accuracy.slower} | {_wdl(s.as_first)} | {_wdl(s.as_second)} |"
        for s in strengths
    ]
    return header + "\n".join(rows) + "\n"


def _wdl(record: Record) -> str:
    return f"{record.wins}/{record.draws}/{record.losses}"
