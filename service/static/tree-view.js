// The game tree as a collapsible tree (the WAI-ARIA tree pattern): one item per node with its role (MAX
// or MIN), its move, and what the walk shown knows of its value for the side to move at the root: its
// window while the walk is inside it, then the value it returned (a bound as ≤ v or ≥ v; an exact value
// coloured as the board colours a move). Nodes the walk has not reached are greyed, each pruned branch
// under the bound that pruned it; the principal variation is drawn once the top has returned.
// Only the children of expanded nodes are drawn, so a tree of thousands of nodes stays light.
// Keys: ↑ ↓ move, → opens or goes to the first child, ← closes or goes to the parent, Home and End,
// Enter or Space opens and closes.

import { make, setData } from "./dom.js";
import { num, REPLAY_WORDS, shownValue, windowSpoken, windowText } from "./tree-replay.js";
import { TREE_WORDS } from "./tree-words.js";
import { localized } from "./i18n.js";

// Every word the rows add, in one place so that it can be translated (strings-ja.js, viewWords).
export const VIEW_WORDS = localized({
  scoreTitle: "the value the walk returned (≤ or ≥: a bound)",
  notYet: "not returned yet",
  entered: "entered",
  aBound: "a bound",
  bound: {
    upper: (v) => `at most ${v}, a bound`,
    lower: (v) => `at least ${v}, a bound`,
  },
}, "viewWords");

const OPEN_WHOLE = 100; // nodes
let view = null; // { list, data, byId, parentOf, expanded: Set, focus, describe, marks }

// Draws `data` (a /tree answer) in `list` (a <ul role="tree">); `describe(node, parent)` gives an
// item's words: { move, value }. The root and the principal variation start open.
export function showTree(list, data, describe) {
  const byId = new Map();
  const parentOf = new Map();
  const walk = (node, parent) => {
    byId.set(node.id, node);
    parentOf.set(node.id, parent);
    node.children.forEach((child) => walk(child, node));
  };
  walk(data.root, null);
  // A small tree (Eight's, 3x3's last moves) opens whole; a larger one along its principal variation and
  // down to the first cut-off, so that a pruned branch is in sight.
  const small = byId.size <= OPEN_WHOLE;
  const open = [...byId.values()].filter((n) => n.children.length && (small || n.pv)).map((n) => n.id);
  view = { list, data, byId, parentOf, expanded: new Set(open), focus: data.root.id, describe, marks: null };
  if (data.cutoffs.length) {
    view.expanded.add(data.cutoffs[0].node);
    openTo(data.cutoffs[0].node);
  }
  list.onkeydown = onKey;
  list.onclick = onClick;
  redraw();
}

// Marks what a walk has done by a step: `marks` is walkAt's answer (tree-replay.js): each node's state
// ("later", "open", "visited", "pruned"), the values returned, the open nodes' windows, the bounds that
// pruned, the node of the step (or null) and whether the top has returned.
export function markWalk(marks) {
  if (!view) {
    return;
  }
  view.marks = marks;
  if (marks.current !== null && marks.current !== undefined) {
    openTo(marks.current);
    view.expanded.add(marks.current); // its children: where the walk goes next, or what a cut-off pruned
  }
  redraw();
}

function openTo(id) {
  for (let at = view.parentOf.get(id); at; at = view.parentOf.get(at.id)) {
    view.expanded.add(at.id);
  }
}

function redraw() {
  const { list, data } = view;
  list.replaceChildren(item(data.root, null, 1));
  const focused = list.querySelector(`[data-node="${view.focus}"]`) || list.firstElementChild;
  focused.tabIndex = 0;
}

function strengthAmong(node, siblings) {
  const alike = siblings.filter((s) => s.result === node.result && s.remoteness !== null);
  if (node.result === null || node.result === "draw" || alike.length < 2) {
    return 3;
  }
  const far = alike.map((s) => s.remoteness);
  const [low, high] = [Math.min(...far), Math.max(...far)];
  if (low === high) {
    return 3;
  }
  const goodness = node.result === "win" ? high - node.remoteness : node.remoteness - low;
  return 1 + Math.round((2 * goodness) / (high - low));
}

