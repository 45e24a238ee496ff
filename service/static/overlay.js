// What the overlay puts on the board's cells: each move's value and strength and the best moves, from the
// current analysis. Shown on a human's turn, and at the computer's turn too while stepping back through
// the game (a review): there the values explain the computer's choice, and they are nobody's hint.

import { t } from "./i18n.js";
import { atEnd, currentAnalysis, state, toMove, vsComputer } from "./state.js";

export function overlayValues() {
  const analysis = currentAnalysis();
  const mode = state.settings.overlay;
  const humansTurn = !vsComputer() || toMove() === state.settings.human;
  if (mode === "off" || !(humansTurn || !atEnd()) || !analysis || analysis.status !== "in_progress") {
    return null;
  }
  return {
    mode,
    moves: new Map(
      analysis.moves.map((move) => [move.cell, { ...move, strength: strength(move, analysis) }]),
    ),
    best: new Set(analysis.best_moves),
  };
}

const proven = (move) => move.remoteness !== null && move.remoteness !== undefined;

// 3 for the fastest win or the slowest loss among the moves with that result, down to 1 for the slowest
// win or the fastest loss; draws are all alike, and so are moves whose remoteness is not proven.
function strength(move, analysis) {
  if (!proven(move)) {
    return 2;
  }
  const alike = analysis.moves.filter((m) => m.result === move.result && proven(m)).map((m) => m.remoteness);
  const [low, high] = [Math.min(...alike), Math.max(...alike)];
  if (move.result === "draw" || low === high) {
    return 3;
  }
  const goodness = move.result === "win" ? high - move.remoteness : move.remoteness - low;
  return 1 + Math.round((2 * goodness) / (high - low));
}

// A move the search did not settle: its estimate, when the service gave one, is a guess read some plies
// ahead and never a result, so it is said as such ("guess +3, 8 plies ahead"), and only while the
// guesses are shown (they are behind a toggle: see ranking.js).
export function estimateWords(move) {
  const estimate = move.estimate;
  if (!state.guesses || !estimate || typeof estimate.score !== "number") {
    return "";
  }
  const score = signedScore(estimate.score);
  const ahead = Number.isInteger(estimate.depth);
  return ahead ? t("guessAhead", { score, n: estimate.depth }) : t("guess", { score });
}

export function signedScore(score) {
  return score > 0 ? `+${score}` : score < 0 ? `−${-score}` : "0";
}

// The short words on a small cell (six columns or more), where "wins in 7" would not fit: "win 7",
// "draw", "loss 7"; for a move the search did not settle "≥draw" or "≤draw" (its bound), else its
// estimate ("≈+40") while the guesses are shown, or "?".
export function shortValueWords(move) {
  return shortWords(move, "short");
}

// `size` "short" ("win 7", "≥draw") or "tiny" ("W7", "≥D"): the tables have both.
function shortWords({ result, remoteness, lower, upper, estimate }, size) {
  if (result === "unknown") {
    if (lower === "draw" || upper === "draw") {
      return t(lower === "draw" ? `${size}AtLeastDraw` : `${size}AtMostDraw`);
    }
    const score = state.guesses && estimate && typeof estimate.score === "number" ? estimate.score : null;
    return score === null ? "?" : `≈${signedScore(score)}`;
  }
  if (result === "draw") {
    return t(`${size}Draw`);
  }
  const key = `${size}${result === "win" ? "Win" : "Loss"}`;
  return proven({ remoteness }) ? t(`${key}In`, { n: remoteness }) : t(key);
}

// The tiniest words, on the cells of a board past nine cells across or down (15×15) and of a box:
// a letter and the distance ("W7", "D", "L7"), a bound ("≥D", "≤D"), "?", or only the sign
// of a guess ("≈+") while the guesses are shown, its number in the cell's label and the guesses' list.
export function tinyValueWords(move) {
  const words = shortWords(move, "tiny");
  return words.startsWith("≈") ? words.slice(0, 2) : words; // a guess: "≈+", "≈−" or "≈0"
}
