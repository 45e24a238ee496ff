// The game in the page's URL, so that a reload, the Back button or a shared link gives the same board:
//   /?variant=4x4k3&first=X&moves=5,0,10&ply=2&overlay=off
//   /?variant=normal&first=O&start=X../.O./...&moves=2
//   /?variant=4x4k3&first=X&record=5,0(3,4),10&moves=5,3,4&ply=2&overlay=hint
// `variant` is the API's name, `first` the side that moves first (from `start`, the empty board if
// there is none), `start` a board written as in the API with "/" between rows, `moves` the cells played
// (the API's indexes, row by row from 0 at the top left) on the line shown, `ply` the move shown when
// it is not the last, and `overlay` the analysis on the board (off, hint or values). When the game has
// variations, `record` holds them all as PGN viewers write them: each position's main move, then its
// other moves in parentheses with what follows them, then what follows the main move ("5,0(3,4),10":
// 5, then 0 or 3; 0 is followed by 10, 3 by 4). Links without `record` are a single line, as before;
// older links that name it `tree` are read as well.
// On a gravity board a single line from the empty board is written as its columns, as Pascal Pons's
// solver links to a game: /?variant=connect4&pos=4453 (columns from 1 at the left).

import { cellsOfColumns, columnsOfCells, isColumnString } from "./columns.js";
import { EMPTY, emptyBoard, withRows } from "./game.js";
import {
  allPaths,
  knownPart,
  mainLine,
  pruned,
  recordFromItems,
  recordItems,
  recordOf,
  withLine,
} from "./record.js";
import { gridOf } from "./shape.js";
import { state } from "./state.js";
import { later } from "./i18n.js";

const OVERLAYS = ["off", "hint", "values"];

function cellsOf(text) {
  return text
    .split(",")
    .filter((part) => part.trim() !== "")
    .map(Number);
}

// The link's `record`, or null when it has none or when it is not well formed (then its moves alone count).
function recordFromText(text) {
  if (!text) {
    return null;
  }
  try {
    return recordFromItems(
      (text.match(/[()]|[^,()]+/g) || []).map((item) => (/[()]/.test(item) ? item : Number(item))),
    );
  } catch {
    return null;
  }
}

export function recordText(record) {
  return recordItems(record)
    .map((item, index, items) => {
      const cell = typeof item === "object";
      const afterMove = index > 0 && (typeof items[index - 1] === "object" || items[index - 1] === ")");
      return cell ? `${afterMove ? "," : ""}${item.cell}` : item;
    })
    .join("");
}

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
  // Links written before the lines played were named the game record carry it as `tree`: they still open.
  const key = query.has("record") ? "record" : "tree";
  const record = recordFromText(query.get(key));
  const moves = query.has("moves") || !record ? cellsOf(query.get("moves") || "") : mainLine(record);
  const columns = !query.has("moves") && !record && query.has("pos") ? query.get("pos").trim() : null;
  // Without `ply`, the last move; a column string's moves are known once the board is (checkedGame).
  const ply = query.has("ply") ? Number(query.get("ply")) : columns ? null : moves.length;
  const overlay = OVERLAYS.includes(query.get("overlay")) ? query.get("overlay") : null;
  const broken = query.has(key) && record === null;
  return { variant, first, start, record, moves, columns, ply, overlay, broken };
}

// The moves of a link's column string (`pos`) on the variant's board: { moves, why } with `why` the
// sentence that says where and why the string was cut, or "" when it was played whole.
function columnMoves(columns, start, facts) {
  const grid = gridOf(facts);
  if (!isColumnString(columns, grid)) {
    const why = later("linkPosNotColumns", { columns, name: facts.name });
    return { moves: [], why };
  }
  const { cells, stop } = cellsOfColumns(columns, grid, start || emptyBoard(facts.cells));
  if (stop === null) {
    return { moves: cells, why: "" };
  }
  const column = columns[stop];
  const wide = Number(column) > grid.cols;
  const params = { n: stop + 1, column, name: facts.name, cols: grid.cols };
  return { moves: cells, why: later(wide ? "linkColumnMissing" : "linkColumnFull", params) };
}

// The game with what does not fit the variant dropped: a start of the wrong length, moves that are not
// a free cell (with all that follows them), a ply beyond the moves. `dropped` says whether anything was,
// `why` (when not "") says it in a sentence.
export function checkedGame(given, facts) {
  const { cells } = facts;
  const game = { start: null, moves: [], ...given };
  const fromColumns = given.columns ? columnMoves(given.columns, given.start, facts) : { why: "" };
  if (given.columns) {
    game.moves = fromColumns.moves;
  }
  game.ply = given.ply ?? game.moves.length;
  const start = game.start && game.start.length === cells ? game.start : null;
  const marks = [...(start || EMPTY.repeat(cells))];
  const free = (path, cell) =>
    Number.isInteger(cell) && cell >= 0 && cell < cells && marks[cell] === EMPTY && !path.includes(cell);
  const whole = withLine(game.record || recordOf([]), game.moves);
  const record = pruned(whole, free);
  const moves = knownPart(record, game.moves);
  const ply = Number.isInteger(game.ply) ? Math.min(Math.max(game.ply, 0), moves.length) : moves.length;
  const lost = allPaths(record).length !== allPaths(whole).length || moves.length !== game.moves.length;
  const dropped = Boolean(game.broken) || start !== game.start || lost || ply !== game.ply;
  const why = fromColumns.why;
  return { game: { variant: game.variant, first: game.first, start, record, moves, ply }, dropped, why };
}

export function gameQuery({ variant, first, start, record, moves, ply }, facts, overlay = "off") {
  const grid = gridOf(facts);
  // Built by hand so that commas and slashes stay readable; every value is a name, a side or digits.
  const parts = [`variant=${encodeURIComponent(variant)}`, `first=${first}`];
  if (start) {
    parts.push(`start=${withRows(start, grid.cols)}`);
  }
  const branched = record && recordText(record) !== recordText(recordOf(moves));
  if (branched) {
    parts.push(`record=${recordText(record)}`);
  }
  if (!branched && !start && moves.length > 0 && isColumnString(columnsOfCells(moves, grid), grid)) {
    parts.push(`pos=${columnsOfCells(moves, grid)}`);
  } else if (moves.length > 0 || branched) {
    parts.push(`moves=${moves.join(",")}`);
  }
  if (ply !== moves.length) {
    parts.push(`ply=${ply}`);
  }
  parts.push(`overlay=${overlay}`);
  return `?${parts.join("&")}`;
}

// A new entry in the history for a new game (so that Back returns to the previous one); the same entry,
// updated, for each move and step within a game.
export function saveGameToUrl(game, facts, { push = false } = {}) {
  const url = `${window.location.pathname}${gameQuery(game, facts, state.settings.overlay)}`;
  if (url === `${window.location.pathname}${window.location.search}`) {
    return;
  }
  if (push) {
    window.history.pushState(null, "", url);
  } else {
    window.history.replaceState(null, "", url);
  }
}

export function linkToGame(game, facts) {
  return `${window.location.origin}${window.location.pathname}${gameQuery(game, facts, state.settings.overlay)}`;
}
