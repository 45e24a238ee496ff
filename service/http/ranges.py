"""One representation's bytes over HTTP as RFC 9110 says: its preconditions (If-Match, If-None-Match,
If-Range, section 13) and its ranges (Range, section 14), for GET and HEAD.

werkzeug's `send_file` answered several of these wrongly: 416 to several ranges, to a suffix
longer than the file and to an invalid range (RFC 9110: 206, 206, 200), and 412 with the whole file
as its body. There is no Last-Modified: the strong ETag is the one validator, so If-Modified-Since and
If-Unmodified-Since are ignored and an If-Range date never matches (section 13.1.5: the range is then
ignored and the whole representation sent).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from flask import Request, Response

from .problems import problem

PIECE = 1 << 18  # bytes copied at a time into the answer
MAX_PARTS = 16  # more ranges than this (after coalescing) are ignored: the whole representation is sent
_RANGE_SPEC = re.compile(r"(\d+)-(\d*)|-(\d+)")


@dataclass(frozen=True)
class Representation:
    """The bytes of one resource as they are now, and their strong validator."""

    data: memoryview
    etag: str  # unquoted
    mimetype: str
    headers: dict[str, str]  # sent with every 200, 206 and 304 (Content-Disposition, Cache-Control)


Span = tuple[int, int]  # first and last byte, inclusive
Delivery = Callable[[Iterator[bytes]], Iterable[bytes]]  # how pieces reach the client (paced, watched)


def respond(representation: Representation, request: Request, deliver: Delivery) -> Response:
    """200, 206, 304, 412 or 416, as the request's conditions and ranges ask; the body's pieces are
    copied from `representation.data` as the answer is written, through `deliver` (which may pace them)."""
    etag, size = representation.etag, len(representation.data)
    if "If-Match" in request.headers and not request.if_match.contains(etag):  # strong comparison
        detail = f'If-Match names none of the current ETag ("{etag}"): the file has changed since'
        return problem(412, "Precondition Failed", detail)
    if request.if_none_match.contains_weak(etag):  # weak comparison, as section 13.1.2 says
        return _answer(representation, 304, [], deliver)
    spans = _ranges(request, size) if request.method == "GET" and _if_range_holds(request, etag) else None
    if spans == []:
        response = problem(
            416, "Range Not Satisfiable", f"no range asked for starts within the {size:,} bytes"
        )
        response.headers["Content-Range"] = f"bytes */{size}"
        return response
    if spans is None:
        return _answer(representation, 200, [(0, size - 1)] if size else [], deliver)
    return _answer(representation, 206, spans, deliver)


def _answer(representation: Representation, status: int, spans: list[Span], deliver: Delivery) -> Response:
    data, size = representation.data, len(representation.data)
    response = Response(status=status, headers=representation.headers)
    response.set_etag(representation.etag)
    if status == 304:
        return response
    response.headers["Accept-Ranges"] = "bytes"
    if status == 206 and len(spans) > 1:
        boundary = f"sanmoku-{representation.etag}"
        heads = [_part_head(boundary, representation.mimetype, span, size, n) for n, span in enumerate(spans)]
        tail = f"\r\n--{boundary}--\r\n".encode()
        length = sum(map(len, heads)) + sum(last - first + 1 for first, last in spans) + len(tail)
        response.response = deliver(_multipart(data, spans, heads, tail))
        response.content_type = f"multipart/byteranges; boundary={boundary}"
    else:
        length = sum(last - first + 1 for first, last in spans)
        response.response = deliver(_pieces(data, spans))
        response.content_type = representation.mimetype
        if status == 206:
            first, last = spans[0]
            response.headers["Content-Range"] = f"bytes {first}-{last}/{size}"
    response.content_length = length  # a HEAD answer says it too, without a body
    return response


def _if_range_holds(request: Request, etag: str) -> bool:
    """Section 13.1.5: only a strong ETag equal to the current one lets the Range be served; a weak
    one or a date (there is no Last-Modified) means the whole representation."""
    given = request.headers.get("If-Range")
    return given is None or given.strip() == f'"{etag}"'


def _ranges(request: Request, size: int) -> list[Span] | None:
    """The satisfiable ranges asked for, coalesced; None when there is no Range to serve (absent, in
    another unit, invalid, or too many parts: the whole representation), [] when none is satisfiable."""
    header = request.headers.get("Range")
    if header is None:
        return None
    unit, _, ranges = header.partition("=")
    if unit.strip().lower() != "bytes" or not ranges.strip():
        return None
    spans: list[Span] = []
    for spec in ranges.split(","):
        match = _RANGE_SPEC.fullmatch(spec.strip())
        if match is None:
            return None  # section 14.1.1: an invalid range set, ignored (section 14.2)
        first, last, suffix = match.groups()
        if suffix is not None:
            if int(suffix) > 0 and size > 0:
                spans.append((max(0, size - int(suffix)), size - 1))
        elif last and int(last) < int(first):
            return None  # invalid: the last byte before the first
        elif int(first) < size:
            spans.append((int(first), min(int(last), size - 1) if last else size - 1))
    spans = _coalesced(spans)
    return None if len(spans) > MAX_PARTS else spans


def _coalesced(spans: list[Span]) -> list[Span]:
    """Overlapping or adjoining ranges merged (section 14.3 allows it); otherwise the order asked for."""
    merged: list[Span] = []
    for first, last in sorted(spans):
        if merged and first <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], last))
        else:
            merged.append((first, last))
    return spans if len(merged) == len(spans) else merged


def _part_head(boundary: str, mimetype: str, span: Span, size: int, index: int) -> bytes:
    lead = "\r\n" if index else ""
    return (
        f"{lead}--{boundary}\r\nContent-Type: {mimetype}\r\n"
        f"Content-Range: bytes {span[0]}-{span[1]}/{size}\r\n\r\n"
    ).encode()


def _pieces(data: memoryview, spans: list[Span]) -> Iterator[bytes]:
    for first, last in spans:
        for start in range(first, last + 1, PIECE):
            yield bytes(data[start : min(start + PIECE, last + 1)])


def _multipart(data: memoryview, spans: list[Span], heads: list[bytes], tail: bytes) -> Iterator[bytes]:
    for head, span in zip(heads, spans, strict=True):
        yield head
        yield from _pieces(data, [span])
    yield tail
