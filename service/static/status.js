// What the page says about the game as a whole: the heading, the status line (a fixed height, so that
// the board below it never moves: the prompt, what to do now, on its own first line, never clipped;
// the news of what just happened under it, cut to two lines, whole in its title and for screen
// readers), the error box, and the state of the game on #app's data attributes (for the stylesheet and
// the tests).

import { $, setText } from "./dom.js";
import { gridOf, sidesWords } from "./shape.js";
import {
  atEnd,
  board,
  computersPlay,
  currentAnalysis,
  gameStatus,
  isComputerTurn,
  isOver,
  state,
  toMove,
  variant,
  vsComputer,
} from "./state.js";
import { gameOverWords } from "./words.js";

export function renderRoot() {
  const root = $("app");
  root.dataset.busy = String(state.busy);
  root.dataset.status = gameStatus();
  root.dataset.board = board();
  root.dataset.toMove = toMove();
  root.dataset.moves = state.game.moves.join(",");
  root.dataset.ply = String(state.game.ply);
  root.dataset.variant = state.game.variant;
  root.dataset.editing = String(state.editor !== null);
}

export function renderHeading() {
  const facts = variant();
  const { layers, torus } = gridOf(facts);
  const extras = [torus ? "torus" : "", facts.misere ? "misère" : ""].filter(Boolean);
  const board = layers > 1 ? `board in ${layers} layers` : "board";
  const count = `${facts.exact ? "exactly " : ""}${facts.k} in a row`;
  const title = `${sidesWords(facts)} ${board}, ${count}${extras.map((e) => `, ${e}`).join("")}`;
  setText($("play-heading"), state.editor ? `Setting up a position: ${title}` : title);
}

export function renderStatus() {
  setText($("status-prompt"), promptWords() || "…");
  setText($("status-event"), state.event);
  $("status-event").title = state.event;
  const box = $("error");
  box.hidden = !state.error;
  if (state.error) {
    setText($("error-text"), state.error.message);
  }
}

// What the player should do or wait for now, after the news of what just happened. A request that
// waits for the service (a table being built, busy search slots) is said after the game's own state,
// never instead of it: "Game over: O wins." stays while the review waits.
function promptWords() {
  if (state.error) {
    return "";
  }
  const now = gameWords();
  if (state.waiting) {
    const { detail, seconds, attempt, attempts } = state.waiting;
    const wait = `Please wait: ${detail}. Trying again in ${seconds} s (${attempt} of ${attempts}).`;
    return now ? `${now} ${wait}` : wait;
  }
  return now;
}

function gameWords() {
  if (state.editor) {
    return "Click cells to set up the position.";
  }
  if (isOver()) {
    return overWords();
  }
  if (state.busy) {
    return isComputerTurn() && currentAnalysis() ? `The computer (${toMove()}) is thinking…` : "";
  }
  if (computersPlay()) {
    return state.paused ? `Paused: ${toMove()} to move.` : `Computer against computer: ${toMove()} to move.`;
  }
  if (isComputerTurn()) {
    return atEnd() ? "The computer's turn." : "The computer's turn here.";
  }
  return vsComputer() ? `Your move (${toMove()}).` : `${toMove()} to move.`;
}

function overWords() {
  const status = gameStatus();
  const winner = status === "x_won" ? "X" : status === "o_won" ? "O" : null;
  const outcome = gameOverWords(status, variant());
  if (!winner || !vsComputer()) {
    return outcome;
  }
  return `${outcome} ${winner === state.settings.human ? "You won." : "The computer won."}`;
}
