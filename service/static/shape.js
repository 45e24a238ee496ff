// A board's shape as the service gives it (`shape` in GET /variants): the length of each side, the
// slowest first, whether lines wrap, and the side marks fall along. The page draws grids of two sides:
// rows are the first side and columns the second, and a gravity grid's marks fall down its rows. The
// API's `rows` and `cols` say the same, but only for API v1: the page reads the shape. No DOM, no HTTP.

// Whether the page can draw the board: a shape of another kind would be drawn wrong, so it is refused.
export function drawable({ shape }) {
  return shape.sides.length === 2 && (shape.gravity_axis === null || shape.gravity_axis === 0);
}

// The grid the page draws: { rows, cols, torus, gravity }, from the variant's shape.
export function gridOf({ shape }) {
  const [rows, cols] = shape.sides;
  return { rows, cols, torus: shape.torus, gravity: shape.gravity_axis === 0 };
}
