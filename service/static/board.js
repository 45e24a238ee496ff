// The board: its cells as buttons with their marks, the analysed values, the best moves, the line that
// ended the game and the main line; on a torus a cut-off ring of the opposite edges shows that lines wrap;
// a gravity board is a rack of discs (board.css) with its columns' numbers and scores over it (rack.js);
// a box is its layers side by side (boxes.css), each a grid of its own under a heading ("Layer 2"), and
// under gravity the last one's heading says it is the bottom. On any gravity board the cells where a
// mark can land now are marked (big-boards.css).
// The board is one Tab stop: the cell that has the focus holds tabindex 0 (see keys.js). `f` turns it
// round (state.flipped): the stylesheet turns the grid, the cells' insides stay upright.

import { $, make, setData, setText } from "./dom.js";
import { EMPTY } from "./game.js";
import {
  board,
  cellName,
  cellPosition,
  currentAnalysis,
  gameStatus,
  isComputerTurn,
  state,
  variant,
} from "./state.js";
import { columnName, columnOf, dropCell, offeredCells } from "./columns.js";
import { estimateWords, overlayValues, shortValueWords, tinyValueWords } from "./overlay.js";
import { scoreWords } from "./rack.js";
import { crowding, gridOf, isRack } from "./shape.js";
import { isGoBoard, lastMove, moveNumbers, starPoints, threatsOf } from "./gomoku.js";
import { gobanShows, threatWords } from "./goban.js";
import { treeMove } from "./certificate.js";
import { cellLabel, valueWords } from "./words.js";
import { language, t } from "./i18n.js";

let onCell = () => {};
let focused = 0; // the cell that holds the board's Tab stop

export function setCellHandler(handler) {
  onCell = handler;
}

export function focusedCell() {
  return focused;
}

// The board's Tab stop goes to `cell`; the focus too unless `moveFocus` is false (a move made with a
// pointer or a number key leaves the focus where it was).
export function focusCell(cell, { moveFocus = true } = {}) {
  focused = cell;
  const button = cellButton(cell);
  if (button) {
    renderTabStop();
    if (moveFocus) {
      button.focus();
    }
  }
}

export function cellButton(cell) {
  return $("board").querySelector(`.cell[data-cell='${cell}']`);
}

// ---------------------------------------------------------------- shape

// The grid is made once per board shape, then only updated, so that the focus stays where it is.
function ensureCells(layout) {
  const { layers, rows, cols, torus } = layout;
  const bottomed = layout.gravity && layers > 1; // a box whose last layer is its bottom
  const grid = $("board");
  const go = isGoBoard(layout);
  const shape = `${layers}x${rows}x${cols}${torus ? "t" : ""}${bottomed ? "g" : ""}${go ? "go" : ""} ${language()}`;
  if (grid.dataset.shape === shape) {
    return;
  }
  grid.dataset.shape = shape;
  grid.classList.toggle("torus", torus);
  grid.classList.toggle("box", layers > 1);
  grid.classList.toggle("goban", go);
  // Past five cells across a cell is too small for "wins in 7" beside its name: short words, the name
  // hidden under a value (the cell's label still has it); past nine, smaller cells; on those and on a
  // box, the tiniest words.
  const { compact, big, tiny } = crowding(layout);
  grid.classList.toggle("compact", compact);
  grid.classList.toggle("big", big);
  grid.classList.toggle("tiny", tiny);
  grid.style.setProperty("--layers", String(layers));
  grid.style.setProperty("--rows", String(rows));
  grid.style.setProperty("--cols", String(cols));
  focused = Math.min(focused, layers * rows * cols - 1);
  if (layers > 1) {
    const bottom = bottomed ? layers - 1 : null;
    grid.replaceChildren(
      ...Array.from({ length: layers }, (_, layer) => makeLayer(layer, rows, cols, layer === bottom)),
    );
    return;
  }
  const ring = torus ? 1 : 0;
  const items = [];
  for (let r = -ring; r < rows + ring; r += 1) {
    for (let c = -ring; c < cols + ring; c += 1) {
      const inside = r >= 0 && r < rows && c >= 0 && c < cols;
      const wrapped = ((r + rows) % rows) * cols + ((c + cols) % cols);
      items.push(inside ? makeCell(wrapped) : makeGhost(wrapped, r, c, rows, cols));
    }
  }
  if (go) {
    items.push(...goCoordinates(rows, cols));
    markIntersections(items, rows, cols);
  }
  grid.replaceChildren(...items);
}

