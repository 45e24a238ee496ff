// Sanmoku's reference front end: play against the computer or a friend, with the exact analysis.
// Every value shown comes from the public HTTP API (see api.js); this file keeps the game and the DOM.

import * as api from "./api.js";
import { EMPTY, boardOf, cellOfKey, keyOfCell, lineCells, sideToMove, undoLength } from "./game.js";
import {
  cellLabel,
  countWords,
  gameOverWords,
  sequenceWords,
  statusWords,
  valueWords,
  verdictWords,
} from "./words.js";

// The policies of POST /move, strongest first.
const POLICIES = [
  {
    name: "perfect",
    label: "Perfect",
    summary: "Always a best move: the fastest win, else a draw, else the slowest loss.",
  },
  {
    name: "random-best",
    label: "Perfect, varied",
    summary: "A best move drawn at random: never gives away value, varies its games.",
  },
  { name: "human", label: "Tricky", summary: "A best move that leaves you the most ways to go wrong." },
  { name: "strategy", label: "Rule list", summary: "Win, block, centre, corner: fixed rules, no search." },
  {
    name: "depth",
    label: "Look-ahead",
    summary: "Searches a few plies ahead and guesses beyond: pick the depth.",
  },
  { name: "random", label: "Random", summary: "Any legal move, drawn at random." },
];
const DEPTHS = [1, 2, 3, 4, 5, 6, 7, 8];
const DEFAULT_DEPTH = 3;
const FALLBACK_VARIANT = {
  name: "normal",
  rules: "Three in a row wins; a full board without a line is a draw.",
  rows: 3,
  cols: 3,
  k: 3,
  misere: false,
};
const VERDICTS = ["best", "slower", "mistake", "blunder"];

const $ = (id) => document.getElementById(id);

