"""The recorded games of tests/data/gomoku-games/ (Sanmoku against Rapfi through the Gomocup protocol,
tests/bench/gomoku_peer.py): each record reads as the engine reads a `.psq` record, replays legally on
15x15 freestyle, and ends as its own last lines say: the named winner's colour holds a five, made by the
last move, or nobody holds one. The benchmark's figures on these games assume exactly that.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from service.engine import Mark, get_variant, read_psq, replayed

GAMES = Path(__file__).resolve().parents[2] / "data" / "gomoku-games"
RECORDS = sorted(GAMES.glob("*.psq"))
OPENING_STONES = 3  # the seeded opening each game starts from: black, white, black


def test_there_are_records_of_both_colours() -> None:
    names = {path.name for path in RECORDS}
    assert len(RECORDS) >= 10
    assert any("sanmoku-black" in n for n in names) and any("rapfi-black" in n for n in names)


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_a_record_replays_to_the_result_it_states(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    variant = get_variant("15x15k5")
    cells = read_psq(variant, text)
    stated = dict(re.findall(r"^(black|white|winner) (\S+)", text, re.MULTILINE))
    assert {stated["black"], stated["white"]} == {"Sanmoku", "Rapfi"}
    assert len(cells) > OPENING_STONES
    before = replayed(variant, cells[:-1])  # raises on a taken cell or a move after a five
    assert before.line_holder is None
    after = replayed(variant, cells)
    if stated["winner"] == "none":
        assert after.line_holder is None
    else:
        colour = "black" if stated["black"] == stated["winner"] else "white"
        assert after.line_holder is (Mark.X if colour == "black" else Mark.O)
        assert (len(cells) % 2 == 1) == (colour == "black")  # the winner moved last
