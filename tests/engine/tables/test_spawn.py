"""The builders' start (tables/spawn.py), in a process patched by gevent as a server's worker is and in a
plain one: no Python runs in the child before its exec (a fork that ran Python once hung on a search's
helper thread), the exit code comes back (the supply's back-off reads it) even when gevent's event loop
reaps the child, the child is reaped (no zombie), and it gets none of the parent's open files (a copy
that kept gunicorn's listening socket held the port after the server stopped)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.serving.harness import REPO

SCRIPT = """
import json, os, sys
from pathlib import Path
if sys.argv[2] == "gevent":
    from gevent import monkey
    monkey.patch_all()
    from gevent import get_hub
    get_hub().loop.install_sigchld()  # its loop reaps every child of the process from now on
from service.engine.tables.builder import BUILD_LOG, spawn_build

folder = Path(sys.argv[1])
marker = folder / "python-ran-in-a-child"
os.register_at_fork(after_in_child=lambda: marker.touch())
read, write = os.pipe()
os.set_inheritable(write, True)  # a descriptor an exec would leave open
found = {}
child = spawn_build(["-c", "import sys; sys.exit(3)"], folder)
found["exit"] = child.wait(timeout=30)
found["killed"] = spawn_build(["-c", "import os; os.kill(os.getpid(), 9)"], folder).wait(timeout=30)
found["descriptor"] = spawn_build(["-c", f"import os; os.fstat({write})"], folder).wait(timeout=30)
found["zombie"] = Path(f"/proc/{child.pid}").exists()
found["python_in_child"] = marker.exists()
found["log"] = (folder / BUILD_LOG).read_text()
print(json.dumps(found))
"""


@pytest.mark.parametrize("process", ["gevent", "plain"])
def test_a_builder_starts_by_exec_alone_and_its_end_is_seen(process: str, tmp_path: Path) -> None:
    ran = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp_path), process],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ran.returncode == 0, ran.stderr
    found = json.loads(ran.stdout)
    assert found["python_in_child"] is False  # gevent's subprocess ran Python between fork and exec
    assert found["exit"] == 3
    assert found["killed"] == -9
    assert found["descriptor"] == 1 and "Bad file descriptor" in found["log"]
    assert found["zombie"] is False
