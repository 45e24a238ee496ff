"""Every operation of the contract, called through a Python client that openapi-python-client generated
from it, each answer read through the client's own models.

`call_every_operation` returns the (operationId, status) of each call; a call whose status or body is
not what it should be is recorded as a failure, not raised, so that one run reports every one of them.
The generated package is imported by name: it lives in a temporary folder, never in the repository.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

LONG_URL_BOARD = "X" * 5000  # a request line over gunicorn's 4094 bytes: 414 before the app sees it
LONG_HEADER = "a" * 9000  # one header over gunicorn's 8190 bytes: 431
TOO_LARGE_BOARD = "." * 200_000  # a body over the app's 128 KiB: 413
UNBUILT = "3x7k5-torus-misere"  # 21 cells: its table is built only when an operator says so (503)


@dataclass
class Calls:
    """What a run called and what went wrong."""

    done: list[tuple[str, int]] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    def check(
        self, operation: str, expected: int, call: Callable[[], Any], read: Callable[[Any], bool]
    ) -> Any:
        """Make one call; its status must be `expected` and `read(response)` true of its answer."""
        try:
            response = call()
        except Exception as error:  # a client that cannot read an answer raises: that is the failure
            self.failures.append(f"{operation} (expected {expected}): {type(error).__name__}: {error}")
            return None
        status = int(response.status_code)
        self.done.append((operation, status))
        if status != expected:
            self.failures.append(f"{operation}: {status}, expected {expected}: {response.content[:300]!r}")
        elif not read(response):
            self.failures.append(f"{operation} {status}: unexpected answer {response.parsed!r:.300}")
        return response


def call_every_operation(package: str, base_url: str) -> Calls:
    """Call every operation of the spec through the generated `package` against `base_url`."""
    sanmoku = importlib.import_module(package)
    models = importlib.import_module(f"{package}.models")

    def api(name: str) -> Any:
        for tag in ("analysis", "play", "operations"):
            try:
                return importlib.import_module(f"{package}.api.{tag}.{name}")
            except ModuleNotFoundError:
                continue
        raise ModuleNotFoundError(f"{package}: no operation module {name}")

    def client(headers: dict[str, str] | None = None) -> Any:
        # A client of its own for extra headers: with_headers also changes the httpx client it shares.
        return sanmoku.Client(base_url=base_url, headers=headers or {}, timeout=30.0)

    plain = client()
    calls = Calls()

    def problem(status: int, code: str | None = None) -> Callable[[Any], bool]:
        def read(response: Any) -> bool:
            found = response.parsed
            kind_ok = code is None or str(found.code) == code
            return (
                isinstance(found, models.Problem)
                and found.status == status
                and bool(found.detail)
                and kind_ok
            )

        return read

    def raw(module: Any, payload: bytes, content_type: str, **kwargs: Any) -> Any:
        """The operation's own request with another body (bytes no model can make), read by its parser."""
        request = module._get_kwargs(**kwargs)
        request.pop("json", None)
        request["content"] = payload
        request["headers"] = {**request.get("headers", {}), "Content-Type": content_type}
        answer = plain.get_httpx_client().request(**request)
        return module._build_response(client=plain, response=answer)

    # POST /analyze
    analyze_post = api("analyze_post")
    opening = models.AnalyzeRequest(board="X...O....")
    calls.check(
        "analyzePost",
        200,
        lambda: analyze_post.sync_detailed(client=plain, body=opening),
        lambda r: (
            isinstance(r.parsed, models.Analysis)
            and str(r.parsed.result) == "draw"
            and r.parsed.remoteness == 7
            and r.parsed.best_moves == [1, 2, 3, 5, 6, 7, 8]
            and r.parsed.search is None
        ),
    )
    searched = models.AnalyzeRequest(
        board="XO.X./.OX../O..../...../.....", variant="5x5k4", source=models.SourceChoice.SEARCH
    )
    calls.check(
        "analyzePost",
        200,
        lambda: analyze_post.sync_detailed(client=plain, body=searched),
        lambda r: isinstance(r.parsed.search, models.SearchStats) and r.parsed.search.nodes > 0,
    )
    impossible = models.AnalyzeRequest(board="XX.......")
    calls.check(
        "analyzePost",
        422,
        lambda: analyze_post.sync_detailed(client=plain, body=impossible),
        problem(422, "impossible_counts"),
    )
    calls.check(
        "analyzePost", 400, lambda: raw(analyze_post, b"{", "application/json", body=opening), problem(400)
    )
    calls.check(
        "analyzePost", 415, lambda: raw(analyze_post, b"{}", "text/plain", body=opening), problem(415)
    )
    huge = models.AnalyzeRequest(board=TOO_LARGE_BOARD)
    calls.check("analyzePost", 413, lambda: analyze_post.sync_detailed(client=plain, body=huge), problem(413))

    # GET /analyze
    analyze_get = api("analyze_get")
    first = calls.check(
        "analyzeGet",
        200,
        lambda: analyze_get.sync_detailed(client=plain, board="X...O....", mainline=True),
        lambda r: isinstance(r.parsed.mainline, models.Mainline) and len(r.parsed.mainline.cells) == 7,
    )
    etag = first.headers.get("ETag", "") if first is not None else ""
    calls.check(
        "analyzeGet",
        304,
        lambda: analyze_get.sync_detailed(client=plain, board="X...O....", mainline=True, if_none_match=etag),
        lambda r: r.content == b"",
    )
    calls.check(
        "analyzeGet",
        422,
        lambda: analyze_get.sync_detailed(client=plain, board="X..."),
        problem(422, "wrong_length"),
    )
    calls.check(
        "analyzeGet", 414, lambda: analyze_get.sync_detailed(client=plain, board=LONG_URL_BOARD), problem(414)
    )

    # POST /analyze/batch
    batch = api("analyze_batch")
    two = models.BatchRequest(positions=[{"board": "XXXOO...."}, {"board": "XX......."}])
    calls.check(
        "analyzeBatch",
        200,
        lambda: batch.sync_detailed(client=plain, body=two),
        lambda r: (
            [type(item).__name__ for item in r.parsed.results] == ["Analysis", "Problem"]
            and str(r.parsed.results[0].status) == "x_won"
        ),
    )
    calls.check(
        "analyzeBatch",
        422,
        lambda: batch.sync_detailed(client=plain, body=models.BatchRequest(positions=[])),
        problem(422),
    )

    # POST /move, GET /policies, POST /review, POST /record
    move = api("move")
    perfect = models.MoveRequest(board="X...O....", policy=models.PolicyName.PERFECT)
    calls.check(
        "move",
        200,
        lambda: move.sync_detailed(client=plain, body=perfect),
        lambda r: isinstance(r.parsed, models.MoveChoice) and r.parsed.cell == 1 and r.parsed.proven_best,
    )
    over = models.MoveRequest(board="XXXOO....", policy=models.PolicyName.PERFECT)
    calls.check("move", 422, lambda: move.sync_detailed(client=plain, body=over), problem(422, "game_over"))
    calls.check(
        "policies",
        200,
        lambda: api("policies").sync_detailed(client=plain),
        lambda r: str(r.parsed.policies[0].name) == "perfect" and r.parsed.default_depth >= 1,
    )
    review = api("review")
    calls.check(
        "review",
        200,
        lambda: review.sync_detailed(client=plain, body={"moves": [4, 1, 0, 8]}),
        lambda r: (
            isinstance(r.parsed, models.Review) and [str(p.verdict) for p in r.parsed.plies][1] == "mistake"
        ),
    )
    calls.check(
        "review", 422, lambda: review.sync_detailed(client=plain, body={"moves": [4, 4]}), problem(422)
    )

    record = api("record")
    renju = {"moves": ["h8", "h9", "j10", "g7"], "variant": "renju"}
    calls.check(
        "record",
        200,
        lambda: record.sync_detailed(client=plain, body=renju),
        lambda r: (
            isinstance(r.parsed, models.Record)
            and r.parsed.moves == [112, 97, 84, 126]
            and r.parsed.psq.startswith("Piskvork 15x15")
        ),
    )
    calls.check(
        "record", 422, lambda: record.sync_detailed(client=plain, body={"moves": ["h8", "h8"]}), problem(422)
    )

    # GET /solve
    solve = api("solve")
    table = calls.check(
        "solve",
        200,
        lambda: solve.sync_detailed(client=plain, variant="misere"),
        lambda r: (
            isinstance(r.parsed, models.SolveTable)
            and r.parsed.summary.positions == 5478
            and isinstance(r.parsed.positions["........."], models.TableEntry)
        ),
    )
    solve_etag = table.headers.get("ETag", "") if table is not None else ""
    calls.check(
        "solve",
        304,
        lambda: solve.sync_detailed(client=plain, variant="misere", if_none_match=solve_etag),
        lambda r: r.content == b"",
    )
    calls.check(
        "solve", 422, lambda: solve.sync_detailed(client=plain, variant="5x5k4"), problem(422, "no_table")
    )
    calls.check("solve", 503, lambda: solve.sync_detailed(client=plain, variant=UNBUILT), problem(503))

    # POST and GET /tree
    tree_post = api("tree_post")
    eight = models.TreeRequest(board="4:1", variant="eight")
    calls.check(
        "treePost",
        200,
        lambda: tree_post.sync_detailed(client=plain, body=eight),
        lambda r: (
            isinstance(r.parsed, models.Tree)
            and r.parsed.nodes == 9
            and isinstance(r.parsed.cutoffs[0], models.TreeCutoff)
            and r.parsed.counts.minimax.nodes == 9
        ),
    )
    deep = models.TreeRequest(board="." * 16, variant="4x4k4", depth=4)
    calls.check(
        "treePost",
        422,
        lambda: tree_post.sync_detailed(client=plain, body=deep),
        problem(422, "tree_too_large"),
    )
    tree_get = api("tree_get")
    grown = calls.check(
        "treeGet",
        200,
        lambda: tree_get.sync_detailed(client=plain, board="XOX.O.X..", depth=2),
        lambda r: isinstance(r.parsed, models.Tree) and isinstance(r.parsed.visits[0], models.TreeVisit),
    )
    tree_etag = grown.headers.get("ETag", "") if grown is not None else ""
    calls.check(
        "treeGet",
        304,
        lambda: tree_get.sync_detailed(client=plain, board="XOX.O.X..", depth=2, if_none_match=tree_etag),
        lambda r: r.content == b"",
    )
    calls.check("treeGet", 422, lambda: tree_get.sync_detailed(client=plain, board="XX......."), problem(422))

    # GET /variants, /variants/{name}, /variants/{name}/table
    calls.check(
        "variants",
        200,
        lambda: api("variants").sync_detailed(client=plain),
        lambda r: (
            isinstance(r.parsed, models.VariantList)
            and r.parsed.variants[0].name == "normal"
            and isinstance(r.parsed.name_form, models.NameForm)
            and r.parsed.limits.max_cells == 400
        ),
    )
    variant = api("variant")
    calls.check(
        "variant",
        200,
        lambda: variant.sync_detailed("normal", client=plain),
        lambda r: (
            isinstance(r.parsed.table, models.TableState)
            and isinstance(r.parsed.empty_board, models.EmptyBoardValue)
            and str(r.parsed.empty_board.result) == "draw"
        ),
    )
    calls.check(
        "variant", 422, lambda: variant.sync_detailed("9x9k12", client=plain), problem(422, "unknown_variant")
    )
    table_file = api("variant_table")
    whole = calls.check(
        "variantTable",
        200,
        lambda: table_file.sync_detailed("normal", client=plain),
        lambda r: r.content.startswith(b"SANMOKU TABLE\n"),
    )
    file_etag = whole.headers.get("ETag", "") if whole is not None else ""
    calls.check(
        "variantTable",
        206,
        lambda: table_file.sync_detailed("normal", client=client({"Range": "bytes=0-6"})),
        lambda r: r.content == b"SANMOKU",
    )
    calls.check(
        "variantTable",
        304,
        lambda: table_file.sync_detailed("normal", client=plain, if_none_match=file_etag),
        lambda r: r.content == b"",
    )
    calls.check(
        "variantTable",
        412,
        lambda: table_file.sync_detailed("normal", client=client({"If-Match": '"not-the-etag"'})),
        problem(412),
    )
    calls.check(
        "variantTable",
        416,
        lambda: table_file.sync_detailed("normal", client=client({"Range": "bytes=99999999-"})),
        problem(416),
    )
    calls.check(
        "variantTable", 422, lambda: table_file.sync_detailed("5x5k4", client=plain), problem(422, "no_table")
    )
    calls.check("variantTable", 503, lambda: table_file.sync_detailed(UNBUILT, client=plain), problem(503))

    # Operations: health, readiness, metrics, the contract, the docs and the page
    calls.check(
        "healthz", 200, lambda: api("healthz").sync_detailed(client=plain), lambda r: r.parsed.status == "ok"
    )
    calls.check(
        "healthz",
        431,
        lambda: api("healthz").sync_detailed(client=plain, x_request_id=LONG_HEADER),
        problem(431),
    )
    calls.check(
        "readyz",
        200,
        lambda: api("readyz").sync_detailed(client=plain),
        lambda r: isinstance(r.parsed, models.Readiness) and r.parsed.tables["normal"].ready,
    )
    calls.check(
        "metrics", 200, lambda: api("metrics").sync_detailed(client=plain), lambda r: "# TYPE" in r.parsed
    )
    # application/yaml and */* are media types the generator leaves untyped: their bytes are the answer
    calls.check(
        "openapi",
        200,
        lambda: api("openapi").sync_detailed(client=plain),
        lambda r: r.content.startswith(b"openapi: 3.1"),
    )
    calls.check(
        "docs", 200, lambda: api("docs").sync_detailed(client=plain), lambda r: "swagger" in r.parsed.lower()
    )
    docs_static = api("docs_static")
    calls.check(
        "docsStatic",
        200,
        lambda: docs_static.sync_detailed("swagger-ui-bundle.js", client=plain),
        lambda r: len(r.content) > 100_000,
    )
    calls.check("docsStatic", 404, lambda: docs_static.sync_detailed("nope.js", client=plain), problem(404))
    calls.check(
        "webIndex", 200, lambda: api("web_index").sync_detailed(client=plain), lambda r: "<html" in r.parsed
    )
    web_static = api("web_static")
    calls.check(
        "webStatic",
        200,
        lambda: web_static.sync_detailed("app.js", client=plain),
        lambda r: b"import" in r.content,
    )
    calls.check("webStatic", 404, lambda: web_static.sync_detailed("nope.js", client=plain), problem(404))
    calls.check(
        "webServiceWorker",
        200,
        lambda: api("web_service_worker").sync_detailed(client=plain),
        lambda r: b"addEventListener" in r.content,
    )
    return calls
