// The board: its cells as buttons, their marks and analysed values, and playing them by pointer or keys.

import { $, setData, setText } from "./dom.js";
import { humanMove } from "./flow.js";
import { EMPTY, cellOfKey, lineCells } from "./game.js";
import {
  board,
  cellName,
  cellPosition,
  currentAnalysis,
  gameStatus,
  isComputerTurn,
  isOver,
  state,
  variant,
} from "./state.js";
import { cellLabel, valueWords } from "./words.js";

// ---------------------------------------------------------------- drawing

export function renderBoard() {
  ensureCells();
  const marks = board();
  const values = overlayValues();
  const playable = !state.busy && !state.error && gameStatus() === "in_progress" && !isComputerTurn();
  const line = isOver() ? lineCells(marks, variant()) : new Set();
  $("board").classList.toggle("with-overlay", values !== null);
  for (const button of $("board").children) {
    renderCell(button, { marks, values, playable, line });
  }
}

// The buttons are made once per board shape and then only updated, so that focus stays where it is.
function ensureCells() {
  const { rows, cols } = variant();
  const grid = $("board");
  if (grid.children.length === rows * cols && grid.dataset.cols === String(cols)) {
    return;
  }
  grid.replaceChildren();
  grid.dataset.cols = String(cols);
  grid.style.setProperty("--cols", String(cols));
  for (let cell = 0; cell < rows * cols; cell += 1) {
    grid.append(makeCell(cell));
  }
}

function makeCell(cell) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "cell";
  button.dataset.cell = String(cell);
  button.dataset.key = cellName(cell);
  for (const part of ["key", "mark", "value", "best"]) {
    const span = document.createElement("span");
    span.className = `cell-${part}`;
    span.setAttribute("aria-hidden", "true");
    button.append(span);
  }
  button.querySelector(".cell-key").textContent = cellName(cell);
  button.addEventListener("click", () => humanMove(cell));
  return button;
}

// The values to show on the free cells, or null when the analysis is hidden or not there yet.
function overlayValues() {
  const analysis = currentAnalysis();
  if (!state.overlay || !analysis || analysis.status !== "in_progress") {
    return null;
  }
  return {
    moves: new Map(analysis.moves.map((move) => [move.cell, move])),
    best: new Set(analysis.best_moves),
  };
}

function renderCell(button, { marks, values, playable, line }) {
  const cell = Number(button.dataset.cell);
  const mark = marks[cell];
  const move = values && mark === EMPTY ? values.moves.get(cell) : undefined;
  const best = Boolean(move && values.best.has(cell));
  const inLine = line.has(cell);
  button.dataset.mark = mark;
  button.classList.toggle("line", inLine);
  setData(button, "result", move && move.result);
  setData(button, "remoteness", move && String(move.remoteness));
  setData(button, "best", best ? "true" : undefined);
  button.classList.toggle("best", best);
  button.setAttribute("aria-disabled", String(!(playable && mark === EMPTY)));
  const label = cellLabel({ name: cellName(cell), ...cellPosition(cell), mark, value: move, best });
  button.setAttribute("aria-label", inLine ? `${label}, in the line` : label);
  setText(button.querySelector(".cell-mark"), mark === EMPTY ? "" : mark);
  setText(button.querySelector(".cell-value"), move ? valueWords(move) : "");
  setText(button.querySelector(".cell-best"), best ? "★ best" : "");
}

// ---------------------------------------------------------------- keys

// Digits typed into a select or a text field belong to it; checkboxes and radios have no use for them.
function isTextEntry(target) {
  return Boolean(
    target.closest && target.closest("select, textarea, input:not([type='checkbox']):not([type='radio'])"),
  );
}

function keyNumber(event) {
  const match = /^Numpad([1-9])$/.exec(event.code) || /^([1-9])$/.exec(event.key);
  return match ? Number(match[1]) : null;
}

const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

// Arrow keys move the focus from cell to cell, wrapping around at the edges.
function moveFocus(event) {
  const step = ARROWS[event.key];
  const cell = event.target.closest && event.target.closest(".cell");
  if (!step || !cell) {
    return false;
  }
  const { rows, cols } = variant();
  const { row, col } = cellPosition(Number(cell.dataset.cell));
  const next = ((row + step[0] + rows) % rows) * cols + ((col + step[1] + cols) % cols);
  $("board").children[next].focus();
  event.preventDefault();
  return true;
}

export function onKeyDown(event) {
  if (event.defaultPrevented || event.ctrlKey || event.altKey || event.metaKey) {
    return;
  }
  if (moveFocus(event) || !state.settings.shortcuts || isTextEntry(event.target)) {
    return;
  }
  const key = keyNumber(event);
  const { rows, cols } = variant();
  const cell = key === null ? null : cellOfKey(key, rows, cols);
  if (cell === null) {
    return;
  }
  event.preventDefault();
  humanMove(cell);
}
