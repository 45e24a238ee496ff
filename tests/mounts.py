"""Programs run on disks that misbehave for real, in a mount namespace of their own (`unshare -m`): a
small tmpfs that fills up, a read-only bind mount. Root is needed; without it a test is skipped (under
CI, which runs as root, it fails instead)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]
READ_ONLY_MOUNT = 'mount --bind "$0" "$0" && mount -o remount,ro,bind "$0" && exec "$@"'


def privileged(command: list[str], probe: list[str]) -> None:
    """Skip (fail under CI, which runs as root) when this machine does not allow `command`."""
    done = subprocess.run([*command, *probe], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        message = f"{' '.join(command[:2])} is not permitted here: {done.stderr.strip()}"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)


def on_small_disk(directory: Path, size: str = "2m") -> list[str]:
    """A command prefix that runs its command with a tmpfs of `size` mounted on `directory`, in a mount
    namespace of its own (a disk that fills up for real); skipped where that is not permitted."""
    directory.mkdir(parents=True, exist_ok=True)
    prefix = [
        "unshare",
        "-m",
        "sh",
        "-c",
        f'mount -t tmpfs -o size={size} tmpfs "$0" && exec "$@"',
        str(directory),
    ]
    privileged(prefix, ["true"])
    return prefix


def python_on_small_disk(directory: Path, code: str) -> Any:
    """The JSON the Python `code` prints last, run with `directory` (its sys.argv[1]) on a small disk."""
    done = subprocess.run(
        [*on_small_disk(directory), sys.executable, "-c", code, str(directory)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])
