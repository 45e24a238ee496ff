"""`sanmoku record`: a .psq record to a move list and back, and a forbidden point refused with its ply."""

from __future__ import annotations

from pathlib import Path

import pytest

from service.cli.main import main

PSQ = "Piskvork 15x15, 11:11, 0\n8,8,1000\n8,7,1200\n10,6,900\n7,9,1100\n-1\npbrain-a.exe\n"


def test_a_psq_record_prints_as_a_move_list_and_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "game.psq"
    record.write_text(PSQ)
    assert main(["record", str(record), "--variant", "renju"]) == 0
    names = capsys.readouterr().out
    assert names == "h8 h9 j10 g7\n"
    listed = tmp_path / "game.txt"
    listed.write_text(names)
    assert main(["record", str(listed), "--variant", "renju"]) == 0
    assert capsys.readouterr().out == "Piskvork 15x15, 11:11, 0\n8,8,0\n8,7,0\n10,6,0\n7,9,0\n-1\n"


def test_a_forbidden_point_is_refused_with_its_ply(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    listed = tmp_path / "game.txt"
    listed.write_text("a15 a1 b15 b1 c15 c1 e15 d1 f15 e2 d15\n")
    assert main(["record", str(listed), "--variant", "renju"]) == 2
    assert "ply 11" in capsys.readouterr().err
    assert main(["record", str(listed), "--to", "moves"]) == 0  # freestyle: the sixth stone wins
    assert capsys.readouterr().out.startswith("a15 a1 ")
