// Puzzles from the solved tables: "X to move and win in 5". A puzzle is found by random play on a board
// with a table (the one shown, else 3x3), each position asked of GET /analyze, until a position in play
// is a win for the side to move in at least MIN_PLIES plies with one best move only. The player then
// plays the winning moves on a small board of its own; each move is judged by the table (right: it keeps
// the win as fast; wrong: anything else, said with its value), and the opponent's best reply follows.

import * as api from "./api.js";
import { serviceWords } from "./api.js";
import { $, make, setText } from "./dom.js";
import { cellNameOf, emptyBoard, other } from "./game.js";
import { gridOf } from "./shape.js";
import { state, variant } from "./state.js";
import { ensureVariant } from "./variants.js";
import { valueWords } from "./words.js";
import { language, t } from "./i18n.js";

const MIN_PLIES = 3; // a win in 1 is no puzzle
// Random games tried before giving up. On 3x3 about two walks in three find no puzzle, so 12 gave up
// on one ask in a hundred; 40 give up on one in millions, and a typical ask still takes three.
const WALKS = 40;
const FALLBACK = "normal";

let puzzle = null; // { facts, start, toMove, n, board, side, analysis, result, done }

const pick = (items) => items[Math.floor(Math.random() * items.length)];

function tableBoard() {
  const facts = variant();
  const grid = facts && gridOf(facts);
  const fits = facts && facts.cells <= state.limits.max_table_cells && grid.layers === 1;
  return fits ? facts.name : FALLBACK;
}

// A position where the side to move wins in n >= MIN_PLIES with a single best move, or null.
async function findPuzzle(facts) {
  for (let walk = 0; walk < WALKS; walk += 1) {
    let [board, side] = [emptyBoard(facts.cells), "X"];
    const stop = 1 + Math.floor(Math.random() * Math.max(1, facts.cells - 4));
    for (let ply = 0; ply <= stop + 3; ply += 1) {
      const analysis = await api.analyze({ board, toMove: side, variant: facts.name });
      if (analysis.status !== "in_progress") {
        break;
      }
      const unique = analysis.result === "win" && analysis.best_moves.length === 1;
      if (ply >= stop && unique && analysis.remoteness >= MIN_PLIES) {
        return { board, toMove: side, n: analysis.remoteness, analysis };
      }
      const move = pick(analysis.moves);
      [board, side] = [move.board, other(side)];
    }
  }
  return null;
}

async function newPuzzle() {
  puzzle = null;
  setText($("puzzle-task"), "");
  setText($("puzzle-result"), t("puzzleLooking"));
  $("puzzle-board").hidden = true;
  $("puzzle-again").hidden = true;
  try {
    const facts = await ensureVariant(tableBoard());
    const found = await findPuzzle(facts);
    if (!found) {
      setText($("puzzle-result"), t("puzzleNone"));
      return;
    }
    puzzle = { facts, start: found, result: "", done: false };
    restart();
  } catch (error) {
    setText($("puzzle-result"), t("puzzleFailed", { why: serviceWords(error) }));
  }
}

function restart() {
  Object.assign(puzzle, {
    board: puzzle.start.board,
    side: puzzle.start.toMove,
    analysis: puzzle.start.analysis,
    result: "",
    done: false,
    round: (puzzle.round || 0) + 1, // a reply still on its way belongs to an older round
  });
  $("puzzle-again").hidden = true;
  renderPuzzle();
}

async function play(cell) {
  if (!puzzle || puzzle.done || puzzle.asking) {
    return; // one move at a time: the reply to the last one is on its way
  }
  const { analysis, facts } = puzzle;
  const move = analysis.moves.find((one) => one.cell === cell);
  if (!move) {
    return;
  }
  const grid = gridOf(facts);
  const name = cellNameOf(cell, grid);
  const right = move.result === "win" && move.remoteness === analysis.remoteness;
  if (!right) {
    puzzle.result = () => t("puzzleWrong", { cell: name, value: valueWords(move) });
    puzzle.done = true;
    $("puzzle-again").hidden = false;
    renderPuzzle("wrong");
    return;
  }
  puzzle.board = move.board;
  if (move.remoteness === 1) {
    puzzle.done = true;
    puzzle.result = () => t("puzzleSolved", { side: puzzle.start.toMove });
    renderPuzzle("solved");
    return;
  }
  const [asked, round] = [puzzle, puzzle.round];
  const current = () => puzzle === asked && puzzle.round === round;
  puzzle.asking = true;
  try {
    const reply = await api.analyze({ board: move.board, toMove: other(puzzle.side), variant: facts.name });
    const answer = reply.moves.find((one) => one.cell === reply.best_move);
    const next = await api.analyze({ board: answer.board, toMove: puzzle.side, variant: facts.name });
    if (!current()) {
      return; // a new puzzle, or the same one restarted, came meanwhile
    }
    Object.assign(puzzle, { board: answer.board, analysis: next });
    const replyName = cellNameOf(answer.cell, grid);
    puzzle.result = () => t("puzzleReply", { cell: name, side: other(puzzle.side), reply: replyName });
    renderPuzzle("right");
  } catch (error) {
    if (current()) {
      puzzle.result = () => t("puzzleFailed", { why: serviceWords(error) });
      renderPuzzle();
    }
  } finally {
    asked.asking = false;
  }
}

function renderPuzzle(outcome) {
  const box = $("puzzle-board");
  $("puzzles").dataset.outcome = outcome || "playing";
  if (!puzzle) {
    return;
  }
  const { facts, board, analysis } = puzzle;
  const grid = gridOf(facts);
  const task = t("puzzleTask", { side: puzzle.start.toMove, n: puzzle.start.n, name: facts.name });
  const elsewhere = facts.name !== state.game.variant ? t("puzzleOtherBoard", { name: facts.name }) : "";
  setText($("puzzle-task"), [task, elsewhere].filter(Boolean).join(t("sentenceGap")));
  box.dataset.board = board;
  box.dataset.toMove = puzzle.side;
  box.dataset.variant = facts.name;
  box.style.setProperty("--puzzle-cols", String(grid.cols));
  setText($("puzzle-result"), typeof puzzle.result === "function" ? puzzle.result() : puzzle.result);
  const key = [facts.name, board, puzzle.done, language()].join("|");
  if (box.dataset.key === key) {
    return; // the buttons stay, and the focus with them
  }
  box.dataset.key = key;
  const open = new Set(puzzle.done ? [] : analysis.moves.map((move) => move.cell));
  const cells = [...board].map((mark, cell) => {
    const name = cellNameOf(cell, grid);
    const shown = mark === "." ? "" : mark;
    const button = make("button", {
      className: "puzzle-cell",
      text: shown,
      attrs: {
        type: "button",
        "aria-label": t("puzzleCell", { cell: name, mark: shown || t("empty") }),
      },
      data: { cell: String(cell), mark },
    });
    button.disabled = !open.has(cell);
    button.addEventListener("click", () => play(cell));
    return button;
  });
  box.replaceChildren(...cells);
  box.hidden = false;
}

// A switch of language redraws the puzzle's words.
export function renderPuzzles() {
  if (puzzle) {
    renderPuzzle($("puzzles").dataset.outcome);
  }
}

export function bindPuzzles() {
  $("puzzle-new").addEventListener("click", newPuzzle);
  $("puzzle-again").addEventListener("click", () => puzzle && restart());
}
