// The game in the page's URL, so that a reload, the Back button or a shared link gives the same board:
//   /?variant=4x4k3&first=X&moves=5,0,10&ply=2
//   /?variant=normal&first=O&start=X../.O./...&moves=2
// `variant` is the API's name, `first` the side that moves first (from `start`, the empty board if
// there is none), `start` a board written as in the API with "/" between rows, `moves` the cells played
// (the API's indexes, row by row from 0 at the top left) and `ply` the move shown when it is not the last.

import { EMPTY, withRows } from "./game.js";

// The game the URL describes, or null when it names no variant. Cells are checked against the board
// once the variant is known (see checkedGame).
export function gameFromUrl(search = window.location.search) {
  const query = new URLSearchParams(search);
  const variant = query.get("variant");
  if (!variant) {
    return null;
  }
  const first = (query.get("first") || "X").toUpperCase() === "O" ? "O" : "X";
  const written = (query.get("start") || "").replace(/\//g, "").toUpperCase();
  const start = written ? written.replace(/[^XO]/g, EMPTY) : null;
  const moves = (query.get("moves") || "")
    .split(",")
    .filter((text) => text.trim() !== "")
    .map(Number);
  const ply = query.has("ply") ? Number(query.get("ply")) : moves.length;
  return { variant, first, start, moves, ply };
}

// The game with what does not fit the variant dropped: a start of the wrong length, moves from the
// first one that is not a free cell, a ply beyond the moves. `dropped` says whether anything was.
export function checkedGame(given, cells) {
  const game = { start: null, moves: [], ...given };
  game.ply = given.ply ?? game.moves.length;
  const start = game.start && game.start.length === cells ? game.start : null;
  const marks = [...(start || EMPTY.repeat(cells))];
  let length = 0;
  while (length < game.moves.length) {
    const cell = game.moves[length];
    if (!Number.isInteger(cell) || cell < 0 || cell >= cells || marks[cell] !== EMPTY) {
      break;
    }
    marks[cell] = "X";
    length += 1;
  }
  const moves = game.moves.slice(0, length);
  const ply = Number.isInteger(game.ply) ? Math.min(Math.max(game.ply, 0), length) : length;
  const dropped = start !== game.start || length !== game.moves.length || ply !== game.ply;
  return { game: { ...game, start, moves, ply }, dropped };
}

export function gameQuery({ variant, first, start, moves, ply }, cols) {
  // Built by hand so that commas and slashes stay readable; every value is a name, a side or digits.
  const parts = [`variant=${encodeURIComponent(variant)}`, `first=${first}`];
  if (start) {
    parts.push(`start=${withRows(start, cols)}`);
  }
  if (moves.length > 0) {
    parts.push(`moves=${moves.join(",")}`);
  }
  if (ply !== moves.length) {
    parts.push(`ply=${ply}`);
  }
  return `?${parts.join("&")}`;
}

// A new entry in the history for a new game (so that Back returns to the previous one); the same entry,
// updated, for each move and step within a game.
export function saveGameToUrl(game, cols, { push = false } = {}) {
  const url = `${window.location.pathname}${gameQuery(game, cols)}`;
  if (url === `${window.location.pathname}${window.location.search}`) {
    return;
  }
  if (push) {
    window.history.pushState(null, "", url);
  } else {
    window.history.replaceState(null, "", url);
  }
}

export function linkToGame(game, cols) {
  return `${window.location.origin}${window.location.pathname}${gameQuery(game, cols)}`;
}
