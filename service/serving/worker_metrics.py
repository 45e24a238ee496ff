"""Prometheus multiprocess files named by worker slot, not by pid, so that a respawned worker takes
over the files of the one it replaces.

In multiprocess mode each process writes `<type>_<id>.db` (the id is its pid by default) and a scrape
reads every file in the folder. prometheus-client's `mark_process_dead`, called in `child_exit` as its
documentation says, removes only live gauges' files: counters' and histograms' files stay, so that
their counts are kept, until the folder is wiped at the next start. Every worker that died left two
files behind, and scrapes slowed down (110 ms against 15 ms). prometheus-client lets the id be chosen
(`MultiProcessValue(process_identifier)`: the id must differ between processes running at the same
time), so gunicorn's master gives each new worker the lowest slot no live worker holds, and the worker
names its files by that slot. A respawned worker opens the files of the dead one and counts on from
their values: the folder holds one set of files per slot, and the totals stay right.

A SIGHUP (gunicorn's graceful reload) starts new workers while the old ones finish: they take free
slots (the old ones still hold theirs), and the old ones' files stay and are read as before. So the
counts go on across reloads, with at most two sets of files per worker; only a new master empties the
folder (`forget_previous_run`, from gunicorn's on_starting).
"""

from __future__ import annotations

import itertools
import os
from pathlib import Path
from typing import Any

_slot: str | None = None  # this worker's, from post_fork; None in the master


def identifier() -> str:
    return _slot if _slot is not None else f"pid{os.getpid()}"


def forget_previous_run(folder: str) -> None:
    """A new master's start: the counts of a previous run would add up with this one's."""
    for stale in Path(folder).glob("*.db"):
        stale.unlink()


def install() -> None:
    """Before any metric exists: called at configuration time, once PROMETHEUS_MULTIPROC_DIR is set."""
    from prometheus_client import values

    values.ValueClass = values.MultiProcessValue(identifier)  # type: ignore[no-untyped-call]


def assign(server: Any, worker: Any) -> None:
    """gunicorn's pre_fork, in the master: the new worker is not among server.WORKERS yet."""
    held = {getattr(other, "metrics_slot", None) for other in server.WORKERS.values()}
    worker.metrics_slot = next(slot for n in itertools.count() if (slot := f"w{n}") not in held)


def take(worker: Any) -> None:
    """gunicorn's post_fork, in the worker."""
    global _slot
    _slot = worker.metrics_slot


def release(worker: Any) -> None:
    """gunicorn's child_exit, in the master: what prometheus-client's documentation asks for."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.metrics_slot)  # type: ignore[no-untyped-call]
