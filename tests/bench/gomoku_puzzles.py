"""Public gomoku VCF puzzles (tests/data/gomoku-puzzles/), each analysed as a request is: the engine's
Analyst, no store of proven positions, the default budget of a request (DEFAULT_BUDGET_MS) unless
--budget-ms. Per variant it prints:

- the puzzles whose winning first move the bench's own search confirms (a VCF in plain Python,
  `tests/engine/search/continuous_fours.py`): only those count, since a source's line can be wrong;
- proven wins: the answer's result is a win and its first-ranked move is proven a win;
- how often the puzzle's first move is among the moves proven to win, the median and slowest answer;
- wrong claims: a proven result other than a win, the puzzle's first move proven not to win, or a move
  claimed to win after which the defender makes five at once;
- each move claimed to win, checked by the bench's search (`continuous_fours.proves_win`): a VCF from
  that move, else a win after every reply of the defender, by a VCF or, against one counter-four, its
  block and a VCF after every reply again; every line found replays to five. A move it cannot confirm
  is listed (a win by longer threats is not followed), not counted wrong;
- certificates: the proven wins whose first-ranked move the bench's search confirms so;
- the answers' own certificates (`Answer.line`, a line of fours) replayed to five, every reply forced;
- every miss: the puzzle, and what the answer said.

Answers on 15x15 are never exact within a request's budget, so neither POST /analyze's `mainline` nor
`Analyst.main_line` gives a line here; the certificate is the bench's own.

Under renju (15x15k5-renju) the checks read black's fives as exactly five and ignore forbidden points and
white's overlines: a rougher check there, which the data's renju lines (black attacking) pass.

The collection won by threes and fours (VCT: `threat_puzzles`, no line given) is reported after it,
per variant: puzzles, proven wins, the median and slowest answer, each move claimed to win checked by
the bench's checker of wins by threes (`tests/engine/search/winning_threes.py`: confirmed, or refuted
when the defender makes five at once or wins by continuous fours after it: a wrong claim; a claim it
can do neither with is listed as unconfirmed, not counted wrong), and every miss. The checker knows
freestyle and the exact rule, not renju: under renju each proven win's certificate of threes (`Answer.tree`)
is replayed instead against every reply, with the tests' own reading of renju's fives and forbidden points
(`test_renju_certificate.replayed`); a win by fours carries a line, not a tree, and is counted apart.

Run: python -m tests.bench.gomoku_puzzles [--variants 15x15k5,15x15k5-exact,15x15k5-renju]
     [--budget-ms 1000] [--limit N] [--collections vcf,vct]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from service.engine import Analyst, Answer, Budget, Position, Result, SearcherPool, get_variant, ready_shapes
from service.http.schemas import DEFAULT_BUDGET_MS
from tests.engine.search.continuous_fours import (
    Rules,
    Search,
    confirm_move,
    proves_win,
    replay,
    to_five,
)
from tests.engine.search.gomoku_puzzles import Puzzle, ThreatPuzzle, puzzles, rules_of, threat_puzzles
from tests.engine.search.test_renju_certificate import replayed
from tests.engine.search.winning_threes import Limit, proves_win_by_threes, refutes

VARIANTS = ("15x15k5", "15x15k5-exact", "15x15k5-renju")
CHECK_NODES = 200_000  # the bench's VCF search per move: 0.5 s at most on these puzzles
THREES_DEPTH = 2  # at most, the checker's moves that are not fours, per claim (the puzzles need one or two)
THREES_SEARCHES = 400  # the checker's VCF searches per claim and depth: a few seconds at most


@dataclass(frozen=True)
class Verdict:
    puzzle: Puzzle
    seconds: float
    proven: bool  # a win, its first-ranked move proven to win
    first_move_claimed: bool
    claimed: tuple[int, ...]  # the moves proven to win
    confirmed: int  # of them, confirmed by the bench's search (fours, or a three then fours)
    unconfirmed: tuple[int, ...]  # claimed moves the bench's search could not confirm (not refuted)
    wrong: tuple[str, ...]
    certificate: bool  # the proven win's line from the engine's move replayed to five
    said: str  # what the answer said, for the misses
    own_line: bool | None = None  # the answer's own certificate (`Answer.line`) replays to five; None: none


def where(cell: int) -> str:
    """A cell as the puzzle sources write it: (row, column), from 0."""
    row, col = divmod(cell, 15)
    return f"({row},{col})"


def verified(puzzle: Puzzle, rules: Rules) -> bool:
    """Whether the bench's own VCF search confirms the puzzle's first move."""
    line = confirm_move(
        Search(rules, nodes_left=CHECK_NODES), puzzle.attacker, puzzle.defender, puzzle.first_move
    )
    return line is not None and replay(rules, puzzle.attacker, puzzle.defender, line).five


class Positioned(Protocol):
    def position(self, variant: str) -> Position: ...


P = TypeVar("P", bound=Positioned)


def answered(chosen: Sequence[P], variant: str, budget_ms: int) -> list[tuple[P, Answer, float]]:
    """Each puzzle's answer by a warmed Analyst within the budget, and the seconds it took."""
    analyst = warmed(variant)
    out = []
    for puzzle in chosen:
        position = puzzle.position(variant)
        started = time.perf_counter()
        answer = analyst.analyze(position, Budget(budget_ms / 1000))
        out.append((puzzle, answer, time.perf_counter() - started))
    return out


