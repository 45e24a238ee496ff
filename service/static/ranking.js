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

const SHOWN = 12; // past this the list says how many more there are: a board of 64 cells has 64 moves

const settled = (move) => move.result !== "unknown";

function row(move, best) {
  // A win or a loss says its distance ("wins in 7"); a draw's is said beside it.
  const drawn = move.result === "draw" && Number.isInteger(move.remoteness);
  const plies = drawn ? `(${move.remoteness} plies)` : "";
  return make(
    "li",
    { data: { cell: String(move.cell), result: move.result } },
    make("span", { className: "ranked-cell", text: cellName(move.cell) }),
    " ",
    make("span", { className: `tag ${move.result}`, text: valueWords(move) }),
    plies ? make("span", { className: "ranked-plies note", text: ` ${plies}` }) : "",
    best ? make("span", { className: "tag best", text: "★ best" }) : "",
  );
}

// A guess's row: the plies it was read to are said once for all (scaleWords), here only where they
// differ (a game that ends sooner).
function guessRow(move, depth) {
  const bound = valueWords(move); // "at least a draw (not proven)" or "not proven"
  const estimate = move.estimate;
  const plies = estimate && estimate.depth !== depth ? `, ${estimate.depth} plies ahead` : "";
  const guess = estimate ? `guess ${signedScore(estimate.score)}${plies}` : "no guess (no time left)";
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
  setText($("ranked-more"), hidden > 0 ? `… and ${hidden} more, ranked lower.` : "");
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
    return "The search had no time left for guesses.";
  }
  const ahead = `${depth} plies`;
  const [own, theirs] = misere ? ["minus", "plus"] : ["plus", "minus"];
  return (
    `Each guess is a score for ${mover}, who plays the move, read ${ahead} ahead (counting the move): ` +
    `every line that only one side has marks on counts 4 to the power of its marks, ${own} for ` +
    `${mover}'s lines and ${theirs} for the opponent's. Higher is better for ${mover}. Guesses prove ` +
    "nothing: the search found no result for these moves."
  );
}

function renderUnsettled(analysis, moves) {
  const open = moves.filter((move) => !settled(move)).sort((a, b) => a.cell - b.cell);
  $("unsettled").hidden = open.length === 0;
  if (open.length === 0) {
    return;
  }
  const names = open.map((move) => cellName(move.cell));
  const listed = names.length > SHOWN ? `${names.slice(0, SHOWN).join(", ")}, …` : names.join(", ");
  const words =
    open.length === moves.length
      ? "Nothing proven here; shallow guesses only."
      : `${countWords(open.length, "move")} the search did not settle: ${listed}. They are not ranked.`;
  setText($("unsettled-words"), words);
  const depth = commonDepth(open);
  setText($("guesses-scale"), scaleWords(analysis.to_move, depth, variant().misere));
  $("guessed").replaceChildren(...open.map((move) => guessRow(move, depth)));
}

export function renderRanking() {
  const analysis = currentAnalysis();
  const moves = analysis && analysis.status === "in_progress" ? analysis.moves : [];
  const key = analysis ? `${analysis.variant} ${analysis.board} ${analysis.to_move} ${state.guesses}` : "";
  const list = $("ranked");
  if (list.dataset.key === key) {
    return;
  }
  list.dataset.key = key;
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
