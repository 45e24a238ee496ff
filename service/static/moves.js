// The move list: the main line, one row per move with its verdict when the review is shown, and after
// each move the other moves tried there, in parentheses and indented as PGN viewers show variations,
// each with its move number. Every move is a button that shows the board after it; the list is one Tab
// stop (the current move's button, or the first), and the game's keys (keys.js) move the current move,
// which the focus follows. The list is rebuilt only when the record changes; otherwise the buttons are
// updated in place, so that a focused move keeps the focus while the page redraws, and the current move
// is scrolled into the list's view.

import { $, make, setData, setText } from "./dom.js";
import { playerOf } from "./game.js";
import {
  currentVariation,
  cursorPath,
  deleteFromHere,
  deleteVariation,
  goToPath,
  promoteVariation,
} from "./lines.js";
import { isLine, pathKey } from "./record.js";
import { cellName, state } from "./state.js";
import { reviewedPlies } from "./review.js";
import { countWords, reviewDetail, verdictKind, verdictName } from "./words.js";
import { language, t } from "./i18n.js";

let built = null; // what the list was built for: the record, the first side and the variant
let shownAt = null; // the cursor the list last showed, to scroll and move the focus when it moves

// A move's button; in a variation its text starts with the move's number, as the main line's rows have.
function moveButton(path, numbered = false) {
  const cell = path[path.length - 1];
  const player = playerOf(path.length - 1, state.game.first);
  const button = make("button", {
    className: "ply-button",
    text: `${numbered ? `${path.length}. ` : ""}${player}→${cellName(cell)}`,
    attrs: {
      type: "button",
      tabindex: "-1",
      // The words on the button first (WCAG 2.5.3, label in name), the arrow said as words.
      "aria-label": t(numbered ? "moveLabelNumbered" : "moveLabel", {
        n: path.length,
        player,
        cell: cellName(cell),
      }),
    },
    data: { path: pathKey(path) },
  });
  button.addEventListener("click", () => goToPath(path));
  return button;
}

// A variation: the move `child` instead of the main move at `before`, and the line that follows it.
function variation(child, before) {
  const path = [...before, child.cell];
  const box = make("div", {
    className: "variation",
    attrs: { role: "group", "aria-label": t("variationFrom", { n: path.length }) },
  });
  box.append("(", moveButton(path, true));
  appendLine(box, child, path);
  box.append(")");
  return box;
}

// The line that follows `position` (reached by `path`) into `box`: each move, then its variations.
function appendLine(box, position, path) {
  let [at, atPath] = [position, path];
  while (at.children.length > 0) {
    const [main, ...others] = at.children;
    const next = moveButton([...atPath, main.cell], true);
    box.append(" ", next, ...others.map((child) => variation(child, atPath)));
    [at, atPath] = [main, [...atPath, main.cell]];
  }
}

function mainRow(main, others, path) {
  const row = make(
    "li",
    {
      data: {
        ply: String(path.length),
        cell: String(main.cell),
        player: playerOf(path.length - 1, state.game.first),
      },
    },
    moveButton(path),
    " ",
    make("span", { className: "review-verdict" }),
    " ",
    make("span", { className: "review-detail" }),
  );
  if (others.length > 0) {
    row.append(
      make("div", { className: "variations" }, ...others.map((child) => variation(child, path.slice(0, -1)))),
    );
  }
  return row;
}

function build(list, key) {
  const focused = list.contains(document.activeElement) ? document.activeElement.dataset.path : null;
  const rows = [];
  let [at, path] = [state.game.record, []];
  while (at.children.length > 0) {
    const [main, ...others] = at.children;
    path = [...path, main.cell];
    rows.push(mainRow(main, others, path));
    at = main;
  }
  list.replaceChildren(...rows);
  built = key;
  if (focused !== null && focused !== undefined) {
    const again = list.querySelector(`[data-path="${focused}"]`) || list.querySelector("[aria-current]");
    again?.focus();
  }
}

function renderVerdict(row, reviewed) {
  setData(row, "verdict", reviewed ? reviewed.verdict : undefined);
  const verdict = row.querySelector(".review-verdict");
  const name = reviewed ? verdictName(reviewed) : "";
  verdict.className = `review-verdict${reviewed ? ` verdict-${verdictKind(reviewed)}` : ""}`;
  setText(verdict, name);
  setText(row.querySelector(".review-detail"), reviewed ? reviewDetail(reviewed, cellName) : "");
}

