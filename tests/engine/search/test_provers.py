"""The provers beside alpha-beta (proof-number search, pairing, threat sequences): hand-made positions
checked by the brute-force reference, constructed threat sequences checked by alpha-beta, known results,
and the answers' exactness. (Against the tables on every board up to 16 cells: test_every_table_variant.)"""

from __future__ import annotations

import random

import pytest

from service.engine import Position, Result, get_variant
from service.engine.search import Board, Budget, Searcher
from service.engine.search import narrowing as narrowing_module
from service.engine.search.narrowing import provers_share
from service.engine.search.native import Game, TranspositionTable, threats
from service.engine.search.proof_number import ProofTable, Prover, ask
from tests.core_debug import Pairing, find_pairing, threat_sequence
from tests.engine.search.positions import masks, position_of
from tests.engine.search.prover_checks import NO_LIMIT, alpha_beta_result
from tests.reference import Reference, Rules


def lines_of(rules: Rules) -> list[set[int]]:
    return [set(line) for line in rules.lines]


def check_pairing(rules: Rules, pairing: Pairing, attacker: int, defender: int) -> None:
    """Disjoint pairs of empty cells, every line free of the defender's marks holding one: checked
    from the reference's own lines."""
    cells = [c for pair in pairing.pairs for c in pair]
    assert len(cells) == len(set(cells))
    assert not any((attacker | defender) >> c & 1 for c in cells)
    for line in lines_of(rules):
        if not any(defender >> c & 1 for c in line):
            assert any(set(pair) <= line for pair in pairing.pairs), f"line {sorted(line)} holds no pair"


def question(name: str, attacker: int, defender: int, attacker_to_move: bool) -> int:
    game = Game(Board.of(get_variant(name)))
    return ask(game, ProofTable(12), attacker, defender, attacker_to_move, NO_LIMIT).outcome


# Hand-made on 4x4 with four in a row (X to move), each checked by brute force.
PAIRED = "XOO..O.X..X....."  # O pairs every line X could still complete: X cannot win
UNPAIRED_WIN = "O.XXOOX....X...O"  # no pairing, and X forces a line (10, then 9: two threats)


def test_a_pairing_blocks_every_line_and_the_side_cannot_win() -> None:
    rules, (x, o) = Rules(4, 4, 4), masks(PAIRED)
    pairing = find_pairing(Game(Board.of(get_variant("4x4k4"))), x, o, defender_to_move=False)
    assert pairing is not None and pairing.first_move is None
    check_pairing(rules, pairing, x, o)
    assert Reference(rules).value(PAIRED, "X")[0] <= 0  # brute force: X does not win
    assert question("4x4k4", x, o, True) == -1


def test_no_pairing_where_a_forced_win_is() -> None:
    rules, (x, o) = Rules(4, 4, 4), masks(UNPAIRED_WIN)
    game = Game(Board.of(get_variant("4x4k4")))
    assert find_pairing(game, x, o, defender_to_move=False) is None
    assert Reference(rules).value(UNPAIRED_WIN, "X")[0] == 1  # brute force: X wins
    assert question("4x4k4", x, o, True) == 1


def test_an_attackers_mark_more_never_makes_a_pairing_possible() -> None:
    """What lets the proof-number search (core/dfpn.c) skip the pairing search below a position that has
    none (UNPAIRED): a pairing of the position with an attacker's mark more is one of the position itself
    (checked from the reference's lines), so the search finds one there too. A defender's mark more can
    make one (it closes lines): that side is not carried over."""
    variant, rules = get_variant("6x6k5"), Rules(6, 6, 5)
    game, rng = Game(Board.of(variant)), random.Random(7)
    larger_paired = made_by_defender = 0
    for _ in range(300):
        cells = rng.sample(range(36), rng.randint(4, 12))
        x = sum(1 << c for c in cells[0::2])
        o = sum(1 << c for c in cells[1::2])
        empty = [c for c in range(36) if not (x | o) >> c & 1]
        cell = rng.choice(empty)
        smaller = find_pairing(game, x, o, defender_to_move=False)
        larger = find_pairing(game, x | 1 << cell, o, defender_to_move=False)
        if larger is not None:
            larger_paired += 1
            check_pairing(rules, larger, x, o)
            assert smaller is not None
        if smaller is None and find_pairing(game, x, o | 1 << cell, defender_to_move=False) is not None:
            made_by_defender += 1
    assert larger_paired >= 50 and made_by_defender >= 20  # both cases were met


