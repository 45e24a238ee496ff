// The search tree panel: the game tree of the position on the board, or of the game Eight, as /tree
// answers it (every line of play to a depth, with its value), and how minimax and alpha-beta walk it:
// the nodes each visits side by side, the walk replayed a visit at a step with its window (alpha, beta),
// and every cut-off with the bound that made it. Drawn only while the panel is open.

import * as api from "./api.js";
import { $, fillSelect, make, option, setText } from "./dom.js";
import { eightControls, eightPosition, loadEight, renderEight } from "./eight.js";
import { board, toMove, variant } from "./state.js";
import { stepWords, walkAt, wholeWords } from "./tree-replay.js";
import { describe, nodeName } from "./tree-words.js";
import { markWalk, showTree } from "./tree-view.js";

const ALGORITHMS = [
  ["alphabeta", "Alpha-beta"],
  ["alphabeta-ordered", "Alpha-beta, best guess first"],
  ["minimax", "Minimax"],
];
const EIGHT_PLIES = 6; // the longest game of Eight (the articles' "at most 6 levels")
const panel = { source: "board", algorithm: "alphabeta", depth: null, key: null, data: null, step: null };
let el = null;

// Makes the panel's controls inside #search-tree, once.
export function bindSearchTree() {
  const section = $("search-tree");
  const choice = (value, text, checked) =>
    make(
      "label",
      {},
      make("input", {
        attrs: { type: "radio", name: "tree-source", value, ...(checked ? { checked: "" } : {}) },
      }),
      ` ${text}`,
    );
  const source = make(
    "fieldset",
    {},
    make("legend", { text: "Tree of" }),
    choice("board", "the position on the board", true),
    choice("eight", "the game Eight", false),
  );
  const eight = eightControls(() => renderSearchTree());
  const algorithm = make("select", { attrs: { id: "tree-algorithm" } });
  fillSelect(
    algorithm,
    ALGORITHMS.map(([value, text]) => option(value, text)),
    panel.algorithm,
  );
  const depth = make("select", { attrs: { id: "tree-depth" } });
  const settings = make(
    "div",
    { className: "controls" },
    make("label", { text: "Walk ", attrs: { for: "tree-algorithm" } }),
    algorithm,
    make("label", { text: "Depth ", attrs: { for: "tree-depth" } }),
    depth,
  );
  const status = make("p", { className: "note", attrs: { id: "tree-status", "aria-live": "polite" } });
  const counts = make("table", { className: "tree-counts", attrs: { id: "tree-counts" } });
  const steps = [
    ["tree-start", "Start"],
    ["tree-previous", "Previous visit"],
    ["tree-next", "Next visit"],
    ["tree-whole", "Whole walk"],
  ].map(([id, text]) => make("button", { className: "secondary", text, attrs: { type: "button", id } }));
  const replay = make(
    "div",
    { className: "controls", attrs: { role: "group", "aria-label": "Replay the walk" } },
    ...steps,
  );
  const stepWords = make("p", { className: "tree-step", attrs: { id: "tree-step", "aria-live": "polite" } });
  const list = make("ul", {
    className: "tree-view",
    attrs: { role: "tree", id: "tree-view", "aria-label": "Game tree" },
  });
  const legend = make("p", {
    className: "legend",
    text: "Values are for the side to move at the top of the tree, coloured as on the board; each line's number is its minimax score (a win at ply p scores 1000 − p). Greyed dashed branches were pruned: the walk never visited them.",
  });
  const body = make(
    "div",
    { className: "search-tree-body" },
    source,
    eight,
    settings,
    status,
    counts,
    replay,
    stepWords,
    legend,
    list,
  );
  const details = make(
    "details",
    { attrs: { id: "search-tree-details" } },
    make("summary", { text: "How minimax and alpha-beta find the value" }),
    body,
  );
  section.append(details);
  el = { details, eight, algorithm, depth, status, counts, steps, stepWords, list };
  details.addEventListener("toggle", () => renderSearchTree());
  source.addEventListener("change", (event) => {
    panel.source = event.target.value;
    panel.depth = null;
    renderSearchTree();
  });
  algorithm.addEventListener("change", () => {
    panel.algorithm = algorithm.value;
    renderSearchTree();
  });
  depth.addEventListener("change", () => {
    panel.depth = depth.value === "" ? null : Number(depth.value);
    renderSearchTree();
  });
  const [start, previous, next, whole] = steps;
  start.addEventListener("click", () => replayAt(0));
  previous.addEventListener("click", () => replayAt(panel.step === null ? lastVisit() : panel.step - 1));
  next.addEventListener("click", () => replayAt(panel.step === null ? 0 : panel.step + 1));
  whole.addEventListener("click", () => replayAt(null));
}

