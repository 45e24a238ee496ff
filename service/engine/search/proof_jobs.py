"""What a long proof keeps on disk so that it can stop and go on later: its jobs' outcomes, in a SQLite
file of its own beside the cache of proven positions (whose file holds its one table only), and
the proof-number search's table, saved whole to a file beside it (written to a temporary name, flushed,
then renamed: a crash leaves the last whole copy; see `atomic_files`).

Both hold what later becomes stored proofs, so neither is used unchecked. The jobs' file must pass
SQLite's own check (`PRAGMA quick_check`) and be ours (its application id), else the run stops and says
why. The saved table is loaded only if its header names this format, this variant and this table's
size, and the SHA-256 of the header and the slots matches the one saved with them; else the run starts
with an empty table (and says why in the log).
"""

from __future__ import annotations

import hashlib
import io
import logging
import sqlite3
import struct
import time
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from ..atomic_files import remove_stale, replace_atomically
from ..errors import EngineError
from .native import ProofTable
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
APPLICATION_ID = 0x534D4B4A  # "SMKJ", in the jobs' file header: a SQLite file of ours
# A saved proof-number table: HEADER (this magic, the game's fingerprint, the slots' bytes, the variant's
# long name), the SHA-256 of HEADER and the slots, then the slots. 04: the game's fingerprint is of the
# board as data (cells, lines, waits, misère), no longer of rows and columns, so a table of 03 would be
# cleared at its first use; 03 had the checksum and the variant; 02 (proven entries hold their proof's
# zone, core/zones.c) had neither. Older formats are not loaded.
MAGIC = b"SMKPNT04"
HEADER = struct.Struct("<8sQQ48s")
DIGEST_SIZE = 32
PIECE = 1 << 24  # bytes read at a time

log = logging.getLogger(__name__)


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
        for leftover in remove_stale(directory):
            log.info("removed %s, left by a write that did not finish", leftover)
        self._db = sqlite3.connect(directory / JOBS_FILE, timeout=30.0, isolation_level=None)
        try:
            _check_jobs_file(self._db, directory / JOBS_FILE)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.executescript(SCHEMA)
            self._db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        except BaseException:
            self._db.close()
            raise

    def get(self, variant: str, key: JobKey) -> JobState:
        row = self._db.execute(
            "SELECT outcome, zone, nodes, seconds FROM proof_jobs WHERE variant = ? AND attacker = ? AND "
            "defender = ? AND attacker_to_move = ?",
            (variant, _signed(key.attacker), _signed(key.defender), int(key.attacker_to_move)),
        ).fetchone()
        if row is None:
            return JobState()
        if row[0] not in (-1, 0, 1) or row[2] < 0:
            raise EngineError("proof_state_damaged", f"{self.directory / JOBS_FILE} holds a job no run wrote")
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
        """Save the table whole, with its checksum (written under a temporary name, then renamed)."""
        slots = table.slots()
        head = HEADER.pack(MAGIC, table.fingerprint, len(slots), _name(variant))
        digest = hashlib.sha256(head)
        digest.update(slots)

        def write(out: BinaryIO) -> None:
            out.write(head + digest.digest())
            out.write(slots)

        path = self.table_path(variant)
        replace_atomically(path, write)
        path.with_suffix(".tmp").unlink(missing_ok=True)  # the temporary of versions before 03, if left

    def load_table(self, variant: str, table: ProofTable) -> bool:
        """Fill `table` from the saved copy when there is one of this format, variant and size whose
        checksum matches; whether it did (why not is logged). A copy that fails leaves `table` empty."""
        path = self.table_path(variant)
        slots = table.slots()
        why = _unusable(path, variant, len(slots))
        if why is None:
            with open(path, "rb") as saved:
                head = saved.read(HEADER.size)
                kept = saved.read(DIGEST_SIZE)
                game = HEADER.unpack(head)[1]
                if not _read_checked(saved, slots, head, kept):
                    table.clear()  # the slots read are not to be used
                    why = "its checksum does not match its bytes (damaged)"
        if why is not None:
            if path.exists():
                log.warning("the saved proof table %s is not used: %s", path, why)
            return False
        table.fingerprint = game
        return True

    def close(self) -> None:
        self._db.close()


def _name(variant: str) -> bytes:
    name = variant.encode()
    if len(name) > HEADER.size - 24:
        raise ValueError(f"a variant name too long for a saved proof table: {variant}")
    return name


def _unusable(path: Path, variant: str, slot_bytes: int) -> str | None:
    """Why the saved table at `path` cannot fill a table of `slot_bytes` of `variant`'s proof, judged by
    its length and header; None if it may (its checksum is checked as it is read)."""
    try:
        with open(path, "rb") as saved:
            length = saved.seek(0, 2)
            saved.seek(0)
            head = saved.read(HEADER.size)
    except FileNotFoundError:
        return "there is none"
    except OSError as error:
        return f"it cannot be read ({error})"
    if not head.startswith(MAGIC):
        return f"not a saved proof table of format {MAGIC.decode()} (an older one is not resumed from)"
    if len(head) < HEADER.size:
        return "truncated"
    _, _, saved_bytes, padded = HEADER.unpack(head)
    name = padded.rstrip(b"\0")
    if name != _name(variant):
        return f"a table of {name.decode(errors='replace')!r}, not {variant!r}"
    if saved_bytes != slot_bytes or length != HEADER.size + DIGEST_SIZE + slot_bytes:
        return f"{length} bytes, not those of a table of {slot_bytes:,} bytes of slots"
    return None


def _read_checked(saved: io.BufferedReader, view: memoryview, head: bytes, kept: bytes) -> bool:
    """Read the slots into `view` (bytes of their size), and whether their checksum matches `kept`."""
    digest = hashlib.sha256(head)
    for at in range(0, len(view), PIECE):
        piece = view[at : at + PIECE]
        if saved.readinto(piece) != len(piece):
            return False
        digest.update(piece)
    return digest.digest() == kept


def _check_jobs_file(db: sqlite3.Connection, path: Path) -> None:
    """EngineError unless the jobs' file passes SQLite's check and is ours (or new)."""
    try:
        found = [row[0] for row in db.execute("PRAGMA quick_check")]
        application = db.execute("PRAGMA application_id").fetchone()[0]
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.DatabaseError as error:
        raise EngineError("proof_state_damaged", f"{path} cannot be read as SQLite: {error}") from None
    if found != ["ok"]:
        raise EngineError("proof_state_damaged", f"{path} fails SQLite's check: {'; '.join(found[:3])}")
    ours = application == APPLICATION_ID or (application == 0 and tables <= {"proof_jobs", "proof_replies"})
    if not ours:
        raise EngineError("proof_state_foreign", f"{path} is not a file of `sanmoku prove`'s jobs")