// The verdicts belong to the line shown (the review is of it): only the main line's moves on it get one.
function renderVerdicts(list) {
  const plies = reviewedPlies();
  const { moves } = state.game;
  let onLine = true;
  [...list.children].forEach((row, index) => {
    onLine = onLine && moves[index] === Number(row.dataset.cell);
    const reviewed =
      onLine && plies && plies[index] && plies[index].cell === moves[index] ? plies[index] : null;
    renderVerdict(row, reviewed);
  });
}

// Keeps the current move in view by scrolling the list only (never the page, which would jump on a phone).
function scrollToCurrent(list, button) {
  if (!button) {
    list.scrollTop = 0;
    return;
  }
  const view = list.getBoundingClientRect();
  const box = button.getBoundingClientRect();
  if (box.top < view.top) {
    list.scrollTop -= view.top - box.top;
  } else if (box.bottom > view.bottom) {
    list.scrollTop += box.bottom - view.bottom;
  }
}

function renderCursor(list) {
  const here = pathKey(cursorPath());
  const line = pathKey(state.game.moves);
  let current = null;
  const buttons = list.querySelectorAll(".ply-button");
  for (const button of buttons) {
    const path = button.dataset.path;
    if (path === here) {
      button.setAttribute("aria-current", "step");
      current = button;
    } else {
      button.removeAttribute("aria-current");
    }
    setData(button, "line", line === path || line.startsWith(`${path},`) ? "true" : undefined);
  }
  const stop = current || buttons[0];
  for (const button of buttons) {
    button.tabIndex = button === stop ? 0 : -1;
  }
  const moved = shownAt !== here;
  shownAt = here;
  if (moved) {
    scrollToCurrent(list, current);
    if (current && list.contains(document.activeElement)) {
      current.focus();
    }
  }
}

export function renderMoves() {
  const { moves, ply, record, first, variant } = state.game;
  const list = $("move-list");
  const key = `${variant} ${first} ${JSON.stringify(record)} ${language()}`;
  if (key !== built) {
    build(list, key);
  }
  renderVerdicts(list);
  renderCursor(list);
  $("moves-empty").hidden = record.children.length > 0;
  // aria-disabled rather than disabled, so that a button keeps the focus when it reaches an end.
  const editing = state.editor !== null;
  const ends = { "nav-start": 0, "nav-back": 0, "nav-forward": moves.length, "nav-end": moves.length };
  for (const [id, end] of Object.entries(ends)) {
    $(id).setAttribute("aria-disabled", String(editing || ply === end));
  }
  let where = t("afterMoveOf", { n: ply, of: moves.length });
  if (ply === 0) {
    where = moves.length === 0 ? "" : t("startAhead", { moves: countWords(moves.length, "nMoves") });
  }
  setText($("nav-where"), where);
  $("variation-controls").hidden = isLine(record);
  const inVariation = currentVariation() !== null && !editing;
  for (const id of ["promote", "delete-variation"]) {
    $(id).setAttribute("aria-disabled", String(!inVariation));
  }
  $("delete-from-here").hidden = record.children.length === 0;
  $("delete-from-here").setAttribute("aria-disabled", String(editing || ply === 0));
}

// The buttons for variations act on the one the cursor is in; once one is done the focus goes to the
// current move when the button is now hidden or disabled, so that it is not lost.
function onVariationButton(action) {
  return (event) => {
    if (event.currentTarget.getAttribute("aria-disabled") === "true") {
      return;
    }
    action();
    const button = event.currentTarget;
    if (button.offsetParent === null || button.getAttribute("aria-disabled") === "true") {
      ($("move-list").querySelector("[aria-current]") || $("nav-start")).focus();
    }
  };
}

export function bindMoves() {
  $("promote").addEventListener("click", onVariationButton(promoteVariation));
  $("delete-variation").addEventListener("click", onVariationButton(deleteVariation));
  $("delete-from-here").addEventListener("click", onVariationButton(deleteFromHere));
}
