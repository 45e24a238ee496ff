"""The game tree of a position (`/tree`): load the request, grow the tree and walk it in the engine,
send it as JSON or as Graphviz text. The same request always gives the same tree, so a GET's answer is
kept and cached downstream like a table's."""

from __future__ import annotations

from flask import Blueprint, Response, request

from ..engine import Algorithm, lesson
from ..serving.offload import offload
from ..serving.sources import get_analyst
from .answers import by_raw_request, send
from .bodies import Body, make_body
from .params import TreeParams
from .payloads import dumps
from .schemas import load
from .tree_dot import MEDIA_TYPE, dot
from .tree_payloads import tree_payload
from .tree_schemas import TreeQuery, TreeRequest

bp = Blueprint("tree", __name__)

_tree_request = TreeRequest()
_tree_query = TreeQuery()


def tree_body(params: TreeParams) -> Body:
    position = params.position()
    exact = get_analyst().exact_values(position)
    # Pure Python for up to a few hundred milliseconds: on a real thread, as a search runs
    taught = offload(lambda: lesson(position, Algorithm(params.algorithm), exact, params.depth))
    if params.format == "dot":
        return make_body(dot(taught).encode(), MEDIA_TYPE)
    return make_body(dumps(tree_payload(position, taught)))


@bp.post("/tree")
def tree_post() -> Response:
    return send(tree_body(load(_tree_request, request.get_json(), TreeParams)))


@bp.get("/tree")
def tree_get() -> Response:
    def answer() -> Body:
        return tree_body(load(_tree_query, request.args, TreeParams))

    # Keyed with the path: /analyze keys its kept bodies by the bare method and the same query string
    return send(by_raw_request("GET /tree", request.query_string, answer), cacheable=True)
