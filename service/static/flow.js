// The flow of a game: new games, moves, the computer's replies (against itself too, paced so that one
// can watch, with a pause), stepping through the line shown, undo and redo, and the service's failures.
// Each change of the position starts a new generation, so that answers about an older position are
// dropped.

import * as api from "./api.js";
import { serviceMessage } from "./api.js";
import { EMPTY, redoTarget, undoTarget } from "./game.js";
import { lineFrom, recordOf, withLine } from "./record.js";
import { loadReview, reviewDue } from "./review.js";
import {
  atEnd,
  board,
  cellName,
  computersPlay,
  currentAnalysis,
  humanSide,
  isComputerTurn,
  render,
  state,
  toMove,
  variant,
  vsComputer,
} from "./state.js";
import { saveGameToUrl } from "./url.js";
import { later, sentences, t } from "./i18n.js";

const analyses = new Map(); // "variant board to_move" -> analysis; each position's value never changes
const KEPT_ANALYSES = 500;
const PACE_MS = 600; // between two moves of computer against computer, to watch the game unfold

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function analysisOf(position) {
  const key = `${position.variant} ${position.board} ${position.toMove}`;
  if (!analyses.has(key)) {
    const answer = await api.analyze(position);
    if (analyses.size >= KEPT_ANALYSES) {
      analyses.delete(analyses.keys().next().value);
    }
    analyses.set(key, answer);
  }
  return analyses.get(key);
}

// The analysis the page holds for a position, or null: the move list's annotations (annotations.js)
// are read from these, without asking the service anything.
export function heldAnalysis(variantName, board, toMove) {
  return analyses.get(`${variantName} ${board} ${toMove}`) || null;
}

// Starts the game `game` ({ variant, first, start, record, moves, ply }, `moves` the line shown): a new
// entry in the history when `push`, and the computer may move by itself when `live`.
export function startGame(game, { event, live = true, push = true }) {
  state.game = { start: null, moves: [], ...game };
  state.game.record = withLine(game.record || recordOf([]), state.game.moves);
  state.game.ply = game.ply ?? state.game.moves.length;
  state.live = live;
  state.review = null;
  show(event, { push });
}

export function newGame() {
  state.paused = false;
  const who = computersPlay() ? "whoComputers" : vsComputer() ? "whoComputer" : "whoHumans";
  const { human, first } = state.settings;
  const name = state.game.variant;
  startGame(
    { variant: name, first },
    { event: () => t("newGameOf", { name, who: t(who, { side: human }), first }) },
  );
}

// The position changed (a move, a step, a new game): forget what belonged to the old one, put the game
// in the URL and analyse the position shown.
export function show(event, { push = false } = {}) {
  state.generation += 1;
  state.analysis = null;
  state.mainline = null;
  state.error = null;
  state.event = event;
  saveGameToUrl(state.game, variant(), { push });
  advance();
}

async function advance() {
  const generation = state.generation;
  state.busy = true;
  render();
  try {
    const analysis = await analysisOf({ board: board(), toMove: toMove(), variant: state.game.variant });
    if (generation !== state.generation) {
      return;
    }
    state.analysis = analysis;
    if (analysis.status === "in_progress" && isComputerTurn() && atEnd() && state.live) {
      await playComputer(generation);
      return;
    }
    state.busy = false;
    render();
    if (reviewDue()) {
      loadReview();
    }
  } catch (error) {
    if (generation === state.generation) {
      fail(error, advance);
    }
  }
}

function policyOf(name) {
  return state.policies.find((policy) => policy.name === name);
}

