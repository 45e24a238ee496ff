"""Make a chunked request body count against MAX_CONTENT_LENGTH like any other.

werkzeug cuts a chunked body at the limit and lets the truncated JSON fail to parse (400).
Reading one byte past the limit here turns it into a known length, so the usual 413 applies.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from typing import Any

from werkzeug.wsgi import get_input_stream

WSGIApp = Any


class ChunkedBodyLimit:
    def __init__(self, app: WSGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        if "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower():
            stream = get_input_stream(environ, safe_fallback=False, max_content_length=None)
            body = stream.read(self.limit + 1)
            environ["wsgi.input"] = io.BytesIO(body)
            environ["CONTENT_LENGTH"] = str(len(body))
            environ.pop("HTTP_TRANSFER_ENCODING", None)
            environ.pop("wsgi.input_terminated", None)
        result: Iterable[bytes] = self.app(environ, start_response)
        return result