// A go board's coordinates, for the eye (each cell's label has its name): the column letters along the
// bottom and the row numbers up the left side, row 1 at the bottom, as the cells are named. They are
// placed outside the grid's cells (goban.css), so they take none of its places.
function goCoordinates(rows, cols) {
  const letters = Array.from({ length: cols }, (_, col) =>
    make("span", { className: "coord coord-col", text: cellName(col).replace(/\d+$/, ""), attrs: { "aria-hidden": "true" } }),
  );
  const numbers = Array.from({ length: rows }, (_, row) =>
    make("span", { className: "coord coord-row", text: String(rows - row), attrs: { "aria-hidden": "true" } }),
  );
  letters.forEach((label, col) => label.style.setProperty("--at", String(col)));
  numbers.forEach((label, row) => label.style.setProperty("--at", String(row)));
  return [...letters, ...numbers];
}

// Each intersection's lines stop at the board's edge, and the star points carry a dot (goban.css).
function markIntersections(items, rows, cols) {
  const stars = new Set(starPoints({ rows, cols }));
  for (const button of items.filter((item) => item.classList.contains("cell"))) {
    const cell = Number(button.dataset.cell);
    const row = Math.floor(cell / cols);
    const col = cell % cols;
    const edges = [row === 0 ? "top" : row === rows - 1 ? "bottom" : "", col === 0 ? "left" : col === cols - 1 ? "right" : ""];
    setData(button, "edge", edges.filter(Boolean).join(" ") || undefined);
    setData(button, "star", stars.has(cell) ? "true" : undefined);
  }
}

// One layer of a box: its heading, then its cells row by row (the service numbers them layer by layer).
// The bottom layer of a gravity box says so in its heading, where every mark falls to first.
function makeLayer(layer, rows, cols, bottom) {
  const id = `board-layer-${layer + 1}`;
  const first = layer * rows * cols;
  const cells = Array.from({ length: rows * cols }, (_, index) => makeCell(first + index));
  const text = t("layerHeading", { n: layer + 1 });
  const heading = make("h3", { className: "layer-heading", text, attrs: { id } });
  if (bottom) {
    heading.append(" ", make("span", { className: "layer-bottom", text: t("bottomMark") }));
  }
  return make(
    "div",
    { className: "layer", data: { layer: String(layer) }, attrs: { role: "group", "aria-labelledby": id } },
    heading,
    make("div", { className: "layer-grid" }, ...cells),
  );
}

function makeCell(cell) {
  const button = make("button", {
    className: "cell",
    data: { cell: String(cell) },
    attrs: { type: "button" },
  });
  // Spaces between the parts, as a reader sees them apart ("a1 X", not "a1X"); a flex box draws none.
  for (const part of ["name", "mark", "number", "value", "best", "plan", "threat", "last"]) {
    button.append(make("span", { className: `cell-${part}`, attrs: { "aria-hidden": "true" } }), " ");
  }
  button.addEventListener("click", () => {
    focused = cell;
    onCell(cell);
  });
  return button;
}

// A cut-off copy of the cell on the opposite edge, beside the board's edge: for the eye only.
function makeGhost(cell, r, c, rows, cols) {
  const edges = [r < 0 ? "top" : r >= rows ? "bottom" : "", c < 0 ? "left" : c >= cols ? "right" : ""];
  const className = ["ghost", ...edges.filter(Boolean).map((edge) => `ghost-${edge}`)].join(" ");
  return make(
    "div",
    { className, data: { ghostOf: String(cell) }, attrs: { "aria-hidden": "true" } },
    make("span", { className: "cell-mark" }),
  );
}

