// Moving about the game record: going to any move of any line, switching to another move at the cursor,
// making a variation the main line and deleting one. The line shown (state.game.moves) is kept when the
// move chosen is on it, so that stepping back and forth does not leave the line one is reading.

import { say, show } from "./flow.js";
import { lineFrom, nodeAt, promoted, variationStart, without } from "./record.js";
import { state } from "./state.js";
import { later } from "./i18n.js";

// The cells played to reach the cursor.
export function cursorPath() {
  return state.game.moves.slice(0, state.game.ply);
}

function onLine(path) {
  return path.every((cell, index) => state.game.moves[index] === cell);
}

export function goToPath(path) {
  if (state.editor !== null || !nodeAt(state.game.record, path)) {
    return;
  }
  if (!onLine(path)) {
    state.game.moves = lineFrom(state.game.record, path);
  }
  state.game.ply = path.length;
  show(path.length === 0 ? later("startOfGame") : later("afterMove", { n: path.length }));
}

// The other moves tried at the cursor's position, in order: `delta` 1 is the next one, -1 the one before.
// Returns whether there was a fork here (false: the key is left to the page).
export function switchMove(delta) {
  const path = cursorPath();
  if (path.length === 0 || state.editor !== null) {
    return false;
  }
  const siblings = nodeAt(state.game.record, path.slice(0, -1)).children;
  if (siblings.length < 2) {
    return false;
  }
  const index = siblings.findIndex((child) => child.cell === path[path.length - 1]);
  const next = siblings[index + delta];
  if (next) {
    goToPath([...path.slice(0, -1), next.cell]);
  }
  return true;
}

// The variation the cursor is in (where it starts), or null on the main line.
export function currentVariation() {
  return state.game.record ? variationStart(state.game.record, cursorPath()) : null;
}

// Out of the variation the cursor is in, back to the position where it branched, on the line of that
// position's main move (Shift+←).
export function leaveVariation() {
  const start = currentVariation();
  if (state.editor !== null) {
    return;
  }
  if (start === null) {
    say(later("noVariationToLeave"));
    return;
  }
  const parent = start.slice(0, -1);
  state.game.moves = lineFrom(state.game.record, parent);
  state.game.ply = parent.length;
  show(later("backToBranch", { n: parent.length }));
}

export function promoteVariation() {
  if (currentVariation() === null || state.editor !== null) {
    return;
  }
  state.game.record = promoted(state.game.record, cursorPath());
  show(later("nowMainLine"));
}

// Deletes the move at the cursor and all that follows it, on the main line as in a variation; the cursor
// goes to the move before it, and the computer waits (it would otherwise play the move again at once).
export function deleteFromHere() {
  const path = cursorPath();
  if (path.length === 0 || state.editor !== null) {
    return;
  }
  state.game.record = without(state.game.record, path);
  const parent = path.slice(0, -1);
  state.game.moves = lineFrom(state.game.record, parent);
  state.game.ply = parent.length;
  state.live = false;
  show(later("movesDeleted", { n: path.length }));
}

// Deletes the variation the cursor is in; the cursor goes to the move the variation branched from.
export function deleteVariation() {
  const start = currentVariation();
  if (start === null || state.editor !== null) {
    return;
  }
  state.game.record = without(state.game.record, start);
  const parent = start.slice(0, -1);
  state.game.moves = lineFrom(state.game.record, parent);
  state.game.ply = parent.length;
  show(later("variationDeleted", { n: start.length }));
}
