"""A game tree as Graphviz text (`format=dot`), for a teacher's slides: each node's position and value
for the side to move at the root, coloured as the page colours them; the principal variation in bold;
the branches alpha-beta pruned dashed and grey, under the bound that pruned them."""

from __future__ import annotations

from collections.abc import Iterator

from ..engine import Leaf, Lesson, TreeNode
from .tree_payloads import root_value

MEDIA_TYPE = "text/vnd.graphviz"
FILL = {"win": "#d3edd9", "draw": "#ecebe7", "loss": "#f8d9d5", None: "#ffffff"}  # the page's light colours
PRUNED = "#9a9aa0"


def dot(taught: Lesson) -> str:
    return "\n".join(_lines(taught)) + "\n"


def _lines(taught: Lesson) -> Iterator[str]:
    tree, walk = taught.tree, taught.trace
    visited = {v.node for v in walk.visits}
    cut_above = {child: c for c in walk.cutoffs for child in c.pruned}
    principal = tree.principal_nodes
    cutoffs = len(walk.cutoffs)
    yield f"// {walk.algorithm.value}: {len(visited)} of {tree.size} nodes visited, {cutoffs} cut-off(s)"
    yield "digraph tree {"
    yield '  graph [rankdir=TB, nodesep=0.15, ranksep=0.4, fontname="Helvetica"];'
    yield '  node [shape=box, style="rounded,filled", fontname="Courier", fontsize=10];'
    yield '  edge [fontname="Helvetica", fontsize=9];'
    for node in tree.root.walk():
        yield f"  n{node.id} [{_node_attributes(node, node.id in visited)}];"
        for child in node.children:
            attributes = [f'label="{child.move}"']
            if child.id in principal:
                attributes.append("penwidth=2.5")
            cut = cut_above.get(child.id)
            if cut is not None:
                relation = ">=" if cut.bound == "beta" else "<="
                limit = cut.beta if cut.bound == "beta" else cut.alpha
                attributes = [f'label="{child.move}\\npruned: {cut.value} {relation} {cut.bound} {limit}"']
            if child.id not in visited:
                attributes += ["style=dashed", f'color="{PRUNED}"', f'fontcolor="{PRUNED}"']
            yield f"  n{node.id} -> n{child.id} [{', '.join(attributes)}];"
    yield "}"


def _node_attributes(node: TreeNode, visited: bool) -> str:
    value = root_value(node)
    result = None if value is None else ("loss", "draw", "win")[value.score + 1]
    if value is None:
        worth = f"{node.score} (evaluated)" if node.leaf is Leaf.EVALUATION else str(node.score)
    elif node.leaf is Leaf.END:
        worth = f"{node.score}: over, {result}"
    else:
        worth = f"{node.score}: {result}" + (f" in {value.remoteness}" if value.score else "")
    role = "max" if node.maximizing else "min"
    label = "\\n".join([*node.position.text_rows(), f"{node.position.to_move} ({role})", worth])
    attributes = [f'label="{label}"', f'fillcolor="{FILL[result]}"']
    if not visited:
        attributes += ['style="rounded,filled,dashed"', f'color="{PRUNED}"', f'fontcolor="{PRUNED}"']
    return ", ".join(attributes)
