// The page's state and what follows from it: the variant, the position at the cursor, whose turn, the
// current analysis. The game is kept as a start board, the side that moves first from it, the record of
// every line tried (record.js) and the line shown in it (`moves`, with the cursor `ply`); boards and turns
// are derived from them, so they cannot disagree.

import { boardAfter, cellNameOf, emptyBoard, playerOf } from "./game.js";
import { gridOf, placeOf } from "./shape.js";
import { serviceMessage } from "./api.js";

export const state = {
  variants: new Map(), // name -> the variant's facts (GET /variants, or GET /variants/{name})
  presets: [], // the names GET /variants lists, in its order
  limits: null, // GET /variants `limits`
  nameForm: null, // GET /variants `name_form`: how the custom form writes a board's name
  naming: "", // GET /variants `naming`: the service's rule for names, in its words
  policies: [], // GET /policies
  defaultDepth: null,
  settings: {
    mode: "computer", // "humans" (two players on this screen) or "computers" (computer against computer)
    human: "X",
    policy: null,
    depth: null,
    overlay: "off", // "off", "hint" (best moves only) or "values"
    shortcuts: true,
    first: "X", // who moves first in a new game (a set-up position or a link has its own)
  },
  game: { variant: null, first: "X", start: null, record: null, moves: [], ply: 0 },
  live: false, // whether the computer may move by itself (not right after a link was opened)
  analysis: null, // GET /analyze of the position at the cursor, once it has arrived
  mainline: null, // { state: "loading" | "ready" | "error", shown, ... }
  certificate: null, // { base, tree, attacker }: a win by threes being stepped, from base's line (certificate.js)
  review: null, // { state: "loading" | "ready" | "error", key, ... } for the whole move list
  editor: null, // { board, toMove, paint, error, checking } while the position editor is open
  busy: false, // waiting for the service on the game's behalf
  waiting: null, // { detail, seconds, ... } while a table is being built
  paused: false, // computer against computer: the computers wait (a person may move meanwhile)
  flipped: false, // the board drawn turned round (the `f` key)
  guesses: false, // the search's estimates shown (behind a toggle: they are guesses, not results)
  keyboardOnBoard: false, // the arrow keys move between the board's cells (entered by Tab), not the game
  event: "", // what just happened, in words (or a function that says it: i18n.js's later())
  error: null, // { message, retry }
  generation: 0, // bumped whenever the position changes, so that late answers are dropped
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
  return state.variants.get(state.game.variant) || null;
}

export function startBoard() {
  return state.game.start || emptyBoard(variant().cells);
}

export function boardAt(ply) {
  return boardAfter(startBoard(), state.game.first, state.game.moves, ply);
}

export function sideAt(ply) {
  return playerOf(ply, state.game.first);
}

export function board() {
  return boardAt(state.game.ply);
}

export function toMove() {
  return sideAt(state.game.ply);
}

export function atEnd() {
  return state.game.ply === state.game.moves.length;
}

export function vsComputer() {
  return state.settings.mode === "computer";
}

export function computersPlay() {
  return state.settings.mode === "computers";
}

export function humanSide() {
  return vsComputer() ? state.settings.human : null;
}

// Whether the computer moves here: against a person on its side's turns; against itself unless paused.
export function isComputerTurn() {
  if (computersPlay()) {
    return !state.paused;
  }
  return vsComputer() && toMove() !== state.settings.human;
}

// The analysis of the position on the board, or null while it is on its way.
export function currentAnalysis() {
  const analysis = state.analysis;
  const fits = analysis && variant() && analysis.board === board() && analysis.to_move === toMove();
  return fits ? analysis : null;
}

export function gameStatus() {
  const analysis = currentAnalysis();
  return analysis ? analysis.status : "unknown";
}

export function isOver() {
  return !["unknown", "in_progress"].includes(gameStatus());
}

// The game is over at its last move (the review and the chart are then shown whatever the overlay).
export function gameFinished() {
  return atEnd() && isOver();
}

export function cellName(cell) {
  return cellNameOf(cell, gridOf(variant()));
}

// Where the cell is: { layer, row, col } from 0, `layers` (1 on a flat board) and `bottom`, whether it is
// in a gravity box's last layer, where its marks fall to.
export function cellPosition(cell) {
  const grid = gridOf(variant());
  const place = placeOf(cell, grid);
  const bottom = grid.gravity && grid.layers > 1 && place.layer === grid.layers - 1;
  return { ...place, layers: grid.layers, bottom };
}

// Fills the panel state[key] from `request` (loading, then ready or error), unless `current()` says
// that the game has moved on since: a late answer about an older position or game is dropped.
export async function loadPanel(key, current, request, extra = {}) {
  state[key] = { state: "loading", ...extra };
  render();
  let next;
  try {
    next = { state: "ready", ...extra, ...(await request()) };
  } catch (error) {
    next = { state: "error", ...extra, message: serviceMessage(error) };
  }
  if (current()) {
    state[key] = next;
    render();
  }
}
