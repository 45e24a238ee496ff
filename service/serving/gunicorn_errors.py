"""gunicorn's own error answers as problem+json, like every other error of this service.

gunicorn answers some requests before the app sees them: a request line over `limit_request_line`
(414), too many or too large header fields (431), bad header characters, bad chunk sizes or
Content-Length with Transfer-Encoding (400). It writes them as an HTML page through
`gunicorn.util.write_error`, and has no setting for that page, so `install()` (called by
gunicorn_conf.py in each worker) puts `write_problem` in its place, with the same arguments.
"""

from __future__ import annotations

import socket
import uuid

from gunicorn import util  # type: ignore[import-untyped]

from ..http.cors import SIMPLE
from ..http.payloads import dumps
from ..http.problems import PROBLEM_MIMETYPE, problem_body
from .observability import REQUEST_ID_HEADER

# The app's own CORS headers (http/cors.py), so that a page on another origin can read these too
CROSS_ORIGIN = "".join(f"{name}: {value}\r\n" for name, value in SIMPLE)


def write_problem(sock: socket.socket, status_int: int, reason: str, mesg: str) -> None:
    body = dumps(problem_body(status_int, reason, mesg or reason))
    head = (
        f"HTTP/1.1 {status_int} {reason}\r\n"
        "Connection: close\r\n"
        f"Content-Type: {PROBLEM_MIMETYPE}\r\n"
        "X-Content-Type-Options: nosniff\r\n"
        f"Content-Length: {len(body)}\r\n"
        # the request could not be read, so whatever id it carried is unknown: a fresh one
        f"{REQUEST_ID_HEADER}: {uuid.uuid4().hex}\r\n"
        f"{CROSS_ORIGIN}"
        "\r\n"
    )
    util.write_nonblock(sock, head.encode("latin-1") + body)


def install() -> None:
    util.write_error = write_problem
