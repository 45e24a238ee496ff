// Gravity boards (Connect Four and any "-gravity" variant): a mark falls to the lowest empty cell of its
// column, so a player picks a column, not a cell. On a grid a column is one of its columns; on a box
// (Score Four) it is a place of a layer, the cells at that row and column of every layer, through which
// a mark falls to the last layer (POST /review numbers a box's columns so, row by row). The service has
// the rules; these helpers only map a column (a key, a click anywhere in it) to the one cell the service
// will accept there. Each takes the board's grid ({ layers, rows, cols, gravity }, shape.js). No DOM,
// no HTTP.

import { COLUMN_LETTERS, EMPTY } from "./game.js";
import { isRack } from "./shape.js";
import { t } from "./i18n.js";

// How far apart, in cells, a cell and the one under it are: a row on a grid, a layer on a box (the
// service numbers cells layer by layer, each layer row by row, and the last layer is the bottom). It is
// also how many columns there are.
export function stepDown({ layers, rows, cols }) {
  return layers > 1 ? rows * cols : cols;
}

// The column a cell is in.
export function columnOf(cell, grid) {
  return cell % stepDown(grid);
}

// The lowest empty cell of column `col`, or null when the column is full.
export function dropCell(marks, col, grid) {
  const { layers, rows, cols } = grid;
  const step = stepDown(grid);
  for (let cell = layers * rows * cols - step + col; cell >= 0; cell -= step) {
    if (marks[cell] === EMPTY) {
      return cell;
    }
  }
  return null;
}

// The cells a player may pick now: on a gravity board the lowest empty cell of each column, else every
// empty cell.
export function offeredCells(marks, grid) {
  if (!grid.gravity) {
    return new Set([...marks].flatMap((mark, cell) => (mark === EMPTY ? [cell] : [])));
  }
  const cells = [];
  for (let col = 0; col < stepDown(grid); col += 1) {
    const cell = dropCell(marks, col, grid);
    if (cell !== null) {
      cells.push(cell);
    }
  }
  return new Set(cells);
}

// Whether the columns are numbered 1–9 from the left, as keys and in column strings: on a rack of up to
// nine columns (a box's columns stand in rows and columns of their own).
function numbered(grid) {
  return isRack(grid) && grid.cols <= 9;
}

// Keys 1–9 name the columns from the left on a rack of up to nine columns.
export function columnOfKey(key, grid) {
  return numbered(grid) && key >= 1 && key <= grid.cols ? key - 1 : null;
}

// "column d" for the words the page says about a column; on a box, "place b2": its column letter and
// row number in a layer, as the cells at that place are named after their layer's number ("4b2").
export function columnName(col, grid) {
  if (grid.layers > 1) {
    return t("placeNamed", { place: `${COLUMN_LETTERS[col % grid.cols]}${Math.floor(col / grid.cols) + 1}` });
  }
  return t("columnNamed", { letter: COLUMN_LETTERS[col] });
}

// A game as a column string ("4453": the columns from 1 at the left, as Pascal Pons's solver reads a
// game and links to it) played on a gravity board from `start`: { cells, stop }, with `stop` the index
// of the first digit that names no column or a full one (null when every digit was played). Whether
// the game ended on the way is the service's to say.
export function cellsOfColumns(digits, grid, start) {
  const marks = [...start];
  const cells = [];
  for (const [index, digit] of [...digits].entries()) {
    const col = Number(digit) - 1;
    const cell = col >= 0 && col < grid.cols ? dropCell(marks, col, grid) : null;
    if (cell === null) {
      return { cells, stop: index };
    }
    marks[cell] = "X"; // only whether a cell is empty counts here
    cells.push(cell);
  }
  return { cells, stop: null };
}

// The column string of a line of moves on a rack of up to nine columns.
export function columnsOfCells(cells, grid) {
  return cells.map((cell) => String(columnOf(cell, grid) + 1)).join("");
}

// Whether `text` is a column string for this board: digits only, each a column of a rack of up to nine
// columns (as the keys 1–9).
export function isColumnString(text, grid) {
  return numbered(grid) && /^[1-9]+$/.test(text);
}
