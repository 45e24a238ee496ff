// The moves ranked, beside the board: every legal move of the position shown, best first as the service
// ranks them, each with its value and the plies to the end, as an engine lists its lines. A move the
// search did not settle says so, with its estimate and depth when the service gave one.

import { $, make, setText } from "./dom.js";
import { estimateWords } from "./overlay.js";
import { cellName, currentAnalysis } from "./state.js";
import { valueWords } from "./words.js";

const SHOWN = 12; // past this the list says how many more there are: a board of 64 cells has 64 moves

function tagOf(move) {
  return move.result === "unknown" ? "estimate" : move.result;
}

function row(move, best) {
  const words = [valueWords(move), estimateWords(move)].filter(Boolean).join(", ");
  // A win or a loss says its distance ("wins in 7"); a draw's is said beside it.
  const drawn = move.result === "draw" && Number.isInteger(move.remoteness);
  const plies = drawn ? `(${move.remoteness} plies)` : "";
  return make(
    "li",
    { data: { cell: String(move.cell), result: move.result } },
    make("span", { className: "ranked-cell", text: cellName(move.cell) }),
    " ",
    make("span", { className: `tag ${tagOf(move)}`, text: words }),
    plies ? make("span", { className: "ranked-plies note", text: ` ${plies}` }) : "",
    best ? make("span", { className: "tag best", text: "★ best" }) : "",
  );
}

export function renderRanking() {
  const list = $("ranked");
  const more = $("ranked-more");
  const analysis = currentAnalysis();
  const moves = analysis && analysis.status === "in_progress" ? analysis.moves : [];
  const key = analysis ? `${analysis.variant} ${analysis.board} ${analysis.to_move}` : "";
  $("ranking").hidden = moves.length === 0;
  if (list.dataset.key === key) {
    return;
  }
  list.dataset.key = key;
  const best = new Set(analysis ? analysis.best_moves : []);
  list.replaceChildren(...moves.slice(0, SHOWN).map((move) => row(move, best.has(move.cell))));
  const hidden = moves.length - SHOWN;
  more.hidden = hidden <= 0;
  setText(more, hidden > 0 ? `… and ${hidden} more, ranked lower.` : "");
}