def test_the_threat_sequence_of_the_hand_made_win() -> None:
    x, o = masks(UNPAIRED_WIN)
    game = Game(Board.of(get_variant("4x4k4")))
    cells = threat_sequence(game, x, o)
    assert cells is not None
    assert {10, 14, 9} <= {c for c in range(16) if cells >> c & 1}  # a move, the reply, the double


# 8x8, five in a row, X to move: X plays 27 (a four on row 3: O must take 28), then 51 threatens three
# lines at once (19 and 59 on column 3, 23 on the diagonal). No move of X threatens twice before (O's 53
# and 58 close the diagonals that would): only the sequence wins.
SEQUENCE = "O..O..O........O........XXX...X..O.X.X.....XX..O.....O....O....."
# O to move instead (one O mark fewer): any move of O off the sequence's cells that threatens nothing
# loses.
DEFENDING = SEQUENCE[:47] + "." + SEQUENCE[48:]
# O threatens to complete row 0 at 4; X must block there, and the block threatens nothing: no sequence.
BROKEN = "OOOO...." + SEQUENCE[8:33] + "." + SEQUENCE[34:]


def sequence_cells(board: str) -> int | None:
    x, o = masks(board)
    game = Game(Board.of(get_variant("8x8k5")))
    return threat_sequence(game, x, o)


def alpha_beta(mine: int, theirs: int) -> int | None:
    """The result for the side to move (holding `mine`) on 8x8k5, by alpha-beta alone."""
    searcher = Searcher(get_variant("8x8k5"), table_bits=16)
    return alpha_beta_result(searcher.game, searcher.table, mine, theirs)


def test_a_constructed_threat_sequence_wins() -> None:
    x, o = masks(SEQUENCE)
    game = Game(Board.of(get_variant("8x8k5")))
    assert x.bit_count() == o.bit_count() == 8
    assert threats(game, x, o) == threats(game, o, x) == 0
    cells = sequence_cells(SEQUENCE)
    assert cells is not None
    assert {27, 28, 51} <= {c for c in range(64) if cells >> c & 1}
    assert alpha_beta(x, o) == 1  # independently: X wins
    assert question("8x8k5", x, o, True) == 1


def test_a_counter_threat_breaks_the_sequence() -> None:
    x, o = masks(BROKEN)
    assert x.bit_count() == o.bit_count() == 8
    assert sequence_cells(BROKEN) is None


def test_the_defence_check_a_move_off_the_sequence_loses() -> None:
    x, o = masks(DEFENDING)
    cells = sequence_cells(DEFENDING)
    assert cells is not None
    game = Game(Board.of(get_variant("8x8k5")))
    empty = [c for c in range(64) if not (x | o) >> c & 1]
    off = [c for c in empty if not cells >> c & 1 and threats(game, o | 1 << c, x) == 0]
    assert 0 < len(off) < len(empty)  # the check leaves O some moves, not all
    for cell in off[:3]:
        assert alpha_beta(x, o | 1 << cell) == 1  # X, to move after it, wins


@pytest.mark.parametrize(
    "rules",
    [
        Rules(7, 7, 5),
        Rules(8, 8, 5),
        Rules(3, 8, 5),
        Rules(8, 3, 3),
        Rules(5, 4, 4),
        Rules(6, 7, 4, gravity=True),
        Rules(4, 4, 3, torus=True),
        Rules(5, 5, 4, torus=True),
        Rules(2, 11, 3),
        Rules(8, 8, 8),
        Rules(2, 8, 3),
    ],
    ids=lambda rules: rules.name,
)
def test_the_threats_are_the_reference_lines_missing_one_empty_cell(rules: Rules) -> None:
    """ss_threats (all of a step's windows at once on a flat board, line by line on a torus) against
    the reference's own lines, on random positions of every density."""
    game, rng = Game(Board.of(get_variant(rules.name))), random.Random(rules.name)
    for _ in range(400):
        cells = list(range(rules.size))
        rng.shuffle(cells)
        marks = cells[: rng.randrange(rules.size + 1)]
        x = sum(1 << c for c in marks[::2] if rng.random() < 0.9)
        o = sum(1 << c for c in marks[1::2])
        for player, other in ((x, o), (o, x)):
            expected = 0
            for line in lines_of(rules):
                missing = [c for c in line if not player >> c & 1]
                if len(missing) == 1 and not other >> missing[0] & 1:
                    expected |= 1 << missing[0]
            assert threats(game, player, other) == expected


