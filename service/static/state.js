// The page's state and what follows from it: the variant, the board, whose turn, the current analysis.
// Only the moves and the settings are kept; everything else is derived, so it cannot disagree with them.

import { boardOf, keyOfCell, sideToMove } from "./game.js";

export const DEFAULT_DEPTH = 3;
export const FALLBACK_VARIANT = {
  name: "normal",
  rules: "Three in a row wins; a full board without a line is a draw.",
  rows: 3,
  cols: 3,
  k: 3,
  misere: false,
};

export const state = {
  variants: new Map([[FALLBACK_VARIANT.name, FALLBACK_VARIANT]]),
  settings: {
    mode: "computer",
    human: "X",
    first: "X",
    variant: "normal",
    policy: "perfect",
    depth: DEFAULT_DEPTH,
    shortcuts: true,
  },
  overlay: false,
  moves: [],
  analysis: null, // GET /analyze of the current position, once it has arrived
  mainline: null, // { state: "loading" | "ready" | "error", ... }
  review: null, // { state: "loading" | "ready" | "error", ... }
  busy: false, // waiting for the service on the game's behalf
  event: "", // what just happened, in words
  error: null, // { message, retry }
  generation: 0, // bumped whenever the game changes, so that late answers are dropped
};

// app.js hands in the function that draws every view, so that the game's flow and the views can ask for
// a redraw without importing the views (which import the flow).
let renderer = () => {};

export function setRenderer(renderAll) {
  renderer = renderAll;
}

export function render() {
  renderer();
}

export function variant() {
  return state.variants.get(state.settings.variant) || FALLBACK_VARIANT;
}

export function board() {
  const { rows, cols } = variant();
  return boardOf(state.moves, state.settings.first, rows * cols);
}

export function toMove() {
  return sideToMove(state.moves, state.settings.first);
}

export function vsComputer() {
  return state.settings.mode === "computer";
}

export function humanSide() {
  return vsComputer() ? state.settings.human : null;
}

export function isComputerTurn() {
  return vsComputer() && toMove() !== state.settings.human;
}

// The analysis of the position on the board, or null while it is on its way.
export function currentAnalysis() {
  const analysis = state.analysis;
  const fits = analysis && analysis.board === board() && analysis.to_move === toMove();
  return fits ? analysis : null;
}

export function gameStatus() {
  const analysis = currentAnalysis();
  return analysis ? analysis.status : "unknown";
}

export function isOver() {
  return !["unknown", "in_progress"].includes(gameStatus());
}

// Cells are named by their keys (1-9, keypad layout) wherever the page names them.
export function cellName(cell) {
  const { rows, cols } = variant();
  const key = keyOfCell(cell, rows, cols);
  return String(key === null ? cell + 1 : key);
}

export function cellPosition(cell) {
  const { cols } = variant();
  return { row: Math.floor(cell / cols), col: cell % cols };
}

// Fills the panel state[key] from `request` (loading, then ready or error), unless the game changed
// since `generation`: a late answer about an older position is dropped.
export async function loadPanel(key, generation, request) {
  state[key] = { state: "loading" };
  render();
  try {
    const ready = await request();
    if (generation !== state.generation) {
      return;
    }
    state[key] = { state: "ready", ...ready };
  } catch (error) {
    if (generation !== state.generation) {
      return;
    }
    state[key] = { state: "error", message: error.message };
  }
  render();
}
