// What the page says about the game as a whole: the status line, the error box, and the state of the game
// on #app's data attributes (for the stylesheet and the tests).

import { $, setText } from "./dom.js";
import {
  board,
  currentAnalysis,
  gameStatus,
  isComputerTurn,
  isOver,
  state,
  toMove,
  vsComputer,
} from "./state.js";
import { gameOverWords } from "./words.js";

export function renderRoot() {
  const root = $("app");
  root.dataset.busy = String(state.busy);
  root.dataset.status = gameStatus();
  root.dataset.board = board();
  root.dataset.toMove = toMove();
  root.dataset.moves = state.moves.join(",");
  root.dataset.variant = state.settings.variant;
}

export function renderStatus() {
  setText($("status"), [state.event, promptWords()].filter(Boolean).join(" ") || "…");
  const box = $("error");
  box.hidden = !state.error;
  if (state.error) {
    setText($("error-text"), state.error.message);
  }
}

// What the player should do or wait for now, after the news of what just happened.
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
