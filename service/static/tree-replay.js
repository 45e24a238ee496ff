// A walk of the game tree replayed a visit at a time: from a /tree answer and a step (null: the whole
// walk), which nodes the walk has visited, which it has pruned (and under which bound), and the words
// that say what happened at the step. No DOM, no HTTP.

const bound = (value, infinite) => (value === null ? infinite : String(value));

// "≤ α 3" or "≥ β −2": the bound a cut-off's node reached.
export function boundWords(cut) {
  return cut.bound === "beta" ? `≥ β ${bound(cut.beta, "+∞")}` : `≤ α ${bound(cut.alpha, "−∞")}`;
}

// { state: Map(id -> "visited" | "pruned" | "later"), notes: Map(id -> words), current, cuts }: `cuts`
// are the cut-offs made at this very step.
export function walkAt(data, step) {
  const upTo = step === null ? data.visits.length - 1 : step;
  const order = new Map(data.visits.map((v, i) => [v.node, i]));
  const byId = new Map();
  const lastInside = new Map(); // a node -> the last visit within its subtree (a cut-off follows it)
  const walk = (node) => {
    byId.set(node.id, node);
    let latest = order.has(node.id) ? order.get(node.id) : -1;
    node.children.forEach((child) => {
      latest = Math.max(latest, walk(child));
    });
    lastInside.set(node.id, latest);
    return latest;
  };
  walk(data.root);
  const seen = (id) => order.has(id) && order.get(id) <= upTo;
  const state = new Map([...byId.keys()].map((id) => [id, seen(id) ? "visited" : "later"]));
  const notes = new Map();
  const cuts = [];
  const prune = (node) => {
    state.set(node.id, "pruned");
    node.children.forEach(prune);
  };
  for (const cut of data.cutoffs) {
    const when = lastInside.get(cut.after);
    if (when > upTo) {
      continue;
    }
    if (when === upTo && step !== null) {
      cuts.push(cut);
    }
    cut.pruned.forEach((id) => {
      notes.set(id, `pruned: ${cut.value} ${boundWords(cut)}`);
      prune(byId.get(id));
    });
  }
  return { state, notes, current: step === null ? null : data.visits[step].node, cuts, byId };
}

// What happened at `step`: the node entered, its window, what it returned, and any cut-off made then.
// `name(node)` says which position a node is.
export function stepWords(data, step, walked, name) {
  const visit = data.visits[step];
  const node = walked.byId.get(visit.node);
  const window =
    data.algorithm === "minimax" ? "" : ` with α ${bound(visit.alpha, "−∞")}, β ${bound(visit.beta, "+∞")}`;
  const words = [
    `Visit ${step + 1} of ${data.visits.length}: ${name(node)}, a ${node.role} node${window}; it returns ${visit.value}.`,
  ];
  for (const cut of walked.cuts) {
    const why = cut.bound === "beta" ? "min will not allow it" : "max has better elsewhere";
    const left = cut.pruned.length === 1 ? "1 move is" : `${cut.pruned.length} moves are`;
    words.push(
      `Cut-off at ${name(walked.byId.get(cut.node))}: ${cut.value} ${boundWords(cut)}, ${why}; ${left} pruned.`,
    );
  }
  return words.join(" ");
}

export function wholeWords(data) {
  const cuts = data.cutoffs.length === 1 ? "1 cut-off" : `${data.cutoffs.length} cut-offs`;
  return `The whole walk: ${data.visits.length} of ${data.nodes} nodes visited, ${cuts}. Step through it with Next visit.`;
}
