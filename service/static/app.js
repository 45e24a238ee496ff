// Sanmoku's reference front end: play any variant against the computer or a friend, set up positions,
// step through games and see the exact analysis. Every fact shown comes from the public HTTP API (see
// api.js). This file wires the modules together: state.js holds the game, flow.js plays it, url.js and
// prefs.js keep it, and each view module draws one part of the page.

import { renderAnalysis, toggleMainline } from "./analysis.js";
import { renderAnswer } from "./answer.js";
import { serviceMessage, serviceWords, setWaitListener } from "./api.js";
import { renderBoard, setCellHandler } from "./board.js";
import { bindCertificate, renderCertificate } from "./certificate.js";
import { renderChart } from "./chart.js";
import {
  copyLink,
  loadPolicies,
  onFirstChange,
  onOverlayChange,
  onSettingsChange,
  remember,
  renderControls,
  renderSettings,
  settleSettings,
} from "./controls.js";
import { $, isNarrow, prefersReducedMotion } from "./dom.js";
import {
  applyEditor,
  clearBoard,
  closeEditor,
  openEditor,
  paint,
  renderEditor,
  setEditorToMove,
} from "./editor.js";
import { bindExchange, renderExchange } from "./exchange.js";
import { bindGoban, renderGoban } from "./goban.js";
import { bindGomokuRecord, renderGomokuRecord } from "./gomoku-record.js";
import { goTo, playOn, redo, retry, startGame, step, togglePause, undo, newGame } from "./flow.js";
import { bindKeysHelp } from "./help.js";
import { bindBoardFocus, onKeyDown, playColumnOrCell, renderKeysHelp } from "./keys.js";
import { checkedWithService } from "./linkcheck.js";
import { backToSettings, leaveAnalysisMode, renderMode } from "./modes.js";
import { bindMoves, renderMoves } from "./moves.js";
import { loadPrefs } from "./prefs.js";
import { loadReview, renderReview } from "./review.js";
import { renderRack } from "./rack.js";
import { bindGuesses, renderRanking } from "./ranking.js";
import { bindSearchTree, renderSearchTree } from "./search-tree.js";
import { render, setRenderer, state, variant } from "./state.js";
import { renderHeading, renderRoot, renderStatus } from "./status.js";
import { checkedGame, gameFromUrl, saveGameToUrl } from "./url.js";
import { later, now, sentences } from "./i18n.js";
import { bindLanguage } from "./language.js";
import { bindAnnotations, renderAnnotations } from "./annotations.js";
import { registerOffline } from "./offline.js";
import { bindPuzzles, renderPuzzles } from "./puzzles.js";
import { bindShare } from "./share.js";
import { renderVerdictBar } from "./verdict-bar.js";
import {
  customVariant,
  ensureVariant,
  loadVariants,
  renderCustomOptions,
  renderVariantChoice,
  showCustomError,
} from "./variants.js";

// The whole page is drawn from the state on every change: there are few elements, and nothing goes stale.
function renderAll() {
  renderStatus();
  if (!variant()) {
    return;
  }
  renderRoot();
  renderHeading();
  renderMode();
  renderBoard();
  renderRack();
  renderAnswer();
  renderControls();
  renderEditor();
  renderAnalysis();
  renderCertificate();
  renderRanking();
  renderVerdictBar();
  renderMoves();
  renderAnnotations();
  renderExchange();
  renderGomokuRecord();
  renderGoban();
  renderReview();
  renderChart();
  renderSettings();
  renderVariantChoice();
  renderKeysHelp();
  renderSearchTree();
  renderPuzzles();
}

// Opens `game` (from a link, or a new one): the variant is asked for if it is not a preset, and what
// does not fit it is dropped with a word. A game from a link (or a text, as `source` says) is checked with
// the service first (linkcheck.js), and waits for a move before the computer plays.
async function openGame(game, { live, push, source = "link" }) {
  const notes = [];
  if (game.overlay) {
    state.settings.overlay = game.overlay;
  }
  let facts;
  try {
    facts = await ensureVariant(game.variant);
  } catch (error) {
    notes.push(later("noVariant", { name: game.variant, why: serviceWords(error) }));
    facts = await ensureVariant(state.presets[0]);
    game = { variant: facts.name, first: game.first, moves: [] };
  }
  const checked = checkedGame({ ...game, variant: facts.name }, facts);
  if (checked.why) {
    notes.push(checked.why);
  } else if (checked.dropped) {
    notes.push(later(source === "text" ? "textPartDropped" : "linkPartDropped"));
  }
  const served = live
    ? { game: checked.game, notes: [] }
    : await checkedWithService(checked.game, facts, source);
  const opened = later(live ? "newGameEvent" : source === "text" ? "openedFromText" : "openedFromLink");
  const all = [...notes, ...served.notes, opened];
  startGame(served.game, { event: () => sentences(all.map(now)), live, push });
  remember();
}

