// A game as one line of text, to export and import it: the variant, the side that moves first, the
// start board when it is not empty, then the moves as PGN viewers write them, with cell names as the
// page shows them, move numbers, and variations in parentheses after the move they replace:
//   4x4k3 X: 1. b2 a1 (1... c3 2. d4) 2. c2
//   normal O X../.O./...: 1. 9 (1. 3) 1... 7
// Move numbers are for the reader: importing skips them. On a gravity board the moves may also be one
// column string, as Connect Four's solvers write a game ("connect4 X: 4453", or "4453" alone, on the
// board the caller names).
// No DOM, no HTTP.

import { cellsOfColumns, isColumnString } from "./columns.js";
import { cellNameOf, emptyBoard } from "./game.js";
import { allPaths, recordFromItems, recordItems } from "./record.js";
import { gridOf } from "./shape.js";
import { t } from "./i18n.js";

const HEADER = /^\s*(\S+)\s+([XO])(?:\s+([.XO/]+))?\s*:(.*)$/is;
const NUMBER = /^\d+\.(\.\.)?$/;

function numberOf(ply, needed) {
  if (ply % 2 === 0) {
    return `${ply / 2 + 1}.`;
  }
  return needed ? `${(ply + 1) / 2}...` : "";
}

// `glyphOf(path)`, when given, annotates each move ("??", "?", "!", or ""): "1. b2 a1?? 2. c3!".
export function gameText({ variant, first, start, record }, facts, glyphOf = null) {
  const grid = gridOf(facts);
  const words = [];
  let glue = false; // the next word follows "(" with no space
  const walk = pathWalker();
  recordItems(record).forEach((item, index, items) => {
    const path = walk(typeof item === "object" ? item.cell : item);
    if (item === ")") {
      words[words.length - 1] += ")";
    } else if (item === "(") {
      words.push("(");
      glue = true;
    } else {
      const needed = index === 0 || typeof items[index - 1] !== "object";
      const glyph = glyphOf ? glyphOf(path) : "";
      const named = [numberOf(item.ply, needed), `${cellNameOf(item.cell, grid)}${glyph}`].filter(Boolean);
      if (glue) {
        words[words.length - 1] += named.shift();
        glue = false;
      }
      words.push(...named);
    }
  });
  const board = start ? ` ${start.match(new RegExp(`.{${grid.cols}}`, "g")).join("/")}` : "";
  return `${variant} ${first}${board}:${words.length > 0 ? " " : ""}${words.join(" ")}`;
}

// Follows items as recordItems writes them ("(", ")" and cells): each call returns the path of the
// move just read (for a bracket, the path the next move starts from).
function pathWalker() {
  let at = [];
  let before = null;
  const open = [];
  return (item) => {
    if (item === "(") {
      open.push([at, before]);
      [at, before] = [before || [], null];
    } else if (item === ")") {
      [at, before] = open.pop() || [at, before];
    } else {
      [at, before] = [[...at, item], at];
    }
    return at;
  };
}

const GLYPH = /(\?\?|\?|!)$/;

// The header of a game's text: { variant, first, start (without "/", or null), moves (the rest) },
// or an Error that says what is wrong. A column string alone is a game of `gravityVariant` (exchange.js
// names the gravity board being played, else the first one GET /variants lists) with X first.
export function readHeader(text, gravityVariant = null) {
  if (/^\s*[1-9]+\s*$/.test(text)) {
    return { variant: gravityVariant, first: "X", start: null, moves: text.trim() };
  }
  const match = HEADER.exec(text.trim());
  if (!match) {
    throw new Error(
      t("textMustStart"),
    );
  }
  const [, variant, first, board, moves] = match;
  return {
    variant,
    first: first.toUpperCase(),
    start: board ? board.replace(/\//g, "").toUpperCase() : null,
    moves,
  };
}

// The record the moves of a game's text describe on `variant`'s board from `start` with `first` to move,
// or an Error that names the first thing wrong: an unknown word, a cell already taken, a stray bracket.
// A move's annotation ("b2??", "b2!") goes into `glyphs` (a Map from the move's path key), when given.
export function readMoves(moves, facts, start, glyphs = null) {
  const { name, cells } = facts;
  const grid = gridOf(facts);
  if (start && start.length !== cells) {
    throw new Error(t("startBoardCells", { has: start.length, name, cells }));
  }
  if (isColumnString(moves.trim(), grid)) {
    return recordOfColumns(moves.trim(), grid, start || emptyBoard(cells));
  }
  const cellOf = new Map();
  for (let cell = 0; cell < cells; cell += 1) {
    cellOf.set(cellNameOf(cell, grid).toLowerCase(), cell);
  }
  // "1.b2" as some PGN writers glue them: the number is split off the cell.
  const words = (moves.match(/[()]|[^\s()]+/g) || []).flatMap((word) =>
    word.split(/(?<=^\d+\.+)(?!\.)/).filter(Boolean),
  );
  const items = [];
  const walk = pathWalker();
  for (const raw of words) {
    const glyph = NUMBER.test(raw) ? null : GLYPH.exec(raw);
    const word = raw.replace(/[?!]+$/, "") || raw;
    if (word === "(" || word === ")") {
      items.push(word);
      walk(word);
    } else if (!NUMBER.test(word)) {
      if (!cellOf.has(word.toLowerCase())) {
        // In reading order: "1 to 9" on the keypad's 3x3, "a1 to g6" under gravity (not "7 to 3").
        const all = Array.from({ length: cells }, (_, cell) => cellNameOf(cell, grid));
        all.sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
        throw new Error(t("notACell", { word, name, from: all[0], to: all[all.length - 1] }));
      }
      items.push(cellOf.get(word.toLowerCase()));
      const path = walk(cellOf.get(word.toLowerCase()));
      if (glyph && glyphs) {
        glyphs.set(path.join(","), glyph[1]);
      }
    }
  }
  let record;
  try {
    record = recordFromItems(items);
  } catch (error) {
    throw new Error(t("movesDoNotRead", { why: error.message }));
  }
  for (const path of allPaths(record).slice(1)) {
    const cell = path[path.length - 1];
    if (path.indexOf(cell) < path.length - 1 || (start && start[cell] !== ".")) {
      throw new Error(t("moveOnTaken", { n: path.length, cell: cellNameOf(cell, grid) }));
    }
  }
  return record;
}

// The line a column string plays; a digit that names no column, or a full one, is refused.
function recordOfColumns(digits, grid, start) {
  const { cells, stop } = cellsOfColumns(digits, grid, start);
  if (stop !== null) {
    const key = Number(digits[stop]) > grid.cols ? "textColumnMissing" : "textColumnFull";
    throw new Error(t(key, { n: stop + 1, column: digits[stop], cols: grid.cols }));
  }
  return recordFromItems(cells);
}
