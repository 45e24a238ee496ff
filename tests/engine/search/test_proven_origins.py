"""No door lets a wrong value into an answer through the cache of proven positions: `sanmoku prove`
refuses the games its provers are not sound on, every record says what proved it and is served only
where that prover is sound, a table or a book wins over a record that contradicts it, and `sanmoku
cache verify` finds and removes wrong records.

Facts from outside the project: Tromp's table of Connect Four on small boards (6 columns x 4 rows and
6 x 6: the second player wins; 7 x 6: the first player wins); 4x4k4 is a draw and 4x4k3 a first-player
win (the solved tables agree, and the brute force of tests/engine checks them).
"""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from service.app import create_app
from service.cli import main as cli
from service.engine import LISTED, Analyst, Position, Result, SearcherPool, TableStore, get_variant
from service.engine.answer import Source
from service.engine.rules.canonical import canonical
from service.engine.rules.known_move import KnownMove
from service.engine.search import Budget
from service.engine.search.proof_number import Prover
from service.engine.search.proof_run import proof_lock
from service.engine.search.proven import ProvenCache
from service.engine.search.proven_record import (
    BOOK,
    MONOTONE_PROVERS,
    PROVE,
    SEARCH,
    Origin,
    checksum,
    exact_flag,
)
from tests.engine.search.records import ALPHA_BETA

UNSOUND_BOARDS = sorted(
    {v.name for v in LISTED if v.gravity or v.misere}
    | {"connect4", "6x6k4-gravity", "4x6k4-gravity", "4x5k4-gravity", "4x8k4-gravity", "8x8k5-misere"}
)


def legacy_record(directory: Path, position: Position, moves: list[KnownMove], origin: str) -> None:
    """A record as the version before origins wrote it (origin "search" or "book"), checksum and all:
    what `sanmoku prove` left in a store when it proved gravity boards wrongly."""
    ProvenCache(directory).open()  # the file and its table, as the service makes them
    _, key = canonical(position.variant, position.mine, position.theirs)
    where = (position.variant.long_name, *(k - (1 << 64) if k >= 1 << 63 else k for k in key))
    entries = b"".join(bytes((m.cell, m.lower + 1, m.upper + 1, m.remoteness or 255)) for m in moves)
    exact = exact_flag(moves)
    blob = entries + checksum(where, entries, exact, origin)  # type: ignore[arg-type]
    with sqlite3.connect(directory / "proven.sqlite") as db:
        db.execute("INSERT INTO proven VALUES (?, ?, ?, ?, ?, ?, 0)", (*where, blob, exact, origin))


def rows(directory: Path) -> int:
    with sqlite3.connect(directory / "proven.sqlite") as db:
        return int(db.execute("SELECT COUNT(*) FROM proven").fetchone()[0])


def test_origins_are_written_and_read_back() -> None:
    for door in (SEARCH, PROVE, BOOK):
        for provers in ([Prover.ALPHA_BETA], MONOTONE_PROVERS, list(Prover)):
            origin = Origin.of(door, provers)
            assert Origin.parse(origin.text) == origin
    assert Origin.parse("search") == Origin(SEARCH, None, 0)  # before origins were kept
    assert Origin.parse("book") == Origin(BOOK, None, 0)
    for unknown in ("prove", "search/alpha_beta/2", "search/nothing/3", "cache/alpha_beta/3", ""):
        assert Origin.parse(unknown) is None


def test_a_prover_is_sound_only_where_a_mark_never_hurts() -> None:
    alpha_beta, provers = Origin.of(SEARCH, [Prover.ALPHA_BETA]), Origin.of(PROVE, MONOTONE_PROVERS)
    legacy = Origin(SEARCH, None, 0)
    for name in ("8x8k5", "7x7k5", "4x4k4", "3x3k3-torus", "5x5k4-torus"):
        variant = get_variant(name)
        assert alpha_beta.sound_for(variant) and provers.sound_for(variant) and legacy.sound_for(variant)
    for name in UNSOUND_BOARDS:
        variant = get_variant(name)
        assert alpha_beta.sound_for(variant)
        assert not provers.sound_for(variant) and not legacy.sound_for(variant)
        # a record merged from an alpha-beta search and an older one names every prover the older could
        assert not alpha_beta.merged(legacy).sound_for(variant)


def test_the_store_refuses_to_keep_an_unsound_proof(tmp_path: Path) -> None:
    position = Position.empty(get_variant("connect4"))
    draws = [KnownMove(cell, 0, 0, 42) for cell in position.legal_moves()]
    with pytest.raises(ValueError, match="proves nothing on connect4"):
        ProvenCache(tmp_path).put(position, draws, Origin.of(PROVE, MONOTONE_PROVERS))
    assert not (tmp_path / "proven.sqlite").exists() or rows(tmp_path) == 0