def judge(puzzle: Puzzle, rules: Rules, answer: Answer, seconds: float) -> Verdict:
    attacker, defender = puzzle.attacker, puzzle.defender
    claimed = tuple(m.cell for m in answer.moves if m.lower == 1)
    wrong = []
    if answer.result is not None and answer.result is not Result.WIN:
        wrong.append(f"the position proven a {answer.result}")
    first = answer.move(puzzle.first_move)
    if first.upper < 1:
        wrong.append(f"the puzzle's move {where(puzzle.first_move)} proven not to win")
    confirmed = 0
    lines: dict[int, bool] = {}
    for cell in claimed:
        after = attacker | 1 << cell
        if not rules.has_five(after) and rules.completions(defender, after):
            wrong.append(f"{where(cell)} claimed to win, and the defender makes five at once")
            continue
        if proves_win(rules, attacker, defender, cell, CHECK_NODES):
            confirmed += 1
            lines[cell] = True
    best = answer.moves[0]
    proven = answer.result is Result.WIN and best.lower == 1
    certificate = proven and best.cell in lines
    said = (
        f"result {answer.result}, best move {where(best.cell)} [{best.lower}, {best.upper}],"
        f" the puzzle's {where(puzzle.first_move)} [{first.lower}, {first.upper}],"
        f" {answer.nodes} nodes, closed by {answer.closed_by or 'nothing'}"
    )
    return Verdict(
        puzzle,
        seconds,
        proven,
        puzzle.first_move in claimed,
        claimed,
        confirmed,
        tuple(c for c in claimed if c not in lines and not any(where(c) in w for w in wrong)),
        tuple(wrong),
        certificate,
        said,
        own_line(rules, attacker, defender, answer),
    )


def own_line(rules: Rules, attacker: int, defender: int, answer: Answer) -> bool | None:
    """Whether the answer's own line of fours, played on to five where it stops at a double threat,
    replays to five (every reply forced); None when the answer gives none."""
    if not answer.line:
        return None
    return replay(rules, attacker, defender, to_five(rules, attacker, defender, list(answer.line))).five


def warmed(variant: str) -> Analyst:
    """An Analyst as a worker has it after its start: tables made, shapes ready, one search run."""
    pool = SearcherPool(1)
    pool.warm()
    ready_shapes([get_variant(variant)])
    analyst = Analyst(lambda v: None, None, pool)
    analyst.analyze(Position.empty(get_variant(variant)), Budget(0.2))
    return analyst


