"""The gevent worker's cheaper start (service/serving/gevent_worker.py): while it patches, the installed
entry points are read once and every question gevent asks is answered from that reading, as the
metadata itself answers it; the metadata's own function is back afterwards."""

from __future__ import annotations

import importlib.metadata

import pytest

from service.serving.gevent_worker import entry_points_read_once

GROUPS = ("console_scripts", "pytest11", "gevent.plugins.monkey.will_patch_all", "no.such.group")


def names(group: str) -> list[str]:
    return sorted(f"{ep.name}={ep.value}" for ep in importlib.metadata.entry_points(group=group))


@pytest.mark.slow
def test_entry_points_read_once_answer_as_the_metadata_does() -> None:
    asked = importlib.metadata.entry_points
    expected = {group: names(group) for group in GROUPS}
    assert "sanmoku=service.cli.serve:main" in expected["console_scripts"]  # the comparison is not empty
    with entry_points_read_once():
        assert importlib.metadata.entry_points is not asked
        assert {group: names(group) for group in GROUPS} == expected
    assert importlib.metadata.entry_points is asked
