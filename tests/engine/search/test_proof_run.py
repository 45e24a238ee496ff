"""The long proof run (`sanmoku prove`, search/proof_run.py) on boards it finishes at once: the results
known from the tables, the draw's moves kept in the store as exact, and a run stopped and started again
going on from its saved state."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from service.engine import (
    Cancel,
    EngineError,
    Mark,
    Position,
    ProofProgress,
    ProofRun,
    ProvenCache,
    TableStore,
    get_variant,
)
from service.engine.search.native import Limits, ProofTable, monotonic
from service.engine.search.proof_number import ask
from service.engine.search.searcher import Searcher

BITS = 12  # a small table: these proofs need a few hundred positions


def run_to_the_end(position: Position, directory: Path) -> int | None:
    shown: list[ProofProgress] = []
    outcome = ProofRun(position, directory, BITS).run(None, 5.0, Cancel(), shown.append)
    assert shown and shown[-1].outcome == outcome and shown[-1].done == shown[-1].jobs
    return outcome


@pytest.mark.parametrize("name", ["4x5k4", "7x7k5"])
def test_a_drawn_board_is_proven_a_draw_and_its_moves_kept_exact(tmp_path: Path, name: str) -> None:
    """Draws: 4,5,4 (its table, and the field notes), 7,7,5 (Hsu et al. 2020; a second or so here)."""
    variant = get_variant(name)
    position = Position.empty(variant)
    assert run_to_the_end(position, tmp_path) == -1
    kept = ProvenCache(tmp_path).get(position)
    assert kept is not None and kept.exact
    assert len(kept.moves) == variant.cells
    assert all(m.lower == m.upper == 0 and m.remoteness == variant.cells for m in kept.moves)


def table_results(position: Position, directory: Path) -> dict[int, int]:
    """Each move's result for the side that plays it, by the variant's table (made in `directory`)."""
    table = TableStore(directory).get(position.variant)
    return {m.cell: m.exact_value.score for m in table.lookup(position).moves}


def test_a_won_board_is_proven_won_and_its_winning_move_kept(tmp_path: Path) -> None:
    position = Position.empty(get_variant("4x4k3"))  # X wins (its table)
    assert run_to_the_end(position, tmp_path) == 1
    kept = ProvenCache(tmp_path).get(position)
    assert kept is not None and not kept.exact  # a win's remoteness is not proven here
    truth = table_results(position, tmp_path / "tables")
    wins = [m for m in kept.moves if m.lower == 1]
    assert wins and all(m.upper == 1 and m.remoteness is None and truth[m.cell] == 1 for m in wins)


@pytest.mark.parametrize("every_reply", [False, True])
@pytest.mark.parametrize("name", ["4x4k3", "3x3k3-torus", "4x3k3"])  # 4x3k3: two first moves lose
def test_every_first_move_settled_against_the_table(tmp_path: Path, name: str, every_reply: bool) -> None:
    """With every_move, a won board's run goes on until each first move is settled: each is kept as a
    win or as at most a draw, as the table has it."""
    position = Position.empty(get_variant(name))
    run = ProofRun(position, tmp_path, BITS + 2, every_reply=every_reply, every_move=True)
    assert run.run(60.0, 5.0, Cancel(), lambda p: None) == 1
    kept = ProvenCache(tmp_path).get(position)
    assert kept is not None and len(kept.moves) == position.variant.cells
    truth = table_results(position, tmp_path / "tables")
    assert {m.cell: (m.lower, m.upper) for m in kept.moves} == {
        cell: (1, 1) if score == 1 else (-1, 0) for cell, score in truth.items()
    }


def test_a_stopped_run_resumes_from_its_saved_state(tmp_path: Path) -> None:
    position = Position.empty(get_variant("8x8k5"))  # a draw, 17.4 h in the literature: stopped long before
    first = ProofRun(position, tmp_path, BITS)
    assert not first.resumed
    seen: list[ProofProgress] = []
    assert first.run(0.3, 0.1, Cancel(), seen.append) is None
    before = seen[-1]
    assert before.nodes > 0 and before.spent > 0 and before.outcome is None
    stopped = Cancel()
    stopped.set()
    assert first.run(None, 0.1, stopped, seen.append) is None  # cancelled: saves and returns at once
    again = ProofRun(position, tmp_path, BITS)
    assert again.resumed  # the table the first run saved
    assert again.run(0.3, 0.1, Cancel(), seen.append) is None
    assert seen[-1].nodes > before.nodes and seen[-1].spent > before.spent  # counted over both sessions


def test_a_run_stopped_at_once_finishes_when_started_again(tmp_path: Path) -> None:
    position = Position.empty(get_variant("5x4k4"))
    assert ProofRun(position, tmp_path, BITS).run(0.0, 5.0, Cancel(), lambda progress: None) is None
    assert run_to_the_end(position, tmp_path) == -1


def test_the_command(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "service.cli.main", "prove", "4x5k4", "--dir", str(tmp_path)]
    done = subprocess.run([*command, "--table-bits", str(BITS)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "4x5k4: a new table" in done.stdout
    assert "a draw (proven" in done.stdout


@pytest.mark.slow
def test_the_command_stops_at_a_signal_within_a_slice(tmp_path: Path) -> None:
    """SIGTERM in the middle of a long slice: the run saves its state and stops at once (within a few
    seconds, not at the slice's end)."""
    command = [sys.executable, "-m", "service.cli.main", "prove", "8x8k5", "--dir", str(tmp_path)]
    command += ["--table-bits", str(BITS), "--slice", "600"]
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True) as running:
        assert running.stdout is not None
        assert "a new table" in running.stdout.readline()
        time.sleep(1.0)
        running.send_signal(signal.SIGTERM)
        started = time.monotonic()
        out, _ = running.communicate(timeout=60)
        assert time.monotonic() - started < 30
    assert running.returncode == 3
    assert "stopped; run the same command again" in out
    assert (tmp_path / "prove-8x8k5.pntable").exists()