def test_prove_refuses_two_splits_at_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["prove", "4x4k3", "--dir", str(tmp_path), "--split-plies", "3", "--every-reply"]) == 2
    assert "not both" in capsys.readouterr().err


@pytest.mark.parametrize("name", UNSOUND_BOARDS)
def test_prove_refuses_every_gravity_and_misere_board(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["prove", name, "--dir", str(tmp_path)]) == 2
    said = capsys.readouterr().err.strip().splitlines()
    assert len(said) == 1 and "cannot be proven by `prove`" in said[0]
    assert ("gravity" in said[0]) == get_variant(name).gravity
    assert not (tmp_path / "proven.sqlite").exists()  # nothing stored, nothing to serve


@pytest.mark.parametrize(
    ("name", "outcome"),
    [
        ("4x4k4", "a draw"),
        ("4x4k3", "a side can force a line"),
        ("4x4k4-torus", "a draw"),
        ("3x3k3-torus", "a side can force a line"),
    ],
)
@pytest.mark.parametrize("split", [[], ["--every-reply"]])
def test_prove_agrees_with_the_table_where_it_is_sound(
    name: str, outcome: str, split: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    variant = get_variant(name)
    assert cli.main(["prove", name, "--dir", str(tmp_path), "--table-bits", "16", *split]) == 0
    assert f"{name} from the empty board: {outcome} (proven" in capsys.readouterr().out
    table = TableStore(tmp_path / "tables").get(variant)
    empty = Position.empty(variant)
    assert (table.value(empty).score == 0) == (outcome == "a draw")
    record = ProvenCache(tmp_path).get(empty)
    if outcome == "a draw":  # its every move is stored as a draw, and served as proven
        assert record is not None and record.origin.door == PROVE
        truth = {m.cell: m.value for m in table.lookup(empty).moves}
        assert {m.cell: (m.lower, m.upper, m.remoteness) for m in record.moves} == {
            cell: (value.score, value.score, value.remoteness) for cell, value in truth.items()
        }
    else:  # a win's winning move is stored as a win, its remoteness not proven
        assert record is not None and record.origin.door == PROVE
        truth = {m.cell: m.value.score for m in table.lookup(empty).moves}
        wins = [m for m in record.moves if m.lower == 1]
        assert wins and all(truth[m.cell] == 1 and m.remoteness is None for m in wins)


def test_prove_every_move_keeps_each_first_move_as_the_table_has_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    variant = get_variant("4x3k3")  # X wins; 10 first moves win, 2 lose (its table)
    assert cli.main(["prove", variant.name, "--dir", str(tmp_path), "--every-reply", "--every-move"]) == 0
    empty = Position.empty(variant)
    record = ProvenCache(tmp_path).get(empty)
    table = TableStore(tmp_path / "tables").get(variant)
    truth = {m.cell: m.value.score for m in table.lookup(empty).moves}
    assert record is not None and {m.cell: (m.lower, m.upper) for m in record.moves} == {
        cell: (1, 1) if score == 1 else (-1, 0) for cell, score in truth.items()
    }
    # served: the analysis starts from the stored bounds and agrees with the table
    answer = Analyst(lambda v: None, ProvenCache(tmp_path), SearcherPool(1, table_bits=16)).analyze(
        empty, Budget(5.0)
    )
    assert {m.cell: m.result for m in answer.moves} == {
        cell: Result.WIN if score == 1 else Result.LOSS for cell, score in truth.items()
    }


def test_two_proofs_of_one_board_in_one_directory_do_not_run_at_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with proof_lock(tmp_path, get_variant("4x4k4")) as held:
        assert held
        assert cli.main(["prove", "4x4k4", "--dir", str(tmp_path)]) == 2
    assert "another `sanmoku prove 4x4k4` is running" in capsys.readouterr().err
    assert cli.main(["prove", "4x4k4", "--dir", str(tmp_path), "--table-bits", "16"]) == 0


def test_a_poisoned_store_serves_nothing_wrong(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The store as the old `prove 4x6k4-gravity` left it (every move of the empty board a draw, where
    the second player wins: Tromp, 6 columns x 4 rows): the record is dropped, the search answers."""
    variant = get_variant("4x6k4-gravity")
    empty = Position.empty(variant)
    legacy_record(tmp_path, empty, [KnownMove(c, 0, 0, 24) for c in empty.legal_moves()], "search")
    store = ProvenCache(tmp_path)
    with caplog.at_level(logging.WARNING):
        answer = Analyst(lambda v: None, store, SearcherPool(1, table_bits=16)).analyze(empty, Budget(20.0))
    assert answer.source is Source.SEARCH and answer.exact
    assert answer.value is not None and (answer.value.score, answer.value.remoteness) == (-1, 24)
    assert "names a prover that is not sound on 4x6k4-gravity" in caplog.text
    # what the search proved is kept, and said to be alpha-beta's
    record = store.get(empty)
    assert record is not None and record.origin == Origin.of(SEARCH, [Prover.ALPHA_BETA])
    assert all(m.upper == -1 for m in record.moves)


def test_a_legacy_record_stays_served_where_every_prover_is_sound(tmp_path: Path) -> None:
    variant = get_variant("7x7k5")
    empty = Position.empty(variant)
    legacy_record(tmp_path, empty, [KnownMove(c, 0, 0, 49) for c in empty.legal_moves()], "search")
    answer = Analyst(lambda v: None, ProvenCache(tmp_path), SearcherPool(1, table_bits=16)).analyze(
        empty, Budget(1.0)
    )
    assert answer.source is Source.CACHE and answer.value is not None and answer.value.score == 0


def wrong_records(directory: Path) -> dict[str, Position]:
    """Records of each kind `cache verify` finds, and one right one, in `directory`."""
    store = ProvenCache(directory)
    small = get_variant("3x4k3")  # X wins (the table; 3x4k3 is a first-player win)
    TableStore(directory).get(small)
    right = Position.empty(small).play(5)
    table = TableStore(directory).get(small)
    truth = [
        KnownMove(m.cell, m.value.score, m.value.score, m.value.remoteness) for m in table.lookup(right).moves
    ]
    store.put(right, truth, ALPHA_BETA)
    against_table = Position.empty(small)
    store.put(against_table, [KnownMove(c, 0, 0, 12) for c in against_table.legal_moves()], ALPHA_BETA)
    book = get_variant("5x5k4")  # the shipped book: a draw from the empty board
    against_book = Position.empty(book)
    store.put(against_book, [KnownMove(c, -1, -1, 24) for c in against_book.legal_moves()], ALPHA_BETA)
    gravity = get_variant("6x6k4-gravity")
    unsound = Position.empty(gravity)
    legacy_record(directory, unsound, [KnownMove(c, 0, 0, 36) for c in unsound.legal_moves()], "search")
    damaged = Position.empty(get_variant("7x7k5"))
    store.put(damaged, [KnownMove(c, 0, 0, 49) for c in damaged.legal_moves()], ALPHA_BETA)
    with sqlite3.connect(directory / "proven.sqlite") as db:
        blob = bytearray(db.execute("SELECT moves FROM proven WHERE variant = '7x7k5'").fetchone()[0])
        blob[3] ^= 1  # a remoteness byte flipped on disk
        db.execute("UPDATE proven SET moves = ? WHERE variant = '7x7k5'", (bytes(blob),))
    store.close()
    return {
        "right": right,
        "table": against_table,
        "book": against_book,
        "unsound": unsound,
        "damaged": damaged,
    }


def test_cache_verify_finds_and_removes_every_wrong_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    planted = wrong_records(tmp_path)
    assert rows(tmp_path) == 5
    assert cli.main(["cache", "verify", "--dir", str(tmp_path)]) == 1
    said = capsys.readouterr().out
    for line in (
        "checked 5 proven positions",
        "by a table           2",
        "by a book            1",
        "damaged              1",
        "unsound prover       1",
        "contradict a table   1",
        "contradict a book    1",
    ):
        assert line in said, said
    assert rows(tmp_path) == 5  # only reported
    assert cli.main(["cache", "verify", "--dir", str(tmp_path), "--remove"]) == 0
    assert "removed 4 wrong records" in capsys.readouterr().out
    assert rows(tmp_path) == 1 and ProvenCache(tmp_path).get(planted["right"]) is not None
    assert cli.main(["cache", "verify", "--dir", str(tmp_path)]) == 0


def test_the_api_answers_a_poisoned_store_from_the_search(tmp_path: Path) -> None:
    variant = get_variant("4x6k4-gravity")
    empty = Position.empty(variant)
    legacy_record(tmp_path, empty, [KnownMove(c, 0, 0, 24) for c in empty.legal_moves()], "search")
    config = {"TESTING": True, "ACCESS_LOG": False, "TABLES_AT_START": [], "TABLES_DIR": str(tmp_path)}
    client = create_app(config).test_client()
    asked = {"board": "." * 24, "variant": variant.name, "budget_ms": 10000}
    body = client.post("/analyze", json=asked).get_json()
    assert (body["source"], body["result"], body["remoteness"], body["exact"]) == ("search", "loss", 24, True)


def test_prove_on_a_foreign_jobs_file_says_so_in_one_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with sqlite3.connect(tmp_path / "prove-jobs.sqlite") as db:  # another program's database
        db.execute("CREATE TABLE notes (text TEXT)")
    assert cli.main(["prove", "4x4k4", "--dir", str(tmp_path), "--table-bits", "16"]) == 2
    said = capsys.readouterr().err.strip().splitlines()
    assert len(said) == 1 and "is not a file of `sanmoku prove`'s jobs" in said[0], said
