"""The estimate of a long proof's size (tests/bench/proof_estimate.py, Knuth's estimator over the split
proof) against the proof itself on a board `sanmoku prove` finishes at once: the estimator is what the
projection for 8x8k5 rests on."""

from __future__ import annotations

import random
import statistics
from pathlib import Path

from service.engine import Cancel, Position, ProofProgress, ProofRun, get_variant
from tests.bench.proof_estimate import Estimator


def test_the_estimate_of_the_7x7k5_proof_is_near_the_proof_run(tmp_path: Path) -> None:
    shown: list[ProofProgress] = []
    run = ProofRun(Position.empty(get_variant("7x7k5")), tmp_path, 16, split_plies=99)
    # Slices of 50 ms: the whole proof takes about 2,700 nodes, so each job ends within one slice even on a
    # busy machine (slices of 5 ms, cut as the clock says, split it by the load: a flaky count).
    assert run.run(None, 0.05, Cancel(), shown.append) == -1  # a draw (Hsu et al. 2020)
    proof_nodes = shown[-1].nodes
    estimator = Estimator("7x7k5", 0.0, 30, 24, 16)
    rng = random.Random(1)
    probes = [estimator.probe(rng) for _ in range(150)]
    assert all(p.end == "disproven" for p in probes)  # each path ends where the defender holds
    assert {p.plies for p in probes} != {0}  # and some of them below a split
    estimate = statistics.fmean(p.nodes for p in probes)
    # Unbiased for the split tree; the run shares one table across its jobs, the probes do not.
    assert proof_nodes / 2 < estimate < proof_nodes * 2, (estimate, proof_nodes)
