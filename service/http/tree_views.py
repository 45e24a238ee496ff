"""The game tree of a position (`/tree`): load the request, grow the tree and walk it in the engine,
send it as JSON or as Graphviz text. An exact tree never changes, so a GET's answer then carries an
ETag and may be cached downstream like a table's."""

from __future__ import annotations

from flask import Blueprint, Response, request

from ..engine import Algorithm, lesson
from ..serving.offload import offload
from ..serving.sources import get_analyst
from .answers import send
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
    # An exact tree never changes; one of guesses may become exact once the variant's table is built
    lasting = taught.tree.root.value is not None
    if params.format == "dot":
        return make_body(dot(taught).encode(), MEDIA_TYPE, lasting)
    return make_body(dumps(tree_payload(position, taught)), lasting=lasting)


@bp.post("/tree")
def tree_post() -> Response:
    return send(tree_body(load(_tree_request, request.get_json(), TreeParams)))


@bp.get("/tree")
def tree_get() -> Response:
    # Not kept in the body cache (a tree's JSON runs to a megabyte, which would push out a thousand
    # answers): its ETag and Cache-Control let the browser and any cache in front keep it instead.
    return send(tree_body(load(_tree_query, request.args, TreeParams)), cacheable=True)
