// The game as a list of moves: boards, turns, undo and the keypad layout. No DOM, no HTTP.

export const EMPTY = ".";

export function other(side) {
  return side === "X" ? "O" : "X";
}

// Who makes the move at index `ply` (0-based) of a game that `first` started.
export function playerOf(ply, first) {
  return ply % 2 === 0 ? first : other(first);
}

export function sideToMove(moves, first) {
  return playerOf(moves.length, first);
}

export function boardOf(moves, first, size) {
  const cells = Array(size).fill(EMPTY);
  moves.forEach((cell, ply) => {
    cells[cell] = playerOf(ply, first);
  });
  return cells.join("");
}

// How many moves to keep on Undo, or null when there is nothing to take back.
// Against the computer (`human` is "X" or "O") the human's last move goes, with every reply after
// it, so that it is the human's turn again; between two humans the last move goes.
export function undoLength(moves, first, human) {
  if (human === null) {
    return moves.length > 0 ? moves.length - 1 : null;
  }
  for (let ply = moves.length - 1; ply >= 0; ply -= 1) {
    if (playerOf(ply, first) === human) {
      return ply;
    }
  }
  return null;
}

// Keys 1-9 as on a numeric keypad: 7 8 9 is the top row, 4 5 6 the middle, 1 2 3 the bottom.
// Only a 3 by 3 board has keys.
export function cellOfKey(key, rows, cols) {
  if (rows !== 3 || cols !== 3 || key < 1 || key > 9) {
    return null;
  }
  const row = 2 - Math.floor((key - 1) / 3);
  const col = (key - 1) % 3;
  return row * cols + col;
}

export function keyOfCell(cell, rows, cols) {
  if (rows !== 3 || cols !== 3) {
    return null;
  }
  const row = Math.floor(cell / cols);
  const col = cell % cols;
  return (2 - row) * 3 + col + 1;
}

const DIRECTIONS = [
  [0, 1],
  [1, 0],
  [1, 1],
  [1, -1],
];

// The k cells from (row, col) in direction (dr, dc), or null where the board ends first.
function lineFrom(row, col, [dr, dc], k, rows, cols) {
  const cells = [];
  for (let step = 0; step < k; step += 1) {
    const r = row + dr * step;
    const c = col + dc * step;
    if (r < 0 || r >= rows || c < 0 || c >= cols) {
      return null;
    }
    cells.push(r * cols + c);
  }
  return cells;
}

// The cells of every line of k equal marks: what ended the game, under either rule.
export function lineCells(board, { rows, cols, k }) {
  const found = new Set();
  for (let row = 0; row < rows; row += 1) {
    for (let col = 0; col < cols; col += 1) {
      for (const direction of DIRECTIONS) {
        const cells = lineFrom(row, col, direction, k, rows, cols);
        const mark = cells && board[cells[0]];
        if (mark && mark !== EMPTY && cells.every((cell) => board[cell] === mark)) {
          cells.forEach((cell) => found.add(cell));
        }
      }
    }
  }
  return found;
}
