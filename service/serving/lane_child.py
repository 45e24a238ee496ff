"""A lane's process (`lanes`): reads jobs from its standard input, one frame at a time, runs each and
writes its answer to its standard output, until the worker closes the pipe.

`python -m service.serving.lane_child NICENESS`. Its standard output carries frames only: anything
else the jobs print goes to standard error.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import struct
import sys

from .lane_jobs import JOBS, Failure, job_named

HEADER = struct.Struct(">I")


def read_exactly(fd: int, count: int) -> bytes | None:
    """`count` bytes, or None at the end of the input."""
    parts, left = [], count
    while left:
        part = os.read(fd, min(left, 1 << 20))
        if not part:
            return None
        parts.append(part)
        left -= len(part)
    return b"".join(parts)


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def serve(niceness: int) -> int:
    frames = os.dup(1)
    os.dup2(2, 1)  # a stray print goes to standard error, not into a frame
    with contextlib.suppress(OSError):
        os.nice(niceness)
    for name in JOBS:
        job_named(name)  # imported now, not within the first job's time
    ready = pickle.dumps(True)
    write_all(frames, HEADER.pack(len(ready)) + ready)
    while True:
        header = read_exactly(0, HEADER.size)
        if header is None:
            return 0
        frame = read_exactly(0, HEADER.unpack(header)[0])
        if frame is None:
            return 0
        name, args = pickle.loads(frame)
        try:
            answer: tuple[bool, object] = (True, job_named(name)(*args))
        except Exception as error:  # the worker raises it again
            answer = (False, Failure.of(error))
        reply = pickle.dumps(answer)
        try:
            write_all(frames, HEADER.pack(len(reply)) + reply)
        except BrokenPipeError:  # the worker has gone
            return 0


if __name__ == "__main__":
    sys.exit(serve(int(sys.argv[1]) if len(sys.argv) > 1 else 0))
