// Around a go board (15×15 and any flat board of 13 a side or more): the choice of move numbers on the
// stones and of the threats, the legend of the board's marks (last move, renju's forbidden points,
// threats, proven values), and the button that plays a proven main line one move at a time. The marks
// themselves are drawn by board.js from gomoku.js; the choices are kept on the device.

import { $ } from "./dom.js";
import { t } from "./i18n.js";
import { humanMove } from "./flow.js";
import { isGoBoard } from "./gomoku.js";
import { gridOf } from "./shape.js";
import { other } from "./game.js";
import { currentAnalysis, render, state, toMove, variant } from "./state.js";

const KEY = "sanmoku.goban";
const shows = { numbers: false, threats: true };

function load() {
  try {
    Object.assign(shows, JSON.parse(window.localStorage.getItem(KEY) || "{}"));
  } catch {
    // storage off or spoilt: the defaults
  }
}

function save() {
  try {
    window.localStorage.setItem(KEY, JSON.stringify(shows));
  } catch {
    // The choice then lasts as long as the page.
  }
}

export function gobanShows() {
  return shows;
}

// What a threat mark says: "X makes five here", "O makes an open four here", both when both do.
export function threatWords(threat) {
  return ["X", "O"]
    .filter((side) => threat[side])
    .map((side) => t(threat[side] === "five" ? "threatFive" : "threatFour", { side }))
    .join(t("listGap"));
}

function onGo() {
  return Boolean(variant()) && isGoBoard(gridOf(variant()));
}

// The main line shown, when its next move is the side to move's: played, and the rest of the line kept
// shown from the new position (it is still perfect play from there).
function stepLine() {
  const line = state.mainline;
  if (!line || line.state !== "ready" || !line.shown || line.cells.length === 0 || line.from !== toMove()) {
    return;
  }
  const ply = state.game.ply;
  humanMove(line.cells[0]);
  if (state.game.ply === ply + 1) {
    state.mainline = { ...line, from: other(line.from), cells: line.cells.slice(1) };
    render();
  }
}

export function renderGoban() {
  const go = onGo();
  $("goban-options").hidden = !go;
  $("goban-legend").hidden = !go;
  $("goban-numbers").checked = shows.numbers;
  $("goban-threats").checked = shows.threats;
  const line = state.mainline;
  const stepping = line && line.state === "ready" && line.shown && line.cells.length > 0;
  $("mainline-step").hidden = !stepping;
  $("mainline-step").disabled = !stepping || line.from !== toMove() || state.busy;
}

export function bindGoban() {
  load();
  for (const [id, key] of [
    ["goban-numbers", "numbers"],
    ["goban-threats", "threats"],
  ]) {
    $(id).addEventListener("change", (event) => {
      shows[key] = event.target.checked;
      save();
      render();
    });
  }
  $("mainline-step").addEventListener("click", stepLine);
}

// Whether renju's rule bars the cell now: on black's turn, a point the service lists as forbidden.
export function isForbidden(cell) {
  const analysis = currentAnalysis();
  const blacksTurn = analysis && analysis.status === "in_progress" && analysis.to_move === "X";
  return Boolean(blacksTurn && Array.isArray(analysis.forbidden) && analysis.forbidden.includes(cell));
}
