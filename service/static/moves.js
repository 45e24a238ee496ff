// The move list: every ply of the game as a button that shows the board after it, the buttons that step
// through the game, and, when the review is shown, each ply's verdict. The rows are kept and updated in
// place, so that a focused ply keeps the focus while the page redraws.

import { $, make, setData, setText } from "./dom.js";
import { goTo } from "./flow.js";
import { playerOf } from "./game.js";
import { cellName, state } from "./state.js";
import { reviewedPlies } from "./review.js";
import { reviewDetail, verdictName } from "./words.js";

function makeRow(ply) {
  const button = make("button", { className: "ply-button", attrs: { type: "button" } });
  button.addEventListener("click", () => goTo(ply));
  return make(
    "li",
    { data: { ply: String(ply) } },
    button,
    " ",
    make("span", { className: "review-verdict" }),
    " ",
    make("span", { className: "review-detail" }),
  );
}

function renderRow(row, { ply, cell, player, current, reviewed }) {
  row.dataset.cell = String(cell);
  row.dataset.player = player;
  const button = row.querySelector(".ply-button");
  setText(button, `${player}→${cellName(cell)}`);
  button.setAttribute("aria-label", `Move ${ply}: ${player} on ${cellName(cell)}`);
  if (current) {
    button.setAttribute("aria-current", "step");
  } else {
    button.removeAttribute("aria-current");
  }
  setData(row, "verdict", reviewed ? reviewed.verdict : undefined);
  const verdict = row.querySelector(".review-verdict");
  const name = reviewed ? verdictName(reviewed) : "";
  verdict.className = `review-verdict${reviewed ? ` verdict-${name.replace(" ", "-")}` : ""}`;
  setText(verdict, name);
  setText(row.querySelector(".review-detail"), reviewed ? reviewDetail(reviewed, cellName) : "");
}

export function renderMoves() {
  const { moves, ply, first } = state.game;
  const list = $("move-list");
  while (list.children.length > moves.length) {
    list.lastElementChild.remove();
  }
  while (list.children.length < moves.length) {
    list.append(makeRow(list.children.length + 1));
  }
  const plies = reviewedPlies();
  moves.forEach((cell, index) => {
    const reviewed = plies && plies[index] && plies[index].cell === cell ? plies[index] : null;
    const player = playerOf(index, first);
    renderRow(list.children[index], { ply: index + 1, cell, player, current: index + 1 === ply, reviewed });
  });
  $("moves-empty").hidden = moves.length > 0;
  // aria-disabled rather than disabled, so that a button keeps the focus when it reaches an end.
  const editing = state.editor !== null;
  const ends = { "nav-start": 0, "nav-back": 0, "nav-forward": moves.length, "nav-end": moves.length };
  for (const [id, end] of Object.entries(ends)) {
    $(id).setAttribute("aria-disabled", String(editing || ply === end));
  }
  let where = `After move ${ply} of ${moves.length}`;
  if (ply === 0) {
    where = moves.length === 0 ? "" : `Start, ${moves.length} moves ahead`;
  }
  setText($("nav-where"), where);
}