// A new board is shown where the player is: on a phone the settings are far below the board, so the
// page scrolls back up to it.
async function changeVariant(name) {
  closeEditor();
  leaveAnalysisMode();
  showCustomError("");
  await openGame({ variant: name, first: state.settings.first }, { live: true, push: true });
  // The board takes the focus, so that the next key plays on it: left in the select, "4" (a column of
  // Connect Four) chose the 4x4 board by the select's type-ahead.
  $("board").querySelector(".cell[tabindex='0']")?.focus({ preventScroll: true });
  if (isNarrow()) {
    $("play-heading").scrollIntoView({
      block: "start",
      behavior: prefersReducedMotion() ? "auto" : "smooth",
    });
  }
}

async function onCustomSubmit(event) {
  event.preventDefault();
  showCustomError("");
  try {
    await changeVariant(await customVariant());
  } catch (error) {
    showCustomError(serviceWords(error));
  }
}

function onCustomInput() {
  showCustomError("");
  renderCustomOptions();
}

function onCell(cell) {
  if (state.editor) {
    paint(cell);
  } else {
    playColumnOrCell(cell);
  }
}

function navButton(id, action) {
  $(id).addEventListener("click", () => {
    if ($(id).getAttribute("aria-disabled") !== "true") {
      action();
    }
  });
}

function bindEvents() {
  setCellHandler(onCell);
  $("settings").addEventListener("change", onSettingsChange);
  for (const form of ["settings", "game-settings"]) {
    $(form).addEventListener("submit", (event) => event.preventDefault());
  }
  $("first").addEventListener("change", onFirstChange);
  $("variant").addEventListener("change", (event) => changeVariant(event.target.value));
  $("custom-form").addEventListener("input", onCustomInput);
  $("custom-form").addEventListener("submit", onCustomSubmit);
  for (const radio of document.querySelectorAll("input[name='overlay']")) {
    radio.addEventListener("change", onOverlayChange);
    radio.addEventListener("change", () => saveGameToUrl(state.game, variant())); // the link has it
  }
  // A new game, or a new board, is played with the saved settings again: the analysis mode was for the
  // position set up.
  $("new-game").addEventListener("click", () => {
    leaveAnalysisMode();
    newGame(); // with the saved first player, not the set-up position's side to move
  });
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  $("play-on").addEventListener("click", () => playOn());
  $("pause").addEventListener("click", togglePause);
  $("copy-link").addEventListener("click", copyLink);
  $("mode-back").addEventListener("click", backToSettings);
  $("mainline-button").addEventListener("click", toggleMainline);
  $("retry").addEventListener("click", retry);
  $("review-retry").addEventListener("click", () => loadReview({ again: true }));
  $("review-now").addEventListener("click", () => loadReview());
  navButton("nav-start", () => goTo(0));
  navButton("nav-back", () => step(-1));
  navButton("nav-forward", () => step(1));
  navButton("nav-end", () => goTo(state.game.moves.length));
  $("edit").addEventListener("click", openEditor);
  $("editor-cancel").addEventListener("click", closeEditor);
  $("editor-clear").addEventListener("click", clearBoard);
  $("editor-analyse").addEventListener("click", () => applyEditor({ analyse: true }));
  $("editor-play").addEventListener("click", () => applyEditor({ analyse: false }));
  for (const radio of document.querySelectorAll("input[name='editor-to-move']")) {
    radio.addEventListener("change", (event) => setEditorToMove(event.target.value));
  }
  bindMoves();
  bindSearchTree();
  bindGuesses();
  bindKeysHelp();
  bindBoardFocus();
  bindExchange(openGame);
  bindGomokuRecord(openGame);
  bindGoban();
  bindCertificate();
  bindLanguage();
  bindAnnotations();
  bindShare();
  bindPuzzles();
  document.addEventListener("keydown", onKeyDown);
  // On a phone the board stays at the top of the screen with the status line and the step buttons
  // (tools.css): a panel scrolled to stops under them.
  new ResizeObserver(() => {
    $("app").style.setProperty("--pinned-height", `${Math.ceil($("pinned").offsetHeight)}px`);
  }).observe($("pinned"));
  window.addEventListener("popstate", () => {
    closeEditor();
    const game = gameFromUrl();
    if (game) {
      openGame(game, { live: false, push: false });
    }
  });
}

async function start() {
  state.error = null;
  try {
    await Promise.all([loadVariants(), loadPolicies()]);
  } catch (error) {
    state.error = { message: later("serviceTrouble", { why: serviceMessage(error) }), retry: start };
    render();
    return;
  }
  const { variant: savedVariant, ...prefs } = loadPrefs();
  // A first visit (nothing saved) shows the analysis: the values on the board are what the page is for.
  state.settings = { ...state.settings, overlay: "values", ...prefs };
  state.settings.first = prefs.first === "O" ? "O" : "X";
  settleSettings();
  const linked = gameFromUrl();
  const saved = { variant: savedVariant || state.presets[0], first: state.settings.first };
  await openGame(linked || saved, { live: !linked, push: false });
}

setRenderer(renderAll);
setWaitListener((waiting) => {
  state.waiting = waiting;
  render();
});
bindEvents();
start();
registerOffline();
