"""The game tree of a position (`/tree`): load the request, grow the tree and walk it in the engine,
send it as JSON or as Graphviz text. An exact tree never changes, so a GET's answer then carries an
ETag and may be cached downstream like a table's.

A tree is pure Python for up to half a second (an 8x8 tree of 4,097 nodes and its megabyte of JSON), so
it is grown and rendered in one of the worker's tree processes (`serving.lanes`), TREES_AT_ONCE at a
time: on the worker's loop it held every other request (the 3x3 probe's p99 went from 4 to 117 ms beside
32 clients of trees), and on the pool of threads the searches share, 32 trees took every thread and
300 ms searches waited up to 12 s for one. A tree waits TREE_WAIT seconds at most for a process, then
answers 503 `trees-busy` with Retry-After; one that takes more than TREE_SECONDS has its process ended
and answers the same.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from flask import Blueprint, Response, current_app, request

from ..engine import (
    Algorithm,
    EngineError,
    GamePosition,
    TableStore,
    TableSupply,
    Value,
    exact_values,
    game_of,
    lesson,
)
from ..serving.lanes import Lane, LaneBusyError
from ..serving.sources import get_analyst, get_supply
from .answers import send
from .bodies import Body, make_body
from .params import TreeParams
from .payloads import dumps
from .problems import problem
from .schemas import load
from .tree_dot import MEDIA_TYPE, dot
from .tree_payloads import tree_payload
from .tree_schemas import TreeQuery, TreeRequest

bp = Blueprint("tree", __name__)
Exact = (
    Callable[[GamePosition], Value] | None
)  # the exact values of the tree's positions, if a table has them

TREES_AT_ONCE = 2  # a worker's tree processes: each runs one tree at a time
TREE_NICENESS = 15  # below the searches' (10): a tree takes the processor time they leave
TREE_WAIT = 1.0  # seconds a tree waits for a process before 503 trees-busy (SANMOKU_TREE_WAIT)
TREE_SECONDS = 10.0  # a tree's most time in its process: an 8x8 tree takes about half a second
TREES_BUSY_RETRY_S = 1
TREES = Lane("tree", TREES_AT_ONCE, TREE_NICENESS)

_tree_request = TreeRequest()
_tree_query = TreeQuery()


def grown_tree(params: TreeParams, tables: str | None) -> Body:
    """The tree's body, grown and rendered here (a tree process's job); the leaves read exact values
    from the tables in `tables` where a table answers, else the evaluation's guesses."""
    position = params.position()
    exact = None if tables is None else exact_values(position, _supply_of(tables).available)
    return _grown(params, position, exact)


def _grown(params: TreeParams, position: GamePosition, exact: Exact) -> Body:
    evaluation = game_of(position).evaluation
    if evaluation is None:
        raise EngineError("no_evaluation", f"{position.variant.name} has no evaluation to grow a tree with")
    taught = lesson(position, Algorithm(params.algorithm), evaluation, exact, params.depth)
    # An exact tree never changes; one of guesses may become exact once the variant's table is built
    lasting = taught.tree.root.value is not None
    if params.format == "dot":
        return make_body(dot(taught).encode(), MEDIA_TYPE, lasting)
    return make_body(dumps(tree_payload(position, taught)), lasting=lasting)


@lru_cache(maxsize=4)
def _supply_of(directory: str) -> TableSupply:
    """A tree process's view of the tables: it reads them, solves a small one in memory, and writes or
    queues nothing (the worker does)."""
    return TableSupply(TableStore(directory), background_builds=False, write_later=lambda work: None)


def tree_body(params: TreeParams) -> Body:
    position: GamePosition = params.position()  # a bad position is a 422 here, not in a process
    exact = get_analyst().exact_values(position)
    if not TREES.separate:  # not under gevent (tests, the command line): here, with the app's tables
        return _grown(params, position, exact)
    tables = None if exact is None else str(get_supply().store.directory)
    wait = float(current_app.config.get("TREE_WAIT", TREE_WAIT))
    body: Body = TREES.run("tree", (params, tables), TREE_SECONDS, wait)
    return body


@bp.errorhandler(LaneBusyError)
def trees_busy(error: LaneBusyError) -> Response:
    detail = f"{error}: every tree this worker grows at once is growing; ask again in a moment"
    response = problem(503, "Trees busy", detail, "trees-busy", retry_after=TREES_BUSY_RETRY_S)
    response.headers["Retry-After"] = str(TREES_BUSY_RETRY_S)
    return response


@bp.post("/tree")
def tree_post() -> Response:
    return send(tree_body(load(_tree_request, request.get_json(), TreeParams)))


@bp.get("/tree")
def tree_get() -> Response:
    # Not among the kept bodies (a tree's JSON runs to a megabyte, which would push out a thousand
    # answers): its ETag and Cache-Control let the browser and any cache in front keep it instead.
    return send(tree_body(load(_tree_query, request.args, TreeParams)), conditional=True)
