// What the page says: values, verdicts and labels in words (from the strings tables, i18n.js). No DOM,
// no HTTP.

import { COLUMN_LETTERS, other } from "./game.js";
import { t } from "./i18n.js";

// What the search proved of a value it did not settle: "at least a draw", "at most a draw", "not proven".
function boundWords({ lower, upper }) {
  if (lower === "draw") {
    return t("atLeastDraw");
  }
  if (upper === "draw") {
    return t("atMostDraw");
  }
  return t("notProven");
}

const proven = (remoteness) => remoteness !== null && remoteness !== undefined;

// A value from the mover's point of view; the remoteness counts the move itself: "wins in 7", "draws".
export function valueWords({ result, remoteness, lower, upper }) {
  if (result === "unknown") {
    return boundWords({ lower, upper });
  }
  if (result === "win") {
    return proven(remoteness) ? t("winsIn", { n: remoteness }) : t("wins");
  }
  if (result === "loss") {
    return proven(remoteness) ? t("losesIn", { n: remoteness }) : t("loses");
  }
  return t("draws");
}

export function statusWords(status) {
  switch (status) {
    case "x_won":
      return t("sideWins", { side: "X" });
    case "o_won":
      return t("sideWins", { side: "O" });
    case "draw":
      return t("draw");
    default:
      return t("inProgress");
  }
}

// "X to move: X wins in 3 with perfect play", "O to move: draw with perfect play".
export function verdictWords(analysis) {
  const mover = analysis.to_move;
  const far = proven(analysis.remoteness) ? analysis.remoteness : null;
  if (analysis.result === "unknown") {
    return t("verdictUnsettled", { mover, bound: boundWords(analysis) });
  }
  if (analysis.result === "draw") {
    return t("verdictDraw", { mover });
  }
  const winner = analysis.result === "win" ? mover : other(mover);
  return t("verdictWin", { mover, winner, n: far });
}

// "Game over: X wins." In misère the line's maker loses, and the sentence says so.
export function gameOverWords(status, variant) {
  if (status === "draw") {
    return t("gameOverDraw");
  }
  const winner = status === "x_won" ? "X" : "O";
  if (variant && variant.misere) {
    return t("gameOverMisere", { loser: other(winner), k: variant.k, winner });
  }
  return t("gameOverWin", { winner });
}

// "X→5, O→7, X→3"; cells are named as on the board.
export function sequenceWords(cells, firstSide, nameOf) {
  return cells
    .map((cell, index) => `${index % 2 === 0 ? firstSide : other(firstSide)}→${nameOf(cell)}`)
    .join(t("listGap"));
}

// A cell's label: first the words the cell shows, in the order it shows them (its name, its mark, its
// value as written on it, ★ and "best"), so that what is seen is what a voice control user says
// (WCAG 2.5.3, label in name); then what the cell does not show: "empty", the value in full words
// where the cell shows short ones, where the cell is. On the keypad's 3x3 the name is the key, and the
// row and column follow: "cell 5, draws, ★ best, empty, row 2 column 2"; under gravity rows count
// from the bottom (the name says it); on a box, whose names ("2b3") are short, the layer, row and
// column in words; a gravity box's last layer is "layer 4 (bottom)", as its heading says.
export function cellLabel(where) {
  const { name, layer = 0, row, col, layers = 1, bottom = false } = where;
  const { mark, value, shown, best, star = "", plan } = where;
  const seen = [name];
  if (mark !== ".") {
    seen.push(mark);
  }
  const full = value ? valueWords(value) : "";
  if (shown) {
    seen.push(shown);
  }
  if (star) {
    seen.push(star);
  }
  if (plan) {
    seen.push(plan); // the main line's number on the cell, then what it is: "1 (main line move 1)"
  }
  const parts = [t("cellName", { seen: seen.join(t("listGap")) })];
  if (mark === ".") {
    parts.push(t("empty"));
  }
  if (full && full !== shown) {
    parts.push(full);
  }
  if (best && !star.includes(t("bestWord"))) {
    parts.push(t("bestMove"));
  }
  if (layers > 1) {
    const where = bottom ? t("layerBottom", { n: layer + 1 }) : t("layerN", { n: layer + 1 });
    parts.push(where, t("rowN", { n: row + 1 }), t("columnL", { letter: COLUMN_LETTERS[col] }));
  } else if (/^\d+$/.test(name)) {
    parts.push(t("rowColumn", { row: row + 1, col: col + 1 }));
  }
  return parts.join(t("listGap"));
}

// "1 move", "2 moves"; "1手", "2手". `noun` is a key of the tables' counted nouns.
export function countWords(count, noun) {
  return t(noun, { n: count });
}

// ---------------------------------------------------------------- the review's verdicts

// The verdict's kind, phrased for the side that played it: keeping a win but slower, or a loss but
// sooner, are both "slower" in the API. The kind names a CSS class and a key of the tables.
export function verdictKind({ verdict, played }) {
  if (verdict === "slower") {
    return played.result === "loss" ? "faster-loss" : "slower-win";
  }
  return verdict === "unknown" ? "not-judged" : verdict;
}

export function verdictName(ply) {
  return t(`verdict-${verdictKind(ply)}`);
}

// The legend's kinds, in order; their names and meanings are in the tables.
export const VERDICT_KINDS = ["best", "slower-win", "faster-loss", "mistake", "blunder", "not-judged"];

// A position's value as the end of a sentence about it: "wins in 5", "draws", "is at least a draw (not
// proven)".
function standsWords(value) {
  return value.result === "unknown" ? t("isBound", { bound: boundWords(value) }) : valueWords(value);
}

// What a ply did, next to its verdict: "wins in 5", or what the best moves would have given. A verdict
// found from bounds alone (a searched game) names no best move: none was proven.
export function reviewDetail(ply, nameOf) {
  const played = valueWords(ply.played);
  if (ply.verdict === "best" || ply.verdict === "unknown") {
    return played; // for "unknown", "not proven" or its bounds: the verdict beside it says the rest
  }
  const best = ply.best_moves.map(nameOf).join(t("listGap"));
  if (ply.verdict === "slower") {
    const [now, then] = [ply.played.remoteness, ply.before.remoteness];
    const key = ply.played.result === "win" ? "slowerWinDetail" : "fasterLossDetail";
    return t(key, { now, then, best });
  }
  const before = standsWords(ply.before);
  return best ? t("bestWasDetail", { played, best, before }) : t("beforeDetail", { played, before });
}

// The value after a ply from the side that played it, in absolute words: "X wins, 3 moves to the end".
export function afterPlyWords({ player, played }) {
  if (played.result === "unknown") {
    return boundWords(played); // "at least a draw (not proven)", or "not proven"
  }
  const winner = played.result === "win" ? player : other(player);
  const outcome = played.result === "draw" ? t("draw") : t("sideWins", { side: winner });
  if (played.remoteness === null) {
    return t("afterUnproven", { outcome });
  }
  const left = played.remoteness - 1;
  if (left === 0) {
    return t("afterOver", { outcome });
  }
  return t("afterLeft", { outcome, left: countWords(left, "nMoves") });
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
      const parts = [t("nBest", { n: count("best") }), t("nSlower", { n: count("slower") })];
      parts.push(t("nMistakes", { n: count("mistake") }), t("nBlunders", { n: count("blunder") }));
      if (count("unknown") > 0) {
        parts.push(t("nNotJudged", { n: count("unknown") }));
      }
      return t("summarySide", { side, parts: parts.join(t("listGap")) });
    })
    .filter(Boolean)
    .join(" · ");
}
