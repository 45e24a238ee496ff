// The review of the game (POST /review): every ply judged against perfect play, shown in the move list,
// the chart and this panel once the game is over, or all along while the values are shown.
// POST /review replays a game from the empty board, so a game set up in the editor is sent as an opening
// that reaches its start (each side's marks in turn) followed by its moves; only its own plies are kept.

import * as api from "./api.js";
import { $, isNarrow, make, prefersReducedMotion, setText } from "./dom.js";
import { openingOf } from "./game.js";
import { gameFinished, loadPanel, state, variant } from "./state.js";
import { VERDICT_KINDS, countWords, gameOverWords, summaryWords } from "./words.js";
import { language, sentences, t } from "./i18n.js";

function reviewKey() {
  const { variant: name, first, start, moves } = state.game;
  return JSON.stringify([name, first, start, moves]);
}

export function currentReview() {
  return state.review && state.review.key === reviewKey() ? state.review : null;
}

// Asks for the review of the moves as they stand, unless it is there already (or `again` after a failure).
export async function loadReview({ again = false } = {}) {
  const { variant: name, first, start, moves } = state.game;
  const key = reviewKey();
  if (moves.length === 0 || (currentReview() && !again)) {
    return;
  }
  const opening = start ? openingOf(start, first) : { first, moves: [] };
  await loadPanel(
    "review",
    () => state.review?.key === key,
    async () => {
      const data = await api.review({
        moves: [...opening.moves, ...moves],
        variant: name,
        first: opening.first,
      });
      if (!Array.isArray(data.plies)) {
        throw new Error(t("reviewNoPlies"));
      }
      const plies = data.plies.slice(opening.moves.length).map((ply, index) => ({ ...ply, ply: index + 1 }));
      return { status: data.status, plies };
    },
    { key },
  );
}

// A searched board's review searches every position of the game again (16 reviews of a 7x7 game paced
// like a person took 15 s of the server's time, more than every analysis and computer move together,
// and played fast they ran the worker out of search slots): it is asked for at the game's end, or when
// the player asks. A table's review is lookups and follows every move.
export function reviewDue() {
  return !searchedBoard() || gameFinished();
}

function searchedBoard() {
  return variant().cells > state.limits.max_table_cells;
}

// The review a searched game in progress would show, not asked for yet: the panel offers it.
function reviewWaits() {
  return (
    state.editor === null &&
    state.settings.overlay === "values" &&
    state.game.moves.length > 0 &&
    !reviewDue() &&
    !currentReview()
  );
}

// The review is shown with the values, or once the game is over whatever the overlay.
export function reviewShown() {
  const review = currentReview();
  if (!review || state.editor !== null) {
    return null;
  }
  const over = gameFinished() || (review.state === "ready" && review.status !== "in_progress");
  return state.settings.overlay === "values" || over ? review : null;
}

// The plies with their verdicts, when the review is ready and shown.
export function reviewedPlies() {
  const review = reviewShown();
  return review && review.state === "ready" ? review.plies : null;
}

let scrolledFor = null; // the review already brought into view (once per game)

export function renderReview() {
  const review = reviewShown();
  const section = $("review");
  const waits = !review && reviewWaits();
  section.hidden = !review && !waits;
  $("review-now").hidden = !waits;
  if (waits) {
    section.dataset.state = "waiting";
    $("review-retry").hidden = true;
    setText($("review-state"), t("reviewedAtEnd"));
    setText($("review-summary"), "");
    return;
  }
  if (!review) {
    return;
  }
  section.dataset.state = review.state;
  $("review-retry").hidden = review.state !== "error";
  const ready = review.state === "ready";
  if (review.state === "loading") {
    setText($("review-state"), t("reviewing"));
  } else if (review.state === "error") {
    setText($("review-state"), t("noReview", { why: review.message }));
  } else {
    const outcome =
      review.status === "in_progress" ? t("gameSoFar") : gameOverWords(review.status, variant());
    const unjudged = review.plies.filter((ply) => ply.verdict === "unknown").length;
    const judged = unjudged
      ? t("judgedWhereProven", { moves: countWords(unjudged, "nMoves") })
      : t("everyMoveJudged");
    setText($("review-state"), sentences([outcome, judged]));
  }
  setText($("review-summary"), ready ? summaryWords(review.plies) : "");
  renderLegend(review);
  if (ready && review.status !== "in_progress" && scrolledFor !== review.key && state.live && isNarrow()) {
    scrolledFor = review.key;
    section.scrollIntoView({ block: "start", behavior: prefersReducedMotion() ? "auto" : "smooth" });
  }
}

// The legend names "not judged" only for a game with such plies (a searched one).
function renderLegend(review) {
  const legend = $("verdict-legend");
  const unjudged = review.state === "ready" && review.plies.some((ply) => ply.verdict === "unknown");
  const key = `${unjudged} ${language()}`;
  if (legend.dataset.key === key) {
    return;
  }
  legend.dataset.key = key;
  const kinds = VERDICT_KINDS.filter((kind) => unjudged || kind !== "not-judged");
  legend.replaceChildren(
    ...kinds.flatMap((kind) => [
      make(
        "dt",
        {},
        make("span", { className: `review-verdict verdict-${kind}`, text: t(`verdict-${kind}`) }),
      ),
      make("dd", { text: t(`legend-${kind}`) }),
    ]),
  );
}
