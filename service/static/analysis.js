// The analysis panel: the verdict of the position with perfect play, and on request its main line.
// (The values on the board's cells are drawn by board.js.)

import * as api from "./api.js";
import { $, setText } from "./dom.js";
import { cellName, currentAnalysis, loadPanel, state } from "./state.js";
import { gameOverWords, sequenceWords, statusWords, verdictWords } from "./words.js";

export async function showMainline() {
  const analysis = currentAnalysis();
  if (!analysis || analysis.status !== "in_progress") {
    return;
  }
  await loadPanel("mainline", state.generation, async () => {
    const data = await api.analyze({
      board: analysis.board,
      toMove: analysis.to_move,
      variant: analysis.variant,
      mainline: true,
    });
    if (!data.mainline || !Array.isArray(data.mainline.cells)) {
      throw new Error("the answer has no main line");
    }
    return { from: analysis.to_move, ...data.mainline };
  });
}

export function renderAnalysis() {
  $("analysis").hidden = !state.overlay;
  if (!state.overlay) {
    return;
  }
  const analysis = currentAnalysis();
  let verdict = "Analysing…";
  if (analysis) {
    verdict = analysis.status === "in_progress" ? verdictWords(analysis) : gameOverWords(analysis.status);
  }
  setText($("verdict"), verdict);
  $("mainline-button").disabled =
    !analysis || analysis.status !== "in_progress" || state.mainline?.state === "loading";
  renderMainline();
}

function renderMainline() {
  const box = $("mainline");
  const line = state.mainline;
  box.hidden = !line;
  if (!line) {
    return;
  }
  box.dataset.state = line.state;
  if (line.state === "loading") {
    setText(box, "Finding the main line…");
  } else if (line.state === "error") {
    setText(box, `No main line: ${line.message}`);
  } else {
    box.dataset.cells = line.cells.join(",");
    box.dataset.status = line.status;
    const moves = sequenceWords(line.cells, line.from, cellName);
    setText(box, `Main line: ${moves} — ${statusWords(line.status)}.`);
  }
}
