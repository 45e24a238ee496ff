// Gravity boards (Connect Four and any "-gravity" variant): a mark falls to the lowest empty cell of its
// column, so a player picks a column, not a cell. The service has the rules; these helpers only map a
// column (a key, a click anywhere in it) to the one cell the service will accept there. No DOM, no HTTP.

import { EMPTY } from "./game.js";

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
export function offeredCells(marks, facts) {
  if (!facts.gravity) {
    return new Set([...marks].flatMap((mark, cell) => (mark === EMPTY ? [cell] : [])));
  }
  const cells = [];
  for (let col = 0; col < facts.cols; col += 1) {
    const cell = dropCell(marks, col, facts);
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
  return `column ${"abcdefghi"[col]}`;
}
