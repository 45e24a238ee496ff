// Over a gravity board (Connect Four and any "-gravity" variant), as its players know it: the column
// numbers (the keys 1–9 and the digits of a column string), and with the values shown each column's
// score in a row, as on Pascal Pons's solver: a win on a board of n cells scores ⌊(n + 1 − b) / 2⌋ with
// b the discs on the board before the winning one (22 − s with one's s-th disc on 7×6), a loss the
// opponent's score negated, a draw 0; the title and the cell's label say it in words. The row is
// aria-hidden: each cell's label carries the same value and score.

import { $, make, setData, setText } from "./dom.js";
import { EMPTY } from "./game.js";
import { dropCell } from "./columns.js";
import { board, state, variant } from "./state.js";
import { overlayValues } from "./overlay.js";
import { crowding, gridOf, isRack } from "./shape.js";
import { valueWords } from "./words.js";
import { t } from "./i18n.js";

// The score of a move proven to win or lose, as Pons counts it; null for anything else.
export function ponsScore(move, marks, cells) {
  if (!["win", "loss"].includes(move.result) || !Number.isInteger(move.remoteness)) {
    return move.result === "draw" ? 0 : null;
  }
  const score = Math.floor((cells + 2 - marks - move.remoteness) / 2);
  return move.result === "win" ? score : -score;
}

function signed(score) {
  return score > 0 ? `+${score}` : score < 0 ? `−${-score}` : "0";
}

// What a column's score cell says: the score, "?" (or a bound) while it is not proven, "" for no value.
export function scoreText(move, marks, cells) {
  if (!move) {
    return "";
  }
  const score = ponsScore(move, marks, cells);
  if (score !== null) {
    return signed(score);
  }
  if (move.result === "unknown") {
    return move.lower === "draw" ? "≥0" : move.upper === "draw" ? "≤0" : "?";
  }
  return t(move.result === "win" ? "rackWin" : "rackLoss"); // proven, its distance not yet
}

function ensureColumns(head, grid) {
  const { rows, cols, torus } = grid;
  const shape = `${rows}x${cols}${torus ? "t" : ""}`;
  if (head.dataset.shape === shape) {
    return;
  }
  head.dataset.shape = shape;
  head.classList.toggle("torus", torus);
  const { compact, big } = crowding(grid); // the board's gaps and cells (board.js)
  head.classList.toggle("compact", compact);
  head.classList.toggle("big", big);
  head.style.setProperty("--rows", String(rows));
  head.style.setProperty("--cols", String(cols));
  const items = [];
  for (let col = 0; col < cols; col += 1) {
    items.push(
      make(
        "div",
        { className: "rack-column", data: { col: String(col) } },
        make("span", { className: "rack-number", text: String(col + 1) }),
        make("span", { className: "rack-score" }),
      ),
    );
  }
  head.replaceChildren(...items);
}

export function renderRack() {
  const facts = variant();
  const grid = facts && gridOf(facts);
  const head = $("rack-head");
  const shown = Boolean(grid && isRack(grid) && state.editor === null);
  head.hidden = !shown;
  $("rack-note").hidden = !shown;
  if (!shown) {
    return;
  }
  ensureColumns(head, grid);
  head.classList.toggle("flipped", state.flipped);
  const marks = board();
  const placed = [...marks].filter((mark) => mark !== EMPTY).length;
  const values = overlayValues();
  for (const column of head.querySelectorAll(".rack-column")) {
    const cell = dropCell(marks, Number(column.dataset.col), grid);
    const move = values && cell !== null ? values.moves.get(cell) : undefined;
    const best = Boolean(move && values.best.has(cell));
    const words = values && values.mode === "values" ? scoreText(move, placed, facts.cells) : "";
    setText(column.querySelector(".rack-score"), words || (best ? "★" : ""));
    setData(column, "result", words && move ? move.result : undefined);
    setData(column, "best", best ? "true" : undefined);
    column.title = move && words ? valueWords(move) : "";
  }
}

// The words a gravity cell's label adds: its column's score ("score +1").
export function scoreWords(move, marks, cells) {
  const score = ponsScore(move, marks, cells);
  return score === null ? "" : t("scoreOf", { score: signed(score) });
}
