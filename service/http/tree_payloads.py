"""A game tree as JSON: nested nodes with their values for the side to move at the root (MAX), the
principal variation, and the walk of the algorithm asked for (visits, cut-offs) with every algorithm's
counts on the same tree."""

from __future__ import annotations

from ..engine import MAX_TREE_NODES, GamePosition, Lesson, TreeNode, Value
from .payloads import RESULT_WORDS, Json


def tree_payload(position: GamePosition, taught: Lesson) -> Json:
    tree, walk = taught.tree, taught.trace
    return {
        "board": position.cells,
        "to_move": position.to_move,
        "variant": position.variant.name,
        "algorithm": walk.algorithm.value,
        "depth": tree.depth,
        "nodes": tree.size,
        "max_nodes": MAX_TREE_NODES,
        "complete": tree.complete,
        "cut_for_size": tree.cut_for_size,
        "exact": tree.root.value is not None,
        "values": "evaluation" if tree.evaluated else "exact",
        "evaluation": {"name": tree.evaluation.name, "description": tree.evaluation.description},
        "principal_variation": list(tree.principal_variation),
        "root": node_payload(tree.root, tree.principal_nodes),
        "visits": [{"node": v.node, "alpha": v.alpha, "beta": v.beta, "value": v.value} for v in walk.visits],
        "cutoffs": [
            {
                "node": c.node,
                "after": c.after,
                "bound": c.bound,
                "value": c.value,
                "alpha": c.alpha,
                "beta": c.beta,
                "pruned": list(c.pruned),
            }
            for c in walk.cutoffs
        ],
        "counts": {a.value: {"nodes": c.nodes, "cutoffs": c.cutoffs} for a, c in taught.counts.items()},
    }


def node_payload(node: TreeNode, principal: frozenset[int]) -> Json:
    value = root_value(node)
    return {
        "id": node.id,
        "move": node.move,
        "board": node.position.cells,
        "to_move": node.position.to_move,
        "ply": node.ply,
        "role": "max" if node.maximizing else "min",
        "score": node.score,
        "result": None if value is None else RESULT_WORDS[value.score],
        "remoteness": None if value is None else value.remoteness,
        "leaf": None if node.leaf is None else node.leaf.value,
        "pv": node.id in principal,
        "children": [node_payload(child, principal) for child in node.children],
    }


def root_value(node: TreeNode) -> Value | None:
    """The node's exact value for the side to move at the root, if it is proven."""
    if node.value is None:
        return None
    return node.value if node.maximizing else Value(-node.value.score, node.value.remoteness)
