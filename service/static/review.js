// The review panel: once a game is over, every move judged against perfect play (POST /review).

import * as api from "./api.js";
import { $, setText } from "./dom.js";
import { cellName, loadPanel, state } from "./state.js";
import { countWords, gameOverWords, valueWords } from "./words.js";

const VERDICTS = ["best", "slower", "mistake", "blunder"];

export async function loadReview(generation) {
  const { variant: variantName, first } = state.settings;
  await loadPanel("review", generation, async () => {
    const data = await api.review({ moves: [...state.moves], variant: variantName, first });
    if (!Array.isArray(data.plies)) {
      throw new Error("the review has no plies");
    }
    return { data };
  });
}

export function renderReview() {
  const section = $("review");
  const review = state.review;
  section.hidden = !review;
  if (!review) {
    return;
  }
  section.dataset.state = review.state;
  const list = $("review-list");
  if (review.state !== "ready") {
    list.replaceChildren();
    setText($("review-summary"), "");
    setText(
      $("review-state"),
      review.state === "loading" ? "Reviewing the game…" : `No review: ${review.message}`,
    );
    return;
  }
  const { data } = review;
  setText($("review-state"), `${gameOverWords(data.status)} Every move, judged against perfect play:`);
  list.replaceChildren(...data.plies.map(reviewRow));
  setText($("review-summary"), summaryWords(data.summary));
}

function reviewRow(ply) {
  const item = document.createElement("li");
  item.dataset.ply = String(ply.ply);
  item.dataset.player = ply.player;
  item.dataset.cell = String(ply.cell);
  item.dataset.verdict = ply.verdict;
  const move = document.createElement("span");
  move.className = "review-move";
  move.textContent = `${ply.player}→${cellName(ply.cell)}`;
  const verdict = document.createElement("span");
  verdict.className = `review-verdict verdict-${ply.verdict}`;
  verdict.textContent = ply.verdict;
  const detail = document.createElement("span");
  detail.className = "review-detail";
  detail.textContent = reviewDetail(ply);
  item.append(move, " ", verdict, " ", detail);
  return item;
}

function reviewDetail(ply) {
  const played = ply.played ? valueWords(ply.played) : "";
  if (ply.verdict === "best" || !ply.before) {
    return played;
  }
  const best = (ply.best_moves || []).map(cellName).join(", ");
  return `${played}; best ${best ? `was ${best}, which ` : ""}${valueWords(ply.before)}`;
}

function summaryWords(summary) {
  if (!summary) {
    return "";
  }
  return ["X", "O"]
    .filter((side) => summary[side])
    .map((side) => `${side}: ${VERDICTS.map((v) => verdictCount(summary[side][v] ?? 0, v)).join(", ")}`)
    .join(" · ");
}

// "2 best", "0 slower", "1 mistake", "3 blunders".
function verdictCount(count, verdict) {
  return ["mistake", "blunder"].includes(verdict) ? countWords(count, verdict) : `${count} ${verdict}`;
}
