// Russell and Norvig's two-ply game tree (Artificial Intelligence: A Modern Approach, figures 5.2 and
// 5.5): MAX at the top (A) with three moves a1..a3 to MIN nodes B, C and D, each with three leaves. Its
// leaves can be changed, so the tree and its walks are made here, in the page, in the shape of a /tree
// answer (nodes, visits, cut-offs, counts), so that the same view and replay draw them. The walks are
// the service's (service/engine/teach/traces.py): minimax, and fail-soft alpha-beta, MAX-VALUE and
// MIN-VALUE, with a node stopping when its value reaches beta (MAX) or falls to alpha (MIN). No DOM.

import { num } from "./tree-replay.js";
import { localized } from "./i18n.js";

export const TEXTBOOK_LEAVES = [3, 12, 8, 2, 4, 6, 14, 5, 2]; // figure 5.2's utilities, left to right
const INNER = ["B", "C", "D"];

// Every word this tree says, in one place so that it can be translated (strings-ja.js, textbookWords).
export const TEXTBOOK_WORDS = localized({
  top: "A (the top)",
  inner: (letter, move) => `${letter} (after ${move})`,
  leaf: (move) => `the leaf after ${move}`,
  row: (letter, move) => `${letter} (${move})`,
  topRow: "A",
  status: (minimax, alphabeta, nodes, visited, cuts) =>
    `Russell and Norvig's figure 5.5: ${nodes} nodes, two plies. Minimax gives A the value ${minimax} after visiting all ${nodes}; alpha-beta gives ${alphabeta}, visiting ${visited}, with ${cuts === 1 ? "1 cut-off" : `${cuts} cut-offs`}.`,
}, "textbookWords");

const W = TEXTBOOK_WORDS;

// The tree with these nine leaves: ids in the order of a walk taking the moves in order.
function grow(leaves) {
  let id = 0;
  const node = (fields) => ({ id: id++, result: null, remoteness: null, pv: false, children: [], ...fields });
  const root = node({ move: null, board: "A", to_move: "MAX", ply: 0, role: "max", leaf: null });
  INNER.forEach((letter, i) => {
    const inner = node({ move: `a${i + 1}`, board: letter, to_move: "MIN", ply: 1, role: "min", leaf: null });
    root.children.push(inner);
    for (let j = 0; j < 3; j += 1) {
      const move = `${letter.toLowerCase()}${j + 1}`;
      const score = leaves[3 * i + j];
      const leaf = { move, board: "", to_move: "MAX", ply: 2, role: "max", leaf: "utility", score };
      inner.children.push(node(leaf));
    }
  });
  const back = (n) => {
    if (n.children.length) {
      const scores = n.children.map(back);
      n.score = n.role === "max" ? Math.max(...scores) : Math.min(...scores);
    }
    return n.score;
  };
  back(root);
  const pv = [];
  for (let at = root; at; at = at.children.find((c) => c.score === at.score)) {
    at.pv = true;
    if (at.move !== null) {
      pv.push(at.move);
    }
  }
  return { root, pv };
}

// The walk of `algorithm` over the tree: visits (with their window and value) and cut-offs.
function walk(root, algorithm) {
  const visits = [];
  const cutoffs = [];
  const minimax = (n) => {
    const visit = { node: n.id, alpha: null, beta: null, value: n.score };
    visits.push(visit);
    if (n.children.length) {
      const scores = n.children.map(minimax);
      visit.value = n.role === "max" ? Math.max(...scores) : Math.min(...scores);
    }
    return visit.value;
  };
  // alpha and beta are numbers or ±Infinity here; null (unbounded) in what is recorded, as in /tree.
  const open = (bound) => (Number.isFinite(bound) ? bound : null);
  const alphabeta = (n, alpha, beta) => {
    const visit = { node: n.id, alpha: open(alpha), beta: open(beta), value: n.score };
    visits.push(visit);
    if (!n.children.length) {
      return visit.value;
    }
    const max = n.role === "max";
    const children =
      algorithm === "alphabeta-ordered"
        ? [...n.children].sort((p, q) => (max ? q.score - p.score : p.score - q.score))
        : n.children;
    let value = max ? -Infinity : Infinity;
    for (let i = 0; i < children.length; i += 1) {
      const score = alphabeta(children[i], alpha, beta);
      value = max ? Math.max(value, score) : Math.min(value, score);
      if (max ? value >= beta : value <= alpha) {
        if (i + 1 < children.length) {
          cutoffs.push({
            node: n.id,
            after: children[i].id,
            bound: max ? "beta" : "alpha",
            value,
            alpha: open(alpha),
            beta: open(beta),
            pruned: children.slice(i + 1).map((c) => c.id),
          });
        }
        break;
      }
      if (max) {
        alpha = Math.max(alpha, value);
      } else {
        beta = Math.min(beta, value);
      }
    }
    visit.value = value;
    return value;
  };
  if (algorithm === "minimax") {
    minimax(root);
  } else {
    alphabeta(root, -Infinity, Infinity);
  }
  return { visits, cutoffs };
}

// The tree with `leaves` (nine integers) walked by `algorithm`, as /tree would answer it.
export function textbookTree(leaves, algorithm) {
  const { root, pv } = grow(leaves);
  const counts = {};
  for (const name of ["minimax", "alphabeta", "alphabeta-ordered"]) {
    const done = walk(root, name);
    counts[name] = { nodes: done.visits.length, cutoffs: done.cutoffs.length };
  }
  const { visits, cutoffs } = walk(root, algorithm);
  return {
    board: "A",
    to_move: "MAX",
    variant: "textbook",
    algorithm,
    depth: 2,
    nodes: 13,
    complete: true,
    cut_for_size: false,
    values: "utility",
    principal_variation: pv,
    root,
    visits,
    cutoffs,
    counts,
  };
}

export function textbookStatus(data) {
  const alphabeta = walk(data.root, "alphabeta");
  const rootValue = (visits) => visits[0].value;
  return W.status(
    num(data.root.score),
    num(rootValue(alphabeta.visits)),
    data.nodes,
    alphabeta.visits.length,
    alphabeta.cutoffs.length,
  );
}

// A node's name in the replay's words.
export function textbookName(node) {
  if (node.move === null) {
    return W.top;
  }
  return node.children.length ? W.inner(node.board, node.move) : W.leaf(node.move);
}

// A row's words: the node's letter and the move that led to it (a leaf: the move alone), and no value
// words (the number says it all).
export function textbookDescribe(node, parent) {
  if (!parent) {
    return { move: W.topRow, value: null };
  }
  return { move: node.children.length ? W.row(node.board, node.move) : node.move, value: null };
}
