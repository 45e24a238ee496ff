// The flow of a game: new game, moves, the computer's replies, undo, and the service's failures.
// Each change of the moves starts a new generation, so that answers about an older position are dropped.

import * as api from "./api.js";
import { EMPTY, undoLength } from "./game.js";
import { loadReview } from "./review.js";
import {
  board,
  cellName,
  currentAnalysis,
  humanSide,
  isComputerTurn,
  render,
  state,
  toMove,
  vsComputer,
} from "./state.js";

export function newGame() {
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

function fail(error, retry) {
  state.busy = false;
  state.error = { message: `The service did not answer as expected. ${error.message}`, retry };
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

export function undo() {
  const keep = undoLength(state.moves, state.settings.first, humanSide());
  if (keep === null) {
    return;
  }
  const taken = state.moves.length - keep;
  state.moves = state.moves.slice(0, keep);
  restart(taken === 1 ? "One move taken back." : `${taken} moves taken back.`);
}

// Runs the step that failed again; that step does not clear the error itself, so it is cleared here first.
export function retry() {
  const again = state.error && state.error.retry;
  state.error = null;
  if (again) {
    again();
  }
}
