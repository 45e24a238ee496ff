// Sanmoku's reference front end: play against the computer or a friend, with the exact analysis.
// Every value shown comes from the public HTTP API (see api.js). This file wires the modules together:
// state.js holds the game, flow.js plays it, and each view module draws one part of the page.

import { renderAnalysis, showMainline } from "./analysis.js";
import { onKeyDown, renderBoard } from "./board.js";
import {
  loadVariants,
  onSettingsChange,
  populateStaticChoices,
  readSettings,
  renderControls,
  renderSettings,
} from "./controls.js";
import { $ } from "./dom.js";
import { newGame, retry, say, undo } from "./flow.js";
import { renderReview } from "./review.js";
import { render, setRenderer, state } from "./state.js";
import { renderRoot, renderStatus } from "./status.js";

// The whole page is drawn from the state on every change: there are few elements, and nothing goes stale.
function renderAll() {
  renderRoot();
  renderStatus();
  renderBoard();
  renderControls();
  renderAnalysis();
  renderSettings();
  renderReview();
}

function bindEvents() {
  $("settings").addEventListener("change", onSettingsChange);
  $("settings").addEventListener("submit", (event) => event.preventDefault());
  $("new-game").addEventListener("click", newGame);
  $("undo").addEventListener("click", undo);
  $("overlay-toggle").addEventListener("change", (event) => {
    state.overlay = event.target.checked;
    render();
  });
  $("mainline-button").addEventListener("click", showMainline);
  $("retry").addEventListener("click", retry);
  document.addEventListener("keydown", onKeyDown);
}

async function start() {
  setRenderer(renderAll);
  populateStaticChoices();
  bindEvents();
  await loadVariants();
  readSettings();
  const note = state.event;
  newGame();
  if (note) {
    say(`${note} ${state.event}`);
  }
}

start();
