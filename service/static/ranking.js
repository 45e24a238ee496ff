// Beside the board, the moves of the position shown, in two lists that never mix:
// - the moves whose result is proven, ranked best first as the service ranks them, each with its value
//   and the plies to the end, as an engine lists its lines;
// - the moves the search did not settle within its time, apart, under a heading that says so, in the
//   board's order (not a ranking), with what was proven of them ("at least a draw"). Their estimates,
//   shallow guesses, wait behind a toggle, with their scale and the side they are for; where nothing
//   at all is proven (7×7 and 8×8 five in a row, early) the page says so in as many words.

import { $, make, setText } from "./dom.js";
import { signedScore } from "./overlay.js";
import { cellName, currentAnalysis, render, state, variant } from "./state.js";
import { countWords, valueWords } from "./words.js";
import { language, t } from "./i18n.js";

const SHOWN = 12; // past this the list says how many more there are: a board of 64 cells has 64 moves

const settled = (move) => move.result !== "unknown";

function row(move, best) {
  // A win or a loss says its distance ("wins in 7"); a draw's is said beside it.
  const drawn = move.result === "draw" && Number.isInteger(move.remoteness);
  const plies = drawn ? t("inParentheses", { words: countWords(move.remoteness, "nPlies") }) : "";
  return make(
    "li",
    { data: { cell: String(move.cell), result: move.result } },
    make("span", { className: "ranked-cell", text: cellName(move.cell) }),
    " ",
    make("span", { className: `tag ${move.result}`, text: valueWords(move) }),
    plies ? make("span", { className: "ranked-plies note", text: ` ${plies}` }) : "",
    best ? make("span", { className: "tag best", text: t("starBest") }) : "",
  );
}

// A guess's row: the plies it was read to are said once for all (scaleWords), here only where they
// differ (a game that ends sooner).
function guessRow(move, depth) {
  const bound = valueWords(move); // "at least a draw (not proven)" or "not proven"
  const estimate = move.estimate;
  const score = estimate ? signedScore(estimate.score) : "";
  const ahead = estimate && estimate.depth !== depth;
  const guess = estimate ? t(ahead ? "guessAhead" : "guess", { score, n: estimate.depth }) : t("noGuess");
  return make(
    "li",
    { data: { cell: String(move.cell) } },
    make("span", { className: "ranked-cell", text: cellName(move.cell) }),
    " ",
    make("span", { className: "tag estimate", text: bound }),
    " ",
    make("span", { className: "guess", text: guess }),
  );
}

function renderProven(analysis, moves) {
  const list = $("ranked");
  const proven = moves.filter(settled);
  $("ranking").hidden = proven.length === 0;
  const best = new Set(analysis ? analysis.best_moves : []);
  list.replaceChildren(...proven.slice(0, SHOWN).map((move) => row(move, best.has(move.cell))));
  const hidden = proven.length - SHOWN;
  $("ranked-more").hidden = hidden <= 0;
  setText($("ranked-more"), hidden > 0 ? t("rankedMore", { n: hidden }) : "");
}

// The plies the guesses were read to: one depth for all, but for a game that ends sooner.
function commonDepth(open) {
  const depths = open.map((move) => move.estimate?.depth).filter(Number.isInteger);
  return depths.length > 0 ? Math.max(...depths) : null;
}

// How to read a guess: its side, its scale, its depth. Under misère a line of one's own is a liability
// (completing one loses), so the signs turn, as the core's evaluation turns them.
function scaleWords(mover, depth, misere) {
  if (depth === null) {
    return t("noTimeForGuesses");
  }
  const [own, theirs] = misere ? [t("minus"), t("plus")] : [t("plus"), t("minus")];
  return t("guessScale", { mover, plies: countWords(depth, "nPlies"), own, theirs });
}

function renderUnsettled(analysis, moves) {
  const open = moves.filter((move) => !settled(move)).sort((a, b) => a.cell - b.cell);
  $("unsettled").hidden = open.length === 0;
  if (open.length === 0) {
    return;
  }
  const names = open.map((move) => cellName(move.cell));
  const gap = t("listGap");
  const listed = names.length > SHOWN ? `${names.slice(0, SHOWN).join(gap)}${gap}…` : names.join(gap);
  const words =
    open.length === moves.length
      ? t("nothingProven")
      : t("notSettledList", { moves: countWords(open.length, "nMoves"), listed });
  setText($("unsettled-words"), words);
  const depth = commonDepth(open);
  setText($("guesses-scale"), scaleWords(analysis.to_move, depth, variant().misere));
  $("guessed").replaceChildren(...open.map((move) => guessRow(move, depth)));
}

export function renderRanking() {
  const analysis = currentAnalysis();
  const moves = analysis && analysis.status === "in_progress" ? analysis.moves : [];
  const key = analysis ? `${analysis.variant} ${analysis.board} ${analysis.to_move} ${state.guesses}` : "";
  const keyed = `${key} ${language()}`;
  const list = $("ranked");
  if (list.dataset.key === keyed) {
    return;
  }
  list.dataset.key = keyed;
  renderProven(analysis, moves);
  if (moves.length === 0) {
    $("unsettled").hidden = true;
    return;
  }
  renderUnsettled(analysis, moves);
  $("guesses").open = state.guesses;
}

// The toggle shows the guesses here and on the board's cells alike.
export function bindGuesses() {
  $("guesses").addEventListener("toggle", () => {
    if (state.guesses !== $("guesses").open) {
      state.guesses = $("guesses").open;
      render();
    }
  });
}
