// The game tree's words: a node's move, position, role and value, for the tree view and the replay.
// `facts` is the board variant's, or null for a game that is not a board (Eight). No DOM, no HTTP.

import { cellNameOf, other, withRows } from "./game.js";
import { gridOf } from "./shape.js";
import { localized } from "./i18n.js";

// Every word the tree's rows say, in one place so that it can be translated (strings-ja.js, treeWords).
export const TREE_WORDS = localized({
  picks: (move) => `picks ${move}`,
  total: (total, last) => `total ${total}${last === "0" ? "" : ` after a ${last}`}`,
  top: (position) => `the top (${position})`,
  after: (position, move) => `${position} (after ${move})`,
  toMove: (position, side) => `${position}, ${side} to move`,
  played: (side, move) => `${side} ${move}`,
  evaluated: (score) => `evaluated ${score}`,
  overEvaluations: (score) => `minimax ${score} over evaluations`,
  drawn: "drawn",
  draw: "draw",
  hasWon: (side) => `${side} has won`,
  winsIn: (side, n) => `${side} wins in ${n}`,
  role: { max: "MAX", min: "MIN" },
  roleSpoken: { max: "MAX node", min: "MIN node" },
  roleTitle: {
    max: "MAX: the side to move at the top moves here, and takes the largest value",
    min: "MIN: the other side moves here, and takes the smallest value",
  },
}, "treeWords");

const T = TREE_WORDS;

function moveName(move, facts) {
  if (facts === null) {
    return T.picks(move);
  }
  return cellNameOf(move, gridOf(facts));
}

// A position in words: Eight's total and last pick, a board's rows.
function positionName(node, facts) {
  if (facts === null) {
    const [total, last] = node.board.split(":");
    return T.total(total, last);
  }
  return withRows(node.board, gridOf(facts).cols);
}

export function nodeName(node, facts) {
  return node.move === null
    ? T.top(positionName(node, facts))
    : T.after(positionName(node, facts), moveName(node.move, facts));
}

function valueWords(node, side) {
  if (node.result === null) {
    return node.leaf === "evaluation" ? T.evaluated(node.score) : T.overEvaluations(node.score);
  }
  if (node.result === "draw") {
    return node.remoteness === 0 ? T.drawn : T.draw;
  }
  const winner = node.result === "win" ? side : other(side);
  return node.remoteness === 0 ? T.hasWon(winner) : T.winsIn(winner, node.remoteness);
}

// An item's words: the move that led to it (who played where) and its exact value for the side at the
// top, in words (shown only once the walk has returned it exactly).
export function describe(node, parent, side, facts) {
  const move = parent
    ? T.played(parent.to_move, moveName(node.move, facts))
    : T.toMove(positionName(node, facts), node.to_move);
  return { move, value: valueWords(node, side) };
}
