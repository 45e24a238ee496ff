// The game Eight, the articles' first game tree: two players pick 1, 2 or 3 in turn, never the number the
// other just picked, and whoever brings the total to exactly 8 wins (passing it loses). Played here with
// a button per pick, each coloured by its value as the board colours a move; the rules and the values are
// the service's (/analyze with variant eight): a pick is offered when the analysis lists it, and the
// position after it is the one the analysis gives. The rules shown are GET /variants' words for Eight.
// One can play it against the computer: POST /move serves only boards, so the computer's pick is the
// best move /analyze names (perfect play from Eight's table).

import * as api from "./api.js";
import { make, option, setData, setText } from "./dom.js";
import { foreign, localized } from "./i18n.js";

// Every word Eight's controls say, in one place so that it can be translated (strings-ja.js, eightWords).
export const EIGHT_WORDS = localized({
  rulesHeading: "Eight's rules",
  rulesMissing: "The service did not give Eight's rules.",
  opponent: "Play ",
  opponents: {
    none: "both sides yourself",
    O: "X against the computer",
    X: "O against the computer (it picks first)",
  },
  thinking: "The computer picks…",
  computerPicked: (side, pick) => `The computer (${side}) picked ${pick}.`,
  back: "Back",
  again: "Start again",
  pickGroup: "Pick",
  noAnswer: (error) => `The service did not answer: ${error}`,
  noPick: "no pick yet",
  lastPick: (last) => `last pick ${last}`,
  won: (total, winner, reached) =>
    `Total ${total}: ${winner} wins (${reached ? "reached 8" : "the other passed 8"}).`,
  toPick: (total, picked, side) => `Total ${total}, ${picked}: ${side} to pick.`,
  draws: "draws",
  winsIn: (n) => `wins in ${n}`,
  losesIn: (n) => `loses in ${n}`,
  pick: (n, words) => `Pick ${n}: ${words}`,
  notNow: "not allowed now",
  computersTurn: "the computer's turn",
}, "eightWords");

const W = EIGHT_WORDS;
const START = { board: "0:0", toMove: "X" };
const PICKS = [1, 2, 3];
const COMPUTER_PAUSE_MS = 500; // long enough to see the position the computer answers
const eight = {
  line: [START],
  analysis: null,
  error: null,
  elements: null,
  computer: "none", // the side the computer plays, or "none"
  rules: null,
  lastComputer: null, // { side, pick }: the computer's last pick, said until the player picks
};
let changed = () => {};
let pending = null; // the computer's pick waiting to be played

export function eightPosition() {
  return eight.line[eight.line.length - 1];
}

// The controls, made once: the position in words, a button per pick, Back and Start again.
export function eightControls(onChange) {
  changed = onChange;
  const words = make("p", { className: "eight-state", attrs: { "aria-live": "polite" } });
  const rules = make("p", { className: "eight-rules", attrs: { id: "eight-rules" } });
  const opponent = make("select", { attrs: { id: "eight-opponent" } });
  opponent.append(...Object.entries(W.opponents).map(([value, text]) => option(value, text)));
  opponent.addEventListener("change", () => {
    eight.computer = opponent.value;
    go([START]);
  });
  const picks = PICKS.map((pick) => {
    const button = make("button", { className: "eight-pick", text: String(pick), attrs: { type: "button" } });
    button.addEventListener("click", () => play(pick));
    return button;
  });
  const back = make("button", { className: "secondary", text: W.back, attrs: { type: "button" } });
  back.addEventListener("click", () => go(backTo()));
  const again = make("button", { className: "secondary", text: W.again, attrs: { type: "button" } });
  again.addEventListener("click", () => go([START]));
  eight.elements = { words, picks, back, rules };
  const row = make("div", {
    className: "controls eight-picks",
    attrs: { role: "group", "aria-label": W.pickGroup },
  });
  row.append(...picks, back, again);
  const against = make(
    "div",
    { className: "controls" },
    make("label", { text: W.opponent, attrs: { for: "eight-opponent" } }),
    opponent,
  );
  return make(
    "div",
    { className: "eight" },
    make("h3", { text: W.rulesHeading }),
    rules,
    against,
    words,
    row,
  );
}