const state = {
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

// ---------------------------------------------------------------- the game, derived from the moves

function variant() {
  return state.variants.get(state.settings.variant) || FALLBACK_VARIANT;
}

function board() {
  const { rows, cols } = variant();
  return boardOf(state.moves, state.settings.first, rows * cols);
}

function toMove() {
  return sideToMove(state.moves, state.settings.first);
}

function vsComputer() {
  return state.settings.mode === "computer";
}

function humanSide() {
  return vsComputer() ? state.settings.human : null;
}

function isComputerTurn() {
  return vsComputer() && toMove() !== state.settings.human;
}

// The analysis of the position on the board, or null while it is on its way.
function currentAnalysis() {
  const analysis = state.analysis;
  const fits = analysis && analysis.board === board() && analysis.to_move === toMove();
  return fits ? analysis : null;
}

function gameStatus() {
  const analysis = currentAnalysis();
  return analysis ? analysis.status : "unknown";
}

function isOver() {
  return !["unknown", "in_progress"].includes(gameStatus());
}

// Cells are named by their keys (1-9, keypad layout) wherever the page names them.
function cellName(cell) {
  const { rows, cols } = variant();
  const key = keyOfCell(cell, rows, cols);
  return String(key === null ? cell + 1 : key);
}

function cellPosition(cell) {
  const { cols } = variant();
  return { row: Math.floor(cell / cols), col: cell % cols };
}

// ---------------------------------------------------------------- the flow of a game

function newGame() {
  state.moves = [];
  const who = vsComputer() ? `you play ${state.settings.human} against the computer` : "two players";
  restart(`New ${state.settings.variant} game: ${who}, ${state.settings.first} moves first.`);
}

// The moves changed: forget what belonged to the old position and analyse the new one.
function restart(event) {
  state.generation += 1;
  state.analysis = null;
  state.mainline = null;
  state.review = null;
  state.error = null;
  state.event = event;
  advance();
}

async function advance() {
  const generation = state.generation;
  state.busy = true;
  render();
  try {
    const analysis = await api.analyze({ board: board(), toMove: toMove(), variant: state.settings.variant });
    if (generation !== state.generation) {
      return;
    }
    state.analysis = analysis;
    if (analysis.status !== "in_progress") {
      finishGame(generation);
    } else if (isComputerTurn()) {
      await playComputer(generation);
    } else {
      state.busy = false;
      render();
    }
  } catch (error) {
    if (generation === state.generation) {
      fail(error, advance);
    }
  }
}

async function playComputer(generation) {
  state.busy = true;
  render();
  const { variant: variantName, policy, depth } = state.settings;
  const side = toMove();
  const answer = await api.computerMove({
    board: board(),
    toMove: side,
    variant: variantName,
    policy,
    depth,
  });
  if (generation !== state.generation) {
    return;
  }
  const cell = answer.cell;
  if (!Number.isInteger(cell) || board()[cell] !== EMPTY) {
    throw new Error(`the computer chose cell ${cell}, which is not free`);
  }
  state.moves.push(cell);
  restart(`The computer (${side}) played ${cellName(cell)}.`);
}

function finishGame(generation) {
  state.busy = false;
  render();
  loadReview(generation);
}

async function loadReview(generation) {
  state.review = { state: "loading" };
  render();
  const { variant: variantName, first } = state.settings;
  try {
    const data = await api.review({ moves: [...state.moves], variant: variantName, first });
    if (generation !== state.generation) {
      return;
    }
    if (!Array.isArray(data.plies)) {
      throw new Error("the review has no plies");
    }
    state.review = { state: "ready", data };
  } catch (error) {
    if (generation !== state.generation) {
      return;
    }
    state.review = { state: "error", message: error.message };
  }
  render();
}

function fail(error, retry) {
  state.busy = false;
  state.error = { message: `The service did not answer as expected. ${error.message}`, retry };
  render();
}

function say(event) {
  state.event = event;
  render();
}

function humanMove(cell) {
  if (state.busy || state.error) {
    return;
  }
  const analysis = currentAnalysis();
  if (!analysis || analysis.status !== "in_progress") {
    say("The game is over: press New game to play again.");
    return;
  }
  if (isComputerTurn()) {
    return;
  }
  if (board()[cell] !== EMPTY) {
    say(`Cell ${cellName(cell)} is taken.`);
    return;
  }
  const side = toMove();
  state.moves.push(cell);
  restart(vsComputer() ? `You played ${cellName(cell)}.` : `${side} played ${cellName(cell)}.`);
}

function undo() {
  const keep = undoLength(state.moves, state.settings.first, humanSide());
  if (keep === null) {
    return;
  }
  const taken = state.moves.length - keep;
  state.moves = state.moves.slice(0, keep);
  restart(taken === 1 ? "One move taken back." : `${taken} moves taken back.`);
}

async function showMainline() {
  const analysis = currentAnalysis();
  if (!analysis || analysis.status !== "in_progress") {
    return;
  }
  const generation = state.generation;
  state.mainline = { state: "loading" };
  render();
  try {
    const data = await api.analyze({
      board: analysis.board,
      toMove: analysis.to_move,
      variant: analysis.variant,
      mainline: true,
    });
    if (generation !== state.generation) {
      return;
    }
    if (!data.mainline || !Array.isArray(data.mainline.cells)) {
      throw new Error("the answer has no main line");
    }
    state.mainline = { state: "ready", from: analysis.to_move, ...data.mainline };
  } catch (error) {
    if (generation !== state.generation) {
      return;
    }
    state.mainline = { state: "error", message: error.message };
  }
  render();
}

// ---------------------------------------------------------------- rendering

function render() {
  renderRoot();
  renderStatus();
  renderBoard();
  renderControls();
  renderAnalysis();
  renderSettings();
  renderReview();
}

function renderRoot() {
  const root = $("app");
  root.dataset.busy = String(state.busy);
  root.dataset.status = gameStatus();
  root.dataset.board = board();
  root.dataset.toMove = toMove();
  root.dataset.moves = state.moves.join(",");
  root.dataset.variant = state.settings.variant;
}

function promptWords() {
  if (state.error) {
    return "";
  }
  if (isOver()) {
    const status = gameStatus();
    const winner = status === "x_won" ? "X" : status === "o_won" ? "O" : null;
    const outcome = gameOverWords(status);
    if (!winner || !vsComputer()) {
      return outcome;
    }
    return `${outcome} ${winner === state.settings.human ? "You won." : "The computer won."}`;
  }
  if (state.busy) {
    return isComputerTurn() && currentAnalysis() ? "The computer is thinking…" : "";
  }
  return vsComputer() ? `Your move (${toMove()}).` : `${toMove()} to move.`;
}

function renderStatus() {
  setText($("status"), [state.event, promptWords()].filter(Boolean).join(" ") || "…");
  const box = $("error");
  box.hidden = !state.error;
  if (state.error) {
    setText($("error-text"), state.error.message);
  }
}

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

function renderBoard() {
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

function renderControls() {
  $("undo").disabled = undoLength(state.moves, state.settings.first, humanSide()) === null;
  $("overlay-toggle").checked = state.overlay;
}

function renderAnalysis() {
  $("analysis").hidden = !state.overlay;
  if (!state.overlay) {
    return;
  }
  const analysis = currentAnalysis();
  let verdict = "Analysing…";
  if (analysis) {
    verdict = analysis.status === "in_progress" ? verdictWords(analysis) : gameOverWords(analysis.status);
  }
  setText($("verdict"), verdict);
  $("mainline-button").disabled =
    !analysis || analysis.status !== "in_progress" || state.mainline?.state === "loading";
  renderMainline();
}

function renderMainline() {
  const box = $("mainline");
  const line = state.mainline;
  box.hidden = !line;
  if (!line) {
    return;
  }
  box.dataset.state = line.state;
  if (line.state === "loading") {
    setText(box, "Finding the main line…");
  } else if (line.state === "error") {
    setText(box, `No main line: ${line.message}`);
  } else {
    box.dataset.cells = line.cells.join(",");
    box.dataset.status = line.status;
    const moves = sequenceWords(line.cells, line.from, cellName);
    setText(box, `Main line: ${moves} — ${statusWords(line.status)}.`);
  }
}

function renderSettings() {
  const computer = vsComputer();
  for (const field of document.querySelectorAll("[data-for='computer']")) {
    field.hidden = !computer;
  }
  document.querySelector("[data-for='depth']").hidden = !computer || state.settings.policy !== "depth";
  const policy = POLICIES.find((p) => p.name === state.settings.policy);
  setText($("policy-summary"), policy ? policy.summary : "");
  setText($("variant-rules"), variant().rules || "");
}

function renderReview() {
  const section = $("review");
  const review = state.review;
  section.hidden = !review;
  if (!review) {
    return;
  }
  section.dataset.state = review.state;
  const list = $("review-list");
  if (review.state !== "ready") {
    list.replaceChildren();
    setText($("review-summary"), "");
    setText(
      $("review-state"),
      review.state === "loading" ? "Reviewing the game…" : `No review: ${review.message}`,
    );
    return;
  }
  const { data } = review;
  setText($("review-state"), `${gameOverWords(data.status)} Every move, judged against perfect play:`);
  list.replaceChildren(...data.plies.map(reviewRow));
  setText($("review-summary"), summaryWords(data.summary));
}

function reviewRow(ply) {
  const item = document.createElement("li");
  item.dataset.ply = String(ply.ply);
  item.dataset.player = ply.player;
  item.dataset.cell = String(ply.cell);
  item.dataset.verdict = ply.verdict;
  const move = document.createElement("span");
  move.className = "review-move";
  move.textContent = `${ply.player}→${cellName(ply.cell)}`;
  const verdict = document.createElement("span");
  verdict.className = `review-verdict verdict-${ply.verdict}`;
  verdict.textContent = ply.verdict;
  const detail = document.createElement("span");
  detail.className = "review-detail";
  detail.textContent = reviewDetail(ply);
  item.append(move, " ", verdict, " ", detail);
  return item;
}

function reviewDetail(ply) {
  const played = ply.played ? valueWords(ply.played) : "";
  if (ply.verdict === "best" || !ply.before) {
    return played;
  }
  const best = (ply.best_moves || []).map(cellName).join(", ");
  return `${played}; best ${best ? `was ${best}, which ` : ""}${valueWords(ply.before)}`;
}

function summaryWords(summary) {
  if (!summary) {
    return "";
  }
  return ["X", "O"]
    .filter((side) => summary[side])
    .map((side) => `${side}: ${VERDICTS.map((v) => verdictCount(summary[side][v] ?? 0, v)).join(", ")}`)
    .join(" · ");
}

// "2 best", "0 slower", "1 mistake", "3 blunders".
function verdictCount(count, verdict) {
  return ["mistake", "blunder"].includes(verdict) ? countWords(count, verdict) : `${count} ${verdict}`;
}

// Writes only on change, so that the live regions announce only news.
function setText(element, text) {
  if (element.textContent !== text) {
    element.textContent = text;
  }
}

function setData(element, name, value) {
  if (value === undefined || value === null) {
    delete element.dataset[name];
  } else {
    element.dataset[name] = value;
  }
}

// ---------------------------------------------------------------- settings and input

function option(value, text) {
  const element = document.createElement("option");
  element.value = String(value);
  element.textContent = text;
  return element;
}

function fillSelect(select, options, selected) {
  select.replaceChildren(...options);
  select.value = String(selected);
}

function populateStaticChoices() {
  fillSelect(
    $("policy"),
    POLICIES.map((p) => option(p.name, p.label)),
    state.settings.policy,
  );
  fillSelect(
    $("depth"),
    DEPTHS.map((d) => option(d, String(d))),
    state.settings.depth,
  );
}

function populateVariants() {
  const choices = [...state.variants.values()].map((v) =>
    option(v.name, v.misere ? `${v.name} (three in a row loses)` : v.name),
  );
  fillSelect($("variant"), choices, state.settings.variant);
}

function readSettings() {
  const form = $("settings");
  const data = new FormData(form);
  state.settings = {
    mode: data.get("mode") || "computer",
    human: data.get("human") || "X",
    first: data.get("first") || "X",
    variant: data.get("variant") || "normal",
    policy: data.get("policy") || "perfect",
    depth: Number(data.get("depth") || DEFAULT_DEPTH),
    shortcuts: $("shortcuts").checked,
  };
}

function onSettingsChange(event) {
  readSettings();
  if (["policy", "depth", "shortcuts"].includes(event.target.name)) {
    render();
    return;
  }
  newGame();
}

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

function onKeyDown(event) {
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
  $("retry").addEventListener("click", () => {
    const retry = state.error && state.error.retry;
    state.error = null;
    if (retry) {
      retry();
    }
  });
  document.addEventListener("keydown", onKeyDown);
}

async function loadVariants() {
  try {
    const { variants } = await api.getVariants();
    state.variants = new Map(variants.map((v) => [v.name, v]));
  } catch (error) {
    state.event = `The variants could not be loaded (${error.message}); playing normal rules.`;
  }
  populateVariants();
}

async function start() {
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
