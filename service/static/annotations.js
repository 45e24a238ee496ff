// The move list's annotations, as chess players write them: "??" a move that changes the result for the
// worse (throws away a win or a draw), "?" one that keeps the result but wins SLOW_PLIES or more plies
// slower, or loses that much sooner, than the best move, and "!" the only move that keeps the result
// where every other move is proven to lose it. They are read from the analyses the page already holds
// (flow.js keeps each position's), so every move of every line gets one, variations too; the main line
// falls back on the review. A game's text carries them (notation.js), and an imported text's come back
// with it. A "??" has a why: the line the opponent then plays, the service's main line of the position
// after it, asked for only when the player opens it.

import * as api from "./api.js";
import { serviceWords } from "./api.js";
import { $, make, setData, setText } from "./dom.js";
import { boardAfter, other, playerOf } from "./game.js";
import { heldAnalysis } from "./flow.js";
import { cursorPath } from "./lines.js";
import { pathKey } from "./record.js";
import { reviewedPlies } from "./review.js";
import { cellName, startBoard, state } from "./state.js";
import { t } from "./i18n.js";

// "?" needs the move to keep the result but be at least this many plies slower to win (or sooner to
// lose) than the best: two of one's own moves. A single ply more is a matter of taste on small boards.
export const SLOW_PLIES = 4;
export const GLYPHS = ["??", "?", "!"];
const RANK = { loss: 0, draw: 1, win: 2 };

const imported = new Map(); // "variant|first|start|path" -> the glyph an imported text gave the move

function gameKey({ variant, first, start }, path) {
  return `${variant}|${first}|${start || ""}|${pathKey(path)}`;
}

// An imported text's glyphs ({ pathKey -> glyph }) for the game it opens.
export function keepImportedGlyphs(game, glyphs) {
  for (const [key, glyph] of glyphs) {
    imported.set(gameKey(game, key === "" ? [] : key.split(",").map(Number)), glyph);
  }
}

// The glyph of `played` (a move's value for its mover) among the moves of `before` (the analysis of the
// position it was played in), or "" when nothing proven says one.
export function glyphFromAnalysis(before, cell) {
  const moves = Array.isArray(before?.moves) ? before.moves : [];
  const played = moves.find((move) => move.cell === cell);
  if (!played || !(before.result in RANK) || !(played.result in RANK)) {
    return "";
  }
  if (RANK[played.result] < RANK[before.result]) {
    return "??";
  }
  const others = moves.filter((move) => move.cell !== cell);
  const alone =
    before.result !== "loss" &&
    others.length > 0 &&
    others.every((move) => move.result in RANK && RANK[move.result] < RANK[before.result]);
  if (alone) {
    return "!";
  }
  const [now, best] = [played.remoteness, before.remoteness];
  if (Number.isInteger(now) && Number.isInteger(best)) {
    const slower = before.result === "win" ? now - best : before.result === "loss" ? best - now : 0;
    if (slower >= SLOW_PLIES) {
      return "?";
    }
  }
  return "";
}

// The same from a ply of the review (POST /review), which has no other move's value: no "!".
function glyphFromReview(ply) {
  if (ply.verdict === "mistake" || ply.verdict === "blunder") {
    return "??";
  }
  if (ply.verdict === "slower") {
    const [now, best] = [ply.played.remoteness, ply.before.remoteness];
    const slower = ply.played.result === "loss" ? best - now : now - best;
    return Number.isInteger(slower) && slower >= SLOW_PLIES ? "?" : "";
  }
  return "";
}

// The glyph of the last move of `path` in the game on show: from the analyses held, else the review
// (main line), else an imported text's.
export function glyphOf(path) {
  const { variant, first } = state.game;
  const before = path.slice(0, -1);
  const position = boardAfter(startBoard(), first, before);
  const analysis = heldAnalysis(variant, position, playerOf(before.length, first));
  if (analysis) {
    return glyphFromAnalysis(analysis, path[path.length - 1]);
  }
  const plies = reviewedPlies();
  const onLine = path.every((cell, index) => state.game.moves[index] === cell);
  const ply = onLine && plies ? plies[path.length - 1] : null;
  const text = imported.get(gameKey(state.game, path)) || "";
  if (ply && ply.cell === path[path.length - 1]) {
    // The review cannot see an only move; a text's "!" on a move it calls best stands.
    return glyphFromReview(ply) || (text === "!" && ply.verdict === "best" ? "!" : "");
  }
  return text;
}

const GLYPH_WORD = { "??": "glyphBlunder", "?": "glyphDubious", "!": "glyphOnly" };

// After each move's button in the list, its glyph, with its word for screen readers.
export function renderAnnotations() {
  for (const button of $("move-list").querySelectorAll(".ply-button")) {
    let mark = button.nextElementSibling;
    if (!mark || !mark.classList.contains("move-glyph")) {
      mark = make("span", { className: "move-glyph" });
      button.after(mark);
    }
    const path = button.dataset.path === "" ? [] : button.dataset.path.split(",").map(Number);
    const glyph = glyphOf(path);
    setData(mark, "glyph", glyph || undefined);
    const key = `${glyph}|${glyph ? t(GLYPH_WORD[glyph]) : ""}`;
    if (mark.dataset.key !== key) {
      mark.dataset.key = key;
      mark.replaceChildren(
        ...(glyph
          ? [
              make("span", { text: glyph, attrs: { "aria-hidden": "true" } }),
              make("span", { className: "visually-hidden", text: ` (${t(GLYPH_WORD[glyph])})` }),
            ]
          : []),
      );
    }
  }
  renderWhy();
}

let why = null; // { key, state, words } for the "??" at the cursor, once asked

function renderWhy() {
  const path = cursorPath();
  const box = $("why");
  const blunder = path.length > 0 && glyphOf(path) === "??";
  box.hidden = !blunder;
  if (!blunder) {
    return;
  }
  const key = `${state.game.variant}|${state.game.first}|${state.game.start || ""}|${pathKey(path)}`;
  setText($("why-button"), t("whyButton", { move: cellName(path[path.length - 1]) }));
  const mine = why && why.key === key ? why : null;
  $("why-button").setAttribute("aria-expanded", String(mine !== null));
  setText($("why-line"), mine ? mine.words() : "");
}

// The main line after the mistake, where the service proves it: what the opponent then completes.
async function explain() {
  const path = cursorPath();
  const { variant, first } = state.game;
  const key = `${variant}|${first}|${state.game.start || ""}|${pathKey(path)}`;
  if (why && why.key === key) {
    why = null;
    renderWhy();
    return;
  }
  why = { key, words: () => t("whyLoading") };
  renderWhy();
  const mover = playerOf(path.length - 1, first);
  let words;
  try {
    const answer = await api.analyze({
      board: boardAfter(startBoard(), first, path),
      toMove: other(mover),
      variant,
      mainline: true,
    });
    const cells = answer.mainline?.cells || [];
    const line = cells.map((cell) => cellName(cell)).join(" ");
    if (answer.result === "unknown" || cells.length === 0) {
      words = () => t("whyNotProven");
    } else if (answer.result === "draw") {
      words = () => t("whyDraw", { mover, line });
    } else {
      const winner = answer.result === "win" ? other(mover) : mover;
      words = () => t("whyWin", { winner, n: answer.remoteness, line });
    }
  } catch (error) {
    words = () => t("whyFailed", { why: serviceWords(error) });
  }
  if (why && why.key === key) {
    why = { key, words };
    renderWhy();
  }
}

export function bindAnnotations() {
  $("why-button").addEventListener("click", explain);
}