function lastVisit() {
  return panel.data ? panel.data.visits.length - 1 : 0;
}

// The tree wanted now: of the board's position, or of Eight's.
function wanted() {
  if (panel.source === "eight") {
    return { ...eightPosition(), variant: "eight", plies: EIGHT_PLIES };
  }
  const facts = variant();
  const shown = board();
  return {
    board: shown,
    toMove: toMove(),
    variant: facts.name,
    plies: [...shown].filter((c) => c === ".").length,
  };
}

export function renderSearchTree() {
  if (!el || !variant()) {
    return;
  }
  el.eight.hidden = panel.source !== "eight";
  if (!el.details.open) {
    return;
  }
  if (panel.source === "eight") {
    loadEight();
    renderEight();
  }
  const want = wanted();
  const plies = Array.from({ length: Math.max(want.plies, 1) }, (_, i) =>
    option(String(i + 1), `${i + 1} ${i === 0 ? "ply" : "plies"}`),
  );
  fillSelect(el.depth, [option("", "Deepest that fits"), ...plies], panel.depth === null ? "" : panel.depth);
  const request = {
    board: want.board,
    toMove: want.toMove,
    variant: want.variant,
    algorithm: panel.algorithm,
    depth: panel.depth,
  };
  const key = JSON.stringify(request);
  if (key !== panel.key) {
    load(key, request);
  }
}

async function load(key, request) {
  panel.key = key;
  panel.data = null;
  panel.step = null;
  setText(el.status, "Growing the tree…");
  el.list.replaceChildren();
  el.counts.replaceChildren();
  try {
    const data = await api.tree(request);
    if (panel.key === key) {
      panel.data = data;
      draw();
    }
  } catch (error) {
    if (panel.key === key) {
      setText(el.status, error.detail || error.message);
    }
  }
}

function draw() {
  const data = panel.data;
  const algorithm = ALGORITHMS.find(([value]) => value === data.algorithm)[1];
  const reach = data.complete ? "to the end of every game" : `${data.depth} plies deep`;
  const cut = data.cut_for_size
    ? ` The whole game does not fit within ${data.max_nodes.toLocaleString("en")} nodes: the tree was cut at ${data.depth} plies for size.`
    : "";
  const values =
    data.values === "exact"
      ? "Every value is exact."
      : `Leaves at the horizon are guesses of the evaluation ${data.evaluation.name}: ${data.evaluation.description}.`;
  setText(el.status, `${data.nodes.toLocaleString("en")} nodes, ${reach}. ${values}${cut}`);
  const rows = ALGORITHMS.map(([value, text]) => {
    const count = data.counts[value];
    const share = Math.round((100 * count.nodes) / data.nodes);
    const row = make(
      "tr",
      {},
      make("th", { text, attrs: { scope: "row" } }),
      make("td", { text: `${count.nodes.toLocaleString("en")} (${share}%)` }),
      make("td", { text: String(count.cutoffs) }),
    );
    if (value === data.algorithm) {
      row.className = "chosen";
    }
    return row;
  });
  el.counts.replaceChildren(
    make("caption", { text: "Nodes each walk visits on this tree" }),
    make(
      "tr",
      {},
      make("th", { text: "Walk", attrs: { scope: "col" } }),
      make("th", { text: "Nodes", attrs: { scope: "col" } }),
      make("th", { text: "Cut-offs", attrs: { scope: "col" } }),
    ),
    ...rows,
  );
  el.list.setAttribute("aria-label", `Game tree, walked by ${algorithm}`);
  showTree(el.list, data, (node, parent) => describe(node, parent, data.to_move, boardFacts()));
  replayAt(null);
}

// The board's rows and columns, or null while the tree shown is Eight's.
function boardFacts() {
  return panel.data.variant === "eight" ? null : variant();
}

function replayAt(step) {
  const data = panel.data;
  if (!data) {
    return;
  }
  panel.step = step === null ? null : Math.max(0, Math.min(step, lastVisit()));
  const walked = walkAt(data, panel.step);
  markWalk(walked);
  setText(
    el.stepWords,
    panel.step === null
      ? wholeWords(data)
      : stepWords(data, panel.step, walked, (node) => nodeName(node, boardFacts())),
  );
  const [start, previous, next] = el.steps;
  start.disabled = panel.step === 0;
  previous.disabled = panel.step === 0;
  next.disabled = panel.step === lastVisit();
}
