// A game from a link or an imported text, checked with the service before it is opened, so that a
// hand-edited one that can never be played says what is wrong and opens the nearest game that can
// (rather than offering a Try again that cannot succeed): a move the rules refuse (a disc in mid-air
// on a gravity board) is cut with all that follows it, moves after the end of the game are left out,
// and an impossible start board gives way to the empty board. Whether a position is possible, or a
// game over, is the service's to say (every rule is), so every position of the record goes to
// POST /analyze/batch at once.

import * as api from "./api.js";
import { boardAfter, cellNameOf, emptyBoard, playerOf } from "./game.js";
import { allPaths, knownPart, nodeAt, pathKey, pruned, recordOf } from "./record.js";
import { gridOf } from "./shape.js";
import { foreign, later, t } from "./i18n.js";

const MOST = 1000; // positions per batch; a record beyond that is checked as far as this goes

// { game, notes }: the game that can be opened and, in words, what was changed and why. `source`
// names where the game came from ("link" or "text"). When the service cannot be asked, the game is
// kept as it is: opening it will then show the service's trouble, with a Try again that can help.
export async function checkedWithService(game, variant, source) {
  const start = game.start || emptyBoard(variant.cells);
  const paths = allPaths(game.record).slice(0, MOST);
  if (paths.length === 1 && !game.start) {
    return { game, notes: [] };
  }
  let results;
  try {
    const positions = paths.map((path) => ({
      board: boardAfter(start, game.first, path),
      to_move: playerOf(path.length, game.first),
      variant: variant.name,
      budget_ms: 1, // only the status is wanted, which the rules give at once; no search for the value
    }));
    ({ results } = await api.analyzeBatch(positions));
  } catch {
    return { game, notes: [] };
  }
  if (results[0] && results[0].status === 422) {
    const empty = { ...game, start: null, record: recordOf([]), moves: [], ply: 0 };
    const why = later(`${source}StartImpossible`, { why: foreign(results[0].detail || results[0].title) });
    return { game: empty, notes: [why, later("emptyInstead")] };
  }
  const finished = (index) => {
    const status = results[index] && results[index].status;
    return typeof status === "string" && status !== "in_progress";
  };
  const overs = paths.filter(
    (path, index) => finished(index) && nodeAt(game.record, path).children.length > 0,
  );
  const over = new Set(overs.map(pathKey));
  const afterTheEnd = (path) => path.some((cell, index) => over.has(pathKey(path.slice(0, index))));
  const impossible = paths.filter(
    (path, index) => results[index] && results[index].status === 422 && !afterTheEnd(path),
  );
  if (overs.length === 0 && impossible.length === 0) {
    return { game, notes: [] };
  }
  const cut = new Set(impossible.map(pathKey));
  const keep = (path, cell) => !over.has(pathKey(path)) && !cut.has(pathKey([...path, cell]));
  const record = pruned(game.record, keep);
  const moves = knownPart(record, game.moves);
  const notes = [];
  if (impossible.length > 0) {
    const first = impossible.reduce((a, b) => (b.length < a.length ? b : a));
    const problem = results[paths.indexOf(first)];
    // The service's sentence names cells by index and rows from the top; the page's names differ.
    const floating = problem.code === "floating_mark";
    const detail = floating ? t("floatingDisc") : foreign(problem.detail || problem.title);
    const name = cellNameOf(first[first.length - 1], gridOf(variant));
    notes.push(later(`${source}MoveCut`, { n: first.length, cell: name, why: detail }));
  }
  if (overs.length > 0) {
    const after = Math.min(...overs.map((path) => path.length));
    notes.push(later(after === 0 ? `${source}MovesAfterStart` : `${source}MovesAfterEnd`, { n: after }));
  }
  return { game: { ...game, record, moves, ply: Math.min(game.ply, moves.length) }, notes };
}
