// The search tree panel: the game tree of the position on the board, of the game Eight, as /tree
// answers it (every line of play to a depth, with its value), or Russell and Norvig's two-ply tree with
// leaves of one's own (made in the page), and how minimax and alpha-beta walk it: the nodes each visits
// side by side, and the walk replayed a step at a time, each node's value shown only once it returns
// (a bound as a bound), with its window (alpha, beta) while the walk is inside it, and every cut-off
// with the bound that made it. Drawn only while the panel is open.

import * as api from "./api.js";
import { $, fillSelect, make, option, setText } from "./dom.js";
import { eightControls, eightPosition, loadEight, renderEight } from "./eight.js";
import { board, toMove, variant } from "./state.js";
import { textbookControls, textbookLeaves } from "./textbook-leaves.js";
import { textbookDescribe, textbookName, textbookStatus, textbookTree } from "./textbook-tree.js";
import { stepWords, walkAt, walkSteps, wholeWords } from "./tree-replay.js";
import { describe, nodeName } from "./tree-words.js";
import { markWalk, showTree } from "./tree-view.js";
import { foreign, localized } from "./i18n.js";

// Every word the panel says, in one place so that it can be translated (strings-ja.js, panelWords).
export const PANEL_WORDS = localized({
  algorithms: {
    alphabeta: "Alpha-beta",
    "alphabeta-ordered": "Alpha-beta, best guess first",
    minimax: "Minimax",
  },
  treeOf: "Tree of",
  sources: {
    board: "the position on the board",
    eight: "the game Eight",
    textbook: "Russell and Norvig's figure 5.5",
  },
  walk: "Walk ",
  depth: "Depth ",
  plies: (n) => `${n} ${n === 1 ? "ply" : "plies"}`,
  deepest: "Deepest that fits",
  steps: { start: "Start", previous: "Previous step", next: "Next step", whole: "Whole walk" },
  replay: "Replay the walk",
  tree: "Game tree",
  treeWalked: (algorithm) => `Game tree, walked by ${algorithm}`,
  legend:
    "Values are for the side to move at the top of the tree (MAX), coloured as on the board; MIN is the other side. A node shows its value only once the walk returns it: ≤ v or ≥ v is a bound (the walk stopped early there), [α, β] the window of a node the walk is inside. A win at ply p scores 1000 − p. Greyed dashed branches were pruned: the walk never visited them.",
  summary: "How minimax and alpha-beta find the value",
  growing: "Growing the tree…",
  everyGame: "to the end of every game",
  pliesDeep: (n) => `${n} plies deep`,
  cutForSize: (max, depth) =>
    ` The whole game does not fit within ${max} nodes: the tree was cut at ${depth} plies for size.`,
  exact: "Every value is exact.",
  guesses: (name, description) => `Leaves at the horizon are guesses of the evaluation ${name}: ${description}.`,
  status: (nodes, reach, values, cut) => `${nodes} nodes, ${reach}. ${values}${cut}`,
  countsCaption: "Nodes each walk visits on this tree",
  countsHead: ["Walk", "Nodes", "Cut-offs"],
}, "panelWords");

const P = PANEL_WORDS;
const algorithms = () => Object.entries(P.algorithms); // in the page's language when said
const EIGHT_PLIES = 6; // the longest game of Eight (the articles' "at most 6 levels")
const panel = {
  source: "board",
  algorithm: "alphabeta",
  depth: null,
  key: null,
  data: null,
  walk: null,
  step: null,
};
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
    make("legend", { text: P.treeOf }),
    choice("board", P.sources.board, panel.source === "board"),
    choice("eight", P.sources.eight, panel.source === "eight"),
    choice("textbook", P.sources.textbook, panel.source === "textbook"),
  );
  const eight = eightControls(() => renderSearchTree());
  const textbook = textbookControls(() => renderSearchTree());
  const algorithm = make("select", { attrs: { id: "tree-algorithm" } });
  fillSelect(
    algorithm,
    algorithms().map(([value, text]) => option(value, text)),
    panel.algorithm,
  );
  const depth = make("select", { attrs: { id: "tree-depth" } });
  const depthLabel = make("label", { text: P.depth, attrs: { for: "tree-depth" } });
  const settings = make(
    "div",
    { className: "controls" },
    make("label", { text: P.walk, attrs: { for: "tree-algorithm" } }),
    algorithm,
    depthLabel,
    depth,
  );
  const status = make("p", { className: "note", attrs: { id: "tree-status", "aria-live": "polite" } });
  const counts = make("table", { className: "tree-counts", attrs: { id: "tree-counts" } });
  const steps = [
    ["tree-start", P.steps.start],
    ["tree-previous", P.steps.previous],
    ["tree-next", P.steps.next],
    ["tree-whole", P.steps.whole],
  ].map(([id, text]) => make("button", { className: "secondary", text, attrs: { type: "button", id } }));
  const replay = make(
    "div",
    { className: "controls", attrs: { role: "group", "aria-label": P.replay } },
    ...steps,
  );
  const stepWords = make("p", { className: "tree-step", attrs: { id: "tree-step", "aria-live": "polite" } });
  const list = make("ul", {
    className: "tree-view",
    attrs: { role: "tree", id: "tree-view", "aria-label": P.tree },
  });
  const legend = make("p", { className: "legend", text: P.legend });
  const body = make(
    "div",
    { className: "search-tree-body" },
    source,
    eight,
    textbook,
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
    make("summary", { text: P.summary }),
    body,
  );
  section.append(details);
  el = { details, eight, textbook, algorithm, depth, depthLabel, status, counts, steps, stepWords, list };
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