// Back to the player's previous turn: against the computer, past its pick too.
// (Unchanged when there is no such turn: the line itself.)
function backTo() {
  let line = eight.line.slice(0, -1);
  while (line.length > 0 && computersTurn(line[line.length - 1])) {
    line = line.slice(0, -1);
  }
  return line.length ? line : eight.line;
}

function computersTurn(position) {
  return eight.computer !== "none" && position.toMove === eight.computer;
}

// Eight's rules as GET /variants words them, asked for once.
async function loadRules() {
  if (eight.rules !== null) {
    return;
  }
  eight.rules = "";
  try {
    const { games = [] } = await api.getVariants();
    const game = games.find((g) => g.name === "eight");
    eight.rules = game ? foreign(game.rules) : W.rulesMissing; // the service's English, marked so
  } catch (error) {
    eight.rules = W.rulesMissing;
  }
  renderEight();
}

export async function loadEight() {
  loadRules();
  const { board, toMove } = eightPosition();
  if (eight.analysis && eight.analysis.board === board && eight.analysis.to_move === toMove) {
    computerPlays();
    return;
  }
  eight.analysis = null;
  renderEight();
  try {
    const answer = await api.analyze({ board, toMove, variant: "eight" });
    if (answer.board === eightPosition().board) {
      eight.analysis = answer;
      eight.error = null;
    }
  } catch (error) {
    eight.error = error.message;
  }
  renderEight();
  computerPlays();
}

// On the computer's turn, the best pick /analyze names, after a short pause.
function computerPlays() {
  const analysis = eight.analysis;
  const position = eightPosition();
  if (!analysis || analysis.status !== "in_progress" || !computersTurn(position) || pending !== null) {
    return;
  }
  const line = eight.line;
  pending = setTimeout(() => {
    pending = null;
    if (eight.line === line && analysis.best_move !== null) {
      eight.lastComputer = { side: position.toMove, pick: analysis.best_move };
      play(analysis.best_move, true);
    }
  }, COMPUTER_PAUSE_MS);
}

function go(line) {
  if (line.length === 0) {
    return;
  }
  if (pending !== null) {
    clearTimeout(pending);
    pending = null;
  }
  if (line !== eight.line && !line.computerMove) {
    eight.lastComputer = null;
  }
  eight.line = line;
  changed();
  loadEight();
}

function play(pick, byComputer = false) {
  const move = eight.analysis?.moves.find((m) => m.move === pick);
  if (move && (byComputer || !computersTurn(eightPosition()))) {
    const { toMove } = eightPosition();
    const line = [...eight.line, { board: move.board, toMove: toMove === "X" ? "O" : "X" }];
    line.computerMove = byComputer;
    go(line);
  }
}

function positionWords({ board, toMove }, analysis) {
  const [total, last] = board.split(":");
  const picked = last === "0" ? W.noPick : W.lastPick(last);
  if (analysis && analysis.status !== "in_progress") {
    const winner = analysis.status === "x_won" ? "X" : "O";
    return W.won(total, winner, Number(total) === 8);
  }
  const said = W.toPick(total, picked, toMove);
  const previous = eight.lastComputer;
  const computer = previous ? `${W.computerPicked(previous.side, previous.pick)} ` : "";
  return computersTurn({ toMove }) ? `${computer}${said} ${W.thinking}` : `${computer}${said}`;
}

function moveWords(move) {
  if (move.result === "draw") {
    return W.draws;
  }
  return move.result === "win" ? W.winsIn(move.remoteness) : W.losesIn(move.remoteness);
}

export function renderEight() {
  if (!eight.elements) {
    return;
  }
  const { words, picks, back, rules } = eight.elements;
  const analysis = eight.analysis;
  setText(rules, eight.rules || "");
  setText(words, eight.error ? W.noAnswer(eight.error) : positionWords(eightPosition(), analysis));
  const waiting = computersTurn(eightPosition());
  picks.forEach((button, i) => {
    const move = analysis?.moves.find((m) => m.move === PICKS[i]);
    button.disabled = !move || waiting;
    setData(button, "result", move ? move.result : null);
    const why = waiting ? W.computersTurn : W.notNow;
    const said = move && !waiting ? moveWords(move) : move ? why : W.notNow;
    const label = W.pick(PICKS[i], said);
    button.setAttribute("aria-label", label);
    button.title = label;
  });
  back.disabled = backTo() === eight.line;
}
