// The analysis panel: the verdict of the position with perfect play and, on request, its main line, in
// words and drawn on the board. (The values on the board's cells are drawn by board.js.) Where the
// answer proves a win by continuous fours but no distance (15×15 within a request's time), that line is
// the one shown and stepped (certificate.js).

import * as api from "./api.js";
import { $, setText } from "./dom.js";
import { foursLine } from "./certificate.js";
import { cellName, currentAnalysis, loadPanel, render, state, variant } from "./state.js";
import { gameOverWords, sequenceWords, statusWords, verdictWords } from "./words.js";
import { t } from "./i18n.js";

// The first press fetches the main line and draws it; later presses hide and show it again.
export async function toggleMainline() {
  const analysis = currentAnalysis();
  if (state.mainline && state.mainline.state === "ready") {
    state.mainline.shown = !state.mainline.shown;
    render();
    return;
  }
  if (!analysis || analysis.status !== "in_progress") {
    return;
  }
  const fours = foursLine(analysis);
  if (fours && !provenDistance(analysis)) {
    state.mainline = { state: "ready", shown: true, ...fours };
    render();
    return;
  }
  const generation = state.generation;
  await loadPanel(
    "mainline",
    () => generation === state.generation,
    async () => {
      const data = await api.analyze({
        board: analysis.board,
        toMove: analysis.to_move,
        variant: analysis.variant,
        mainline: true,
      });
      if (!data.mainline || !Array.isArray(data.mainline.cells)) {
        throw new Error(t("noMainlineInAnswer"));
      }
      return { from: analysis.to_move, ...data.mainline };
    },
    { shown: true },
  );
}

export function renderAnalysis() {
  const shown = state.settings.overlay === "values" && state.editor === null;
  $("analysis").hidden = !shown;
  if (!shown) {
    return;
  }
  const analysis = currentAnalysis();
  let verdict = t("analysing");
  if (analysis) {
    verdict =
      analysis.status === "in_progress" ? verdictWords(analysis) : gameOverWords(analysis.status, variant());
  }
  setText($("verdict"), verdict);
  const line = state.mainline;
  const button = $("mainline-button");
  const proven = analysis && analysis.status === "in_progress" && provenDistance(analysis);
  const fours = proven ? null : foursLine(analysis);
  const ready = line?.state === "ready";
  button.disabled = !(proven || fours || ready) || line?.state === "loading";
  const pressed = Boolean(ready && line.shown);
  button.setAttribute("aria-pressed", String(pressed));
  const ofFours = ready ? Boolean(line.fours) : Boolean(fours);
  const [hide, show] = ofFours ? ["hideFours", "showFours"] : ["hideMainline", "showMainline"];
  setText(button, t(pressed ? hide : show));
  renderMainline();
}

// The service gives a main line only where every step is proven.
// A search answer proves the position's own value (a win in 3 found) without proving every move's:
// its main line is then proven too.
function provenDistance(analysis) {
  return Boolean(analysis.exact || Number.isInteger(analysis.remoteness));
}

function renderMainline() {
  const box = $("mainline");
  const line = state.mainline;
  box.hidden = !line || (line.state === "ready" && !line.shown);
  if (box.hidden) {
    return;
  }
  box.dataset.state = line.state;
  if (line.state === "loading") {
    setText(box, t("findingMainline"));
  } else if (line.state === "error") {
    setText(box, t("noMainline", { why: line.message }));
  } else {
    box.dataset.cells = line.cells.join(",");
    box.dataset.status = line.status;
    const moves = sequenceWords(line.cells, line.from, cellName);
    setText(box, t(line.fours ? "foursWords" : "mainlineWords", { moves, status: statusWords(line.status) }));
  }
}
