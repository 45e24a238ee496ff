// The verdict bar beside the board, as analysis boards have it: the result for the side to move and its
// distance ("X wins in 7"), and on a gravity board Pons's score too. On a searched board it says only
// what is proven ("at least a draw", "unknown"): a guess is never a verdict. The bar is a polite live
// region, and its words say the result: the colour only repeats them.

import { $, setData, setText } from "./dom.js";
import { other } from "./game.js";
import { ponsScore } from "./rack.js";
import { gridOf, isRack } from "./shape.js";
import { board, currentAnalysis, state, variant } from "./state.js";
import { statusWords } from "./words.js";
import { t } from "./i18n.js";

const MARKS = /[XO]/g;

function signed(score) {
  return score > 0 ? `+${score}` : score < 0 ? `−${-score}` : "0";
}

// { kind, words } for the analysis of the position shown: kind is the mover's result (win, draw, loss),
// bound (only a bound is proven), unknown, or over.
export function verdictBarWords(analysis, facts) {
  const mover = analysis.to_move;
  if (analysis.status !== "in_progress") {
    return { kind: "over", words: t("barOver", { outcome: statusWords(analysis.status) }) };
  }
  const far = Number.isInteger(analysis.remoteness) ? analysis.remoteness : null;
  let words;
  let kind = analysis.result;
  if (analysis.result === "unknown") {
    const [atLeast, atMost] = [analysis.lower === "draw", analysis.upper === "draw"];
    kind = atLeast || atMost ? "bound" : "unknown";
    words = t(atLeast ? "barAtLeastDraw" : atMost ? "barAtMostDraw" : "barUnknown", { mover });
  } else if (analysis.result === "draw") {
    words = t("barDraw", { mover });
  } else {
    const winner = analysis.result === "win" ? mover : other(mover);
    words = far === null ? t("barWins", { mover, winner }) : t("barWinsIn", { mover, winner, n: far });
  }
  if (isRack(gridOf(facts)) && analysis.result !== "unknown") {
    const marks = (board().match(MARKS) || []).length;
    const score = ponsScore(analysis, marks, facts.cells);
    if (score !== null) {
      words = `${words}${t("sentenceGap")}${t("barScore", { score: signed(score) })}`;
    }
  }
  return { kind, words };
}

export function renderVerdictBar() {
  const bar = $("verdict-bar");
  const analysis = currentAnalysis();
  const facts = variant();
  if (!analysis || !facts || state.editor !== null) {
    setData(bar, "kind", "waiting");
    setText($("verdict-bar-words"), analysis || state.editor !== null ? "" : t("barWaiting"));
    return;
  }
  const { kind, words } = verdictBarWords(analysis, facts);
  setData(bar, "kind", kind);
  setText($("verdict-bar-words"), words);
}
