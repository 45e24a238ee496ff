// The game as a start board and a list of moves: boards, turns, undo and redo, cell names and the keypad
// layout. No DOM, no HTTP; every rule of the game itself is the service's, and so are variant names.

import { isGoBoard, isRack, placeOf } from "./shape.js";

export const EMPTY = ".";
export const COLUMN_LETTERS = "abcdefghijklmnopqrst"; // the longest side is 20 (20x20)

export function other(side) {
  return side === "X" ? "O" : "X";
}

// Who makes the move at index `ply` (0-based) of a game that `first` started.
export function playerOf(ply, first) {
  return ply % 2 === 0 ? first : other(first);
}

export function emptyBoard(cells) {
  return EMPTY.repeat(cells);
}

// The board after the first `count` moves, played from `start` with `first` to move.
export function boardAfter(start, first, moves, count = moves.length) {
  const cells = [...start];
  moves.slice(0, count).forEach((cell, ply) => {
    cells[cell] = playerOf(ply, first);
  });
  return cells.join("");
}

// The ply to step back to on Undo, or null when there is nothing to take back. Against the computer
// (`human` is "X" or "O") back to the human's last move, so that it is the human's turn again;
// between two humans one ply.
export function undoTarget(ply, first, human) {
  if (human === null) {
    return ply > 0 ? ply - 1 : null;
  }
  for (let back = ply - 1; back >= 0; back -= 1) {
    if (playerOf(back, first) === human) {
      return back;
    }
  }
  return null;
}

// The ply to step forward to on Redo: the human's next turn (or the end), or null at the end.
export function redoTarget(ply, length, first, human) {
  if (ply >= length) {
    return null;
  }
  if (human === null) {
    return ply + 1;
  }
  for (let next = ply + 1; next < length; next += 1) {
    if (playerOf(next, first) === human) {
      return next;
    }
  }
  return length;
}

// Keys 1-9 as on a numeric keypad: 7 8 9 is the top row, 4 5 6 the middle, 1 2 3 the bottom.
// Only a flat 3 by 3 board has keys (a box of 3 by 3 layers would need a layer too).
export function cellOfKey(key, rows, cols, layers = 1) {
  if (rows !== 3 || cols !== 3 || layers !== 1 || key < 1 || key > 9) {
    return null;
  }
  const row = 2 - Math.floor((key - 1) / 3);
  const col = (key - 1) % 3;
  return row * cols + col;
}

export function keyOfCell(cell, rows, cols, layers = 1) {
  if (rows !== 3 || cols !== 3 || layers !== 1) {
    return null;
  }
  const row = Math.floor(cell / cols);
  const col = cell % cols;
  return (2 - row) * 3 + col + 1;
}

// A cell's name: its key on a 3 by 3 board, else its column letter and row number ("a1" top left). On
// a rack (a gravity grid) the rows count from the bottom, as Connect Four's players count them: the
// first disc in the middle column is "d1". On a box the layer's number, from 1, comes first: "2b3" is
// column b, row 3 of the second layer (one word, as the move list and the game's text need; the letter
// keeps the layer's digits apart from the row's). A gravity box's rows lie flat in their layer, so they
// count from the top there too: its marks fall through the layers, and the last layer is the bottom.
// On a go board (13 a side or more, shape.js) rows count from the bottom too, as gomoku players and the
// API count them: "h8" is the centre of 15×15. The second argument is the board's grid (shape.js).
export function cellNameOf(cell, { rows, cols, gravity = false, layers = 1, torus = false }) {
  const key = gravity ? null : keyOfCell(cell, rows, cols, layers);
  if (key !== null) {
    return String(key);
  }
  const { layer, row, col } = placeOf(cell, { rows, cols });
  const fromBottom = isRack({ gravity, layers }) || isGoBoard({ layers, rows, cols, torus, gravity });
  const name = `${COLUMN_LETTERS[col]}${fromBottom ? rows - row : row + 1}`;
  return layers > 1 ? `${layer + 1}${name}` : name;
}

// A board with "/" between its rows, as the API accepts it and as the page writes it in links.
export function withRows(board, cols) {
  const rows = [];
  for (let start = 0; start < board.length; start += cols) {
    rows.push(board.slice(start, start + cols));
  }
  return rows.join("/");
}

// Moves from the empty board that reach `start` with `toMove` next, for POST /review (which replays a
// game from the empty board): each side's marks in turn. The start board is one the service has
// accepted with no line on it, so no order of its marks completes a line on the way.
export function openingOf(start, toMove) {
  const xs = [];
  const os = [];
  [...start].forEach((mark, cell) => (mark === "X" ? xs : mark === "O" ? os : []).push(cell));
  let first = toMove;
  if (xs.length !== os.length) {
    first = xs.length > os.length ? "X" : "O";
  }
  const [mine, theirs] = first === "X" ? [xs, os] : [os, xs];
  const moves = [];
  mine.forEach((cell, index) => {
    moves.push(cell);
    if (index < theirs.length) {
      moves.push(theirs[index]);
    }
  });
  return { first, moves };
}
