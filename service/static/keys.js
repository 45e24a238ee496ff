// The keyboard. On the board (one Tab stop): the arrow keys move between cells, wrapping at the edges,
// and Enter or Space plays the cell (or, in the editor, puts the chosen mark there); on a 3 by 3 board
// the number keys play the cells laid out as on a numeric keypad. Elsewhere on the page, ← and → step
// through the game, Home and End go to its start and its last move.

import { focusCell, focusedCell } from "./board.js";
import { $, setText } from "./dom.js";
import { goTo, humanMove, step } from "./flow.js";
import { cellOfKey } from "./game.js";
import { state, variant } from "./state.js";

const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

// Keys typed into a form control belong to it (radios and selects use the arrows themselves).
function isFormControl(target) {
  return Boolean(target.closest && target.closest("select, textarea, input, summary, [contenteditable]"));
}

function keyNumber(event) {
  const match = /^Numpad([1-9])$/.exec(event.code) || /^([1-9])$/.exec(event.key);
  return match ? Number(match[1]) : null;
}

function onBoard(target) {
  return Boolean(target.closest && target.closest("#board"));
}

function moveFocus(event) {
  const [dr, dc] = ARROWS[event.key];
  const { rows, cols } = variant();
  const cell = focusedCell();
  const row = Math.floor(cell / cols);
  const col = cell % cols;
  focusCell(((row + dr + rows) % rows) * cols + ((col + dc + cols) % cols));
}

const STEPS = {
  ArrowLeft: () => step(-1),
  ArrowRight: () => step(1),
  Home: () => goTo(0),
  End: () => goTo(state.game.moves.length),
};

export function onKeyDown(event) {
  if (event.defaultPrevented || event.ctrlKey || event.altKey || event.metaKey || !variant()) {
    return;
  }
  if (onBoard(event.target) && ARROWS[event.key]) {
    event.preventDefault();
    moveFocus(event);
    return;
  }
  if (isFormControl(event.target)) {
    return;
  }
  if (STEPS[event.key] && !onBoard(event.target) && state.editor === null) {
    event.preventDefault();
    STEPS[event.key]();
    return;
  }
  const key = keyNumber(event);
  const { rows, cols } = variant();
  const cell = key === null || !state.settings.shortcuts ? null : cellOfKey(key, rows, cols);
  if (cell !== null && state.editor === null) {
    event.preventDefault();
    focusCell(cell);
    humanMove(cell);
  }
}

// What the keys do on this board, in words under it.
export function keysHelp() {
  const { rows, cols } = variant();
  const keypad = cellOfKey(1, rows, cols) !== null && state.settings.shortcuts;
  const parts = [
    "The board is one Tab stop: the arrow keys move between its cells, Enter or Space plays one.",
    keypad ? "The keys 1–9 play the cells as laid out on a numeric keypad (each cell shows its key)." : "",
    "Elsewhere, ← and → step through the game, Home and End go to its start and its end.",
  ];
  return parts.filter(Boolean).join(" ");
}

export function renderKeysHelp() {
  setText($("keys-help"), keysHelp());
}