def run(variant: str, budget_ms: int, limit: int | None) -> None:
    rules = rules_of(variant)
    chosen = puzzles()[:limit]
    usable = [p for p in chosen if verified(p, rules)]
    unverified = [p.name for p in chosen if p not in usable]
    lines_ok = sum(
        replay(rules, p.attacker, p.defender, to_five(rules, p.attacker, p.defender, list(p.line))).five
        for p in chosen
    )
    verdicts = [
        judge(puzzle, rules, answer, seconds)
        for puzzle, answer, seconds in answered(usable, variant, budget_ms)
    ]
    times = sorted(v.seconds for v in verdicts)
    proven = [v for v in verdicts if v.proven]
    claims = sum(len(v.claimed) for v in verdicts)
    print(
        f"{variant}, budget {budget_ms} ms: {len(chosen)} puzzles,"
        f" {len(usable)} with the first move confirmed"
    )
    print(f"  the sources' own lines replay to five: {lines_ok} of {len(chosen)}")
    if unverified:
        print(f"  not confirmed by the bench's VCF search (left out): {', '.join(unverified)}")
    share = 100 * len(proven) / max(1, len(usable))
    print(f"  proven wins: {len(proven)} of {len(usable)} ({share:.1f} %)")
    print(
        "  the puzzle's first move among the moves proven to win:",
        sum(v.first_move_claimed for v in verdicts),
    )
    print(f"  answer time: median {statistics.median(times):.3f} s, slowest {times[-1]:.3f} s")
    print(f"  wrong claims: {sum(len(v.wrong) for v in verdicts)}")
    confirmed = sum(v.confirmed for v in verdicts)
    print(f"  moves claimed to win: {claims}, confirmed by the bench's search: {confirmed}")
    print(
        f"  certificates replayed to five: {sum(v.certificate for v in proven)} of {len(proven)} proven wins"
    )
    lines = [v for v in verdicts if v.own_line is not None]
    replayed = sum(bool(v.own_line) for v in lines)
    print(f"  the answers' own lines replayed to five: {replayed} of {len(lines)}")
    for verdict in verdicts:
        for why in verdict.wrong:
            print(f"  WRONG {verdict.puzzle.name}: {why}")
        if verdict.own_line is False:
            print(f"  LINE {verdict.puzzle.name}: the answer's own line does not replay to five")
        if verdict.unconfirmed:
            cells = ", ".join(where(c) for c in verdict.unconfirmed)
            print(f"  unconfirmed {verdict.puzzle.name}: {cells} claimed to win")
        if not verdict.proven:
            print(f"  miss {verdict.puzzle.name} (depth {verdict.puzzle.depth}): {verdict.said}")


def named(cell: int) -> str:
    """A cell as the VCT collection writes it: column letter from A at the left, row 1 at the bottom."""
    row, col = divmod(cell, 15)
    return f"{'ABCDEFGHIJKLMNO'[col]}{15 - row}"


@dataclass(frozen=True)
class ThreatVerdict:
    puzzle: ThreatPuzzle
    seconds: float
    proven: bool  # a win, its first-ranked move proven to win
    claimed: tuple[int, ...]  # the moves proven to win
    confirmed: tuple[int, ...]  # of them, confirmed by the bench's checker of wins by threes
    wrong: tuple[str, ...]  # claims the checker refutes, and why
    said: str  # what the answer said, for the misses
    replayed: bool | None = None  # under renju, the win's certificate of threes replays (None: no tree)