# 5x5k4: the empty board a draw (its known result; the search's); X on r1c1 against O on r4c3, X to move:
# a side forces a line (what the run finds unsplit, in 17,000 nodes).
SPLIT_CASES = [(0, 0, -1, 0.002), (1 << 6, 1 << 23, 1, 0.0005)]


@pytest.mark.parametrize(("x", "o", "result", "slice_seconds"), SPLIT_CASES)
def test_a_run_split_into_the_jobs_after_the_defenders_replies_proves_the_same(
    tmp_path: Path, x: int, o: int, result: int, slice_seconds: float
) -> None:
    """Slices too short to settle a first move's job: each is split into the jobs after the defender's
    reply chosen by the table's numbers (a reply refuted, another is chosen), and the run's result is
    the unsplit run's."""
    position = Position(get_variant("5x5k4"), x, o, Mark.X)
    assert ProofRun(position, tmp_path / "whole", BITS + 2).run(60.0, 5.0, Cancel(), lambda p: None) == result
    run = ProofRun(position, tmp_path / "split", BITS + 2, split_plies=3)
    shown: list[ProofProgress] = []
    assert run.run(60.0, slice_seconds, Cancel(), shown.append) == result
    assert shown[-1].outcome == result
    jobs = {job.key: job for question in run.questions() for job in run.leaves(*question, open_only=False)}
    assert max(job.plies for job in jobs.values()) == 3
    assert all(len(job.name.split()) == job.plies for job in jobs.values())
    if result == -1:
        assert shown[-1].done == shown[-1].jobs == len(jobs) and ProvenCache(tmp_path / "split").get(position)


@pytest.mark.parametrize(
    ("name", "x", "o", "result"),
    [("5x5k4", 0, 0, -1), ("5x5k4", 1 << 6, 1 << 23, 1), ("3x3x3k3", 0, 0, 1)],  # 3x3x3: X wins in 7 plies
)
def test_a_run_split_by_every_reply_proves_the_same(
    tmp_path: Path, name: str, x: int, o: int, result: int
) -> None:
    """Each first move's job split from the start into one per class of the defender's replies, the
    attacker to move in each: the run's result is the unsplit run's."""
    position = Position(get_variant(name), x, o, Mark.X)
    assert ProofRun(position, tmp_path / "whole", BITS + 2).run(60.0, 5.0, Cancel(), lambda p: None) == result
    run = ProofRun(position, tmp_path / "split", BITS + 2, every_reply=True)
    shown: list[ProofProgress] = []
    assert run.run(60.0, 5.0, Cancel(), shown.append) == result
    jobs = [job for question in run.questions() for job in run.leaves(*question, open_only=False)]
    replies = [job for job in jobs if job.name != "pass"]
    assert replies and all(job.plies == 2 and job.key.attacker_to_move for job in replies)
    assert all(len(job.name.split()) == 2 and not job.splittable for job in replies)
    if result == -1:
        assert ProvenCache(tmp_path / "split").get(position) is not None


def test_a_run_splits_by_every_reply_or_by_plies_not_both(tmp_path: Path) -> None:
    with pytest.raises(EngineError):
        ProofRun(Position.empty(get_variant("5x5k4")), tmp_path, BITS, split_plies=3, every_reply=True)


def test_the_table_gives_a_positions_numbers(tmp_path: Path) -> None:
    variant = get_variant("4x4k3")
    run = ProofRun(Position.empty(variant), tmp_path, BITS)
    assert run.table.numbers(0, 0, True) is None
    assert run.run(None, 5.0, Cancel(), lambda progress: None) == 1
    proven = [run.table.numbers(1 << cell, 0, False) for cell in range(variant.cells)]
    assert (0, 2**32 - 1) in proven or any(n is not None and n[0] == 0 for n in proven)


def test_a_stopped_search_says_which_reply_it_was_working_on(tmp_path: Path) -> None:
    """A slice that stops inside a reply's subtree names it: the reply whose numbers the table lacks."""
    run = ProofRun(Position.empty(get_variant("8x8k5")), tmp_path, 16)
    centre = 1 << 27
    found = ask(run.game, run.table, centre, 0, False, Limits(monotonic() + 0.5, 0))
    assert found.outcome == 0 and found.focus is not None and found.focus != 27
    assert 0 <= found.focus < 64


def test_the_filters_made_again_find_what_the_table_holds() -> None:
    """A long proof's table has its bit filters made again from its entries after each save: a position
    with one defender's mark more than a disproven one is still settled by that disproof at once
    (dfpn_table.c, pt_inherited), as it is when the filters were never made again; a filter left empty
    would send it to a search of its own."""
    variant = get_variant("7x7k5")
    game = Searcher(variant).game
    position = Position.empty(variant)  # alone, with O's mark in a corner, about 5,000 nodes
    limits = Limits(monotonic() + 60, 200_000)
    spent = []
    for refresh in (False, True):
        table = ProofTable(16)
        disproof = ask(game, table, position.mine, position.theirs, True, limits)
        assert disproof.outcome == -1  # X cannot force five on the empty 7x7 board
        if refresh:
            table.refresh_filters()
        more = ask(game, table, position.mine, position.theirs | 1 << 48, True, limits)
        assert more.outcome == -1
        spent.append(more.nodes)
    assert spent[0] == spent[1] <= 1, spent