// ---------------------------------------------------------------- drawing

export function renderBoard() {
  const facts = variant();
  if (!facts) {
    return;
  }
  const layout = gridOf(facts);
  ensureCells(layout);
  const editing = state.editor !== null;
  const marks = editing ? state.editor.board : board();
  const context = {
    marks,
    editing,
    layout,
    cells: facts.cells,
    offered: editing ? null : offeredCells(marks, layout),
    values: editing ? null : overlayValues(),
    playable: editing || (!state.busy && !state.error && gameStatus() === "in_progress" && !isComputerTurn()),
    line: new Set(editing ? [] : (currentAnalysis()?.lines || []).flat()),
    plan: editing ? new Map() : mainlinePlan(),
    placed: [...marks].filter((mark) => mark !== EMPTY).length,
    ...goContext(facts, layout, marks, editing),
  };
  const grid = $("board");
  grid.classList.toggle("flipped", state.flipped);
  grid.dataset.overlay = context.values ? context.values.mode : "off";
  grid.classList.toggle("editing", editing);
  grid.classList.toggle("gravity", isRack(layout) && !editing);
  grid.classList.toggle("falls", layout.gravity && !editing);
  grid.classList.toggle("numbered", context.numbers.size > 0);
  grid.dataset.black = state.game.first;
  for (const button of grid.querySelectorAll(".cell")) {
    renderCell(button, context);
  }
  for (const ghost of grid.querySelectorAll(".ghost")) {
    const cell = Number(ghost.dataset.ghostOf);
    ghost.dataset.mark = marks[cell];
    ghost.classList.toggle("line", context.line.has(cell));
    setText(ghost.firstChild, marks[cell] === EMPTY ? "" : marks[cell]);
  }
  renderTabStop();
  $("torus-note").hidden = !layout.torus;
}

// The last move (on every board), and on a go board the move numbers and threats when they are shown,
// and under renju the points black may not play, on black's turn (the service lists them).
function goContext(facts, layout, marks, editing) {
  const shows = gobanShows();
  const go = isGoBoard(layout);
  const analysis = editing ? null : currentAnalysis();
  const blacksTurn = analysis && analysis.status === "in_progress" && analysis.to_move === "X";
  const rule = { k: facts.k, exact: Boolean(facts.exact), renju: Boolean(facts.renju), black: "X" };
  return {
    last: editing ? null : lastMove(state.game),
    numbers: go && !editing && shows.numbers ? moveNumbers(state.game) : new Map(),
    threats: go && !editing && shows.threats && facts.k ? threatsOf(marks, layout, rule) : new Map(),
    forbidden: new Set(blacksTurn && Array.isArray(analysis.forbidden) ? analysis.forbidden : []),
  };
}

function renderTabStop() {
  for (const button of $("board").querySelectorAll(".cell")) {
    button.tabIndex = Number(button.dataset.cell) === focused ? 0 : -1;
  }
}

// The main line's cells, numbered from 1, with the side that plays each; else the next move of a win by
// threes being stepped (certificate.js), numbered 1; empty unless one of them is shown.
function mainlinePlan() {
  const line = state.mainline;
  if (!line || line.state !== "ready" || !line.shown) {
    const next = treeMove();
    return new Map(next ? [[next.cell, { number: 1, side: next.side, tree: true }]] : []);
  }
  const sides = [line.from, line.from === "X" ? "O" : "X"];
  return new Map(line.cells.map((cell, index) => [cell, { number: index + 1, side: sides[index % 2] }]));
}

