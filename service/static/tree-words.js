// The game tree's words: a node's move, position and value, for the tree view and the replay. `facts` is
// the board variant's, or null for a game that is not a board (Eight). No DOM, no HTTP.

import { cellNameOf, other, withRows } from "./game.js";
import { gridOf } from "./shape.js";

function moveName(move, facts) {
  if (facts === null) {
    return `picks ${move}`;
  }
  return cellNameOf(move, gridOf(facts));
}

// A position in words: Eight's total and last pick, a board's rows.
function positionName(node, facts) {
  if (facts === null) {
    const [total, last] = node.board.split(":");
    return `total ${total}${last === "0" ? "" : ` after a ${last}`}`;
  }
  return withRows(node.board, gridOf(facts).cols);
}

export function nodeName(node, facts) {
  return node.move === null
    ? `the top (${positionName(node, facts)})`
    : `${positionName(node, facts)} (after ${moveName(node.move, facts)})`;
}

function valueWords(node, side) {
  if (node.result === null) {
    return node.leaf === "evaluation" ? `evaluated ${node.score}` : `minimax ${node.score} over evaluations`;
  }
  if (node.result === "draw") {
    return node.remoteness === 0 ? "drawn" : "draw";
  }
  const winner = node.result === "win" ? side : other(side);
  return node.remoteness === 0 ? `${winner} has won` : `${winner} wins in ${node.remoteness}`;
}

// An item's words: the move that led to it (who played where) and its value for the side at the top.
export function describe(node, parent, side, facts) {
  const move = parent
    ? `${parent.to_move} ${moveName(node.move, facts)}`
    : `${positionName(node, facts)}, ${node.to_move} to move`;
  return { move, value: valueWords(node, side) };
}
