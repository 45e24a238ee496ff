// The game record: every line tried from the start board, so that playing another move at an earlier
// position keeps the old continuation as a variation, as a chess game's record keeps its variations
// (the game tree is another thing: /tree's, every line from a position, as minimax walks it). A node is
// { cell, children }; the root has no cell, the first child of each node is its main line, the others
// its variations in the order played. A node with what follows it is the record of the lines from its
// position, so the functions here take any node as a record. A position is named by its path, the cells
// played from the root, which stay valid whatever is promoted or deleted elsewhere. Every function here
// is pure: it returns a new record, never changes one.

import { t } from "./i18n.js";

// A path as one string, to compare paths or to key them.
export function pathKey(path) {
  return path.join(",");
}

export function node(cell, children = []) {
  return { cell, children };
}

// The record of one line of moves.
export function recordOf(moves, cell = null) {
  return node(cell, moves.length > 0 ? [recordOf(moves.slice(1), moves[0])] : []);
}

// The node reached by `path`, or null when the record has no such line.
export function nodeAt(record, path) {
  let at = record;
  for (const cell of path) {
    at = at.children.find((child) => child.cell === cell);
    if (!at) {
      return null;
    }
  }
  return at;
}

// The longest start of `moves` that the record has.
export function knownPart(record, moves) {
  let length = 0;
  while (length < moves.length && nodeAt(record, moves.slice(0, length + 1))) {
    length += 1;
  }
  return moves.slice(0, length);
}

// `path` followed on along the main line of the node it reaches (as far as the record goes).
export function lineFrom(record, path) {
  const line = [...path];
  let at = nodeAt(record, path);
  while (at && at.children.length > 0) {
    at = at.children[0];
    line.push(at.cell);
  }
  return line;
}

export function mainLine(record) {
  return lineFrom(record, []);
}

// The record with the node at `path` replaced by change(node) (the nodes on the way are copied).
function changed(record, path, change) {
  if (path.length === 0) {
    return change(record);
  }
  const [cell, ...rest] = path;
  return node(
    record.cell,
    record.children.map((child) => (child.cell === cell ? changed(child, rest, change) : child)),
  );
}

// The record with the line `moves` in it: the moves it does not have yet become a variation (the main
// line when the position had no move after it).
export function withLine(record, moves) {
  if (moves.length === 0) {
    return record;
  }
  const [cell, ...rest] = moves;
  const known = record.children.some((child) => child.cell === cell);
  const children = known ? record.children : [...record.children, node(cell)];
  return node(
    record.cell,
    children.map((child) => (child.cell === cell ? withLine(child, rest) : child)),
  );
}

// Where the variation that holds `path` starts: the longest prefix of `path` that ends in a move other
// than its position's main move, or null when `path` is on the main line.
export function variationStart(record, path) {
  let start = null;
  let at = record;
  path.forEach((cell, index) => {
    if (at && at.children.length > 0 && at.children[0].cell !== cell) {
      start = path.slice(0, index + 1);
    }
    at = at && at.children.find((child) => child.cell === cell);
  });
  return start;
}

// The record with the line to `path` made the main line: each move on it becomes its position's first.
export function promoted(record, path) {
  if (path.length === 0) {
    return record;
  }
  const [cell, ...rest] = path;
  const chosen = record.children.find((child) => child.cell === cell);
  if (!chosen) {
    return record;
  }
  const others = record.children.filter((child) => child !== chosen);
  return node(record.cell, [promoted(chosen, rest), ...others]);
}

// The record without the node at `path` and what follows it.
export function without(record, path) {
  if (path.length === 0) {
    return record;
  }
  const cell = path[path.length - 1];
  const drop = (parent) =>
    node(
      parent.cell,
      parent.children.filter((child) => child.cell !== cell),
    );
  return changed(record, path.slice(0, -1), drop);
}

// The record with only the nodes that keep(path, cell) accepts (with `path` the cells before the node's);
// a node that is refused goes with all that follows it.
export function pruned(record, keep, path = []) {
  const first = (child, index) => record.children.findIndex((other) => other.cell === child.cell) === index;
  const children = record.children
    .filter((child, index) => first(child, index) && keep(path, child.cell))
    .map((child) => pruned(child, keep, [...path, child.cell]));
  return node(record.cell, children);
}

// Whether the record is a single line (then a link needs no more than its moves).
export function isLine(record) {
  return record.children.length === 0 || (record.children.length === 1 && isLine(record.children[0]));
}

// Every path in the record, the root's first, parents before their children.
export function allPaths(record, path = []) {
  return [path, ...record.children.flatMap((child) => allPaths(child, [...path, child.cell]))];
}

// The record written out as PGN viewers do: each position's main move, then its variations in
// parentheses (each one the other move and what follows it), then what follows the main move.
// Items are "(", ")" and { cell, ply } with `ply` the move's index from the start.
export function recordItems(record, ply = 0) {
  if (record.children.length === 0) {
    return [];
  }
  const [main, ...others] = record.children;
  const variations = others.flatMap((child) => [
    "(",
    { cell: child.cell, ply },
    ...recordItems(child, ply + 1),
    ")",
  ]);
  return [{ cell: main.cell, ply }, ...variations, ...recordItems(main, ply + 1)];
}

// The record that items as recordItems writes them describe (cells, "(" and ")"), or throws an Error that
// says what is wrong. A move seen twice at the same position is the same node.
export function recordFromItems(items) {
  const root = node(null);
  let at = root; // the position the next move is played at
  let before = null; // the position before the last move, where a variation starts
  const open = [];
  for (const item of items) {
    if (item === "(") {
      if (before === null) {
        throw new Error(t("openBeforeMove"));
      }
      open.push([at, before]);
      [at, before] = [before, null];
    } else if (item === ")") {
      if (open.length === 0) {
        throw new Error(t("strayClose"));
      }
      [at, before] = open.pop();
    } else {
      let child = at.children.find((other) => other.cell === item);
      if (!child) {
        child = node(item);
        at.children.push(child);
      }
      [at, before] = [child, at];
    }
  }
  if (open.length > 0) {
    throw new Error(t("openNotClosed"));
  }
  return root;
}