async function playComputer(generation) {
  if (computersPlay()) {
    // Paced, and idle meanwhile: the pause and the step buttons answer at once.
    state.busy = false;
    render();
    await sleep(PACE_MS);
    if (generation !== state.generation || state.paused) {
      return;
    }
    state.busy = true;
    render();
  }
  const { policy, depth } = state.settings;
  const side = toMove();
  const answer = await api.computerMove({
    board: board(),
    toMove: side,
    variant: state.game.variant,
    policy,
    depth: policyOf(policy)?.uses_depth ? depth : undefined,
  });
  if (generation !== state.generation) {
    return;
  }
  if (state.paused) {
    state.busy = false;
    render();
    return;
  }
  const cell = answer.cell;
  if (!Number.isInteger(cell) || board()[cell] !== EMPTY) {
    throw new Error(t("computerChoseTaken", { cell }));
  }
  // Past the tables "perfect" (and "random-best") may have to play a move no search proved best: the
  // page says so. The weaker policies mean to play other moves, and say nothing.
  const aimsBest = policy === "perfect" || policy === "random-best";
  const guessed = aimsBest && answer.proven_best === false;
  const name = cellName(cell);
  play(cell, () => sentences([t("computerPlayed", { side, cell: name }), guessed ? t("itIsAGuess") : ""]));
}

// Plays `cell` at the cursor. Nothing is lost: the next move of the line shown just steps forward,
// another move already tried follows its own line, and a new one starts a variation (the old line stays).
function play(cell, event) {
  const { moves, ply, record } = state.game;
  const path = [...moves.slice(0, ply), cell];
  state.game.record = withLine(record, path);
  state.game.moves = moves[ply] === cell ? moves : lineFrom(state.game.record, path);
  state.game.ply = ply + 1;
  show(event);
}

function fail(error, retry) {
  state.busy = false;
  state.error = { message: later("serviceTrouble", { why: serviceMessage(error) }), retry };
  render();
}

export function say(event) {
  state.event = event;
  render();
}

export function humanMove(cell) {
  if (state.busy || state.error) {
    return;
  }
  const analysis = currentAnalysis();
  if (!analysis || analysis.status !== "in_progress") {
    say(later("gameOverHere"));
    return;
  }
  if (isComputerTurn()) {
    say(later(computersPlay() ? "computersPlaying" : "computersTurnPress"));
    return;
  }
  if (board()[cell] !== EMPTY) {
    say(later("cellTaken", { cell: cellName(cell) }));
    return;
  }
  const side = toMove();
  state.live = true;
  play(cell, later(vsComputer() ? "youPlayed" : "sidePlayed", { side, cell: cellName(cell) }));
}

// Plays on from the position shown: the computer moves if it is its turn (its move, if it is not the one
// that followed, starts a variation).
export function playOn(event = later("playingOn")) {
  state.game.moves = state.game.moves.slice(0, state.game.ply);
  state.live = true;
  show(event);
}

// Computer against computer: a pause keeps the game where it is (one may step through it or move for
// either side); going on plays on from the move shown (a new line there starts a variation).
export function togglePause() {
  if (state.paused) {
    state.paused = false;
    playOn(later("goingOn"));
    return;
  }
  state.paused = true;
  say(later("pausedEvent"));
}

export function goTo(ply) {
  const target = Math.min(Math.max(ply, 0), state.game.moves.length);
  if (target === state.game.ply || state.editor !== null) {
    return;
  }
  state.game.ply = target;
  state.certificate = null; // a step through the game leaves a win by threes being stepped (certificate.js)
  show(target === 0 ? later("startOfGame") : later("afterMove", { n: target }));
}

export function step(delta) {
  goTo(state.game.ply + delta);
}

export function undo() {
  const target = undoTarget(state.game.ply, state.game.first, humanSide());
  if (target !== null) {
    goTo(target);
  }
}

export function redo() {
  const target = redoTarget(state.game.ply, state.game.moves.length, state.game.first, humanSide());
  if (target !== null) {
    goTo(target);
  }
}

export function canUndo() {
  return undoTarget(state.game.ply, state.game.first, humanSide()) !== null;
}

export function canRedo() {
  return !atEnd();
}

// Runs the step that failed again; that step does not clear the error itself, so it is cleared here first.
export function retry() {
  const again = state.error && state.error.retry;
  state.error = null;
  if (again) {
    again();
  }
}
