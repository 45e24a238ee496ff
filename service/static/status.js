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
import { foreign, now, plain, sentences, t } from "./i18n.js";

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
  const extras = [torus ? t("torus") : "", facts.misere ? t("misere") : ""].filter(Boolean);
  const sides = sidesWords(facts);
  const board = layers > 1 ? t("boardInLayers", { sides, n: layers }) : t("boardOf", { sides });
  const count = t(facts.exact ? "exactlyInARow" : "inARow", { k: facts.k });
  const title = [board, count, ...extras].join(t("listGap"));
  setText($("play-heading"), state.editor ? t("settingUp", { title }) : title);
}

export function renderStatus() {
  setText($("status-prompt"), promptWords() || "…");
  const event = now(state.event);
  setText($("status-event"), event);
  $("status-event").title = plain(event);
  const box = $("error");
  box.hidden = !state.error;
  if (state.error) {
    setText($("error-text"), now(state.error.message));
  }
}

// What the player should do or wait for now, after the news of what just happened. A request that
// waits for the service (a table being built, busy search slots) is said after the game's own state,
// never instead of it: "Game over: O wins." stays while the review waits.
function promptWords() {
  if (state.error) {
    return "";
  }
  const game = gameWords();
  if (state.waiting) {
    const { detail, seconds, attempt, attempts } = state.waiting;
    const wait = t("pleaseWait", { detail: foreign(detail), seconds, attempt, attempts });
    return sentences([game, wait]);
  }
  return game;
}

function gameWords() {
  if (state.editor) {
    return t("editorPrompt");
  }
  if (isOver()) {
    return overWords();
  }
  if (state.busy) {
    return isComputerTurn() && currentAnalysis() ? t("computerThinking", { side: toMove() }) : "";
  }
  if (computersPlay()) {
    return t(state.paused ? "pausedToMove" : "computersToMove", { side: toMove() });
  }
  if (isComputerTurn()) {
    return t(atEnd() ? "computersTurn" : "computersTurnHere");
  }
  return t(vsComputer() ? "yourMove" : "sideToMove", { side: toMove() });
}

function overWords() {
  const status = gameStatus();
  const winner = status === "x_won" ? "X" : status === "o_won" ? "O" : null;
  const outcome = gameOverWords(status, variant());
  if (!winner || !vsComputer()) {
    return outcome;
  }
  return sentences([outcome, t(winner === state.settings.human ? "youWon" : "computerWon")]);
}