def judge_threats(puzzle: ThreatPuzzle, rules: Rules | None, answer: Answer, seconds: float) -> ThreatVerdict:
    """The answer and, when `rules` is given (not renju), each claim checked by the bench's checker."""
    attacker, defender = puzzle.attacker, puzzle.defender
    claimed = tuple(m.cell for m in answer.moves if m.lower == 1)
    confirmed, wrong = [], []
    for cell in claimed if rules is not None else ():
        why = refutes(rules, attacker, defender, cell)
        if why is not None:
            wrong.append(f"{named(cell)} claimed to win: {why}")
        elif any(
            proves_win_by_threes(rules, attacker, defender, cell, depth, Limit(THREES_SEARCHES))
            for depth in range(1, THREES_DEPTH + 1)  # the shallower first: a deeper try may spend its limit
        ):
            confirmed.append(cell)
    best = answer.moves[0]
    said = (
        f"result {answer.result}, best move {named(best.cell)} [{best.lower}, {best.upper}],"
        f" {answer.nodes} nodes, closed by {answer.closed_by or 'nothing'}"
    )
    tree = answer.tree
    replays = None
    if answer.position.variant.renju and tree is not None:
        replays = replayed(answer.position, tree, 15)
        if not replays:
            wrong.append(f"{named(tree.move)}: its certificate fails the replay under renju")
    return ThreatVerdict(
        puzzle,
        seconds,
        answer.result is Result.WIN and best.lower == 1,
        claimed,
        tuple(confirmed),
        tuple(wrong),
        said,
        replays,
    )


def run_threats(variant: str, budget_ms: int, limit: int | None) -> None:
    """The collection won by threes and fours, under one variant."""
    checked = not variant.endswith("-renju")
    rules = rules_of(variant) if checked else None
    chosen = threat_puzzles()[:limit]
    verdicts = [
        judge_threats(puzzle, rules, answer, seconds)
        for puzzle, answer, seconds in answered(chosen, variant, budget_ms)
    ]
    times = sorted(v.seconds for v in verdicts)
    proven = [v for v in verdicts if v.proven]
    black = sum(v.puzzle.black_to_move for v in verdicts)
    print(f"{variant}, budget {budget_ms} ms, VCT: {len(chosen)} puzzles ({black} black to move)")
    share = 100 * len(proven) / max(1, len(chosen))
    print(f"  proven wins: {len(proven)} of {len(chosen)} ({share:.1f} %)")
    print(f"  answer time: median {statistics.median(times):.3f} s, slowest {times[-1]:.3f} s")
    claims = sum(len(v.claimed) for v in verdicts)
    if rules is None:
        trees = [v for v in verdicts if v.replayed is not None]
        print(f"  moves claimed to win: {claims}, not checked by the checker (it does not know renju)")
        print(
            f"  certificates of threes replayed under renju: {sum(bool(v.replayed) for v in trees)} of"
            f" {len(trees)}; wins by fours (a line): {len(proven) - len(trees)}"
        )
        print(f"  wrong claims: {sum(len(v.wrong) for v in verdicts)}")
    else:
        confirmed = sum(len(v.confirmed) for v in verdicts)
        firsts = sum(v.proven and v.claimed[:1] == v.confirmed[:1] and bool(v.confirmed) for v in verdicts)
        print(f"  moves claimed to win: {claims}, confirmed by the bench's checker: {confirmed}")
        print(f"  proven wins whose first-ranked move the checker confirms: {firsts} of {len(proven)}")
        print(f"  wrong claims: {sum(len(v.wrong) for v in verdicts)}")
    for verdict in verdicts:
        name = verdict.puzzle.name
        for why in verdict.wrong:
            print(f"  WRONG {name}: {why}")
        if rules is not None:
            unconfirmed = [c for c in verdict.claimed if c not in verdict.confirmed]
            unconfirmed = [c for c in unconfirmed if not any(named(c) in w for w in verdict.wrong)]
            if unconfirmed:
                print(f"  unconfirmed {name}: {', '.join(named(c) for c in unconfirmed)} claimed to win")
        if not verdict.proven:
            print(f"  miss {name}: {verdict.said}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--budget-ms", type=int, default=DEFAULT_BUDGET_MS)
    parser.add_argument("--limit", type=int, default=None, help="the first N puzzles only")
    parser.add_argument("--collections", default="vcf,vct", help="vcf, vct or both")
    args = parser.parse_args()
    collections = args.collections.split(",")
    print(f"nice {os.nice(0)}, load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    for variant in args.variants.split(","):
        if "vcf" in collections:
            run(variant, args.budget_ms, args.limit)
        if "vct" in collections:
            run_threats(variant, args.budget_ms, args.limit)
    print(f"load average at the end {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
