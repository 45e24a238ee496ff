// A board's shape as the service gives it (`shape` in GET /variants): the length of each side, the
// slowest first, whether lines wrap, and the side marks fall along. The page draws grids of two sides
// (rows are the first side and columns the second, and a gravity grid's marks fall down its rows) and
// boxes of three: layers of such grids, drawn side by side, the cells numbered layer by layer (a gravity
// box's marks fall through its layers, the last one the bottom). The API's `rows` and `cols` say the
// same, but only for API v1: the page reads the shape. No DOM, no HTTP.

// Whether the page can draw the board: a shape of another kind would be drawn wrong, so it is refused.
// Marks fall along the first side or not at all; a box is drawn only without wrapping lines (the service
// offers none on one).
export function drawable({ shape }) {
  const { sides, torus, gravity_axis: gravityAxis } = shape;
  const falls = gravityAxis === null || gravityAxis === 0;
  return falls && (sides.length === 2 || (sides.length === 3 && !torus));
}

// The grid the page draws: { layers, rows, cols, torus, gravity }, from the variant's shape; `rows` and
// `cols` are one layer's, and a flat board is one layer.
export function gridOf({ shape }) {
  const sides = shape.sides.length === 3 ? shape.sides : [1, ...shape.sides];
  const [layers, rows, cols] = sides;
  return { layers, rows, cols, torus: shape.torus, gravity: shape.gravity_axis === 0 };
}

// Whether the board is drawn as a rack of discs (rack.css, rack.js): a gravity grid, whose columns stand
// upright on the screen. A gravity box's marks fall through its layers, which are drawn side by side as
// any box's: it is drawn as a box, its last layer marked as the bottom.
export function isRack({ gravity, layers }) {
  return gravity && layers === 1;
}

// A flat board of 13 cells a side or more, without gravity or wrapping lines, is drawn as a go board:
// stones on the intersections, star points, coordinates along the bottom and up the side. Its rows
// count from the bottom, as gomoku players and the API name cells ("h8" is the centre of 15×15).
export function isGoBoard({ layers = 1, rows, cols, torus = false, gravity = false }) {
  return layers === 1 && !torus && !gravity && rows >= 13 && cols >= 13;
}

// Where a cell is: { layer, row, col }, each from 0 (the layer is 0 on a flat board).
export function placeOf(cell, { rows, cols }) {
  const perLayer = rows * cols;
  const inLayer = cell % perLayer;
  return { layer: Math.floor(cell / perLayer), row: Math.floor(inLayer / cols), col: inLayer % cols };
}

// The cell at a place, as the service numbers it: layer by layer, each layer row by row.
export function cellAt({ layer = 0, row, col }, { rows, cols }) {
  return (layer * rows + row) * cols + col;
}

// The sides in words, the slowest first: "3×3×3", "15×15".
export function sidesWords({ shape }) {
  return shape.sides.join("×");
}

// How crowded the drawing is: past five cells across (a box's layers side by side count together) a
// cell takes short words; past nine across or down, smaller cells (big-boards.css). The tiniest words
// go on big boards and on every box, whose cells shrink to fit its layers side by side on a phone.
export function crowding({ layers, rows, cols }) {
  const across = layers * cols;
  const big = across > 9 || rows > 9;
  return { compact: across > 5, big, tiny: big || layers > 1 };
}
