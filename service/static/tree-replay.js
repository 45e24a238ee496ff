// A walk of the game tree replayed a step at a time, from a /tree answer (or a tree of the same shape made
// in the page). A step is what happens at one moment of the walk: it enters a node (with its window α, β),
// a leaf gives its value, or a node returns a value, with the cut-off that made it stop early. A node's
// value is known only once it has returned; a value returned outside the node's window is a bound
// (fail-soft alpha-beta: at most v when v ≤ α, at least v when v ≥ β), never the exact value. No DOM, no
// HTTP.

import { localized } from "./i18n.js";

// Every sentence the replay says, in one place so that it can be translated (strings-ja.js, replayWords).
export const REPLAY_WORDS = localized({
  minus: "−",
  infinity: "∞",
  atMost: (v) => `≤ ${v}`,
  atLeast: (v) => `≥ ${v}`,
  window: (alpha, beta) => `[${alpha}, ${beta}]`,
  windowSpoken: (alpha, beta) => `window α ${alpha}, β ${beta}`,
  soFar: (v) => `so far ${v}`,
  role: { max: "MAX", min: "MIN" },
  step: (k, n) => `Step ${k} of ${n}:`,
  enters: (name, role, window) => `enters ${name}, a ${role} node${window ? `, with [α, β] = ${window}` : ""}.`,
  leaf: (name, window, value) =>
    `reaches ${name}, a leaf${window ? `, with [α, β] = ${window}` : ""}: its value is ${value}, and it returns ${value}.`,
  returnsExact: (name, role, value) => `${name}, a ${role} node, returns ${value}: exact, as it is inside its window.`,
  returnsMinimax: (name, role, value) =>
    `${name}, a ${role} node, returns ${value}, the ${role === "MAX" ? "largest" : "smallest"} of its children's values.`,
  returnsUpper: (name, role, value, alpha) =>
    `${name}, a ${role} node, returns ${value}, a bound: ${value} ≤ α ${alpha}, so its value is at most ${value}, all that MAX above needs to know.`,
  returnsLower: (name, role, value, beta) =>
    `${name}, a ${role} node, returns ${value}, a bound: ${value} ≥ β ${beta}, so its value is at least ${value}, all that MIN above needs to know.`,
  cut: (bound, pruned) =>
    `Cut-off: ${bound === "beta" ? "MIN above will not allow it" : "MAX above has better elsewhere"}; ${pruned === 1 ? "1 move is" : `${pruned} moves are`} pruned.`,
  parentWindow: (name, window) => `Above it, ${name} now has [α, β] = ${window}.`,
  parentKeeps: (name, window) => `Above it, ${name} keeps [α, β] = ${window}.`,
  parentClosed: (name, window) =>
    `Above it, the window of ${name} is now empty, ${window}: nothing more below it can matter.`,
  rootDone: "The walk is over: the value at the top is known, and its principal variation is drawn.",
  whole: (visits, nodes, cuts) =>
    `The whole walk: ${visits} of ${nodes} nodes visited, ${cuts === 1 ? "1 cut-off" : `${cuts} cut-offs`}. Step through it with Next step.`,
  pruned: (value, bound) => `pruned: ${value} ${bound}`,
  boundAlpha: (alpha) => `≤ α ${alpha}`,
  boundBeta: (beta) => `≥ β ${beta}`,
}, "replayWords");

const W = REPLAY_WORDS;

// A number as the page writes it: a true minus sign; null is an infinite end of the window.
export function num(value, infinite = null) {
  if (value === null) {
    return `${infinite === "-" ? W.minus : "+"}${W.infinity}`;
  }
  return value < 0 ? `${W.minus}${-value}` : String(value);
}

// "≤ α 3" or "≥ β −2": the bound a cut-off's node reached.
export function boundWords(cut) {
  return cut.bound === "beta" ? W.boundBeta(num(cut.beta, "+")) : W.boundAlpha(num(cut.alpha, "-"));
}

// What a visit's value is: exact, or a bound ("upper": the value is at most it; "lower": at least it).
// A leaf gives its value itself; a node with children returns a bound when the value is outside (or on
// the edge of) the window it was entered with.
export function boundOf(visit, isLeaf) {
  if (isLeaf) {
    return null;
  }
  if (visit.alpha !== null && visit.value <= visit.alpha) {
    return "upper";
  }
  if (visit.beta !== null && visit.value >= visit.beta) {
    return "lower";
  }
  return null;
}

// A value as shown once returned: "3", "≤ −995", "≥ 996".
export function shownValue(value, bound) {
  if (bound === "upper") {
    return W.atMost(num(value));
  }
  if (bound === "lower") {
    return W.atLeast(num(value));
  }
  return num(value);
}

// The walk's steps, in order: { kind: "enter" | "leaf" | "return", node, visit (its index in
// data.visits) }, a return with the cut-off it made (or null).
export function walkSteps(data) {
  const byId = new Map();
  const parentOf = new Map();
  const index = (node, parent) => {
    byId.set(node.id, node);
    parentOf.set(node.id, parent);
    node.children.forEach((child) => index(child, node.id));
  };
  index(data.root, null);
  const cutAt = new Map(data.cutoffs.map((cut) => [cut.node, cut]));
  const steps = [];
  const open = []; // the visit indexes entered and not yet returned, the root first
  const close = () => {
    const at = open.pop();
    const id = data.visits[at].node;
    steps.push({ kind: "return", node: id, visit: at, cut: cutAt.get(id) || null });
  };
  data.visits.forEach((visit, at) => {
    const parent = parentOf.get(visit.node);
    while (open.length && data.visits[open[open.length - 1]].node !== parent) {
      close();
    }
    if (byId.get(visit.node).children.length) {
      steps.push({ kind: "enter", node: visit.node, visit: at });
      open.push(at);
    } else {
      steps.push({ kind: "leaf", node: visit.node, visit: at, cut: null });
    }
  });
  while (open.length) {
    close();
  }
  return { steps, byId, parentOf };
}