function renderCell(
  button,
  { marks, editing, layout, cells, offered, values, playable, line, plan, placed, last, numbers, threats, forbidden },
) {
  const cell = Number(button.dataset.cell);
  const mark = marks[cell];
  const move = values && mark === EMPTY ? values.moves.get(cell) : undefined;
  const best = Boolean(move && values.best.has(cell));
  // On a go board only proven values are marked: the many cells the search did not settle stay plain
  // (their labels still say so).
  const plainUnknown = isGoBoard(layout) && move && move.result === "unknown";
  const showValue = Boolean(move && values.mode === "values" && !plainUnknown);
  const number = numbers.get(cell);
  const threat = threats.get(cell);
  const barred = forbidden.has(cell);
  setData(button, "last", cell === last ? "true" : undefined);
  setData(button, "number", number ? String(number) : undefined);
  setData(button, "forbidden", barred ? "true" : undefined);
  setData(button, "threatX", threat?.X);
  setData(button, "threatO", threat?.O);
  const planned = plan.get(cell);
  dropIn(button, mark, layout, editing);
  button.dataset.mark = mark;
  button.classList.toggle("line", line.has(cell));
  setData(button, "offered", offered && offered.has(cell) && playable ? "true" : undefined);
  setData(button, "result", showValue ? move.result : undefined);
  const remoteness = showValue && move.remoteness !== null ? String(move.remoteness) : undefined;
  setData(button, "remoteness", remoteness);
  setData(button, "strength", showValue ? String(move.strength) : undefined);
  setData(button, "estimate", showValue && move.result === "unknown" ? "true" : undefined);
  setData(button, "best", best ? "true" : undefined);
  setData(button, "plan", planned ? String(planned.number) : undefined);
  setData(button, "planSide", planned ? planned.side : undefined);
  button.classList.toggle("best", best);
  // On a gravity board a click anywhere in a column plays its lowest empty cell (see app.js).
  const col = columnOf(cell, layout);
  const target = !editing && layout.gravity ? dropCell(marks, col, layout) : cell;
  button.setAttribute("aria-disabled", String(!(playable && !barred && (editing || target !== null))));
  const name = cellName(cell);
  const { compact, tiny } = crowding(layout);
  const short = tiny ? tinyValueWords : compact ? shortValueWords : valueWords;
  const words = showValue ? short(move) : "";
  const star = best ? (compact ? "★" : t("starBest")) : "";
  const planWords = planned ? t(planned.tree ? "treePlanMark" : "planMark", { n: planned.number }) : "";
  const value = showValue ? move : null;
  // A stone's number follows its mark, as the eye reads them: "X, 12".
  const seenMark = number ? `${mark}${t("listGap")}${number}` : mark;
  const label = cellLabel({ name, ...cellPosition(cell), mark: seenMark, value, shown: words, best, star, plan: planWords });
  const extras = [
    showValue ? estimateWords(move) : "",
    showValue && isRack(layout) ? scoreWords(move, placed, cells) : "",
    target !== null && target !== cell
      ? t("playsAt", { column: columnName(col, layout), cell: cellName(target) })
      : "",
    line.has(cell) ? t("inTheLine") : "",
    number ? t("goMoveNumber", { n: number }) : "",
    cell === last ? t("lastMoveMark") : "",
    barred ? t("forbiddenPoint") : "",
    threat ? threatWords(threat) : "",
  ];
  button.setAttribute("aria-label", [label, ...extras.filter(Boolean)].join(t("listGap")));
  setText(button.querySelector(".cell-name"), name);
  setText(button.querySelector(".cell-mark"), mark === EMPTY ? "" : mark);
  setText(button.querySelector(".cell-number"), number ? String(number) : "");
  setText(button.querySelector(".cell-value"), words);
  setText(button.querySelector(".cell-best"), star);
  setText(button.querySelector(".cell-plan"), planned ? String(planned.number) : "");
}

// A mark that has just appeared on a rack falls from above the board to its cell (board.css animates
// it, unless the reader prefers less motion): the distance is its row plus one, in cells. A box's
// layers are side by side, so its marks fall through no distance on the screen.
function dropIn(button, mark, layout, editing) {
  const fell = isRack(layout) && !editing && button.dataset.mark === EMPTY && mark !== EMPTY;
  if (!fell) {
    return;
  }
  button.style.setProperty("--fall", String(Math.floor(Number(button.dataset.cell) / layout.cols) + 1));
  button.classList.remove("dropped");
  void button.offsetWidth; // restarts the animation when the same cell falls again
  button.classList.add("dropped");
}
