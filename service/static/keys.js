// The keyboard. On the board (one Tab stop): the arrow keys move between cells, wrapping at the edges,
// and Enter or Space plays the cell (or, in the editor, puts the chosen mark there); on a 3 by 3 board
// the number keys play the cells laid out as on a numeric keypad, and on a gravity board they drop a
// mark into the columns from the left. Elsewhere on the page, ← and → step through the game, Home and
// End go to its start and its last move.

import { focusCell, focusedCell } from "./board.js";
import { $, setText } from "./dom.js";
import { columnName, columnOfKey, dropCell } from "./columns.js";
import { goTo, humanMove, say, step } from "./flow.js";
import { cellOfKey } from "./game.js";
import { board, state, variant } from "./state.js";

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
  if (key === null || !state.settings.shortcuts || state.editor !== null) {
    return;
  }
  const facts = variant();
  const col = columnOfKey(key, facts);
  const cell = col !== null ? col + (facts.rows - 1) * facts.cols : cellOfKey(key, facts.rows, facts.cols);
  if (cell !== null) {
    event.preventDefault();
    playColumnOrCell(cell);
  }
}

// Plays `cell`, or on a gravity board the lowest empty cell of its column (a click or a key anywhere
// in a column plays there); a full column is said, not sent.
export function playColumnOrCell(cell) {
  const facts = variant();
  const col = cell % facts.cols;
  const target = facts.gravity ? dropCell(board(), col, facts) : cell;
  if (target === null) {
    say(`The ${columnName(col)} is full.`);
    return;
  }
  focusCell(target);
  humanMove(target);
}

// What the keys do on this board, in words under it.
export function keysHelp() {
  const facts = variant();
  const { rows, cols } = facts;
  const keypad = cellOfKey(1, rows, cols) !== null && state.settings.shortcuts;
  const columns = columnOfKey(1, facts) !== null && state.settings.shortcuts;
  const parts = [
    "The board is one Tab stop: the arrow keys move between its cells, Enter or Space plays one.",
    facts.gravity ? "A mark falls to the lowest empty cell of its column: click anywhere in a column." : "",
    keypad ? "The keys 1–9 play the cells as laid out on a numeric keypad (each cell shows its key)." : "",
    columns ? `The keys 1–${cols} drop a mark into the columns a to ${"abcdefghi"[cols - 1]}.` : "",
    "Elsewhere, ← and → step through the game, Home and End go to its start and its end.",
  ];
  return parts.filter(Boolean).join(" ");
}

export function renderKeysHelp() {
  setText($("keys-help"), keysHelp());
}
