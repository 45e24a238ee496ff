// The value chart: after each ply, the value of the position with perfect play from the first player's
// side (up: the first player wins, the middle: a draw, down: the other side wins), nearer the edge the
// nearer the end; mistakes and blunders marked "?" and "??"; a ply the search did not judge (its value
// not proven) a hollow square on the middle line, reached by dashes, never drawn as a draw would be.
// A click on a point shows the board after it.
// Drawn as SVG from script (the stylesheet colours it, in both schemes and in forced colours).

import { $, setText, svg } from "./dom.js";
import { goTo } from "./flow.js";
import { other } from "./game.js";
import { cellName, state, variant } from "./state.js";
import { reviewedPlies } from "./review.js";
import { afterPlyWords, countWords, verdictName } from "./words.js";
import { sentences, t } from "./i18n.js";

const WIDTH = 320;
const HEIGHT = 132;
const PAD = { left: 44, right: 10, top: 14, bottom: 12 };
const BAND = 0.35; // the smallest distance from the middle of a won or lost position
const MARKS = { mistake: "?", blunder: "??" };

// From +1 (the first player has won) to -1 (the other side has won); a draw is 0, and a win `left` plies
// from the end sits nearer the middle the farther it is, never nearer than BAND.
function heightOf(score, left, cells) {
  return score === 0 ? 0 : score * (BAND + (1 - BAND) * (1 - left / cells));
}

const unproven = (value) => value.result === "unknown";

// After a ply, from the first player's side (the API gives it from the side that played). A value the
// search did not prove sits in the middle, drawn apart (see `segments` and `point`).
function height({ player, played }, first, cells) {
  const score = played.score ?? 0;
  return heightOf(score * (player === first ? 1 : -1), (played.remoteness ?? cells) - 1, cells);
}

export function renderChart() {
  const plies = reviewedPlies();
  const figure = $("chart-figure");
  figure.hidden = !plies || plies.length === 0;
  if (figure.hidden) {
    return;
  }
  const { first } = state.game;
  const { cells } = variant();
  const x = (ply) => PAD.left + (ply * (WIDTH - PAD.left - PAD.right)) / Math.max(plies.length, 1);
  const y = (value) => PAD.top + ((1 - value) / 2) * (HEIGHT - PAD.top - PAD.bottom);
  const chart = svg("svg", {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    class: "chart-svg",
    role: "img",
    "aria-label": t("chartLabel", { moves: countWords(plies.length, "nMoves"), first }),
  });
  chart.append(...axes(first, y));
  const start = plies[0].before;
  const points = [[x(0), y(heightOf(start.score ?? 0, start.remoteness ?? cells, cells))]];
  plies.forEach((ply) => points.push([x(ply.ply), y(height(ply, first, cells))]));
  const open = [unproven(start), ...plies.map((ply) => unproven(ply.played))];
  chart.append(...segments(points, open));
  chart.append(
    svg("line", {
      class: "chart-cursor",
      x1: x(state.game.ply),
      x2: x(state.game.ply),
      y1: PAD.top,
      y2: HEIGHT - PAD.bottom,
    }),
  );
  plies.forEach((ply, index) => chart.append(point(ply, points[index + 1])));
  $("chart").replaceChildren(chart);
  const unjudged = plies.some((ply) => ply.verdict === "unknown");
  const caption = [
    t("chartUpDown", { first, second: other(first) }),
    t("chartMarks"),
    unjudged ? t("chartHollow") : "",
  ];
  setText($("chart-caption"), sentences(caption));
}

// The line from point to point, dashed where either end's value is not proven.
function segments(points, open) {
  const parts = [];
  for (let index = 1; index < points.length; index += 1) {
    const dashed = open[index] || open[index - 1];
    const [[x1, y1], [x2, y2]] = [points[index - 1], points[index]];
    parts.push(svg("line", { class: `chart-line${dashed ? " chart-open" : ""}`, x1, y1, x2, y2 }));
  }
  return parts;
}

function axes(first, y) {
  const parts = [];
  for (const [value, text] of [
    [1, t("sideWins", { side: first })],
    [0, t("draw")],
    [-1, t("sideWins", { side: other(first) })],
  ]) {
    parts.push(
      svg("line", {
        class: value === 0 ? "chart-axis chart-draw" : "chart-axis",
        x1: PAD.left,
        x2: WIDTH - PAD.right,
        y1: y(value),
        y2: y(value),
      }),
    );
    const label = svg("text", {
      class: "chart-label",
      x: PAD.left - 4,
      y: y(value) + 4,
      "text-anchor": "end",
    });
    label.textContent = text;
    parts.push(label);
  }
  return parts;
}

function point(ply, [cx, cy]) {
  const group = svg("g", {
    class: `chart-point verdict-${ply.verdict}`,
    "data-ply": ply.ply,
    "data-verdict": ply.verdict,
  });
  const title = svg("title");
  const move = t("chartMove", { n: ply.ply, player: ply.player, cell: cellName(ply.cell) });
  title.textContent = t("chartPoint", { move, verdict: verdictName(ply), after: afterPlyWords(ply) });
  const marked = MARKS[ply.verdict];
  if (ply.verdict === "unknown") {
    group.append(title, svg("rect", { x: cx - 4.5, y: cy - 4.5, width: 9, height: 9 }));
  } else {
    group.append(title, svg("circle", { cx, cy, r: marked ? 5.5 : 4 }));
  }
  if (marked) {
    const mark = svg("text", { class: "chart-mark", x: cx, y: cy - 8, "text-anchor": "middle" });
    mark.textContent = marked;
    group.append(mark);
  }
  if (ply.ply === state.game.ply) {
    group.classList.add("current");
  }
  group.addEventListener("click", () => goTo(ply.ply));
  return group;
}
