// Under the board, what the service's answer is: while a searched board (5×5 and up, Connect Four) waits
// for the search, a progress bar (the search takes up to its budget, about a second); then the answer's
// source (table, cache, book or search) and whether every value in it is proven. One line of a fixed
// height, so that the page below it never moves.

import { $, setText } from "./dom.js";
import { currentAnalysis, state, variant } from "./state.js";
import { countWords } from "./words.js";
import { foreign, t } from "./i18n.js";


function searching() {
  const facts = variant();
  return Boolean(facts && facts.source === "search" && state.busy && !state.error && !state.editor);
}

export function answerWords(analysis) {
  const known = ["table", "cache", "book", "search"].includes(analysis.source);
  const from = known ? t(`source-${analysis.source}`) : foreign(analysis.source);
  if (analysis.exact) {
    return t("exactFrom", { from });
  }
  const unsettled = analysis.moves.filter((move) => move.result === "unknown").length;
  const far = analysis.moves.some((move) => move.result !== "unknown" && move.remoteness === null);
  const parts = [
    unsettled ? t("movesNotSettled", { moves: countWords(unsettled, "nMoves") }) : "",
    far ? t("someDistancesUnproven") : "",
  ];
  return t("notExactFrom", { from, why: parts.filter(Boolean).join(t("clauseGap")) || t("notEveryValue") });
}

export function renderAnswer() {
  const busy = searching();
  $("search-progress").hidden = !busy;
  const analysis = currentAnalysis();
  const box = $("answer-note");
  box.dataset.source = busy || !analysis ? "" : analysis.source;
  box.dataset.exact = busy || !analysis ? "" : String(analysis.exact);
  let words = "";
  if (busy) {
    words = t(analysis ? "computerSearching" : "searchingPosition");
  } else if (analysis && analysis.status === "in_progress") {
    words = answerWords(analysis);
  }
  setText($("answer-words"), words);
}
