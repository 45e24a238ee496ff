// Five in a row as its players see it, from the stones alone: which boards are drawn as a go board
// (goban.css), their star points, the last move and the move numbers, and the threats each side has
// (the cells where it would complete a line of k, or make an open four). No DOM, no HTTP: the rules,
// values and renju's forbidden points are the service's; the threats are only read off the stones, to
// be seen, and the page never plays or judges by them.

import { EMPTY } from "./game.js";

export { isGoBoard } from "./shape.js";

// Where one side's star points are: three lines in from each edge (two on a side under 13), the centre
// of a side of odd length, and on 19 or more the middle of the edges too.
function starLines(n) {
  const edge = n >= 13 ? 3 : 2;
  return { near: edge, far: n - 1 - edge, middle: n % 2 === 1 ? (n - 1) / 2 : null };
}

// The star points' cells: the four near the corners, the centre, and on a board of 19 or more each
// side's middle (15×15: d4, l4, d12, l12 and h8).
export function starPoints({ rows, cols }) {
  const r = starLines(rows);
  const c = starLines(cols);
  const points = [];
  const add = (row, col) => row !== null && col !== null && points.push(row * cols + col);
  for (const row of [r.near, r.far]) {
    for (const col of [c.near, c.far]) {
      add(row, col);
    }
  }
  add(r.middle, c.middle);
  if (rows >= 19 && cols >= 19) {
    add(r.middle, c.near);
    add(r.middle, c.far);
    add(r.near, c.middle);
    add(r.far, c.middle);
  }
  return points;
}

// The cell played last on the board shown, or null at the start.
export function lastMove({ moves, ply }) {
  return ply > 0 ? moves[ply - 1] : null;
}

// Each stone played in the line shown up to the cursor, with its move number from 1.
export function moveNumbers({ moves, ply }) {
  return new Map(moves.slice(0, ply).map((cell, index) => [cell, index + 1]));
}

const DIRECTIONS = [
  [0, 1],
  [1, 0],
  [1, 1],
  [1, -1],
];

// Whether a run of `run` of one side's stones is a line under the board's rule: exactly k under the
// standard rule and for black (the first player) under renju, else k or more.
function completes(run, side, { k, exact, renju, black }) {
  return exact || (renju && side === black) ? run === k : run >= k;
}

// Threats read off the stones: for each empty cell, what a stone of each side there would make, "five"
// (a line of k) or "four" (an open four: k − 1 in a row with both ends empty, which no single stone
// stops). { cell -> { X?: "five" | "four", O?: ... } }, only the cells with a threat.
export function threatsOf(marks, { rows, cols }, rule) {
  const at = (row, col) => (row >= 0 && row < rows && col >= 0 && col < cols ? marks[row * cols + col] : null);
  const threats = new Map();
  for (let cell = 0; cell < rows * cols; cell += 1) {
    if (marks[cell] !== EMPTY) {
      continue;
    }
    const row = Math.floor(cell / cols);
    const col = cell % cols;
    const found = {};
    for (const side of ["X", "O"]) {
      for (const [dr, dc] of DIRECTIONS) {
        let ahead = 1;
        while (at(row + ahead * dr, col + ahead * dc) === side) {
          ahead += 1;
        }
        let behind = 1;
        while (at(row - behind * dr, col - behind * dc) === side) {
          behind += 1;
        }
        const run = ahead + behind - 1;
        if (completes(run, side, rule)) {
          found[side] = "five";
          break;
        }
        const open =
          at(row + ahead * dr, col + ahead * dc) === EMPTY && at(row - behind * dr, col - behind * dc) === EMPTY;
        if (run === rule.k - 1 && open) {
          found[side] = "four";
        }
      }
    }
    if (found.X || found.O) {
      threats.set(cell, found);
    }
  }
  return threats;
}
