// The game Eight, the articles' first game tree: two players pick 1, 2 or 3 in turn, never the number the
// other just picked, and whoever brings the total to exactly 8 wins (passing it loses). Played here with
// a button per pick, each coloured by its value as the board colours a move; the rules and the values are
// the service's (/analyze with variant eight): a pick is offered when the analysis lists it, and the
// position after it is the one the analysis gives.

import * as api from "./api.js";
import { make, setData, setText } from "./dom.js";

const START = { board: "0:0", toMove: "X" };
const PICKS = [1, 2, 3];
const eight = { line: [START], analysis: null, error: null, elements: null };
let changed = () => {};

export function eightPosition() {
  return eight.line[eight.line.length - 1];
}

// The controls, made once: the position in words, a button per pick, Back and Start again.
export function eightControls(onChange) {
  changed = onChange;
  const words = make("p", { className: "eight-state", attrs: { "aria-live": "polite" } });
  const picks = PICKS.map((pick) => {
    const button = make("button", { className: "eight-pick", text: String(pick), attrs: { type: "button" } });
    button.addEventListener("click", () => play(pick));
    return button;
  });
  const back = make("button", { className: "secondary", text: "Back", attrs: { type: "button" } });
  back.addEventListener("click", () => go(eight.line.slice(0, -1)));
  const again = make("button", { className: "secondary", text: "Start again", attrs: { type: "button" } });
  again.addEventListener("click", () => go([START]));
  eight.elements = { words, picks, back };
  const row = make("div", {
    className: "controls eight-picks",
    attrs: { role: "group", "aria-label": "Pick" },
  });
  row.append(...picks, back, again);
  return make("div", { className: "eight" }, words, row);
}

export async function loadEight() {
  const { board, toMove } = eightPosition();
  if (eight.analysis && eight.analysis.board === board && eight.analysis.to_move === toMove) {
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
}

function go(line) {
  if (line.length === 0) {
    return;
  }
  eight.line = line;
  changed();
  loadEight();
}

function play(pick) {
  const move = eight.analysis?.moves.find((m) => m.move === pick);
  if (move) {
    const { toMove } = eightPosition();
    go([...eight.line, { board: move.board, toMove: toMove === "X" ? "O" : "X" }]);
  }
}

function positionWords({ board, toMove }, analysis) {
  const [total, last] = board.split(":");
  const picked = last === "0" ? "no pick yet" : `last pick ${last}`;
  if (analysis && analysis.status !== "in_progress") {
    const winner = analysis.status === "x_won" ? "X" : "O";
    return `Total ${total}: ${winner} wins (${Number(total) === 8 ? "reached 8" : "the other passed 8"}).`;
  }
  return `Total ${total}, ${picked}: ${toMove} to pick.`;
}

function moveWords(move) {
  if (move.result === "draw") {
    return "draws";
  }
  return `${move.result === "win" ? "wins" : "loses"} in ${move.remoteness}`;
}

export function renderEight() {
  if (!eight.elements) {
    return;
  }
  const { words, picks, back } = eight.elements;
  const analysis = eight.analysis;
  setText(
    words,
    eight.error ? `The service did not answer: ${eight.error}` : positionWords(eightPosition(), analysis),
  );
  picks.forEach((button, i) => {
    const move = analysis?.moves.find((m) => m.move === PICKS[i]);
    button.disabled = !move;
    setData(button, "result", move ? move.result : null);
    const label = move ? `Pick ${PICKS[i]}: ${moveWords(move)}` : `Pick ${PICKS[i]}: not allowed now`;
    button.setAttribute("aria-label", label);
    button.title = label;
  });
  back.disabled = eight.line.length < 2;
}
