"""What a long proof keeps on disk so that it can stop and go on later: its jobs' outcomes, in a SQLite
file of its own beside the store of proven positions (that store's file holds its one table only), and
the proof-number search's table, saved whole to a file beside it (written to a temporary name, then
renamed: a crash leaves the last whole copy).
"""

from __future__ import annotations

import os
import sqlite3
import struct
import time
from dataclasses import dataclass
from pathlib import Path

from ._core import ffi, lib
from .proof_number import ProofTable
from .proven import _signed

SCHEMA = """
CREATE TABLE IF NOT EXISTS proof_jobs (
    variant TEXT NOT NULL,
    attacker INTEGER NOT NULL,
    defender INTEGER NOT NULL,
    attacker_to_move INTEGER NOT NULL,
    outcome INTEGER NOT NULL,
    zone INTEGER NOT NULL,
    nodes INTEGER NOT NULL,
    seconds REAL NOT NULL,
    stored REAL NOT NULL,
    PRIMARY KEY (variant, attacker, defender, attacker_to_move)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS proof_replies (
    variant TEXT NOT NULL,
    attacker INTEGER NOT NULL,
    defender INTEGER NOT NULL,
    reply INTEGER NOT NULL,
    refuted INTEGER NOT NULL,
    PRIMARY KEY (variant, attacker, defender, reply)
) WITHOUT ROWID;
"""
JOBS_FILE = "prove-jobs.sqlite"
# A saved proof-number table: this, the game's fingerprint, the slots. 02: proven entries hold their proof's
# zone (core/proof_zone.c); a table of 01 held whatever was on the stack there, and is not loaded.
MAGIC = b"SMKPNT02"


@dataclass(frozen=True)
class JobKey:
    """A question: can `attacker` force a line against `defender` (attacker to move or not)?"""

    attacker: int
    defender: int
    attacker_to_move: bool


@dataclass
class JobState:
    outcome: int = 0  # 1 proven, -1 disproven, 0 open
    zone: int = 0
    nodes: int = 0  # spent on it so far, over every session
    seconds: float = 0.0  # processor seconds


class JobStore:
    """The jobs of the long proofs of one tables directory."""

    def __init__(self, directory: Path) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        self.directory = directory
        self._db = sqlite3.connect(directory / JOBS_FILE, timeout=30.0, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(SCHEMA)

    def get(self, variant: str, key: JobKey) -> JobState:
        row = self._db.execute(
            "SELECT outcome, zone, nodes, seconds FROM proof_jobs WHERE variant = ? AND attacker = ? AND "
            "defender = ? AND attacker_to_move = ?",
            (variant, _signed(key.attacker), _signed(key.defender), int(key.attacker_to_move)),
        ).fetchone()
        if row is None:
            return JobState()
        return JobState(int(row[0]), int(row[1]) & (2**64 - 1), int(row[2]), float(row[3]))

    def put(self, variant: str, key: JobKey, state: JobState) -> None:
        self._db.execute(
            "INSERT OR REPLACE INTO proof_jobs VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                variant,
                _signed(key.attacker),
                _signed(key.defender),
                int(key.attacker_to_move),
                state.outcome,
                _signed(state.zone),
                state.nodes,
                state.seconds,
                time.time(),
            ),
        )

    def spent(self, variant: str) -> tuple[int, float]:
        """Nodes and processor seconds of every job of the variant's proofs in this directory, split ones
        and those under a refuted reply included."""
        nodes, seconds = self._db.execute(
            "SELECT coalesce(sum(nodes), 0), coalesce(sum(seconds), 0) FROM proof_jobs WHERE variant = ?",
            (variant,),
        ).fetchone()
        return int(nodes), float(seconds)

    def replies(self, variant: str, key: JobKey) -> tuple[int | None, set[int]]:
        """At a split job (the defender to move): the reply chosen and not refuted (or None), and the
        replies refuted (the attacker forces a line after them)."""
        rows = self._db.execute(
            "SELECT reply, refuted FROM proof_replies WHERE variant = ? AND attacker = ? AND defender = ?",
            (variant, _signed(key.attacker), _signed(key.defender)),
        ).fetchall()
        chosen = [int(reply) for reply, refuted in rows if not refuted]
        return (chosen[0] if chosen else None), {int(reply) for reply, refuted in rows if refuted}

    def put_reply(self, variant: str, key: JobKey, reply: int, refuted: bool) -> None:
        self._db.execute(
            "INSERT OR REPLACE INTO proof_replies VALUES (?, ?, ?, ?, ?)",
            (variant, _signed(key.attacker), _signed(key.defender), reply, int(refuted)),
        )

    def table_path(self, variant: str) -> Path:
        return self.directory / f"prove-{variant}.pntable"

    def save_table(self, variant: str, table: ProofTable) -> None:
        size = ffi.new("uint64_t *")
        memory = lib.ss_pn_table_memory(table.pointer, size)
        path = self.table_path(variant)
        temporary = path.with_suffix(".tmp")
        with open(temporary, "wb") as out:
            out.write(MAGIC + struct.pack("<Q", lib.ss_pn_table_game(table.pointer)))
            out.write(ffi.buffer(memory, size[0]))
        os.replace(temporary, path)

    def load_table(self, variant: str, table: ProofTable) -> bool:
        """Fill `table` from the saved copy when there is one of the same size; whether it did."""
        path = self.table_path(variant)
        size = ffi.new("uint64_t *")
        memory = lib.ss_pn_table_memory(table.pointer, size)
        if not path.exists() or path.stat().st_size != len(MAGIC) + 8 + size[0]:
            return False
        with open(path, "rb") as saved:
            header = saved.read(len(MAGIC) + 8)
            if header[: len(MAGIC)] != MAGIC:
                return False
            saved.readinto(ffi.buffer(memory, size[0]))
        lib.ss_pn_table_set_game(table.pointer, struct.unpack("<Q", header[len(MAGIC) :])[0])
        return True

    def close(self) -> None:
        self._db.close()