// The walk up to `step` (an index into its steps; null: the whole walk). Gives, for every node:
// state: "later" (not entered yet), "open" (entered, not returned), "visited" (returned) or "pruned";
// shown: Map(id -> { value, bound }) for the nodes returned; windows: Map(id -> { alpha, beta, best })
// for the open nodes, as the walk stands (α and β tightened by the children returned so far); notes:
// the words of the bound that pruned a branch; current: the node of the step; rootDone.
export function walkAt(data, step, walk = walkSteps(data)) {
  const { steps, byId } = walk;
  const upTo = step === null ? steps.length - 1 : step;
  const state = new Map([...byId.keys()].map((id) => [id, "later"]));
  const shown = new Map();
  const windows = new Map();
  const notes = new Map();
  const alphabeta = data.algorithm !== "minimax";
  const prune = (node) => {
    state.set(node.id, "pruned");
    node.children.forEach(prune);
  };
  for (let i = 0; i <= upTo; i += 1) {
    const { kind, node: id, visit: at, cut } = steps[i];
    const visit = data.visits[at];
    if (kind === "enter") {
      state.set(id, "open");
      windows.set(id, { alpha: visit.alpha, beta: visit.beta, best: null });
      continue;
    }
    state.set(id, "visited");
    windows.delete(id);
    const bound = alphabeta ? boundOf(visit, kind === "leaf") : null;
    shown.set(id, { value: visit.value, bound });
    if (cut) {
      cut.pruned.forEach((prunedId) => {
        notes.set(prunedId, W.pruned(num(cut.value), boundWords(cut)));
        prune(byId.get(prunedId));
      });
    }
    const parentId = walk.parentOf.get(id);
    const parentWindow = windows.get(parentId);
    if (parentWindow) {
      const max = byId.get(parentId).role === "max";
      const higher = (a, b) => (a === null ? b : Math.max(a, b));
      const lower = (a, b) => (a === null ? b : Math.min(a, b));
      parentWindow.best = (max ? higher : lower)(parentWindow.best, visit.value);
      if (alphabeta && max) {
        parentWindow.alpha = higher(parentWindow.alpha, visit.value);
      } else if (alphabeta) {
        parentWindow.beta = lower(parentWindow.beta, visit.value);
      }
    }
  }
  const current = step === null ? null : steps[step].node;
  return { state, shown, windows, notes, current, byId, rootDone: state.get(data.root.id) === "visited" };
}

// The window of an open node as the page writes it: "[3, +∞]".
export function windowText(window) {
  return W.window(num(window.alpha, "-"), num(window.beta, "+"));
}

export function windowSpoken(window) {
  return W.windowSpoken(num(window.alpha, "-"), num(window.beta, "+"));
}

// What happens at `step`, in words. `name(node)` says which position a node is.
export function stepWords(data, walk, step, walked, name) {
  const { kind, node: id, visit: at, cut } = walk.steps[step];
  const node = walked.byId.get(id);
  const visit = data.visits[at];
  const role = W.role[node.role];
  const alphabeta = data.algorithm !== "minimax";
  const entry = alphabeta ? windowText({ alpha: visit.alpha, beta: visit.beta }) : "";
  const words = [W.step(step + 1, walk.steps.length)];
  if (kind === "enter") {
    words.push(W.enters(name(node), role, entry));
  } else if (kind === "leaf") {
    words.push(W.leaf(name(node), entry, num(visit.value)));
  } else {
    const bound = alphabeta ? boundOf(visit, false) : null;
    const value = num(visit.value);
    if (!alphabeta) {
      words.push(W.returnsMinimax(name(node), role, value));
    } else if (bound === "upper") {
      words.push(W.returnsUpper(name(node), role, value, num(visit.alpha, "-")));
    } else if (bound === "lower") {
      words.push(W.returnsLower(name(node), role, value, num(visit.beta, "+")));
    } else {
      words.push(W.returnsExact(name(node), role, value));
    }
    if (cut) {
      words.push(W.cut(cut.bound, cut.pruned.length));
    }
  }
  const parentId = walk.parentOf.get(id);
  const parentWindow = walked.windows.get(parentId);
  if (kind !== "enter" && alphabeta && parentWindow) {
    const closed =
      parentWindow.alpha !== null && parentWindow.beta !== null && parentWindow.alpha >= parentWindow.beta;
    const before = step > 0 ? walkAt(data, step - 1, walk).windows.get(parentId) : null;
    const same = before && before.alpha === parentWindow.alpha && before.beta === parentWindow.beta;
    const say = closed ? W.parentClosed : same ? W.parentKeeps : W.parentWindow;
    words.push(say(name(walked.byId.get(parentId)), windowText(parentWindow)));
  }
  if (walked.rootDone && id === data.root.id) {
    words.push(W.rootDone);
  }
  return words.join(" ");
}

export function wholeWords(data) {
  return W.whole(data.visits.length, data.nodes, data.cutoffs.length);
}