// The panel made again in the page's language after a switch (language.js), open as it was, its tree
// asked for again.
export function rebuildSearchTree() {
  if (!el) {
    return;
  }
  const open = el.details.open;
  el.details.remove();
  panel.key = null;
  bindSearchTree();
  el.details.open = open;
}

function lastVisit() {
  return panel.walk ? panel.walk.steps.length - 1 : 0;
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
  el.textbook.hidden = panel.source !== "textbook";
  el.depth.hidden = panel.source === "textbook";
  el.depthLabel.hidden = panel.source === "textbook";
  if (!el.details.open) {
    return;
  }
  if (panel.source === "textbook") {
    const leaves = textbookLeaves();
    const key = JSON.stringify({ textbook: leaves, algorithm: panel.algorithm });
    if (leaves !== null && key !== panel.key) {
      panel.key = key;
      show(textbookTree(leaves, panel.algorithm));
    }
    return;
  }
  if (panel.source === "eight") {
    loadEight();
    renderEight();
  }
  const want = wanted();
  const plies = Array.from({ length: Math.max(want.plies, 1) }, (_, i) =>
    option(String(i + 1), P.plies(i + 1)),
  );
  fillSelect(el.depth, [option("", P.deepest), ...plies], panel.depth === null ? "" : panel.depth);
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
  panel.walk = null;
  panel.step = null;
  setText(el.status, P.growing);
  el.list.replaceChildren();
  el.counts.replaceChildren();
  try {
    const data = await api.tree(request);
    if (panel.key === key) {
      show(data);
    }
  } catch (error) {
    if (panel.key === key) {
      setText(el.status, foreign(error.detail || error.message)); // the service's English
    }
  }
}

function statusWords(data) {
  if (data.variant === "textbook") {
    return textbookStatus(data);
  }
  const reach = data.complete ? P.everyGame : P.pliesDeep(data.depth);
  const cut = data.cut_for_size ? P.cutForSize(data.max_nodes.toLocaleString("en"), data.depth) : "";
  const values =
    data.values === "exact" ? P.exact : P.guesses(data.evaluation.name, data.evaluation.description);
  return P.status(data.nodes.toLocaleString("en"), reach, values, cut);
}

function show(data) {
  panel.data = data;
  panel.walk = walkSteps(data);
  panel.step = null;
  setText(el.status, statusWords(data));
  const rows = algorithms().map(([value, text]) => {
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
    make("caption", { text: P.countsCaption }),
    make("tr", {}, ...P.countsHead.map((text) => make("th", { text, attrs: { scope: "col" } }))),
    ...rows,
  );
  el.list.setAttribute("aria-label", P.treeWalked(P.algorithms[data.algorithm]));
  showTree(el.list, data, describer(data));
  replayAt(null);
}

// A row's words, and a node's name in the replay's words, for the tree shown.
function describer(data) {
  if (data.variant === "textbook") {
    return textbookDescribe;
  }
  return (node, parent) => describe(node, parent, data.to_move, boardFacts());
}

function namer(data) {
  if (data.variant === "textbook") {
    return textbookName;
  }
  return (node) => nodeName(node, boardFacts());
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
  const walked = walkAt(data, panel.step, panel.walk);
  markWalk(walked);
  setText(
    el.stepWords,
    panel.step === null ? wholeWords(data) : stepWords(data, panel.walk, panel.step, walked, namer(data)),
  );
  const [start, previous, next] = el.steps;
  start.disabled = panel.step === 0;
  previous.disabled = panel.step === 0;
  next.disabled = panel.step === lastVisit();
}