function item(node, parent, level) {
  const words = view.describe(node, parent);
  const open = node.children.length > 0 && view.expanded.has(node.id);
  const marks = view.marks;
  const walk = marks ? marks.state.get(node.id) : "visited";
  const prunedWords = marks ? marks.notes.get(node.id) : undefined;
  const value = valueShown(node, words, walk);
  const role = make("span", {
    className: "tree-role",
    text: TREE_WORDS.role[node.role],
    attrs: { title: TREE_WORDS.roleTitle[node.role] },
  });
  // The item is named by its line, what it shows first (WCAG 2.5.3, label in name: no aria-label, which
  // would have to hold the open children's words too), then what it does not show, for screen readers
  // only: the role in words, and the value in words where the line shows it as symbols. Spaces keep
  // the words apart in the name (a flex line draws none).
  const line = make(
    "span",
    { className: "tree-line" },
    role,
    " ",
    make("span", { className: "tree-move", text: words.move }),
    " ",
    make("span", { className: "tree-value", text: value.words }),
    " ",
    make("span", { className: "tree-score", text: value.score, attrs: { title: VIEW_WORDS.scoreTitle } }),
  );
  if (prunedWords) {
    line.append(" ", make("span", { className: "tree-pruned", text: prunedWords }));
  }
  const shownWords = [value.words, value.score].filter(Boolean).join(", ");
  const unseen = [TREE_WORDS.roleSpoken[node.role], value.spoken === shownWords ? "" : value.spoken];
  const spoken = `, ${unseen.filter(Boolean).join(", ")}`;
  line.append(make("span", { className: "visually-hidden tree-spoken", text: spoken }));
  const li = make("li", {
    className: "tree-node",
    attrs: { role: "treeitem", "aria-level": level, tabindex: -1 },
  });
  // Only a value the walk has returned exactly is coloured: before, the walk knows nothing of it, and a
  // bound is not the value.
  setData(li, "node", node.id);
  setData(li, "role", node.role);
  setData(li, "result", value.exact ? node.result : null);
  setData(li, "bound", value.bound);
  setData(li, "strength", parent ? strengthAmong(node, parent.children) : 3);
  setData(li, "pv", node.pv && (!marks || marks.rootDone) ? "true" : null);
  setData(li, "walk", walk);
  setData(li, "current", marks && marks.current === node.id ? "true" : null);
  if (node.children.length) {
    li.setAttribute("aria-expanded", String(open));
  }
  li.append(line);
  if (open) {
    const group = make("ul", { attrs: { role: "group" } });
    group.append(...node.children.map((child) => item(child, node, level + 1)));
    li.append(group);
  }
  return li;
}

// What a row shows of its value as the walk stands: nothing before the node returns; its window (or
// its best so far, under minimax) while open; once returned, the value it returned, as a bound (≤ v,
// ≥ v) when it is one, in words only when exact.
function valueShown(node, words, walk) {
  const marks = view.marks;
  const none = { words: "", score: "", spoken: VIEW_WORDS.notYet, exact: false, bound: null };
  if (!marks) {
    const score = num(node.score);
    return { words: words.value || "", score, spoken: words.value || score, exact: true, bound: null };
  }
  if (walk === "open") {
    const window = marks.windows.get(node.id);
    if (view.data.algorithm === "minimax") {
      const text = window.best === null ? "" : REPLAY_WORDS.soFar(num(window.best));
      return { ...none, words: text, spoken: text || VIEW_WORDS.entered };
    }
    return { ...none, words: windowText(window), spoken: `${VIEW_WORDS.entered}, ${windowSpoken(window)}` };
  }
  const returned = marks.shown.get(node.id);
  if (walk === "pruned") {
    return { ...none, spoken: "" };
  }
  if (!returned) {
    return none;
  }
  const score = shownValue(returned.value, returned.bound);
  if (returned.bound) {
    const spoken = VIEW_WORDS.bound[returned.bound](num(returned.value));
    return { words: VIEW_WORDS.aBound, score, spoken, exact: false, bound: returned.bound };
  }
  const spoken = words.value ? `${words.value}, ${score}` : score;
  return { words: words.value || "", score, spoken, exact: true, bound: null };
}

// The items shown, top to bottom (those inside closed nodes are not drawn at all).
function shown() {
  return [...view.list.querySelectorAll("[role='treeitem']")];
}

function focusNode(id) {
  view.focus = id;
  const items = shown();
  items.forEach((li) => {
    li.tabIndex = -1;
  });
  const target = view.list.querySelector(`[data-node="${id}"]`);
  target.tabIndex = 0;
  target.focus();
}

function toggle(id, open) {
  const node = view.byId.get(id);
  if (!node.children.length) {
    return;
  }
  const willOpen = open === undefined ? !view.expanded.has(id) : open;
  if (willOpen) {
    view.expanded.add(id);
  } else {
    view.expanded.delete(id);
  }
  redraw();
  focusNode(id);
}

function onClick(event) {
  const li = event.target.closest("[role='treeitem']");
  if (li) {
    toggle(Number(li.dataset.node));
  }
}

function onKey(event) {
  const li = event.target.closest("[role='treeitem']");
  if (!li) {
    return;
  }
  const id = Number(li.dataset.node);
  const node = view.byId.get(id);
  const items = shown();
  const at = items.indexOf(li);
  const go = (other) => other && focusNode(Number(other.dataset.node));
  const actions = {
    ArrowDown: () => go(items[at + 1]),
    ArrowUp: () => go(items[at - 1]),
    Home: () => go(items[0]),
    End: () => go(items[items.length - 1]),
    ArrowRight: () => {
      if (node.children.length && !view.expanded.has(id)) {
        toggle(id, true);
      } else if (node.children.length) {
        focusNode(node.children[0].id);
      }
    },
    ArrowLeft: () => {
      const parent = view.parentOf.get(id);
      if (node.children.length && view.expanded.has(id)) {
        toggle(id, false);
      } else if (parent) {
        focusNode(parent.id);
      }
    },
    Enter: () => toggle(id),
    " ": () => toggle(id),
  };
  const action = actions[event.key];
  if (action) {
    event.preventDefault();
    action();
  } else if (event.key.length === 1) {
    event.stopPropagation(); // the page's number keys play cells: not from inside the tree
  }
}
