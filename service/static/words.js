// What the page says: values, verdicts and labels in words. No DOM, no HTTP.

import { other } from "./game.js";

// A value from the mover's point of view; the remoteness counts the move itself.
export function valueWords({ result, remoteness }) {
  if (result === "win") {
    return `wins in ${remoteness}`;
  }
  if (result === "loss") {
    return `loses in ${remoteness}`;
  }
  return "draws";
}

export function statusWords(status) {
  switch (status) {
    case "x_won":
      return "X wins";
    case "o_won":
      return "O wins";
    case "draw":
      return "draw";
    default:
      return "in progress";
  }
}

// "X to move: X wins in 3 with perfect play", "O to move: draw with perfect play".
export function verdictWords(analysis) {
  const mover = analysis.to_move;
  const prefix = `${mover} to move: `;
  if (analysis.result === "win") {
    return `${prefix}${mover} wins in ${analysis.remoteness} with perfect play`;
  }
  if (analysis.result === "loss") {
    return `${prefix}${other(mover)} wins in ${analysis.remoteness} with perfect play`;
  }
  return `${prefix}draw with perfect play`;
}

export function gameOverWords(status) {
  return status === "draw" ? "Game over: draw." : `Game over: ${statusWords(status)}.`;
}

// "X→5, O→7, X→3"; cells are named as on the board (their keys when the board has keys).
export function sequenceWords(cells, firstSide, nameOf) {
  return cells
    .map((cell, index) => `${index % 2 === 0 ? firstSide : other(firstSide)}→${nameOf(cell)}`)
    .join(", ");
}

// "cell 5, row 2 column 2, empty, draws, best move".
export function cellLabel({ name, row, col, mark, value, best }) {
  const parts = [`cell ${name}`, `row ${row + 1} column ${col + 1}`, mark === "." ? "empty" : mark];
  if (value) {
    parts.push(valueWords(value));
  }
  if (best) {
    parts.push("best move");
  }
  return parts.join(", ");
}

export function countWords(count, noun) {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