@pytest.mark.parametrize("name", ["5x5k5", "6x6k6", "7x7k7", "8x8k8", "3x8k5", "4x8k5", "7x7k6", "8x8k7"])
def test_pairing_settles_these_empty_boards_at_once(name: str) -> None:
    game = Game(Board.of(get_variant(name)))
    pairing = find_pairing(game, 0, 0, defender_to_move=False)
    assert pairing is not None
    variant = get_variant(name)
    check_pairing(Rules(variant.rows, variant.cols, variant.k), pairing, 0, 0)


@pytest.mark.parametrize("name", ["6x6k5", "7x7k5", "5x5k5", "8x8k8"])
def test_known_draws_every_move_proven_by_the_provers(name: str) -> None:
    """6,6,5 and 7,7,5 are draws (Hsu et al. 2020; 7,7,5 takes about a second here); n,n,n for n >= 5
    by a pairing strategy."""
    variant = get_variant(name)
    answer = Searcher(variant, table_bits=16).analyze(Position.empty(variant), Budget(seconds=120.0))
    assert answer.exact and answer.result is Result.DRAW
    assert all(m.remoteness == variant.cells for m in answer.moves)  # a draw fills the board
    assert sum(answer.closed_by.values()) == variant.cells
    assert set(answer.closed_by) <= {Prover.PROOF_NUMBER.value, Prover.PAIRING.value}


@pytest.mark.parametrize("name", ["4x4k4", "5x4k4", "4x5k4", "5x5k4"])
def test_known_draws_with_four_in_a_row_by_the_questions(name: str) -> None:
    """4,4,4, 4,5,4 and 5,5,4 are draws (their tables say so too; 5,5,4 also Lee, in Winning Ways):
    neither side forces a line, whoever moves first."""
    assert question(name, 0, 0, True) == -1
    assert question(name, 0, 0, False) == -1


def test_four_in_a_row_is_left_to_alpha_beta() -> None:
    """The measured rule (narrowing.provers_share): with lines of four, alpha-beta alone; it proves 6,6,4 a
    first-player win (known) at once, where the proof-number search does not finish in 30 s."""
    variant = get_variant("6x6k4")
    assert provers_share(variant) == 0.0 < provers_share(get_variant("6x6k5"))
    report = Searcher(variant, table_bits=18).analyze(Position.empty(variant), Budget(seconds=5.0))
    assert report.result is Result.WIN
    assert set(report.closed_by) == {Prover.ALPHA_BETA.value}


def test_a_proven_win_without_its_remoteness_is_not_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    """The provers prove a win (the sequence) but not when the game ends; with the whole budget given to
    them, none is left for alpha-beta's remoteness: the move's result is known, its value is not, and the
    answer is not exact."""
    monkeypatch.setattr(narrowing_module, "PROVERS_SHARE", 1.0)
    x, o = masks(SEQUENCE)
    position = position_of(get_variant("8x8k5"), x, o)
    # 150 nodes: the provers' two threads share a node cap as their timing goes; from 300 nodes on,
    # alpha-beta was sometimes left enough for the remoteness (30 runs each at 100 and 150: never)
    report = Searcher(get_variant("8x8k5"), table_bits=16).analyze(position, Budget(nodes=150))
    win = next(m for m in report.moves if m.cell == 27)
    assert win.result is Result.WIN and win.remoteness is None and win.value is None
    assert not report.exact and report.result is Result.WIN and report.value is None
    assert report.closed_by.get(Prover.PROOF_NUMBER.value) or report.closed_by.get(Prover.THREAT_SPACE.value)
    assert Prover.ALPHA_BETA.value not in report.closed_by


def test_the_provers_never_apply_to_misere_or_gravity() -> None:
    for name in ("6x6k5-misere", "6x7k4-gravity"):
        variant = get_variant(name)
        report = Searcher(variant, table=TranspositionTable(14)).analyze(
            Position.empty(variant), Budget(0.05)
        )
        assert set(report.closed_by) <= {Prover.ALPHA_BETA.value}
