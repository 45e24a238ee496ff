// The keyboard, as on Lichess's analysis board: the game's keys work wherever the focus is (after a
// click on the board or a number key too), except in a form control, which keeps its own keys:
//   ← → step along the line shown, Home and End go to its start and its end, ↑ ↓ switch to the other
//   moves tried at the same point, Shift+← leaves a variation (back to where it branched), Space plays
//   the best proven move, f turns the board round, ? lists every key (help.js).
// The board is one Tab stop. Entered by Tab (a keyboard player), its arrow keys move between the cells
// and Enter or Space plays the cell (in the editor, puts the chosen mark there); on a box the arrows stay
// within a layer, and PageUp and PageDown (or [ and ]) go to the same cell of the layer before or after.
// Escape, a click or leaving the board gives the arrows back to the game. On a 3×3 board the number keys
// play the cells laid out as on a numeric keypad; on a rack they drop a disc into the columns from the
// left. On a gravity box, a cell played by Enter (or a click) drops through the layers as a mark must.

import { cellButton, focusCell, focusedCell } from "./board.js";
import { $, setText } from "./dom.js";
import { columnName, columnOf, columnOfKey, dropCell } from "./columns.js";
import { COLUMN_LETTERS, cellOfKey } from "./game.js";
import { goTo, humanMove, say, step } from "./flow.js";
import { showKeys } from "./help.js";
import { leaveVariation, switchMove } from "./lines.js";
import { cellAt, gridOf, isRack, placeOf } from "./shape.js";
import { board, cellName, currentAnalysis, isComputerTurn, render, state, variant } from "./state.js";
import { isForbidden } from "./goban.js";
import { later, sentences, t } from "./i18n.js";

const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
// The layer before or after, by number (the layers' headings say which is which, turned round or not).
const LAYER_KEYS = { PageUp: -1, PageDown: 1, "[": -1, "]": 1 };

// Keys typed into a form control belong to it (radios and selects use the arrows themselves).
function isFormControl(target) {
  const controls = "select, textarea, input, summary, dialog, [contenteditable]";
  return Boolean(target.closest && target.closest(controls));
}

function keyNumber(event) {
  const match = /^Numpad([1-9])$/.exec(event.code) || /^([1-9])$/.exec(event.key);
  return match ? Number(match[1]) : null;
}

function onBoard(target) {
  return Boolean(target.closest && target.closest("#board"));
}

// The arrows follow the board as drawn, within the layer of the cell: turned round, a flat board's rows
// and columns run the other way; a rack is mirrored (its discs still fall down).
function moveFocus(event) {
  const [down, right] = ARROWS[event.key];
  const grid = gridOf(variant());
  const { rows, cols } = grid;
  const turn = state.flipped ? -1 : 1;
  const [dr, dc] = [isRack(grid) ? down : down * turn, right * turn];
  const { layer, row, col } = placeOf(focusedCell(), grid);
  focusCell(cellAt({ layer, row: (row + dr + rows) % rows, col: (col + dc + cols) % cols }, grid));
}

// On a box: the same row and column of the layer `delta` away, round from the last layer to the first.
function moveLayer(delta) {
  const grid = gridOf(variant());
  const { layer, row, col } = placeOf(focusedCell(), grid);
  focusCell(cellAt({ layer: (layer + delta + grid.layers) % grid.layers, row, col }, grid));
}

// Space: the lowest of the moves proven best, played for the side to move; said when there is none.
function playBest() {
  const analysis = currentAnalysis();
  if (!analysis || analysis.status !== "in_progress" || state.busy) {
    return;
  }
  if (isComputerTurn()) {
    say(later("spaceComputersTurn"));
    return;
  }
  if (analysis.best_moves.length === 0) {
    say(later("spaceNoBest"));
    return;
  }
  focusCell(analysis.best_moves[0], { moveFocus: state.keyboardOnBoard });
  humanMove(analysis.best_moves[0]);
}

export function flipBoard() {
  state.flipped = !state.flipped;
  say(later(state.flipped ? "boardTurned" : "boardUpright"));
}

const GAME_KEYS = {
  ArrowLeft: (event) => (event.shiftKey ? leaveVariation() : step(-1)),
  ArrowRight: () => step(1),
  Home: () => goTo(0),
  End: () => goTo(state.game.moves.length),
  ArrowUp: () => switchMove(-1), // false where no other move was tried: the page scrolls as usual
  ArrowDown: () => switchMove(1),
  " ": playBest,
  f: flipBoard,
  F: flipBoard,
  "?": showKeys,
};

