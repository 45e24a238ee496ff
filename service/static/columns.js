// Gravity boards (Connect Four and any "-gravity" variant): a mark falls to the lowest empty cell of its
// column, so a player picks a column, not a cell. The service has the rules; these helpers only map a
// column (a key, a click anywhere in it) to the one cell the service will accept there. Each takes the
// board's grid ({ rows, cols, gravity }, shape.js). No DOM, no HTTP.

import { COLUMN_LETTERS, EMPTY } from "./game.js";

// The lowest empty cell of column `col`, or null when the column is full.
export function dropCell(marks, col, { rows, cols }) {
  for (let row = rows - 1; row >= 0; row -= 1) {
    const cell = row * cols + col;
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
  for (let col = 0; col < grid.cols; col += 1) {
    const cell = dropCell(marks, col, grid);
    if (cell !== null) {
      cells.push(cell);
    }
  }
  return new Set(cells);
}

// Keys 1–9 name the columns from the left on a gravity board of up to nine columns.
export function columnOfKey(key, { gravity, cols }) {
  return gravity && cols <= 9 && key >= 1 && key <= cols ? key - 1 : null;
}

// "column d" for the words the page says about a column.
export function columnName(col) {
  return `column ${COLUMN_LETTERS[col]}`;
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

// The column string of a line of moves on a gravity board of up to nine columns.
export function columnsOfCells(cells, { cols }) {
  return cells.map((cell) => String((cell % cols) + 1)).join("");
}

// Whether `text` is a column string for this board: digits only, each a column of a gravity board of up
// to nine columns (as the keys 1–9).
export function isColumnString(text, { gravity, cols }) {
  return gravity && cols <= 9 && /^[1-9]+$/.test(text);
}
