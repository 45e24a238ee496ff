// What the page says: values, verdicts and labels in words. No DOM, no HTTP.

import { COLUMN_LETTERS, other } from "./game.js";

// What the search proved of a value it did not settle: "at least a draw", "at most a draw", "not proven".
function boundWords({ lower, upper }) {
  if (lower === "draw") {
    return "at least a draw (not proven)";
  }
  if (upper === "draw") {
    return "at most a draw (not proven)";
  }
  return "not proven";
}

// " in 7", or nothing while the search has not proven how far the end is.
function inPlies(remoteness) {
  return remoteness === null || remoteness === undefined ? "" : ` in ${remoteness}`;
}

// A value from the mover's point of view; the remoteness counts the move itself.
export function valueWords({ result, remoteness, lower, upper }) {
  if (result === "unknown") {
    return boundWords({ lower, upper });
  }
  if (result === "win") {
    return `wins${inPlies(remoteness)}`;
  }
  if (result === "loss") {
    return `loses${inPlies(remoteness)}`;
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
  if (analysis.result === "unknown") {
    return `${prefix}${boundWords(analysis)}: the search did not settle it within its time`;
  }
  if (analysis.result === "win") {
    return `${prefix}${mover} wins${inPlies(analysis.remoteness)} with perfect play`;
  }
  if (analysis.result === "loss") {
    return `${prefix}${other(mover)} wins${inPlies(analysis.remoteness)} with perfect play`;
  }
  return `${prefix}draw with perfect play`;
}

// "Game over: X wins." In misère the line's maker loses, and the sentence says so.
export function gameOverWords(status, variant) {
  if (status === "draw") {
    return "Game over: draw.";
  }
  const winner = status === "x_won" ? "X" : "O";
  if (variant && variant.misere) {
    return `Game over: ${other(winner)} completed a line of ${variant.k} and so loses; ${winner} wins.`;
  }
  return `Game over: ${winner} wins.`;
}

// "X→5, O→7, X→3"; cells are named as on the board.
export function sequenceWords(cells, firstSide, nameOf) {
  return cells
    .map((cell, index) => `${index % 2 === 0 ? firstSide : other(firstSide)}→${nameOf(cell)}`)
    .join(", ");
}

// "cell 5, row 2 column 2, empty, draws, best move" on the keypad's 3x3; "cell d1, X" where the name is
// its column and row already (under gravity it counts rows from the bottom, as Connect Four's players
// do: a second count from the top said "d1, row 6"); on a box, whose names ("2b3") are short, the
// layer, row and column in words: "cell 2b3, layer 2, row 3, column b, empty"; a gravity box's last
// layer is "layer 4 (bottom)", as its heading says.
export function cellLabel({ name, layer = 0, row, col, layers = 1, bottom = false, mark, value, best }) {
  const parts = [`cell ${name}`];
  if (layers > 1) {
    const where = `layer ${layer + 1}${bottom ? " (bottom)" : ""}`;
    parts.push(where, `row ${row + 1}`, `column ${COLUMN_LETTERS[col]}`);
  } else if (/^\d+$/.test(name)) {
    parts.push(`row ${row + 1} column ${col + 1}`);
  }
  parts.push(mark === "." ? "empty" : mark);
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

// ---------------------------------------------------------------- the review's verdicts

// The verdict's name, phrased for the side that played it: keeping a win but slower, or a loss but
// sooner, are both "slower" in the API.
export function verdictName({ verdict, played }) {
  if (verdict === "slower") {
    return played.result === "loss" ? "faster loss" : "slower win";
  }
  return verdict === "unknown" ? "not judged" : verdict;
}

export const VERDICT_LEGEND = [
  ["best", "kept the exact value: the fastest win, a draw, or the slowest loss."],
  ["slower win", "still wins, but gives the opponent more moves than needed."],
  ["faster loss", "still loses, but sooner than it had to."],
  ["mistake", "threw away a win for a draw, or a draw for a loss."],
  ["blunder", "turned a win into a loss."],
  ["not judged", "the search did not prove enough, within its time, to tell."],
];

// A position's value as the end of a sentence about it: "wins in 5", "draws", "is at least a draw (not
// proven)".
function standsWords(value) {
  return value.result === "unknown" ? `is ${boundWords(value)}` : valueWords(value);
}

// What a ply did, next to its verdict: "wins in 5", or what the best moves would have given. A verdict
// found from bounds alone (a searched game) names no best move: none was proven.
export function reviewDetail(ply, nameOf) {
  const played = valueWords(ply.played);
  if (ply.verdict === "best") {
    return played;
  }
  if (ply.verdict === "unknown") {
    return played; // "not proven", or its bounds: the verdict beside it says the rest
  }
  const best = ply.best_moves.map(nameOf).join(", ");
  if (ply.verdict === "slower") {
    const [now, then] = [ply.played.remoteness, ply.before.remoteness];
    const how = ply.played.result === "win" ? `wins in ${now}, not ${then}` : `loses in ${now}, not ${then}`;
    return `${how}; best: ${best}`;
  }
  const before = standsWords(ply.before);
  const instead = best ? `best was ${best}, which ${before}` : `the position before it ${before}`;
  return `${played}; ${instead}`;
}

// The value after a ply from the side that played it, in absolute words: "X wins, 3 plies to go".
export function afterPlyWords({ player, played }) {
  if (played.result === "unknown") {
    return boundWords(played); // "at least a draw (not proven)", or "not proven"
  }
  const outcome =
    played.result === "draw" ? "draw" : `${played.result === "win" ? player : other(player)} wins`;
  if (played.remoteness === null) {
    return `${outcome}, its distance not proven`;
  }
  const left = played.remoteness - 1;
  if (left === 0) {
    return `${outcome}, game over`;
  }
  return `${outcome} with perfect play, ${countWords(left, "move")} to the end`;
}

// "X: 5 best, 1 slower, 0 mistakes, 1 blunder, 2 not judged", from the plies themselves (the last only
// when a search left some unjudged).
export function summaryWords(plies) {
  return ["X", "O"]
    .map((side) => {
      const mine = plies.filter((ply) => ply.player === side);
      if (mine.length === 0) {
        return "";
      }
      const count = (verdict) => mine.filter((ply) => ply.verdict === verdict).length;
      const parts = [`${count("best")} best`, `${count("slower")} slower`];
      parts.push(countWords(count("mistake"), "mistake"), countWords(count("blunder"), "blunder"));
      if (count("unknown") > 0) {
        parts.push(`${count("unknown")} not judged`);
      }
      return `${side}: ${parts.join(", ")}`;
    })
    .filter(Boolean)
    .join(" · ");
}