function onBoardKey(event) {
  if (event.key === "Escape") {
    state.keyboardOnBoard = false;
    render();
    return true;
  }
  if (!state.keyboardOnBoard) {
    return false;
  }
  if (ARROWS[event.key] && !event.shiftKey) {
    event.preventDefault();
    moveFocus(event);
    return true;
  }
  if (LAYER_KEYS[event.key] && gridOf(variant()).layers > 1) {
    event.preventDefault();
    moveLayer(LAYER_KEYS[event.key]);
    return true;
  }
  return event.key === "Enter" || event.key === " "; // the cell's own click plays it
}

export function onKeyDown(event) {
  if (event.defaultPrevented || event.ctrlKey || event.altKey || event.metaKey || !variant()) {
    return;
  }
  if (isFormControl(event.target) || (onBoard(event.target) && onBoardKey(event))) {
    return;
  }
  const action = GAME_KEYS[event.key];
  const button = event.target.closest && event.target.closest("button:not(.cell), a[href]");
  const activates = button && (event.key === " " || event.key === "Enter");
  if (action && !activates && (state.editor === null || event.key === "?")) {
    if (action(event) !== false) {
      event.preventDefault();
    }
    return;
  }
  const key = keyNumber(event);
  if (key === null || !state.settings.shortcuts || state.editor !== null) {
    return;
  }
  const grid = gridOf(variant());
  const col = columnOfKey(key, grid);
  const cell =
    col !== null ? col + (grid.rows - 1) * grid.cols : cellOfKey(key, grid.rows, grid.cols, grid.layers);
  if (cell !== null) {
    event.preventDefault();
    playColumnOrCell(cell);
  }
}

// The board's arrows are the keyboard player's once the board is entered from the keyboard (Tab, the
// skip link: the browser then draws the focus ring, :focus-visible); a pointer, Escape or leaving the
// board gives them back to the game.
export function bindBoardFocus() {
  document.addEventListener("pointerdown", () => {
    state.keyboardOnBoard = false;
  });
  $("board").addEventListener("focusin", (event) => {
    state.keyboardOnBoard = event.target.matches(":focus-visible");
  });
  $("board").addEventListener("focusout", (event) => {
    if (!onBoard(event.relatedTarget || document.body)) {
      state.keyboardOnBoard = false;
    }
  });
  // Only a keyboard reaches the skip link (it shows only with the focus): the board's arrows are its.
  document.querySelector(".skip-link").addEventListener("click", (event) => {
    event.preventDefault();
    state.keyboardOnBoard = true;
    focusCell(focusedCell());
  });
}

// Plays `cell`, or on a gravity board the lowest empty cell of its column (a click or a key anywhere
// in a column, on a box in any layer, plays there); a full column is said, not sent. The board's Tab
// stop follows the move; the focus itself moves only for a keyboard player on the board.
export function playColumnOrCell(cell) {
  const grid = gridOf(variant());
  const col = columnOf(cell, grid);
  const target = grid.gravity ? dropCell(board(), col, grid) : cell;
  if (target === null) {
    say(later("columnFull", { column: columnName(col, grid) }));
    return;
  }
  if (isForbidden(target)) {
    say(later("forbiddenRefused", { cell: cellName(target) }));
    return;
  }
  focusCell(target, { moveFocus: state.keyboardOnBoard || document.activeElement === cellButton(cell) });
  humanMove(target);
}

// How a mark falls on a gravity board, and so what a click plays.
function gravityWords(grid) {
  if (!grid.gravity) {
    return "";
  }
  return isRack(grid) ? t("gravityRack") : t("gravityBox", { n: grid.layers });
}

// What the keys do on this board, in words under it (not on touch screens: see board.css).
export function keysHelp() {
  const grid = gridOf(variant());
  const { layers, rows, cols } = grid;
  const keypad = cellOfKey(1, rows, cols, layers) !== null && state.settings.shortcuts;
  const columns = columnOfKey(1, grid) !== null && state.settings.shortcuts;
  const parts = [
    t("helpTab"),
    layers > 1 ? t("helpLayers") : "",
    gravityWords(grid),
    keypad ? t("helpKeypad") : "",
    columns ? t("helpColumns", { cols, last: COLUMN_LETTERS[cols - 1] }) : "",
    t("helpElsewhere"),
  ];
  return sentences(parts);
}

export function renderKeysHelp() {
  setText($("keys-help"), keysHelp());
}
