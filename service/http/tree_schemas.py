"""The syntax of a /tree request (a JSON body or a query string); the engine checks the position and
the tree's size."""

from __future__ import annotations

from typing import Any

from marshmallow import fields, post_load, validate

from ..engine import MAX_CELLS, Algorithm
from .params import TreeParams
from .schemas import JSONInteger, PositionRequest

TREE_FORMATS = ("json", "dot")
ALGORITHMS = tuple(a.value for a in Algorithm)
DEPTH = validate.Range(1, MAX_CELLS)  # past the longest game a tree is simply whole


class TreeOptions(PositionRequest):
    algorithm = fields.String(load_default=Algorithm.ALPHABETA.value, validate=validate.OneOf(ALGORITHMS))
    format = fields.String(load_default="json", validate=validate.OneOf(TREE_FORMATS))

    @post_load
    def typed(self, data: dict[str, Any], **_: Any) -> TreeParams:
        return TreeParams(**data)


class TreeRequest(TreeOptions):
    depth = JSONInteger(load_default=None, allow_none=True, validate=DEPTH)


class TreeQuery(TreeOptions):
    depth = fields.Integer(load_default=None, validate=DEPTH)
